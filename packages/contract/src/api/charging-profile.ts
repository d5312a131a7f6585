import { z } from 'zod';
import { crud, endpoint, optText } from '../endpoint.js';
import { actionStatuses, chargingRateUnits } from './point-action.js';

/**
 * Charging profiles of the central system (spec §3, issue 15 item 1; OCPP 1.6 §3.13, §7.8): a
 * profile belongs to a station, names the points of that station and the connectors it is for,
 * and is sent to each (point, connector) as SetChargingProfile with its id as chargingProfileId.
 */
export const profilePurposes = ['ChargePointMaxProfile', 'TxDefaultProfile', 'TxProfile'] as const;
export type ProfilePurpose = (typeof profilePurposes)[number];
export const profileKinds = ['Absolute', 'Recurring', 'Relative'] as const;
export const recurrencyKinds = ['Daily', 'Weekly'] as const;

/**
 * Where one target (point × connector) stands: never sent, the charger's answer in the action
 * vocabulary, `noTransaction` (a TxProfile for a connector with no session running) or `cleared`
 * (a ClearChargingProfile the charger accepted removed it).
 */
export const profileTargetStatuses = ['notSent', ...actionStatuses, 'noTransaction', 'cleared'] as const;
export type ProfileTargetStatus = (typeof profileTargetStatuses)[number];

/**
 * Stack levels an operator may use: 0–7. The load balancer (issue 15 item 2) keeps 8, above them,
 * within what chargers commonly allow (ChargeProfileMaxStackLevel is often 8 to 10).
 */
export const MAX_OPERATOR_STACK_LEVEL = 7;
/** Mains voltage per phase the server assumes when it turns amperes into watts (spec §9: W, A, kW). */
export const VOLTS_PER_PHASE = 230;
/** OCPP's default when a period names no number of phases. */
export const DEFAULT_PHASES = 3;
const MAX_PERIODS = 48;
const serialNumber = z.string().trim().min(1).max(48);
const instant = z.iso.datetime({ offset: true });

export const profilePeriod = z.object({
  /** Seconds from the schedule's start. */
  startPeriod: z
    .number()
    .int()
    .min(0)
    .max(31 * 86_400),
  /** In the profile's unit (A per phase or W); within the point's rating (checked per point by the server). */
  limit: z.number().positive().max(5_000_000),
  numberPhases: z.number().int().min(1).max(3).nullable().optional(),
});
export type ProfilePeriod = z.infer<typeof profilePeriod>;

const fields = {
  stationId: z.number().int().positive(),
  serialNumbers: z.array(serialNumber).min(1).max(100),
  /** 0 is the point as a whole. */
  connectors: z.array(z.number().int().min(0).max(32)).min(1).max(33),
  purpose: z.enum(profilePurposes),
  stackLevel: z.number().int().min(0).max(MAX_OPERATOR_STACK_LEVEL),
  validFrom: instant.nullable().optional(),
  validTo: instant.nullable().optional(),
  chargingProfileKind: z.enum(profileKinds),
  recurrencyKind: z.enum(recurrencyKinds).nullable().optional(),
  chargingRateUnit: z.enum(chargingRateUnits),
  startSchedule: instant.nullable().optional(),
  /** Seconds; none: the last period lasts until the profile ends. */
  duration: z
    .number()
    .int()
    .positive()
    .max(31 * 86_400)
    .nullable()
    .optional(),
  minChargingRate: z.number().min(0).max(5_000_000).nullable().optional(),
  periods: z.array(profilePeriod).min(1).max(MAX_PERIODS),
};

const profileBase = z.object(fields);
type ProfileInput = z.output<typeof profileBase>;

/** The rules OCPP 1.6 sets on a profile, each reported on its field. */
function profileRules(v: ProfileInput, ctx: z.RefinementCtx) {
  const issue = (path: (string | number)[], message: string, params?: Record<string, unknown>) =>
    ctx.addIssue({ code: 'custom', path, message, ...(params ? { params } : {}) });
  if (v.purpose === 'ChargePointMaxProfile' && v.connectors.some((c) => c !== 0)) issue(['connectors'], 'validation.profileMaxOnPoint');
  if (v.purpose === 'TxProfile' && v.connectors.includes(0)) issue(['connectors'], 'validation.profileTxOnConnector');
  if (v.chargingProfileKind === 'Recurring' && !v.recurrencyKind) issue(['recurrencyKind'], 'validation.profileRecurrencyNeeded');
  if (v.chargingProfileKind !== 'Recurring' && v.recurrencyKind) issue(['recurrencyKind'], 'validation.profileRecurrencyOnlyRecurring');
  if (v.chargingProfileKind === 'Relative' && v.startSchedule) issue(['startSchedule'], 'validation.profileRelativeNoStart');
  // A point's own limit runs on the clock, not from a session's start.
  if (v.purpose === 'ChargePointMaxProfile' && v.chargingProfileKind === 'Relative')
    issue(['chargingProfileKind'], 'validation.profileMaxNotRelative');
  if (v.chargingProfileKind !== 'Relative' && !v.startSchedule) issue(['startSchedule'], 'validation.profileStartNeeded');
  if (v.validFrom && v.validTo && Date.parse(v.validTo) <= Date.parse(v.validFrom))
    issue(['validTo'], 'validation.profileValidToAfterFrom');
  const first = v.periods[0];
  if (first && first.startPeriod !== 0) issue(['periods', 0, 'startPeriod'], 'validation.profileFirstPeriod');
  v.periods.forEach((p, i) => {
    const prev = v.periods[i - 1];
    if (i > 0 && prev && p.startPeriod <= prev.startPeriod) issue(['periods', i, 'startPeriod'], 'validation.profilePeriodOrder');
    if (v.duration && p.startPeriod >= v.duration)
      issue(['periods', i, 'startPeriod'], 'validation.profilePeriodBeyond', { max: v.duration });
  });
  const cycle = v.recurrencyKind === 'Daily' ? 86_400 : v.recurrencyKind === 'Weekly' ? 7 * 86_400 : undefined;
  if (cycle && v.duration && v.duration > cycle) issue(['duration'], 'validation.profileDurationCycle', { max: cycle });
  if (new Set(v.serialNumbers.map((s) => s.toLowerCase())).size !== v.serialNumbers.length)
    issue(['serialNumbers'], 'validation.duplicate');
  if (new Set(v.connectors).size !== v.connectors.length) issue(['connectors'], 'validation.duplicate');
}

export const chargingProfileCreate = profileBase.superRefine(profileRules);
export const chargingProfileEdit = profileBase.extend({ id: z.number().int().positive() }).superRefine(profileRules);

export const profileTargetDto = z.object({
  serialNumber: z.string(),
  pointName: z.string(),
  connectorNo: z.number(),
  status: z.enum(profileTargetStatuses),
  /** The charger's own word or CALLERROR code; null when it never answered. */
  chargerStatus: z.string().nullable(),
  /** The transaction a TxProfile was sent for. */
  transactionId: z.number().nullable(),
  sentTime: z.string().nullable(),
});
export type ProfileTargetDto = z.infer<typeof profileTargetDto>;

export const chargingProfileDto = z.object({
  id: z.number(),
  providerId: z.number(),
  providerName: z.string(),
  stationId: z.number(),
  stationName: z.string(),
  purpose: z.enum(profilePurposes),
  stackLevel: z.number(),
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
  chargingProfileKind: z.enum(profileKinds),
  recurrencyKind: z.enum(recurrencyKinds).nullable(),
  chargingRateUnit: z.enum(chargingRateUnits),
  startSchedule: z.string().nullable(),
  duration: z.number().nullable(),
  minChargingRate: z.number().nullable(),
  periods: z.array(z.object({ startPeriod: z.number(), limit: z.number(), numberPhases: z.number().nullable().optional() })),
  serialNumbers: z.array(z.string()),
  connectors: z.array(z.number()),
  targets: z.array(profileTargetDto),
  /** How many targets the chargers accepted and still hold. */
  acceptedCount: z.number(),
  createdByName: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type ChargingProfileDto = z.infer<typeof chargingProfileDto>;

export const chargingProfileFilter = z.object({
  stationId: z.coerce.number().int().positive().optional(),
  purpose: z.enum(profilePurposes).optional(),
  serialNumber: optText(48),
  providerId: z.coerce.number().int().positive().optional(),
});

/** One charger's answer to a SetChargingProfile or ClearChargingProfile. */
export const profileSendResult = z.object({
  serialNumber: z.string(),
  connectorNo: z.number(),
  status: z.enum(profileTargetStatuses),
  chargerStatus: z.string().nullable(),
  /** Why, in the caller's language, when the status alone does not say. */
  message: z.string().nullable(),
});
export type ProfileSendResult = z.infer<typeof profileSendResult>;

export const profileClear = z
  .object({
    serialNumber,
    /** Any of these narrows what the charger clears (OCPP 1.6 ClearChargingProfile); none: every profile but the balancer's. */
    id: z.number().int().positive().nullable().optional(),
    connectorId: z.number().int().min(0).max(32).nullable().optional(),
    purpose: z.enum(profilePurposes).nullable().optional(),
    stackLevel: z.number().int().min(0).max(MAX_OPERATOR_STACK_LEVEL).nullable().optional(),
  })
  .strict();

/** A profile a point holds: a target the charger accepted, not cleared, not past its validTo. */
export const profileInForce = z.object({
  id: z.number(),
  connectorNo: z.number(),
  purpose: z.enum(profilePurposes),
  stackLevel: z.number(),
  chargingProfileKind: z.enum(profileKinds),
  chargingRateUnit: z.enum(chargingRateUnits),
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
  transactionId: z.number().nullable(),
  periods: z.array(z.object({ startPeriod: z.number(), limit: z.number(), numberPhases: z.number().nullable().optional() })),
  sentTime: z.string().nullable(),
});
export type ProfileInForce = z.infer<typeof profileInForce>;

const resource = 'chargingProfile';
const c = crud(resource, 'smart:chargingProfile');

/** `/web/chargingProfile/{action}` (DESIGN.md §4). */
export const chargingProfileApi = {
  list: c.list(chargingProfileFilter, chargingProfileDto),
  get: c.get(chargingProfileDto),
  add: c.add(chargingProfileCreate, chargingProfileDto),
  edit: c.edit(chargingProfileEdit, chargingProfileDto, {
    summary: 'Save a profile; its targets go back to not sent (a charger holds the old one until it is sent again)',
  }),
  remove: c.remove({ summary: 'Remove profiles no charger holds (clear them first)' }),
  export: c.export(chargingProfileFilter),
  send: c.action('send', z.object({ id: z.number().int().positive() }), z.object({ results: z.array(profileSendResult) }), {
    operation: 'sendProfile',
    summary: 'SetChargingProfile to every point and connector of the profile; each charger’s answer is stored and returned',
  }),
  clear: c.action('clear', profileClear, profileSendResult.extend({ cleared: z.number() }), {
    operation: 'clearProfile',
    summary: 'ClearChargingProfile on one point; on Accepted the matching profiles stop counting as held there',
  }),
  inForce: endpoint({
    method: 'GET',
    path: c.path('inForce'),
    access: c.permi('list'),
    resource,
    query: z.object({ serialNumber }),
    data: z.array(profileInForce),
    summary: 'The profiles a point holds, as the server last learnt from its answers',
  }),
};

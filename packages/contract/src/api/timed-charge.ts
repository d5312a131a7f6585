import { z } from 'zod';
import { crud, endpoint, optText } from '../endpoint.js';

/**
 * Timed charging (spec §3 "Timed charge: validPeriod, start time, charge user, point, connectors,
 * status, created time"; issue 15 item 3). Every day of its valid period, at its start time on the
 * station's wall clock, the server sends RemoteStartTransaction to each of its connectors with the
 * charge user's valid card. A day that cannot start (point offline, the charger refuses, no valid
 * card) is marked failed with the reason, and the creator gets a system message.
 */
export const timedChargeStatuses = ['waiting', 'started', 'finished', 'failed', 'cancelled'] as const;
export type TimedChargeStatus = (typeof timedChargeStatuses)[number];

/** Why one connector's start of one day failed (vocabulary `enums.timedChargeReason`). */
export const timedChargeReasons = ['offline', 'rejected', 'noCard', 'timeout', 'error', 'missed', 'moved'] as const;
export type TimedChargeReason = (typeof timedChargeReasons)[number];

/** A start found more than this late (the server was down at its time) is not sent: the day is marked missed. */
export const TIMED_CHARGE_GRACE_MINUTES = 15;

/** The longest valid period, in days. */
export const MAX_TIMED_CHARGE_DAYS = 366;

const day = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/);
const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);

const fields = {
  serialNumber: z.string().trim().min(1).max(48),
  connectors: z.array(z.number().int().min(1).max(32)).min(1).max(32),
  chargeUserId: z.number().int().positive(),
  /** First and last day (station's calendar), inclusive. */
  validFrom: day,
  validTo: day,
  /** `HH:mm` on the station's wall clock. */
  startTime: time,
};

function rules(v: { validFrom: string; validTo: string; connectors: number[] }, ctx: z.RefinementCtx) {
  if (v.validTo < v.validFrom) ctx.addIssue({ code: 'custom', path: ['validTo'], message: 'validation.timedChargeOrder' });
  const span = (Date.parse(`${v.validTo}T00:00:00Z`) - Date.parse(`${v.validFrom}T00:00:00Z`)) / 86_400_000 + 1;
  if (span > MAX_TIMED_CHARGE_DAYS)
    ctx.addIssue({ code: 'custom', path: ['validTo'], message: 'validation.timedChargeSpan', params: { max: MAX_TIMED_CHARGE_DAYS } });
  if (new Set(v.connectors).size !== v.connectors.length)
    ctx.addIssue({ code: 'custom', path: ['connectors'], message: 'validation.duplicate' });
}

const base = z.object(fields);
export const timedChargeCreate = base.superRefine(rules);
export const timedChargeEdit = base.extend({ id: z.number().int().positive() }).superRefine(rules);

export const timedChargeDto = z.object({
  id: z.number(),
  providerId: z.number(),
  providerName: z.string(),
  stationId: z.number(),
  stationName: z.string(),
  timeZone: z.string(),
  serialNumber: z.string(),
  pointName: z.string(),
  connectors: z.array(z.number()),
  chargeUserId: z.number(),
  chargeUserAccount: z.string(),
  validFrom: z.string(),
  validTo: z.string(),
  startTime: z.string(),
  status: z.enum(timedChargeStatuses),
  /** The next start, as an instant; null when none is left (finished, cancelled). */
  nextRunTime: z.string().nullable(),
  /** The last day that ran (station's calendar) and, when it failed, why. */
  lastRunDay: z.string().nullable(),
  lastReason: z.enum(timedChargeReasons).nullable(),
  createdByName: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type TimedChargeDto = z.infer<typeof timedChargeDto>;

/** One connector's start on one day. */
export const timedChargeRunDto = z.object({
  day: z.string(),
  connectorNo: z.number(),
  status: z.enum(['started', 'failed']),
  reason: z.enum(timedChargeReasons).nullable(),
  /** The charger's own word (its answer's status or CALLERROR code), when it answered. */
  chargerStatus: z.string().nullable(),
  cardNumber: z.string().nullable(),
  runTime: z.string(),
});
export type TimedChargeRunDto = z.infer<typeof timedChargeRunDto>;

export const timedChargeFilter = z.object({
  serialNumber: optText(48),
  chargeUserAccount: optText(64),
  status: z.enum(timedChargeStatuses).optional(),
  stationId: z.coerce.number().int().positive().optional(),
  providerId: z.coerce.number().int().positive().optional(),
});

const resource = 'timedCharge';
const c = crud(resource, 'smart:timedCharge');

/** `/web/timedCharge/{action}` (DESIGN.md §4). */
export const timedChargeApi = {
  list: c.list(timedChargeFilter, timedChargeDto),
  get: c.get(timedChargeDto),
  add: c.add(timedChargeCreate, timedChargeDto, {
    summary: 'Schedule a daily remote start; its first start is the next start time in the period',
  }),
  edit: c.edit(timedChargeEdit, timedChargeDto, { summary: 'Change a waiting or failed timed charge; its next start is computed again' }),
  cancel: c.action('cancel', z.object({ ids: z.array(z.number().int().positive()).min(1) }), z.object({ cancelled: z.number() }), {
    operation: 'cancelTimedCharge',
    summary: 'Cancel timed charges: no start is sent any more (a day already started is not stopped)',
  }),
  export: c.export(timedChargeFilter),
  runs: endpoint({
    method: 'GET',
    path: c.path('runs'),
    access: c.permi('query'),
    resource,
    query: z.object({ id: z.coerce.number().int().positive() }),
    data: z.array(timedChargeRunDto),
    summary: 'Each day’s start of a timed charge, per connector, newest first (at most 400)',
  }),
};

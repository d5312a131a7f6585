import { z } from 'zod';
import { crud, endpoint, idBody, optText, dayFilter } from '../endpoint.js';
import { connectorPlace } from './monitor.js';
import { authorizationReasons } from './ocpp-log.js';
import { priceTiers } from './price.js';

/** Record validity (DESIGN.md §9): invalid records failed the meter checks; confirmed ones were released for billing by an operator. */
export const chargeValidities = ['valid', 'invalid', 'confirmed'] as const;
export type ChargeValidity = (typeof chargeValidities)[number];

export const startTypes = ['card', 'remote'] as const;

/** OCPP stop reasons (1.6 `Reason` and 2.0.1 `ReasonEnumType`); a 1.6 stop without one means Local. */
export const stopReasons = [
  'Local',
  'Remote',
  'EVDisconnected',
  'EmergencyStop',
  'DeAuthorized',
  'HardReset',
  'SoftReset',
  'Reboot',
  'PowerLoss',
  'UnlockCommand',
  'EnergyLimitReached',
  'SOCLimitReached',
  'TimeLimitReached',
  'LocalOutOfCredit',
  'StoppedByEV',
  'Timeout',
  'GroundFault',
  'OvercurrentFault',
  'PowerQuality',
  'ImmediateReset',
  'MasterPass',
  'Other',
] as const;

/** Why a record is invalid: a meter sanity check (DESIGN.md §6), or a session the charger never stopped (a newer one began on its connector). */
export const invalidReasons = ['meterBelowStart', 'meterReset', 'meterJump', 'notStopped'] as const;
/**
 * Why a finished record carries no bill. `unauthorized`: the charger started it although the idTag was
 * not Accepted for the charger's provider (README "Security"): it is billed to nobody.
 */
export const billingNotes = ['noPrice', 'noAccount', 'badSamples', 'unauthorized'] as const;
/**
 * Whether the session's idTag was Accepted for the charger's provider at its start. An unauthorised
 * session is kept (energy was delivered) but attached to no card or charge user and billed to nobody.
 */
export const chargeAuthorizations = ['authorized', 'unauthorized'] as const;
export type ChargeAuthorization = (typeof chargeAuthorizations)[number];
export const feeKinds = ['elec', 'service'] as const;

/** One charging record: a finished transaction with its bill. Money in cents, energy in Wh. */
export const chargeRecordDto = z.object({
  /** The OCPP transactionId. */
  id: z.number(),
  providerId: z.number(),
  providerName: z.string(),
  ...connectorPlace,
  /** The station's IANA zone: the console shows the record's times on its wall clock. */
  stationTimeZone: z.string(),
  /** What the charger sent; for an unauthorised session the only thing shown of who charged. */
  idTag: z.string(),
  /** The card the idTag named; null when the session was not authorised (never another provider's card). */
  cardNumber: z.string().nullable(),
  /** The charge user who charged: the card's owner, or the account started remotely; null when not authorised. */
  account: z.string().nullable(),
  authorization: z.enum(chargeAuthorizations),
  /** Why the start was answered as it was (null for records older than the reason). */
  authReason: z.enum(authorizationReasons).nullable(),
  startType: z.enum(startTypes),
  startTime: z.string(),
  endTime: z.string().nullable(),
  durationSec: z.number().nullable(),
  meterStartWh: z.number(),
  meterStopWh: z.number().nullable(),
  energyWh: z.number(),
  stopReason: z.string().nullable(),
  stopIdTag: z.string().nullable(),
  /** Account of the card that stopped the session, when another tag than the starting one stopped it. */
  stopAccount: z.string().nullable(),
  elecFeeCents: z.number().nullable(),
  serviceFeeCents: z.number().nullable(),
  reserveFeeCents: z.number().nullable(),
  /** The cost: elec + service + reserve fees; null until billed. */
  totalCents: z.number().nullable(),
  billedAt: z.string().nullable(),
  paidFrom: z.enum(['card', 'mobile']).nullable(),
  billingNote: z.string().nullable(),
  validity: z.enum(chargeValidities),
  invalidReason: z.string().nullable(),
  confirmedByName: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  /** Received after the charger had been offline. */
  late: z.boolean(),
  /**
   * Closed late: when the charger's own Stop arrived for a session already closed as `notStopped` and
   * replaced the guessed end; null otherwise.
   */
  lateStopAt: z.string().nullable(),
  /** The correction of the settled bill that a late Stop caused, in cents (more to pay > 0); the ledger holds it. */
  adjustmentCents: z.number().nullable(),
  createTime: z.string(),
});
export type ChargeRecordDto = z.infer<typeof chargeRecordDto>;

/** A bill line: energy and money per price version, tier and fee kind, rounded once. */
export const billLineDto = z.object({
  priceId: z.number(),
  /** When that price version took effect. */
  effectiveFrom: z.string(),
  tier: z.enum(priceTiers),
  kind: z.enum(feeKinds),
  energyWh: z.number(),
  /** 1/10,000 of the currency per kWh. */
  unitPrice: z.number(),
  amountCents: z.number(),
  /** A line of a late Stop's correction: the difference from the settled line, beside it. */
  adjustment: z.boolean(),
});
export type BillLineDto = z.infer<typeof billLineDto>;

/** Discounts a settled bill carries, in the order applied (issue 19): member level, activity, voucher. */
export const discountKinds = ['member', 'activity', 'voucher'] as const;
export type DiscountKind = (typeof discountKinds)[number];

/** A discount line of a bill: its source and its name when settled, and the amount taken off (≤ 0). */
export const discountLineDto = z.object({
  kind: z.enum(discountKinds),
  refId: z.number(),
  label: z.string(),
  energyWh: z.number(),
  /** A per-kWh discount's rate in 1/10,000 of the currency; 0 for a percent or amount. */
  unitPrice: z.number(),
  amountCents: z.number(),
});
export type DiscountLineDto = z.infer<typeof discountLineDto>;

export const chargeRecordDetail = chargeRecordDto.extend({
  lines: z.array(billLineDto),
  discounts: z.array(discountLineDto),
  stationAddress: z.string(),
});
export type ChargeRecordDetail = z.infer<typeof chargeRecordDetail>;

/** One meter sample of a session's process data; a quantity the charger did not send is null. */
export const processSample = z.object({
  at: z.string(),
  energyWh: z.number().nullable(),
  powerW: z.number().nullable(),
  currentImportA: z.number().nullable(),
  /** Current.Offered: what the charger outputs at most. */
  currentOfferedA: z.number().nullable(),
  voltageV: z.number().nullable(),
  soc: z.number().nullable(),
  temperatureC: z.number().nullable(),
});
export type ProcessSample = z.infer<typeof processSample>;

/** Samples returned at most; longer sessions are thinned evenly (first and last kept). */
export const MAX_PROCESS_SAMPLES = 2000;

export const chargeRecordFilter = z.object({
  /** Sessions started in [startTime, endTime]. */
  startTime: dayFilter,
  endTime: dayFilter,
  id: z.coerce.number().int().positive().optional(),
  stationId: z.coerce.number().int().positive().optional(),
  pointId: z.coerce.number().int().positive().optional(),
  serialNumber: optText(48),
  account: optText(64),
  cardNumber: optText(64),
  startType: z.enum(startTypes).optional(),
  stopReason: optText(20),
  validity: z.enum(chargeValidities).optional(),
  authorization: z.enum(chargeAuthorizations).optional(),
  providerId: z.coerce.number().int().positive().optional(),
});
export type ChargeRecordFilter = z.infer<typeof chargeRecordFilter>;

const resource = 'chargeRecord';
const c = crud(resource, 'record:charge');

/** Charging records (spec §3): finished sessions, their bills and process data; running ones are on the monitor. */
export const chargeRecordApi = {
  list: c.list(chargeRecordFilter, chargeRecordDto),
  get: c.get(chargeRecordDetail, { summary: 'One record with its bill lines and its station (detail and print bill)' }),
  processData: endpoint({
    method: 'POST',
    path: '/charging/realTime/getHisBmsData',
    // A work order's view of the session it names needs the order's permission only (issue 17 item 6).
    access: { anyPermi: ['record:charge:query', 'workOrder:list:query'] },
    resource,
    mutation: false,
    body: z.object({ transactionId: z.number().int().positive() }),
    data: z.object({ transactionId: z.number(), samples: z.array(processSample), thinned: z.boolean() }),
    summary: "A session's process data over time: temperature, currents, voltage, SOC, power, energy",
  }),
  confirm: c.action('confirm', idBody, chargeRecordDetail, {
    summary: 'Releases an invalid record for billing and settles it; 601 when it still cannot be billed',
  }),
  export: c.export(chargeRecordFilter),
};

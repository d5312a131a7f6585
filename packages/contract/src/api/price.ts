import { z } from 'zod';
import { crud, endpoint, optText } from '../endpoint.js';

/**
 * Electricity prices (DESIGN.md §3, §9): per station, and group electricity prices that override
 * the station's for members of a user group. Each price is a list of versions, each effective from
 * an instant; the newest version not after an instant applies then. Unit prices are integers in
 * 1/10,000 of the currency per kWh (0.1234 $/kWh = 1234); the reservation fee is in cents.
 */
export const priceTiers = ['sharp', 'peak', 'flat', 'valley'] as const;
export type PriceTier = (typeof priceTiers)[number];

/** The day is 48 local half hours from 00:00 in the station's time zone. */
export const SLOTS_PER_DAY = 48;
/** 1 currency unit per kWh in the integer unit prices. */
export const UNIT_PRICE_SCALE = 10_000;
/** 100 $/kWh. */
export const MAX_UNIT_PRICE = 100 * UNIT_PRICE_SCALE;
/** 1,000 $ per reservation. */
export const MAX_RESERVE_FEE_CENTS = 100_000;

/** The eight fees: electricity and service fee per tier. */
export const priceFeeKeys = [
  'sharpElec',
  'sharpService',
  'peakElec',
  'peakService',
  'flatElec',
  'flatService',
  'valleyElec',
  'valleyService',
] as const;
export type PriceFeeKey = (typeof priceFeeKeys)[number];

const wholeIn = (max: number, message: string) => z.number().refine((v) => Number.isInteger(v) && v >= 0 && v <= max, { message });
const unitPrice = wholeIn(MAX_UNIT_PRICE, 'validation.unitPrice').describe(
  '1/10,000 of the currency per kWh (0.1234 $/kWh = 1234), 0 to 1,000,000',
);

const slots = z.array(z.enum(priceTiers)).refine((a) => a.length === SLOTS_PER_DAY, { message: 'validation.priceSlots' });

/** An instant (ISO date-time); absent or empty means "now" at the server. */
const effectiveFrom = z.preprocess((v) => (v === '' || v === null ? undefined : v), z.coerce.date().optional());

const fees = {
  sharpElec: unitPrice,
  sharpService: unitPrice,
  peakElec: unitPrice,
  peakService: unitPrice,
  flatElec: unitPrice,
  flatService: unitPrice,
  valleyElec: unitPrice,
  valleyService: unitPrice,
  reserveFeeCents: wholeIn(MAX_RESERVE_FEE_CENTS, 'validation.reserveFee').describe('Cents per reservation, 0 to 100,000'),
};

/**
 * A version whose instant lies in the past re-prices the station's unbilled sessions (finished ones
 * waiting for a price, running ones): saving it needs this set, after the caller has seen `impact`.
 */
const confirmPast = z.boolean().optional().describe('Confirms saving a version that takes effect in the past');

const versionFields = z.object({ effectiveFrom, ...fees, slots, confirmPast });

/** A new version of a station's price (`groupId` absent or null) or of a group price at that station. */
export const priceCreate = z.object({
  stationId: z.number().int().positive(),
  groupId: z.number().int().positive().nullable().optional(),
  ...versionFields.shape,
});

/** Saves a version: in place while no bill uses it, else as a new version of the same price. */
export const priceEdit = z.object({ id: z.number().int().positive(), ...versionFields.shape });

/**
 * What saving a version would change (`impact`): the one-off or the edit, described as for `add`
 * (station, group) or `edit` (`id`).
 */
export const priceImpactBody = z.object({
  id: z.number().int().positive().optional(),
  stationId: z.number().int().positive().optional(),
  groupId: z.number().int().positive().nullable().optional(),
  ...versionFields.shape,
});

/**
 * Unbilled sessions whose bill the version changes, priced by the billing code with and without it:
 * finished ones (waiting for a price, or for an operator's confirmation) as they would be billed
 * now, running ones up to their last meter sample. Billed sessions never change.
 */
export const priceImpactDto = z.object({
  /** The instant the version would take effect (now when none was given). */
  effectiveFrom: z.string(),
  /** It lies in the past: saving needs `confirmPast`. */
  backdated: z.boolean(),
  sessions: z.number(),
  finished: z.number(),
  running: z.number(),
  /** Of `sessions`, those that have no price without the version. */
  unpriced: z.number(),
  /** Their bills in cents without the version (0 for those without a price) and with it. */
  currentCents: z.number(),
  newCents: z.number(),
});
export type PriceImpactDto = z.infer<typeof priceImpactDto>;

const feeDto = Object.fromEntries(priceFeeKeys.map((k) => [k, z.number()])) as Record<PriceFeeKey, z.ZodNumber>;
const optionalFeeDto = Object.fromEntries(priceFeeKeys.map((k) => [k, z.number().nullable()])) as Record<
  PriceFeeKey,
  z.ZodNullable<z.ZodNumber>
>;

export const priceVersionDto = z.object({
  id: z.number(),
  stationId: z.number(),
  groupId: z.number().nullable(),
  effectiveFrom: z.string(),
  ...feeDto,
  reserveFeeCents: z.number(),
  slots: z.array(z.enum(priceTiers)),
  /** Sessions billed with this version; a used version never changes again. */
  billedCount: z.number(),
  used: z.boolean(),
  createdByName: z.string().nullable(),
  createTime: z.string(),
});
export type PriceVersionDto = z.infer<typeof priceVersionDto>;

/** Whose price it is: a station, or a station × user group (`groupId`), and the version in force now. */
const priceOwner = {
  stationId: z.number(),
  stationName: z.string(),
  providerId: z.number(),
  providerName: z.string(),
  timeZone: z.string(),
  groupId: z.number().nullable(),
  groupName: z.string().nullable(),
  /** The version in force now; null when none is yet. */
  currentId: z.number().nullable(),
};

/** One row of the lists: a station (or a station × group) with the version in force now, flattened (null fees when none is). */
export const priceRowDto = z.object({
  ...priceOwner,
  effectiveFrom: z.string().nullable(),
  ...optionalFeeDto,
  reserveFeeCents: z.number().nullable(),
  slots: z.array(z.enum(priceTiers)).nullable(),
  /** The next version waiting for its time, if any. */
  upcomingFrom: z.string().nullable(),
  versionCount: z.number(),
});
export type PriceRowDto = z.infer<typeof priceRowDto>;

export const priceDetailDto = z.object({
  ...priceOwner,
  /** Newest first. */
  versions: z.array(priceVersionDto),
  /** The user groups of the station's provider, for the group price page's picker. */
  groups: z.array(z.object({ id: z.number(), name: z.string(), hasPrice: z.boolean() })),
});
export type PriceDetailDto = z.infer<typeof priceDetailDto>;

export const priceFilter = z.object({ stationName: optText(100) });
export const groupPriceFilter = z.object({ stationName: optText(100), groupName: optText(50) });

const c = crud('price', 'finance:price');

/** Electricity prices: `/web/price/{action}`. */
export const priceApi = {
  list: c.list(priceFilter, priceRowDto, { summary: 'Stations the caller sees, each with the version of its price in force now' }),
  groupList: c.list(groupPriceFilter, priceRowDto, {
    path: 'groupList',
    summary: 'Group electricity prices (station × user group) with the version in force now',
  }),
  get: endpoint({
    method: 'GET',
    path: c.path('get'),
    access: c.permi('query'),
    resource: 'price',
    query: z.object({
      stationId: z.coerce.number().int().positive(),
      groupId: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().positive().optional()),
    }),
    data: priceDetailDto,
    summary: "A station's price (or a group price at it) with every version",
  }),
  add: c.add(priceCreate, priceVersionDto, {
    summary:
      'A new version; it may take effect in the past only if no session at the station billed after that instant, and only with confirmPast',
  }),
  edit: c.edit(priceEdit, priceVersionDto, {
    summary:
      'Updates a version no bill uses; a used version is kept and the values become a new version (another id). No effectiveFrom: now',
  }),
  remove: c.remove({ summary: 'Removes versions no bill uses' }),
  impact: endpoint({
    method: 'POST',
    path: c.path('impact'),
    access: { anyPermi: ['finance:price:add', 'finance:price:edit'] },
    resource: 'price',
    mutation: false,
    body: priceImpactBody,
    data: priceImpactDto,
    summary: 'How many unbilled sessions, and how much money, saving a version would re-price (nothing is saved)',
  }),
};

/**
 * A decimal string in currency units to an integer number of `1/scale` units, exactly (no float
 * arithmetic): `'0.1234'` at 10,000 → 1234. Undefined when it is not a non-negative decimal with
 * at most `decimals` places.
 */
export function decimalToUnits(text: string, decimals: number): number | undefined {
  const m = /^\s*(\d+)(?:\.(\d*))?\s*$/.exec(text);
  if (!m) return undefined;
  const frac = m[2] ?? '';
  if (frac.length > decimals) return undefined;
  const whole = m[1]!.replace(/^0+(?=\d)/, '');
  if (whole.length > 12) return undefined;
  return Number(whole + frac.padEnd(decimals, '0'));
}

/** The inverse: 1234 at 4 decimals → `'0.1234'`. */
export function unitsToDecimal(units: number, decimals: number): string {
  const s = String(Math.abs(Math.trunc(units))).padStart(decimals + 1, '0');
  const out = decimals === 0 ? s : `${s.slice(0, -decimals)}.${s.slice(-decimals)}`;
  return units < 0 ? `-${out}` : out;
}

import {
  decimalToUnits,
  MAX_RESERVE_FEE_CENTS,
  MAX_UNIT_PRICE,
  priceFeeKeys,
  type PriceFeeKey,
  type PriceTier,
  type PriceVersionDto,
} from '@csms/contract';
import dayjs, { type Dayjs } from 'dayjs';
import { formatMoney, formatUnitPrice } from '../../shared/format/units';
import { instantOf, wallClock } from '../../shared/format/zone-time';
import { fillAll } from './slots';

/**
 * The edit form: fees as the decimal strings the operator typed ($/kWh, $), converted to the
 * integer units of the API exactly (no floating point in between); the effective instant picked
 * on the station's wall clock.
 */
export type PriceFormValues = Record<PriceFeeKey, string | undefined> & {
  reserveFeeCents: string | undefined;
  effectiveMode: 'now' | 'at';
  /** Wall-clock time in the station's zone (the picker's fields, whatever the browser's zone). */
  effectiveAt: Dayjs | null;
  slots: PriceTier[];
};

export const FEE_DECIMALS = 4;
export const RESERVE_DECIMALS = 2;

/** A typed fee to API units, or undefined when it is not a number of $/kWh within range. */
export function feeUnits(text: string | undefined): number | undefined {
  if (text === undefined || text === null || String(text).trim() === '') return undefined;
  const units = decimalToUnits(String(text), FEE_DECIMALS);
  return units !== undefined && units <= MAX_UNIT_PRICE ? units : undefined;
}

export function reserveCents(text: string | undefined): number | undefined {
  if (text === undefined || text === null || String(text).trim() === '') return undefined;
  const cents = decimalToUnits(String(text), RESERVE_DECIMALS);
  return cents !== undefined && cents <= MAX_RESERVE_FEE_CENTS ? cents : undefined;
}

type VersionLike = Pick<PriceVersionDto, PriceFeeKey | 'reserveFeeCents' | 'slots' | 'effectiveFrom'>;

/** Form values from a version (or blank for the first one); `keepTime` picks its instant, else "now". */
export function valuesFrom(v: VersionLike | null | undefined, timeZone: string, keepTime: boolean): PriceFormValues {
  const fees = Object.fromEntries(priceFeeKeys.map((k) => [k, v ? formatUnitPrice(v[k]) : undefined])) as Record<
    PriceFeeKey,
    string | undefined
  >;
  return {
    ...fees,
    reserveFeeCents: v ? formatMoney(v.reserveFeeCents) : '0.00',
    effectiveMode: v && keepTime ? 'at' : 'now',
    effectiveAt: v && keepTime ? dayjs(wallClock(v.effectiveFrom, timeZone)) : null,
    slots: v ? [...v.slots] : fillAll('flat'),
  };
}

/** The body's version fields from validated values; `effectiveFrom` absent means now. */
export function bodyFrom(values: PriceFormValues, timeZone: string) {
  const fees = Object.fromEntries(priceFeeKeys.map((k) => [k, feeUnits(values[k])!])) as Record<PriceFeeKey, number>;
  const at =
    values.effectiveMode === 'at' && values.effectiveAt ? instantOf(values.effectiveAt.format('YYYY-MM-DD HH:mm:ss'), timeZone) : undefined;
  return {
    ...fees,
    reserveFeeCents: reserveCents(values.reserveFeeCents)!,
    slots: values.slots,
    ...(at ? { effectiveFrom: at.toISOString() } : {}),
  };
}

/** Server fields to form fields: the instant lives in the picker, every slot in the timeline. */
export function formField(serverField: string): string {
  if (serverField === 'effectiveFrom') return 'effectiveAt';
  if (serverField.startsWith('slots')) return 'slots';
  return serverField;
}

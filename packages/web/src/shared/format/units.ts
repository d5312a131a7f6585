/**
 * Units at the edge (CONVENTIONS §9): the API speaks integer cents, Wh, W and seconds
 * (DESIGN.md §3); people read $ with two decimals, kWh with three, kW and H:MM:SS.
 * Values that are not numbers (null, a missing bill) show as an empty string.
 */
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** 72400 → "724.00". */
export const formatMoney = (cents: unknown): string => (isNum(cents) ? (cents / 100).toFixed(2) : '');

/** A correction: 450 → "+4.50" (more to pay), -150 → "-1.50" (given back). */
export const formatSignedMoney = (cents: unknown): string => (isNum(cents) && cents > 0 ? `+${formatMoney(cents)}` : formatMoney(cents));

/** 7000 → "7.000". */
export const formatKwh = (wh: unknown): string => (isNum(wh) ? (wh / 1000).toFixed(3) : '');

/** 7400 → "7.40". */
export const formatKw = (w: unknown): string => (isNum(w) ? (w / 1000).toFixed(2) : '');

/** Unit prices in 1/10,000 of the currency per kWh: 12345 → "1.2345". */
export const formatUnitPrice = (p: unknown): string => (isNum(p) ? (p / 10_000).toFixed(4) : '');

/** 3725 → "1:02:05". */
export function formatDuration(sec: unknown): string {
  if (!isNum(sec)) return '';
  const s = Math.max(0, Math.round(sec));
  return `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** A share 0…1 as a percentage with one decimal: 0.09375 → "9.4". */
export const formatPercent = (share: unknown): string => (isNum(share) ? (share * 100).toFixed(1) : '');

/** What an operator types, back to stored units: currency units to whole cents (0.1 + 0.2 must give 30, not 30.000000000000004). */
export const unitsToCents = (units: number) => Math.round(units * 100);

/** Typed kWh to whole Wh. */
export const kwhToWh = (kwh: number) => Math.round(kwh * 1000);

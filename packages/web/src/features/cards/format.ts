/** Money arrives in integer cents and energy in Wh (DESIGN.md §3); people read currency units and kWh. */
export function formatCents(cents: unknown): string {
  return typeof cents === 'number' && Number.isFinite(cents) ? (cents / 100).toFixed(2) : '';
}

/** Wh as kWh with at most three decimals, without trailing zeros: 12500 → "12.5". */
export function formatKwh(wh: unknown): string {
  return typeof wh === 'number' && Number.isFinite(wh) ? String(Number((wh / 1000).toFixed(3))) : '';
}

/** A typed amount in currency units to whole cents (0.1 + 0.2 must give 30, not 30.000000000000004). */
export const unitsToCents = (units: number) => Math.round(units * 100);
export const kwhToWh = (kwh: number) => Math.round(kwh * 1000);

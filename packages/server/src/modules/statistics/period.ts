import type { StatsPeriod } from '@csms/contract';

const DAY_MS = 86_400_000;
const toNumber = (d: string) => Date.parse(`${d}T00:00:00Z`) / DAY_MS;
const toDate = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

export const addDays = (d: string, n: number) => toDate(toNumber(d) + n);

/** The local days from `start` to `end`, both included. */
export function daysOf(start: string, end: string): string[] {
  const out: string[] = [];
  for (let n = toNumber(start); n <= toNumber(end); n++) out.push(toDate(n));
  return out;
}

/**
 * The first and last local day of a period: the day, its week (Monday to Sunday), its month, or the
 * custom range (checked by the contract). `today` stands for a missing day.
 */
export function periodDays(
  q: { period: StatsPeriod; date?: string | undefined; startDate?: string | undefined; endDate?: string | undefined },
  today: string,
): { startDate: string; endDate: string } {
  if (q.period === 'custom') return { startDate: q.startDate!, endDate: q.endDate! };
  const d = q.date ?? today;
  if (q.period === 'day') return { startDate: d, endDate: d };
  if (q.period === 'week') {
    const monday = addDays(d, -((new Date(`${d}T00:00:00Z`).getUTCDay() + 6) % 7));
    return { startDate: monday, endDate: addDays(monday, 6) };
  }
  const first = `${d.slice(0, 7)}-01`;
  const next = new Date(`${first}T00:00:00Z`);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return { startDate: first, endDate: addDays(next.toISOString().slice(0, 10), -1) };
}

/**
 * The whole months inside the days `start` to `end` (both included), as the first day of the first one
 * and the first day after the last one; null when no month lies wholly inside.
 */
export function wholeMonths(start: string, end: string): { from: string; to: string } | null {
  const nextMonth = (d: string) => {
    const n = new Date(`${d.slice(0, 7)}-01T00:00:00Z`);
    n.setUTCMonth(n.getUTCMonth() + 1);
    return n.toISOString().slice(0, 10);
  };
  const from = start.endsWith('-01') ? start : nextMonth(start);
  const after = addDays(end, 1);
  const to = `${after.slice(0, 7)}-01`;
  return from < to ? { from, to } : null;
}

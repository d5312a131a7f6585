import { statsPeriods, type StatsPeriod } from '@csms/contract';

/** What the statistics screens keep in the URL (CONVENTIONS §8): the period, its day or range, and the scope. */
export interface StatsQuery {
  period: StatsPeriod;
  date?: string | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
  providerId?: number | undefined;
  stationId?: number | undefined;
  pointId?: number | undefined;
  groupBy?: 'provider' | 'station' | undefined;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (v: string | null) => (v && DAY.test(v) ? v : undefined);
const id = (v: string | null) => (v && /^[1-9]\d*$/.test(v) ? Number(v) : undefined);

/** The query from the URL; anything malformed is left out (the server's defaults apply). */
export function readStatsQuery(params: URLSearchParams): StatsQuery {
  const period = params.get('period');
  const groupBy = params.get('groupBy');
  const q: StatsQuery = {
    period: statsPeriods.includes(period as StatsPeriod) ? (period as StatsPeriod) : 'day',
    date: day(params.get('date')),
    startDate: day(params.get('startDate')),
    endDate: day(params.get('endDate')),
    providerId: id(params.get('providerId')),
    stationId: id(params.get('stationId')),
    pointId: id(params.get('pointId')),
    groupBy: groupBy === 'station' || groupBy === 'provider' ? groupBy : undefined,
  };
  // A custom period without its two days is not asked for: it waits for the range.
  if (q.period === 'custom' && (!q.startDate || !q.endDate)) return { ...q, startDate: undefined, endDate: undefined };
  return q;
}

/** The URL's parameters of a query, without the empty ones, and only the days its period uses. */
export function writeStatsQuery(q: StatsQuery): Record<string, string> {
  const out: Record<string, string> = { period: q.period };
  const keep = q.period === 'custom' ? (['startDate', 'endDate'] as const) : (['date'] as const);
  for (const k of keep) if (q[k]) out[k] = q[k];
  for (const k of ['providerId', 'stationId', 'pointId', 'groupBy'] as const) if (q[k] !== undefined) out[k] = String(q[k]);
  return out;
}

/** Whether the query can be asked: a custom period needs both days. */
export const isComplete = (q: StatsQuery) => q.period !== 'custom' || (!!q.startDate && !!q.endDate);

/** Hours from seconds, one decimal. */
export const hours = (sec: number) => (sec / 3600).toFixed(1);

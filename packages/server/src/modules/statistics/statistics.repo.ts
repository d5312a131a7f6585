import { trendBuckets, type RevenueTrend, type TodayStats, type TrendPeriod } from '@csms/contract';
import { and, count, eq, gt, gte, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { chargePoint, chargingTransaction as t, connector } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { providerScope, stationScope } from '../../lib/scope.js';

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * Dashboard figures over the caller's providers and bound stations, in one time zone (the
 * server's `CSMS_TIME_ZONE`), with days, weeks (from Monday) and months cut by PostgreSQL on the
 * local clock, so daylight-saving days come out right. A session belongs to the local day it
 * started: its charge, its energy (so far, while it runs) and its bill once billed.
 */
export function createStatisticsRepo({ db }: { db: Db }) {
  const txScope = (p: Principal) => and(providerScope(p, t.providerId), stationScope(p, t.stationId));

  async function scalar<T>(q: ReturnType<typeof sql>): Promise<T> {
    const res = (await db.execute(q)) as unknown as { rows: Record<string, T>[] };
    return Object.values(res.rows[0]!)[0]!;
  }

  /** Start of the local day containing `now`, as an instant. */
  const dayStart = async (now: Date, tz: string) =>
    new Date(await scalar<string>(sql`select (date_trunc('day', ${ts(now)} at time zone ${tz}::text) at time zone ${tz}::text) as v`));

  // Billed sessions' settled bills with the corrections late Stops made (the ledger's charges and adjustments).
  const income = sql<string>`coalesce(sum(${t.totalCents} + coalesce(${t.adjustmentCents}, 0)) filter (where ${t.billedAt} is not null), 0)`;

  return {
    async today(p: Principal, now: Date, tz: string): Promise<TodayStats> {
      const start = await dayStart(now, tz);
      const [sums] = await db
        .select({
          chargeCount: count(),
          energyWh: sql<string>`coalesce(sum(${t.energyWh}), 0)`,
          incomeCents: income,
        })
        .from(t)
        .where(and(txScope(p), gte(t.startedAt, start), lte(t.startedAt, now)));
      // Connector time spent charging since midnight: each session's overlap with [midnight, now].
      const [busy] = await db
        .select({
          seconds: sql<string>`coalesce(sum(extract(epoch from (least(coalesce(${t.stoppedAt}, ${ts(now)}), ${ts(now)}) - greatest(${t.startedAt}, ${ts(start)})))), 0)`,
        })
        .from(t)
        .where(and(txScope(p), lt(t.startedAt, now), or(isNull(t.stoppedAt), gt(t.stoppedAt, start))));
      const [connectors] = await db
        .select({ n: count() })
        .from(connector)
        .innerJoin(chargePoint, eq(chargePoint.id, connector.chargePointId))
        .where(and(providerScope(p, chargePoint.providerId), stationScope(p, chargePoint.stationId)));
      const connectorCount = connectors?.n ?? 0;
      const elapsed = Math.max(0, (now.getTime() - start.getTime()) / 1000);
      const chargingSeconds = Math.max(0, Math.round(Number(busy?.seconds ?? 0)));
      const capacity = connectorCount * elapsed;
      return {
        date: await scalar<string>(sql`select to_char(${ts(now)} at time zone ${tz}::text, 'YYYY-MM-DD') as v`),
        timeZone: tz,
        chargeCount: sums?.chargeCount ?? 0,
        energyWh: Number(sums?.energyWh ?? 0),
        incomeCents: Number(sums?.incomeCents ?? 0),
        utilisation: capacity > 0 ? Math.min(1, chargingSeconds / capacity) : 0,
        connectorCount,
        chargingSeconds,
      };
    },

    async revenueTrend(p: Principal, period: TrendPeriod, now: Date, tz: string): Promise<RevenueTrend> {
      const n = trendBuckets[period];
      const unit = sql.raw(`'${period}'`);
      const step = sql.raw(`interval '1 ${period}'`);
      const back = sql.raw(String(n - 1));
      const local = sql`date_trunc(${unit}, ${ts(now)} at time zone ${tz}::text)`;
      // Bucket starts on the local clock, oldest first, and the instant the oldest one begins.
      const series = (await db.execute(
        sql`select to_char(g, 'YYYY-MM-DD') as start from generate_series(${local} - ${back} * ${step}, ${local}, ${step}) g order by g`,
      )) as unknown as { rows: { start: string }[] };
      const from = new Date(await scalar<string>(sql`select ((${local} - ${back} * ${step}) at time zone ${tz}::text) as v`));
      const bucket = sql<string>`to_char(date_trunc(${unit}, ${t.startedAt} at time zone ${tz}::text), 'YYYY-MM-DD')`;
      const sums = await db
        .select({
          start: bucket,
          chargeCount: count(),
          energyWh: sql<string>`coalesce(sum(${t.energyWh}), 0)`,
          incomeCents: income,
        })
        .from(t)
        .where(and(txScope(p), gte(t.startedAt, from), lte(t.startedAt, now)))
        // By position: the bucket expression carries parameters, which PostgreSQL cannot match by value.
        .groupBy(sql`1`);
      const byStart = new Map(sums.map((s) => [s.start, s]));
      return {
        period,
        timeZone: tz,
        points: series.rows.map(({ start }) => {
          const s = byStart.get(start);
          return {
            start,
            incomeCents: Number(s?.incomeCents ?? 0),
            energyWh: Number(s?.energyWh ?? 0),
            chargeCount: s?.chargeCount ?? 0,
          };
        }),
      };
    },
  };
}

export type StatisticsRepo = ReturnType<typeof createStatisticsRepo>;

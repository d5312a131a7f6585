import { trendBuckets, type RevenueTrend, type TodayStats, type TrendPeriod } from '@csms/contract';
import { and, count, eq, gt, gte, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { chargePoint, chargingDay, chargingDayZone, chargingTransaction as t, connector } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { providerScope, stationScope } from '../../lib/scope.js';

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * Dashboard figures over the caller's providers and bound stations, in one time zone (the
 * server's `CSMS_TIME_ZONE`), with days, weeks (from Monday) and months cut by PostgreSQL on the
 * local clock, so daylight-saving days come out right. A session belongs to the local day it
 * started: its charge, its energy (so far, while it runs) and its bill once billed.
 *
 * The revenue trend reads the finished sessions' day totals (`charging_day`, kept by triggers) and the
 * running sessions live, so a year costs a few hundred rows per station instead of every record; in a
 * time zone other than the totals' it adds up the records themselves.
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

  /** The local date of `now` in `tz`, YYYY-MM-DD. */
  const localDate = (now: Date, tz: string) => scalar<string>(sql`select to_char(${ts(now)} at time zone ${tz}::text, 'YYYY-MM-DD') as v`);

  // Billed sessions' settled bills with the corrections late Stops made (the ledger's charges and adjustments).
  const income = sql<string>`coalesce(sum(${t.totalCents} + coalesce(${t.adjustmentCents}, 0)) filter (where ${t.billedAt} is not null), 0)`;

  async function trend(p: Principal, period: TrendPeriod, now: Date, tz: string, fromTotals: boolean): Promise<RevenueTrend> {
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
    const bucketOf = (localTime: SQL) => sql`date_trunc(${unit}, ${localTime})`;
    const started = and(txScope(p), gte(t.startedAt, from), lte(t.startedAt, now));
    const fromRecord = sql`${bucketOf(sql`${t.startedAt} at time zone ${tz}::text`)} as g, 1::bigint as n, ${t.energyWh} as wh,
      case when ${t.billedAt} is not null then coalesce(${t.totalCents}, 0) + coalesce(${t.adjustmentCents}, 0) else 0 end as cents`;
    const rows = fromTotals
      ? // Finished sessions from the day totals, running ones from their records.
        // (The stations' rows are added up per day first: the bucket is then cut once a day, not once a row.)
        sql`select ${bucketOf(sql`d.day::timestamp`)} as g, d.n, d.wh, d.cents
            from (select ${chargingDay.day} as day, sum(${chargingDay.chargeCount}) as n, sum(${chargingDay.energyWh}) as wh,
                         sum(${chargingDay.incomeCents}) as cents
                  from ${chargingDay}
                  where ${and(
                    providerScope(p, chargingDay.providerId),
                    stationScope(p, chargingDay.stationId),
                    sql`${chargingDay.day} between (${local} - ${back} * ${step})::date and (${ts(now)} at time zone ${tz}::text)::date`,
                  )}
                  group by 1) d
            union all
            select ${fromRecord} from ${t} where ${and(started, isNull(t.stoppedAt))}`
      : sql`select ${fromRecord} from ${t} where ${started}`;
    const sums = (await db.execute(
      sql`select to_char(g, 'YYYY-MM-DD') as start, sum(n) as "chargeCount", coalesce(sum(wh), 0) as "energyWh", coalesce(sum(cents), 0) as "incomeCents"
          from (${rows}) b group by g`,
    )) as unknown as { rows: { start: string; chargeCount: string; energyWh: string; incomeCents: string }[] };
    const byStart = new Map(sums.rows.map((x) => [x.start, x]));
    return {
      period,
      timeZone: tz,
      points: series.rows.map(({ start }) => {
        const x = byStart.get(start);
        return {
          start,
          incomeCents: Number(x?.incomeCents ?? 0),
          energyWh: Number(x?.energyWh ?? 0),
          chargeCount: Number(x?.chargeCount ?? 0),
        };
      }),
    };
  }

  return {
    localDate,

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
        date: await localDate(now, tz),
        timeZone: tz,
        chargeCount: sums?.chargeCount ?? 0,
        energyWh: Number(sums?.energyWh ?? 0),
        incomeCents: Number(sums?.incomeCents ?? 0),
        utilisation: capacity > 0 ? Math.min(1, chargingSeconds / capacity) : 0,
        connectorCount,
        chargingSeconds,
      };
    },

    /** Today's sessions (started since local midnight) per station of the caller's scope: count, energy, billed income. */
    async todayByStation(p: Principal, now: Date, tz: string) {
      const start = await dayStart(now, tz);
      const rows = await db
        .select({
          stationId: t.stationId,
          chargeCount: count(),
          energyWh: sql<string>`coalesce(sum(${t.energyWh}), 0)`,
          incomeCents: income,
        })
        .from(t)
        .where(and(txScope(p), gte(t.startedAt, start), lte(t.startedAt, now)))
        .groupBy(t.stationId);
      return new Map(
        rows.map((r) => [r.stationId, { chargeCount: r.chargeCount, energyWh: Number(r.energyWh), incomeCents: Number(r.incomeCents) }]),
      );
    },

    async revenueTrend(p: Principal, period: TrendPeriod, now: Date, tz: string): Promise<RevenueTrend> {
      const [zone] = await db.select({ tz: chargingDayZone.timeZone }).from(chargingDayZone);
      return trend(p, period, now, tz, zone?.tz === tz);
    },

    /** The trend added up from the records alone, whatever the day totals hold (what they must equal). */
    revenueTrendFromRecords(p: Principal, period: TrendPeriod, now: Date, tz: string): Promise<RevenueTrend> {
      return trend(p, period, now, tz, false);
    },

    /**
     * Makes the day totals cut days in `tz`: at a first start (they were never built) and when
     * `CSMS_TIME_ZONE` changed, from every finished record, in one transaction that holds the records'
     * writes meanwhile (so none is counted in the old zone or missed). Otherwise it changes nothing.
     * Returns whether it rebuilt.
     */
    async ensureDayTotals(tz: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [zone] = await tx.select().from(chargingDayZone).for('update');
        if (zone?.timeZone === tz) return false;
        await tx.execute(sql`lock table ${t} in share mode`);
        await tx.delete(chargingDay);
        await tx
          .insert(chargingDayZone)
          .values({ id: 1, timeZone: tz })
          .onConflictDoUpdate({ target: chargingDayZone.id, set: { timeZone: tz } });
        await tx.execute(sql`
          insert into ${chargingDay} (provider_id, station_id, day, charge_count, energy_wh, income_cents)
          select ${t.providerId}, ${t.stationId}, (${t.startedAt} at time zone ${tz}::text)::date, count(*), sum(${t.energyWh}),
                 coalesce(sum(coalesce(${t.totalCents}, 0) + coalesce(${t.adjustmentCents}, 0)) filter (where ${t.billedAt} is not null), 0)
          from ${t} where ${t.stoppedAt} is not null group by 1, 2, 3`);
        await tx.execute(sql`analyze ${chargingDay}`);
        return true;
      });
    },
  };
}

export type StatisticsRepo = ReturnType<typeof createStatisticsRepo>;

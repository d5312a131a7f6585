import { trendBuckets, type AssetCounts, type RevenueTrend, type TodayStats, type TrendPeriod } from '@csms/contract';
import { and, count, gte, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  card,
  chargePoint,
  chargeUser,
  billLine,
  chargingDay,
  pointMonth,
  startMonth,
  chargingDayZone,
  chargingTransaction as t,
  connector,
  station,
  ledger,
  ledgerDay,
  settlementDay,
} from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { providerScope, stationScope } from '../../lib/scope.js';
import { onlineAt, onlineJoins, ts } from './operation.points.js';

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

  /**
   * Connector time since each station's local midnight (its own time zone): spent charging (each
   * session's overlap with [midnight, now]) and online (each point's online seconds now less those at
   * its station's midnight, from its connection history as in operation statistics, × its connectors),
   * over the stations of the caller's scope.
   */
  async function connectorTime(p: Principal, now: Date) {
    const at = ts(now);
    const stations = and(providerScope(p, station.providerId), stationScope(p, station.id)) ?? sql`true`;
    const points = and(providerScope(p, chargePoint.providerId), stationScope(p, chargePoint.stationId)) ?? sql`true`;
    const w = sql`select ${station.id} as station_id,
        (date_trunc('day', ${at} at time zone ${station.timeZone}) at time zone ${station.timeZone}) as since
      from ${station} where ${stations}`;
    const result = (await db.execute(sql`with w as (${w}),
      -- The points of those stations: online seconds since midnight times connectors, and their connectors.
      pts as (select coalesce(sum((${onlineAt(at)} - ${onlineAt(sql`w.since`)}) * coalesce(c.n, 0)), 0) as online,
                     coalesce(sum(c.n), 0) as connectors
              from ${chargePoint} join w on w.station_id = ${chargePoint.stationId} ${onlineJoins(points)}
              where ${points})
      select
        (select coalesce(sum(extract(epoch from (least(coalesce(x.stopped_at, ${at}), ${at}) - greatest(x.started_at, w.since)))), 0)
           -- Ended since the earliest midnight, or running: two index ranges, not every record.
           from (select station_id, started_at, stopped_at from charging_transaction where stopped_at > (select min(since) from w)
                 union all
                 select station_id, started_at, stopped_at from charging_transaction where stopped_at is null) x
           join w on w.station_id = x.station_id
           where x.started_at < ${at} and (x.stopped_at is null or x.stopped_at > w.since)) as charging,
        pts.online, pts.connectors
      from pts`)) as unknown as {
      rows: { charging: string; online: string; connectors: string }[];
    };
    const row = result.rows[0];
    return {
      chargingSeconds: Math.max(0, Math.round(Number(row?.charging ?? 0))),
      onlineSeconds: Math.max(0, Math.round(Number(row?.online ?? 0))),
      connectorCount: Number(row?.connectors ?? 0),
    };
  }

  return {
    localDate,

    /**
     * What the caller's scope holds: stations, points by kind, connectors; charge users and cards of
     * its providers (a station-bound user sees its stations' points, and its providers' users and cards).
     */
    async assets(p: Principal): Promise<AssetCounts> {
      const stations = and(providerScope(p, station.providerId), stationScope(p, station.id)) ?? sql`true`;
      const points = and(providerScope(p, chargePoint.providerId), stationScope(p, chargePoint.stationId)) ?? sql`true`;
      const result = (await db.execute(sql`select
          (select count(*) from ${station} where ${stations}) as stations,
          (select count(*) from ${chargePoint} where ${points}) as points,
          (select count(*) from ${chargePoint} where ${points} and ${chargePoint.equipmentType} = 'ac') as "acPoints",
          (select count(*) from ${chargePoint} where ${points} and ${chargePoint.equipmentType} = 'dc') as "dcPoints",
          (select count(*) from ${chargePoint} where ${points} and ${chargePoint.equipmentType} = 'acdc') as "acdcPoints",
          (select count(*) from ${connector} join ${chargePoint} on ${chargePoint.id} = ${connector.chargePointId} where ${points}) as connectors,
          (select count(*) from ${chargeUser} where ${providerScope(p, chargeUser.providerId) ?? sql`true`}) as "chargeUsers",
          (select count(*) from ${card} where ${providerScope(p, card.providerId) ?? sql`true`}) as cards`)) as unknown as {
        rows: Record<keyof AssetCounts, string>[];
      };
      const row = result.rows[0]!;
      return {
        stations: Number(row.stations),
        points: Number(row.points),
        acPoints: Number(row.acPoints),
        dcPoints: Number(row.dcPoints),
        acdcPoints: Number(row.acdcPoints),
        connectors: Number(row.connectors),
        chargeUsers: Number(row.chargeUsers),
        cards: Number(row.cards),
      };
    },

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
      const { chargingSeconds, onlineSeconds, connectorCount } = await connectorTime(p, now);
      return {
        date: await localDate(now, tz),
        timeZone: tz,
        chargeCount: sums?.chargeCount ?? 0,
        energyWh: Number(sums?.energyWh ?? 0),
        incomeCents: Number(sums?.incomeCents ?? 0),
        utilisation: onlineSeconds > 0 ? Math.min(1, chargingSeconds / onlineSeconds) : 0,
        connectorCount,
        chargingSeconds,
        onlineSeconds,
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
        await tx.execute(sql`lock table ${t}, ${ledger} in share mode`);
        await tx.delete(chargingDay);
        await tx.delete(pointMonth);
        await tx.delete(startMonth);
        await tx.delete(settlementDay);
        await tx.delete(ledgerDay);
        await tx
          .insert(chargingDayZone)
          .values({ id: 1, timeZone: tz })
          .onConflictDoUpdate({ target: chargingDayZone.id, set: { timeZone: tz } });
        await tx.execute(sql`
          insert into ${chargingDay} (provider_id, station_id, day, charge_count, energy_wh, income_cents, charging_seconds, starts_by_hour)
          select r.provider_id, r.station_id, r.day, count(*), sum(r.energy_wh), coalesce(sum(r.cents) filter (where r.billed), 0),
                 coalesce(sum(r.secs), 0),
                 array[${sql.join(
                   Array.from({ length: 24 }, (_, h) => sql`(count(*) filter (where r.h = ${sql.raw(String(h))}))::int`),
                   sql`, `,
                 )}]
          -- The local start once per record (not once per hour of the array).
          from (select ${t.providerId} as provider_id, ${t.stationId} as station_id, (l.at)::date as day, ${t.energyWh} as energy_wh,
                       ${t.billedAt} is not null as billed, coalesce(${t.totalCents}, 0) + coalesce(${t.adjustmentCents}, 0) as cents,
                       greatest(0, extract(epoch from ${t.stoppedAt} - ${t.startedAt}))::bigint as secs, extract(hour from l.at)::int as h
                from ${t} cross join lateral (select ${t.startedAt} at time zone ${tz}::text as at) l
                where ${t.stoppedAt} is not null) r
          group by 1, 2, 3`);
        await tx.execute(sql`
          insert into ${pointMonth} (charge_point_id, month, provider_id, station_id, charge_count, energy_wh, charging_seconds)
          select ${t.chargePointId}, date_trunc('month', ${t.startedAt} at time zone ${tz}::text)::date, ${t.providerId}, ${t.stationId},
                 count(*), sum(${t.energyWh}), coalesce(sum(greatest(0, extract(epoch from ${t.stoppedAt} - ${t.startedAt}))::bigint), 0)
          from ${t} where ${t.stoppedAt} is not null group by 1, 2, 3, 4`);
        // Starts per station month and local weekday × hour: counted per cell, then laid out as the 168 cells
        // (densified per month from its cells: a join of the 168-cell grid with the cells planned a 13 s merge join).
        await tx.execute(sql`
          insert into ${startMonth} (provider_id, station_id, month, starts_by_week_hour)
          select g.provider_id, g.station_id, g.month,
                 (select array_agg(coalesce(x.n, 0) order by s.k) from generate_series(0, 167) s(k)
                  left join unnest(g.ks, g.ns) x(k, n) on x.k = s.k)
          from (select provider_id, station_id, month, array_agg(k order by k) as ks, array_agg(n order by k) as ns
                from (select ${t.providerId} as provider_id, ${t.stationId} as station_id, date_trunc('month', l.at)::date as month,
                             (extract(isodow from l.at)::int - 1) * 24 + extract(hour from l.at)::int as k, count(*)::int as n
                      from ${t} cross join lateral (select ${t.startedAt} at time zone ${tz}::text as at) l
                      where ${t.stoppedAt} is not null group by 1, 2, 3, 4) c
                group by 1, 2, 3) g`);
        // Settled bills on their settlement day, with their discount lines (as the settlement_day trigger adds them).
        await tx.execute(sql`
          insert into ${settlementDay} (provider_id, station_id, day, bill_count, elec_fee_cents, service_fee_cents, reserve_fee_cents,
                                        discount_cents, adjustment_cents, income_cents)
          select ${t.providerId}, ${t.stationId}, (${t.billedAt} at time zone ${tz}::text)::date, count(*),
                 coalesce(sum(${t.elecFeeCents}), 0), coalesce(sum(${t.serviceFeeCents}), 0), coalesce(sum(${t.reserveFeeCents}), 0),
                 coalesce(sum(d.cents), 0), coalesce(sum(${t.adjustmentCents}), 0),
                 coalesce(sum(coalesce(${t.totalCents}, 0) + coalesce(${t.adjustmentCents}, 0)), 0)
          from ${t}
          left join (select ${billLine.transactionId} as id, sum(${billLine.amountCents}) as cents from ${billLine}
                     where ${billLine.priceId} is null group by 1) d on d.id = ${t.id}
          where ${t.billedAt} is not null group by 1, 2, 3`);
        await tx.execute(sql`
          insert into ${ledgerDay} (provider_id, day, trade_type, entry_count, amount_cents)
          select ${ledger.providerId}, (${ledger.createdAt} at time zone ${tz}::text)::date, ${ledger.tradeType}, count(*), sum(${ledger.amountCents})
          from ${ledger} group by 1, 2, 3`);
        await tx.execute(sql`analyze ${chargingDay}`);
        await tx.execute(sql`analyze ${pointMonth}`);
        await tx.execute(sql`analyze ${startMonth}`);
        await tx.execute(sql`analyze ${settlementDay}`);
        await tx.execute(sql`analyze ${ledgerDay}`);
        return true;
      });
    },
  };
}

export type StatisticsRepo = ReturnType<typeof createStatisticsRepo>;

import { and, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import {
  alarm,
  chargePoint,
  chargingTransaction as t,
  connector,
  pointMonth,
  pointOnlineLatest,
  pointOnlineMark,
  pointOnlineSpan as o,
} from '../../db/schema.js';

export const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;
/** A session's connector time in seconds: start to stop, or to `now` while it runs. */
export const sessionSeconds = (now: Date) => sql`greatest(0, extract(epoch from coalesce(${t.stoppedAt}, ${ts(now)}) - ${t.startedAt}))`;

/**
 * The seconds a point (`charge_point` of the outer query) was online before `at`, from its latest span starting
 * before it and that span's running total (`cum_before`); null when it never was. Online time over [a, b) is
 * onlineUntil(b) − onlineUntil(a): two index lookups per point, whatever the period's length.
 */
export const onlineUntil = (at: SQL) =>
  sql`(select ${o.cumBefore} + greatest(0, extract(epoch from least(coalesce(${o.endedAt}, ${at}), ${at}) - ${o.startedAt}))
       from ${o} where ${o.chargePointId} = ${chargePoint.id} and ${o.startedAt} < ${at}
       order by ${o.startedAt} desc limit 1)`;

/**
 * The same from the point's latest span (`point_online_latest`, joined to the outer query as `l`) when it started
 * before `at` (a period ending now, a start the point has been online or offline since): no lookup; else
 * `onlineUntil`. 0 for a point never online.
 */
export const onlineAt = (at: SQL) =>
  sql`(case when l.charge_point_id is null then 0
            when l.started_at < ${at} then l.cum_before + greatest(0, extract(epoch from least(coalesce(l.ended_at, ${at}), ${at}) - l.started_at))
            else coalesce(${onlineUntil(at)}, 0) end)`;

/**
 * The tables `onlineAt` and the connector count read, joined to `charge_point` of the outer query: its latest span
 * (`l`) and its connectors (`c.n`), counted for the points in scope only.
 */
export const onlineJoins = (inScope: SQL) =>
  sql`left join ${pointOnlineLatest} l on l.charge_point_id = ${chargePoint.id}
      left join (select ${connector.chargePointId} as point, count(*)::int as n from ${connector}
                 where ${connector.chargePointId} in (select ${chargePoint.id} from ${chargePoint} where ${inScope})
                 group by 1) c on c.point = ${chargePoint.id}`;

/** How far in the past an instant must be for every point's online seconds there to be kept (`pointOnlineMark`). */
export const MARK_AGE_MS = 86_400_000;

/** Whether `point_online_mark` holds the instant `at`. */
export const markExists = (at: SQL) => sql`select 1 as found from ${pointOnlineMark} where ${pointOnlineMark.at} = ${at}`;

/**
 * Keeps every point's online seconds at `at` (a concurrent request's row wins) and drops the marks over 400 days
 * older than it.
 */
export const writeMark = (at: SQL) =>
  sql`with gone as (delete from ${pointOnlineMark} where ${pointOnlineMark.at} < ${at} - interval '400 days')
      insert into ${pointOnlineMark} (at, point_ids, secs)
      select ${at}, coalesce(array_agg(${chargePoint.id} order by ${chargePoint.id}), '{}'),
             coalesce(array_agg(${onlineAt(at)} order by ${chargePoint.id}), '{}')
      from ${chargePoint} left join ${pointOnlineLatest} l on l.charge_point_id = ${chargePoint.id}
      on conflict (at) do nothing`;

/**
 * Connector seconds online over [from, until) per `key` (station or point) of the points in scope: each point's
 * online seconds at the end less those at the start, times its connectors. `marked`: the start's come from its
 * `point_online_mark` row (a point added since is looked up).
 */
export function onlineSeconds(key: PgColumn, inScope: SQL, from: SQL, until: SQL, marked = false) {
  const start = marked ? sql`coalesce(m.secs, ${onlineAt(from)})` : onlineAt(from);
  return sql`select ${key} as key, coalesce(sum((${onlineAt(until)} - ${start}) * coalesce(c.n, 0)), 0)::float8 as secs
             from ${chargePoint} ${onlineJoins(inScope)}
             ${
               marked
                 ? sql`left join (select unnest(point_ids) as point, unnest(secs) as secs from ${pointOnlineMark}
                                  where ${pointOnlineMark.at} = ${from}) m on m.point = ${chargePoint.id}`
                 : sql``
             }
             where ${inScope}
             group by 1`;
}

/** A local month the period touches: its first day and its first and last instants (the last exclusive). */
export interface LocalMonth {
  month: string;
  a: Date;
  b: Date;
}

export interface PointWindow {
  /** The scope's condition on a table's provider, station and point columns. */
  where: (providerCol: PgColumn, stationCol: PgColumn, pointCol?: PgColumn) => SQL;
  /** The period's first instant, its end or now if earlier, and now. */
  from: Date;
  until: Date;
  now: Date;
  /** The local months the period touches, when the point month totals are cut in its zone (else the records alone). */
  months?: LocalMonth[];
  /** How many points the ranking keeps at each end. */
  ranked: number;
}

/**
 * Where the finished sessions of [from, until) come from: a month the period covers from its month totals; a
 * month it covers in part from its records over that part, or, when the part left out is the shorter (the rest
 * of the month now, a few days before the period), from its month totals less the records of the part left out.
 */
export function monthPlan(from: Date, until: Date, months: LocalMonth[]) {
  const totals: string[] = [];
  const added: [Date, Date][] = [];
  const taken: [Date, Date][] = [];
  for (const m of months) {
    const a = from > m.a ? from : m.a;
    const b = until < m.b ? until : m.b;
    if (a >= b) continue;
    const inside = b.getTime() - a.getTime();
    if (inside * 2 <= m.b.getTime() - m.a.getTime()) {
      added.push([a, b]);
      continue;
    }
    totals.push(m.month);
    if (m.a < a) taken.push([m.a, a]);
    if (b < m.b) taken.push([b, m.b]);
  }
  return { totals, added, taken };
}

/**
 * The statements over the points of operation statistics (issue 20 items 3 and 6): their use in the period, their
 * connectors and faults as rows, the same counted per station in the database, and the points with the most and
 * the least energy ranked in the database, so that only those cross to the server.
 */
export function pointQueries({ where, from, until, now, months, ranked }: PointWindow) {
  const seconds = sessionSeconds(now);
  const recordsBetween = ([a, b]: [Date, Date]) =>
    and(where(t.providerId, t.stationId, t.chargePointId), sql`${t.startedAt} >= ${ts(a)}`, sql`${t.startedAt} < ${ts(b)}`);
  const ofRecords = (cond: SQL | undefined, sign = sql``, secs = seconds) =>
    sql`select ${t.chargePointId} as point, ${sign}count(*)::int as n, ${sign}coalesce(sum(${t.energyWh}), 0)::float8 as wh,
               ${sign}coalesce(sum(${secs}), 0)::float8 as secs
        from ${t} where ${cond} group by 1`;
  const finished = sql`${t.stoppedAt} is not null`;
  const plan = months ? monthPlan(from, until, months) : undefined;
  /** Sessions, energy and connector time per point. */
  const use = plan
    ? sql`select point, sum(n)::int as n, sum(wh)::float8 as wh, sum(secs)::float8 as secs
          from (select ${pointMonth.chargePointId} as point, ${pointMonth.chargeCount} as n, ${pointMonth.energyWh}::float8 as wh,
                       ${pointMonth.chargingSeconds}::float8 as secs
                from ${pointMonth}
                where ${and(
                  where(pointMonth.providerId, pointMonth.stationId, pointMonth.chargePointId),
                  plan.totals.length
                    ? sql`${pointMonth.month} in (${sql.join(
                        plan.totals.map((m) => sql`${m}::date`),
                        sql`, `,
                      )})`
                    : sql`false`,
                )}
                ${sql.join(
                  [
                    ...plan.added.map((r) => sql`union all ${ofRecords(and(recordsBetween(r), finished))}`),
                    // Less what the month totals hold of the part left out, as the trigger added it (whole seconds).
                    ...plan.taken.map(
                      (r) =>
                        sql`union all ${ofRecords(
                          and(recordsBetween(r), finished),
                          sql`-`,
                          sql`greatest(0, extract(epoch from ${t.stoppedAt} - ${t.startedAt}))::bigint`,
                        )}`,
                    ),
                  ],
                  sql` `,
                )}
                -- The sessions still running, from the records (the totals hold the finished ones).
                union all ${ofRecords(and(recordsBetween([from, until]), sql`${t.stoppedAt} is null`))}) u
          group by 1`
    : ofRecords(recordsBetween([from, until]));
  const alarmsIn = and(
    where(alarm.providerId, alarm.stationId, alarm.chargePointId),
    sql`${alarm.occurredAt} >= ${ts(from)}`,
    sql`${alarm.occurredAt} < ${ts(until)}`,
  );
  /** Alarms per point. */
  const faults = sql`select ${alarm.chargePointId} as point, count(*)::int as n from ${alarm} where ${alarmsIn} group by 1`;
  const inScope = where(chargePoint.providerId, chargePoint.stationId, chargePoint.id);
  const connectors = (point: SQL) => sql`(select count(*) from ${connector} where ${connector.chargePointId} = ${point})::int`;
  return {
    use,
    faults,
    /** Every point with its connectors. */
    inventory: sql`select ${chargePoint.id} as point, ${chargePoint.stationId} as station, ${chargePoint.name} as name,
                          ${chargePoint.serialNumber} as serial, count(${connector.id})::int as connectors
                   from ${chargePoint} left join ${connector} on ${connector.chargePointId} = ${chargePoint.id}
                   where ${inScope} group by 1`,
    /** Points, connectors, faults and points with faults per station of the points, and in all (`total`). */
    counts: sql`select grouping(p.station) = 1 as total, p.station, count(*)::int as points, sum(p.connectors)::int as connectors,
                       coalesce(sum(f.n), 0)::int as faults, count(f.n)::int as faulty
                from (select ${chargePoint.id} as point, ${chargePoint.stationId} as station, ${connectors(sql`${chargePoint.id}`)} as connectors
                      from ${chargePoint} where ${inScope}) p
                left join (${faults}) f on f.point = p.point
                group by grouping sets ((p.station), ())`,
    /** The points with the most energy (`top`) and the least, as the server sorts them: energy, then sessions, then the lower id first. */
    ranked: sql`with p as (select ${chargePoint.id} as point, ${chargePoint.stationId} as station,
                                  coalesce(nullif(${chargePoint.name}, ''), ${chargePoint.serialNumber}) as name,
                                  coalesce(u.n, 0) as n, coalesce(u.wh, 0)::float8 as wh, coalesce(u.secs, 0)::float8 as secs
                           from ${chargePoint} left join (${use}) u on u.point = ${chargePoint.id}
                           where ${inScope})
                select r.*, ${connectors(sql`r.point`)} as connectors,
                       (select count(*) from ${alarm} where ${and(alarmsIn, sql`${alarm.chargePointId} = r.point`)})::int as faults
                from ((select true as top, * from p order by wh desc, n desc, point limit ${ranked})
                      union all (select false as top, * from p order by wh, n, point desc limit ${ranked})) r`,
  };
}

export interface PointUse {
  point: number;
  n: number;
  wh: number;
  secs: number;
}
export interface PointInventory {
  point: number;
  station: number;
  name: string;
  serial: string;
  connectors: number;
}
export interface PointCounts {
  total: boolean;
  station: number;
  points: number;
  connectors: number;
  faults: number;
  faulty: number;
}
export interface RankedPoint extends PointUse {
  top: boolean;
  station: number;
  name: string;
  connectors: number;
  faults: number;
}

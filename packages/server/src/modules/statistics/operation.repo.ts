import type { OperationFigures, OperationRow, OperationStats, OperationStatsFilter } from '@csms/contract';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { chargePoint, chargingDay, chargingDayZone, chargingTransaction as t, startMonth, station } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { canSeeProvider, providerScope, stationScope } from '../../lib/scope.js';
import {
  markExists,
  MARK_AGE_MS,
  onlineSeconds,
  writeMark,
  pointQueries,
  sessionSeconds,
  ts,
  type PointCounts,
  type PointInventory,
  type PointUse,
  type RankedPoint,
} from './operation.points.js';
import { daysOf, periodDays, wholeMonths } from './period.js';
const RANKED = 5;

interface Use {
  n: number;
  wh: number;
  secs: number;
}
interface Tally extends Use {
  connectors: number;
  /** Connector seconds online in the period, from the connection history (point_online_span), × the connectors. */
  online: number;
  points: number;
  faults: number;
  faultyPoints: number;
}
const empty = (): Tally => ({ n: 0, wh: 0, secs: 0, connectors: 0, online: 0, points: 0, faults: 0, faultyPoints: 0 });

/** A tally's figures. */
export function figuresOf(x: Tally): OperationFigures {
  const online = Math.round(x.online);
  const secs = Math.round(x.secs);
  return {
    chargeCount: x.n,
    energyWh: x.wh,
    chargingSeconds: secs,
    onlineSeconds: online,
    idleSeconds: Math.max(0, online - secs),
    utilisation: online > 0 ? Math.min(1, secs / online) : 0,
    averageSeconds: x.n > 0 ? Math.round(secs / x.n) : 0,
    averageEnergyWh: x.n > 0 ? Math.round(x.wh / x.n) : 0,
    faultCount: x.faults,
    faultyPoints: x.faultyPoints,
    pointCount: x.points,
    connectorCount: x.connectors,
    faultRate: x.points > 0 ? x.faultyPoints / x.points : 0,
  };
}

/**
 * Operation statistics (issue 20 item 3). Days are cut in the zone of the scope: the station's where a
 * station or a point is chosen (or the user is bound to one station), else `CSMS_TIME_ZONE`. Finished
 * sessions of stations come from the day totals (`charging_day`, kept by triggers) when they are cut in
 * that zone, else from the records; the heat map takes the period's whole months from the start month
 * totals (`start_month`) and the days around them from the day totals; the points' ranking takes the whole
 * months from the point month totals (`point_month`) and the days around them from the records, and is
 * ranked in the database; a point's own figures come from its records (they are few). Running sessions are
 * read live.
 */
export function createOperationStatsRepo({ db, defaultZone }: { db: Db; defaultZone: string }) {
  const all = async <T>(q: SQL) => ((await db.execute(q)) as unknown as { rows: T[] }).rows;

  /** The caller's scope narrowed to the filter's provider, station or point; null when any is not visible. */
  async function scopeOf(p: Principal, f: OperationStatsFilter) {
    if (f.providerId !== undefined && !canSeeProvider(p, f.providerId)) return null;
    let stationId = f.stationId;
    if (f.pointId !== undefined) {
      const [pt] = await db
        .select({ stationId: chargePoint.stationId })
        .from(chargePoint)
        .where(and(eq(chargePoint.id, f.pointId), providerScope(p, chargePoint.providerId), stationScope(p, chargePoint.stationId)));
      if (!pt || (stationId !== undefined && stationId !== pt.stationId)) return null;
      stationId = pt.stationId;
    }
    let timeZone = defaultZone;
    const zoneStation = stationId ?? (p.stationIds?.length === 1 ? p.stationIds[0] : undefined);
    if (zoneStation !== undefined) {
      const [st] = await db
        .select({ timeZone: station.timeZone, providerId: station.providerId })
        .from(station)
        .where(and(eq(station.id, zoneStation), providerScope(p, station.providerId), stationScope(p, station.id)));
      if (!st) return null;
      if (f.providerId !== undefined && stationId !== undefined && st.providerId !== f.providerId) return null;
      timeZone = st.timeZone ?? defaultZone;
    }
    // Never empty (a super provider's user with no filter has no condition at all).
    const where = (providerCol: PgColumn, stationCol: PgColumn, pointCol?: PgColumn): SQL =>
      and(
        providerScope(p, providerCol),
        stationScope(p, stationCol),
        f.providerId !== undefined ? eq(providerCol, f.providerId) : undefined,
        stationId !== undefined ? eq(stationCol, stationId) : undefined,
        pointCol && f.pointId !== undefined ? eq(pointCol, f.pointId) : undefined,
      ) ?? sql`true`;
    return { stationId, pointId: f.pointId, timeZone, where };
  }

  async function report(p: Principal, f: OperationStatsFilter, now: Date, fromRecords = false): Promise<OperationStats> {
    const scope = await scopeOf(p, f);
    if (!scope) throw notFound();
    const { timeZone: tz, where } = scope;
    const [today] = await all<{ v: string }>(sql`select to_char(${ts(now)} at time zone ${tz}::text, 'YYYY-MM-DD') as v`);
    const { startDate, endDate } = periodDays(f, today!.v);
    const months = wholeMonths(startDate, endDate) ?? { from: startDate, to: startDate };
    const [bounds] = await all<{ a: string; b: string; months: { month: string; a: string; b: string }[]; zone: string | null }>(
      sql`select (${startDate}::date::timestamp at time zone ${tz}::text) as a, ((${endDate}::date + 1)::timestamp at time zone ${tz}::text) as b,
                 (select json_agg(json_build_object('month', to_char(m, 'YYYY-MM-DD'), 'a', m at time zone ${tz}::text,
                                                    'b', (m + interval '1 month') at time zone ${tz}::text) order by m)
                  from generate_series(date_trunc('month', ${startDate}::date::timestamp), ${endDate}::date::timestamp, interval '1 month') m) as months,
                 (select ${chargingDayZone.timeZone} from ${chargingDayZone} where ${chargingDayZone.id} = 1) as zone`,
    );
    const from = new Date(bounds!.a);
    const to = new Date(bounds!.b);
    const until = to < now ? to : now;
    const totalsCutHere = !fromRecords && scope.pointId === undefined && bounds!.zone === tz;
    // The heat map's whole months from the start month totals, when those are cut here.
    const monthsCutHere = totalsCutHere && months.from < months.to;
    // Every point crosses to the server where its rows are shown (a station's points) and for the reference from the
    // records; otherwise the points are counted per station and ranked in the database, and only the ranked ones cross
    // (10,000 points' rows took 70–120 ms to receive).
    const rankHere = !fromRecords && scope.stationId === undefined;
    const points = pointQueries({
      where,
      from,
      until,
      now,
      months: totalsCutHere ? bounds!.months.map((m) => ({ month: m.month, a: new Date(m.a), b: new Date(m.b) })) : undefined,
      ranked: RANKED,
    });

    const recordsIn = and(
      where(t.providerId, t.stationId, t.chargePointId),
      sql`${t.startedAt} >= ${ts(from)}`,
      sql`${t.startedAt} < ${ts(until)}`,
    );
    const running = and(recordsIn, sql`${t.stoppedAt} is null`);
    const localStart = sql`(${t.startedAt} at time zone ${tz}::text)`;
    const seconds = sessionSeconds(now);
    const stationDays = (cond: SQL | undefined) =>
      sql`select ${t.stationId} as station, ${localStart}::date as d, count(*)::int as n,
                 coalesce(sum(${t.energyWh}), 0)::float8 as wh, coalesce(sum(${seconds}), 0)::float8 as secs
          from ${t} where ${cond} group by 1, 2`;
    const heatOfRecords = (cond: SQL | undefined) =>
      sql`select extract(isodow from ${localStart})::int as dow, extract(hour from ${localStart})::int as h, count(*)::int as n
          from ${t} where ${cond} group by 1, 2`;
    const inDays = sql`${chargingDay.day} between ${startDate}::date and ${endDate}::date`;
    const sums = (col: PgColumn, n: number, name: string) =>
      sql.join(
        Array.from(
          { length: n },
          (_, i) => sql`coalesce(sum(${col}[${sql.raw(String(i + 1))}]), 0)::int as ${sql.identifier(`${name}${i}`)}`,
        ),
        sql`, `,
      );
    const none = Promise.resolve([]);
    // Connector seconds online from the points' connection history (point_online_span): per point, its online seconds
    // up to the period's end less those up to its start (from its latest span's row, or a lookup of the span and its
    // running total when the instant is before that span, whatever the period's length), times its connectors.
    // A start a day or more ago: every point's online seconds there are kept once (its lookups, by the first request
    // that starts there) and read in one row by the next ones.
    const marked = !fromRecords && from.getTime() <= now.getTime() - MARK_AGE_MS;
    if (marked && (await all(markExists(ts(from)))).length === 0) await db.execute(writeMark(ts(from)));
    const online = (key: PgColumn, only?: SQL) =>
      all<{ key: number; secs: number }>(
        onlineSeconds(
          key,
          and(where(chargePoint.providerId, chargePoint.stationId, chargePoint.id), only) ?? sql`true`,
          ts(from),
          ts(until),
          marked,
        ),
      );
    const [dayRows, heatRows, heatDays, heatMonths, pointUse, inventory, stations, faults, pointCounts, rankedPoints, onlineRows] =
      await Promise.all([
        // Summed in the database once per station and once per day (a year is ≈ 110,000 station days).
        all<{ station: number | null; day: string | null; n: number; wh: number; secs: number }>(
          // Grouped by the date, written as text only once per day (not once per station day).
          sql`select station, to_char(d, 'YYYY-MM-DD') as day, sum(n)::int as n, sum(wh)::float8 as wh, sum(secs)::float8 as secs
            from (${
              totalsCutHere
                ? sql`select ${chargingDay.stationId} as station, ${chargingDay.day} as d, ${chargingDay.chargeCount} as n,
                             ${chargingDay.energyWh}::float8 as wh, ${chargingDay.chargingSeconds}::float8 as secs
                      from ${chargingDay}
                      where ${and(where(chargingDay.providerId, chargingDay.stationId), inDays)}
                      union all ${stationDays(running)}`
                : stationDays(recordsIn)
            }) u
            group by grouping sets ((station), (d))`,
        ),
        all<{ dow: number; h: number; n: number }>(heatOfRecords(totalsCutHere ? running : recordsIn)),
        // The heat map's finished starts: the days around the whole months from the day totals' hours (every day without
        // whole months), the whole months from the start months' 168 cells (a year: 303 × 11 rows instead of 110,000).
        totalsCutHere
          ? all<Record<string, number>>(
              sql`select extract(isodow from ${chargingDay.day})::int as dow, ${sums(chargingDay.startsByHour, 24, 'h')}
                from ${chargingDay}
                where ${and(
                  where(chargingDay.providerId, chargingDay.stationId),
                  inDays,
                  monthsCutHere ? sql`(${chargingDay.day} < ${months.from}::date or ${chargingDay.day} >= ${months.to}::date)` : undefined,
                )}
                group by 1`,
            )
          : none,
        monthsCutHere
          ? all<Record<string, number>>(
              sql`select ${sums(startMonth.startsByWeekHour, 168, 'c')} from ${startMonth}
                where ${and(
                  where(startMonth.providerId, startMonth.stationId),
                  sql`${startMonth.month} >= ${months.from}::date and ${startMonth.month} < ${months.to}::date`,
                )}`,
            )
          : none,
        rankHere ? none : all<PointUse>(points.use),
        rankHere ? none : all<PointInventory>(points.inventory),
        all<{ id: number; name: string }>(
          sql`select ${station.id} as id, ${station.name} as name from ${station} where ${where(station.providerId, station.id)} order by ${station.name}`,
        ),
        rankHere ? none : all<{ point: number; n: number }>(points.faults),
        rankHere ? all<PointCounts>(points.counts) : none,
        rankHere ? all<RankedPoint>(points.ranked) : none,
        // Per station where the points are ranked in the database (not 10,000 rows), else per point.
        online(rankHere ? chargePoint.stationId : chargePoint.id),
      ]);
    const onlineOf = new Map(onlineRows.map((r) => [Number(r.key), Number(r.secs)]));
    // The ranked points' own online time, once they are known.
    const rankedOnline =
      rankHere && rankedPoints.length
        ? new Map(
            (await online(chargePoint.id, inArray(chargePoint.id, [...new Set(rankedPoints.map((x) => x.point))]))).map((r) => [
              Number(r.key),
              Number(r.secs),
            ]),
          )
        : onlineOf;

    const stationName = new Map(stations.map((s) => [s.id, s.name]));
    const faultsOf = new Map(faults.map((x) => [x.point, x.n]));
    const useOf = new Map(pointUse.map((x) => [x.point, x]));
    const add = (x: Tally, u: Use) => {
      x.n += Number(u.n);
      x.wh += Number(u.wh);
      x.secs += Number(u.secs);
    };

    // Points: their use, connectors and faults; stations: their connectors, points and faults from their points.
    const pointTally = new Map<number, Tally & { station: number; name: string }>();
    const stationTally = new Map<number, Tally>(stations.map((s) => [s.id, empty()]));
    const totals = empty();
    for (const pt of inventory) {
      const x = { ...empty(), station: pt.station, name: pt.name || pt.serial };
      const u = useOf.get(pt.point);
      if (u) add(x, u);
      x.connectors = pt.connectors;
      x.online = onlineOf.get(pt.point) ?? 0;
      x.points = 1;
      x.faults = faultsOf.get(pt.point) ?? 0;
      x.faultyPoints = x.faults > 0 ? 1 : 0;
      pointTally.set(pt.point, x);
      const st = stationTally.get(pt.station);
      for (const target of st ? [st, totals] : [totals]) {
        target.connectors += x.connectors;
        target.online += x.online;
        target.points += 1;
        target.faults += x.faults;
        target.faultyPoints += x.faultyPoints;
      }
    }
    // The same counts added up in the database.
    for (const c of pointCounts) {
      const target = c.total ? totals : stationTally.get(c.station);
      if (!target) continue;
      target.connectors += c.connectors;
      target.points += c.points;
      target.faults += c.faults;
      target.faultyPoints += c.faulty;
    }
    if (rankHere)
      for (const [id, secs] of onlineOf) {
        const st = stationTally.get(id);
        if (st) st.online += secs;
        totals.online += secs;
      }
    // Sessions per station and day (the day totals, or the records), and the series over the period's days.
    const byDay = new Map(daysOf(startDate, endDate).map((d) => [d, empty()]));
    for (const r of dayRows) {
      if (r.day === null) {
        const st = stationTally.get(r.station!);
        if (st) add(st, r);
        add(totals, r);
      } else {
        const d = byDay.get(r.day);
        if (d) add(d, r);
      }
    }

    const heatmap = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
    for (const r of heatRows) heatmap[r.dow - 1]![r.h]! += Number(r.n);
    for (const r of heatDays) for (let h = 0; h < 24; h++) heatmap[Number(r.dow) - 1]![h]! += Number(r[`h${h}`] ?? 0);
    for (const r of heatMonths) for (let k = 0; k < 168; k++) heatmap[Math.floor(k / 24)]![k % 24]! += Number(r[`c${k}`] ?? 0);

    const stationRows: OperationRow[] = stations.map((s) => ({
      id: s.id,
      name: s.name,
      stationName: s.name,
      ...figuresOf(stationTally.get(s.id)!),
    }));
    const pointRows: OperationRow[] = [...pointTally].map(([id, x]) => ({
      id,
      name: x.name,
      stationName: stationName.get(x.station) ?? '',
      ...figuresOf(x),
    }));
    const byEnergy = (a: OperationRow, b: OperationRow) => b.energyWh - a.energyWh || b.chargeCount - a.chargeCount || a.id - b.id;
    const ranked = (rows: OperationRow[]) => {
      const sorted = [...rows].sort(byEnergy);
      return { top: sorted.slice(0, RANKED), bottom: sorted.slice(-RANKED).reverse() };
    };
    const rs = ranked(stationRows);
    const pointRow = (x: (typeof rankedPoints)[number]): OperationRow => ({
      id: x.point,
      name: x.name,
      stationName: stationName.get(x.station) ?? '',
      ...figuresOf({
        n: x.n,
        wh: x.wh,
        secs: x.secs,
        connectors: x.connectors,
        online: rankedOnline.get(x.point) ?? 0,
        points: 1,
        faults: x.faults,
        faultyPoints: x.faults > 0 ? 1 : 0,
      }),
    });
    const rankedSide = (top: boolean) =>
      rankedPoints
        .filter((x) => x.top === top)
        .map(pointRow)
        .sort(byEnergy);
    const rp = rankHere ? { top: rankedSide(true), bottom: rankedSide(false).reverse() } : ranked(pointRows);
    const rowKind = scope.stationId !== undefined ? 'point' : 'station';
    return {
      timeZone: tz,
      startDate,
      endDate,
      totals: figuresOf(totals),
      series: [...byDay].map(([date, d]) => ({ date, chargeCount: d.n, energyWh: d.wh, chargingSeconds: Math.round(d.secs) })),
      heatmap,
      rowKind,
      rows: rowKind === 'point' ? pointRows.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id) : stationRows,
      topStations: rs.top,
      bottomStations: rs.bottom,
      topPoints: rp.top,
      bottomPoints: rp.bottom,
    };
  }

  return {
    report,
    /** The same report from the records alone, whatever the day totals hold (what they must equal). */
    reportFromRecords: (p: Principal, f: OperationStatsFilter, now: Date) => report(p, f, now, true),
  };
}

export type OperationStatsRepo = ReturnType<typeof createOperationStatsRepo>;

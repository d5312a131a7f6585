import {
  pointStatusOf,
  type ConnectorState,
  type LiveFault,
  type LiveSession,
  type PointState,
  type PointStatus,
  type StationState,
  type StatusCounts,
} from '@csms/contract';
import { and, asc, count, desc, eq, gte, ilike, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { lowerLike, contains } from '../../lib/text-search.js';
import {
  alarm,
  card,
  chargePoint,
  chargeUser,
  chargingLimit,
  chargingTransaction as tx,
  connector,
  reservation,
  meterValue,
  provider,
  station,
} from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { externalLimitOf } from '../chargingProfile/external-limit.js';
import { stationScope } from './scope.js';

const OCCUPIED = sql.raw(`('Preparing','Charging','SuspendedEV','SuspendedEVSE','Finishing','Reserved')`);

/** `pointStatusOf` in SQL, for counting in the database. */
const mappedStatus = sql`case when not ${chargePoint.online} then 'offline'
  when ${connector.status} = 'Available' then 'available'
  when ${connector.status} = 'Faulted' then 'faulted'
  when ${connector.status} in ${OCCUPIED} then 'charging'
  else 'unavailable' end`;

const countWhere = (cond: SQL) => sql<number>`count(${connector.id}) filter (where ${cond})`.mapWith(Number);
const countStatus = (s: PointStatus) => countWhere(sql`${mappedStatus} = ${s}`);

/**
 * Points having a connector (or, for faults, the point itself) in the console status `s`. The
 * connectors are matched in one pass (`in`), not probed point by point; spelled out for the subquery.
 */
function pointHasStatus(s: PointStatus): SQL {
  if (s === 'offline') return eq(chargePoint.online, false);
  const match: Record<Exclude<PointStatus, 'offline'>, SQL> = {
    available: sql`c.status = 'Available'`,
    faulted: sql`c.status = 'Faulted'`,
    charging: sql`c.status in ${OCCUPIED}`,
    unavailable: sql`(c.status is null or c.status not in ('Available', 'Faulted') and c.status not in ${OCCUPIED})`,
  };
  const viaConnector = sql`"charge_point"."id" in (select c.charge_point_id from "connector" c where ${match[s]})`;
  return and(eq(chargePoint.online, true), s === 'faulted' ? sql`(${chargePoint.status} = 'Faulted' or ${viaConnector})` : viaConnector)!;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export interface ChargingFilter {
  stationId?: number | undefined;
  serialNumber?: string | undefined;
  idTag?: string | undefined;
}
export interface PointFilter {
  stationId?: number | undefined;
  serialNumber?: string | undefined;
  status?: PointStatus | undefined;
  online?: boolean | undefined;
}

/** Live state for monitoring and the dashboard, in the caller's scope (providers, bound stations). */
export function createMonitorRepo({ db }: { db: Db }) {
  const pointScope = (p: Principal) => stationScope(p, chargePoint.providerId, chargePoint.stationId);

  return {
    async charging(p: Principal, f: ChargingFilter, page: number, limit: number): Promise<{ list: LiveSession[]; total: number }> {
      const cond = and(
        isNull(tx.stoppedAt),
        stationScope(p, tx.providerId, tx.stationId),
        f.stationId ? eq(tx.stationId, f.stationId) : undefined,
        f.serialNumber ? lowerLike(chargePoint.serialNumber, contains(f.serialNumber)) : undefined,
        f.idTag ? ilike(tx.idTag, contains(f.idTag)) : undefined,
      );
      // Energy so far: the stored total, or the latest sample above the start register (never negative).
      const energy = sql<number>`greatest(${tx.energyWh}, coalesce(${tx.lastMeterWh} - ${tx.meterStartWh}, 0), 0)`.mapWith(Number);
      // The page's ids first (running sessions by start, from the partial index), then the names and
      // accounts joined for those rows only: joined first, every running session was.
      const [ids, [total]] = await Promise.all([
        db
          .select({ id: tx.id })
          .from(tx)
          .innerJoin(chargePoint, eq(chargePoint.id, tx.chargePointId))
          .where(cond)
          .orderBy(desc(tx.startedAt), desc(tx.id))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ n: count() }).from(tx).innerJoin(chargePoint, eq(chargePoint.id, tx.chargePointId)).where(cond),
      ]);
      const rows =
        ids.length === 0
          ? []
          : await db
              .select({
                transactionId: tx.id,
                providerId: tx.providerId,
                stationId: tx.stationId,
                stationName: station.name,
                chargePointId: tx.chargePointId,
                serialNumber: chargePoint.serialNumber,
                pointName: chargePoint.name,
                connectorNo: tx.connectorNo,
                idTag: tx.idTag,
                cardNumber: card.cardNumber,
                account: chargeUser.account,
                startType: tx.startType,
                startedAt: tx.startedAt,
                meterStartWh: tx.meterStartWh,
                energyWh: energy,
                powerW: tx.lastPowerW,
                soc: tx.lastSoc,
                lastSampleAt: tx.lastSampleAt,
                online: chargePoint.online,
              })
              .from(tx)
              .innerJoin(chargePoint, eq(chargePoint.id, tx.chargePointId))
              .innerJoin(station, eq(station.id, tx.stationId))
              // Only an authorised session shows its card and charge user; an unauthorised one its idTag only (chargeRecord.repo.ts).
              .leftJoin(card, and(eq(tx.authStatus, 'Accepted'), eq(card.id, tx.cardId)))
              .leftJoin(
                chargeUser,
                and(eq(tx.authStatus, 'Accepted'), eq(chargeUser.id, sql`coalesce(${tx.chargeUserId}, ${card.chargeUserId})`)),
              )
              .where(
                and(
                  cond,
                  inArray(
                    tx.id,
                    ids.map((r) => r.id),
                  ),
                ),
              )
              .orderBy(desc(tx.startedAt), desc(tx.id));
      return {
        list: rows.map((r) => ({
          ...r,
          meterStartWh: Number(r.meterStartWh),
          startedAt: iso(r.startedAt)!,
          lastSampleAt: iso(r.lastSampleAt),
        })),
        total: total?.n ?? 0,
      };
    },

    async points(p: Principal, f: PointFilter, page: number, limit: number): Promise<{ list: PointState[]; total: number }> {
      const cond = and(
        pointScope(p),
        f.stationId ? eq(chargePoint.stationId, f.stationId) : undefined,
        f.serialNumber ? lowerLike(chargePoint.serialNumber, contains(f.serialNumber)) : undefined,
        f.online !== undefined ? eq(chargePoint.online, f.online) : undefined,
        f.status ? pointHasStatus(f.status) : undefined,
      );
      const [rows, [total]] = await Promise.all([
        db
          .select({
            chargePointId: chargePoint.id,
            serialNumber: chargePoint.serialNumber,
            name: chargePoint.name,
            providerId: chargePoint.providerId,
            stationId: chargePoint.stationId,
            stationName: station.name,
            online: chargePoint.online,
            enabled: chargePoint.enabled,
            ocppStatus: chargePoint.status,
            errorCode: chargePoint.errorCode,
            lastSeenAt: chargePoint.lastSeenAt,
            connectedAt: chargePoint.connectedAt,
            firmwareVersion: chargePoint.firmwareVersion,
            ocppVersion: chargePoint.ocppVersion,
          })
          .from(chargePoint)
          .innerJoin(station, eq(station.id, chargePoint.stationId))
          .where(cond)
          .orderBy(asc(station.name), asc(chargePoint.serialNumber))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ n: count() }).from(chargePoint).innerJoin(station, eq(station.id, chargePoint.stationId)).where(cond),
      ]);
      const ids = rows.map((r) => r.chargePointId);
      const [connectors, running, reserved, limits] =
        ids.length === 0
          ? [[], [], [], []]
          : await Promise.all([
              db.select().from(connector).where(inArray(connector.chargePointId, ids)).orderBy(asc(connector.connectorNo)),
              db
                .select({ id: tx.id, chargePointId: tx.chargePointId, connectorNo: tx.connectorNo })
                .from(tx)
                .where(and(inArray(tx.chargePointId, ids), isNull(tx.stoppedAt)))
                .orderBy(asc(tx.id)),
              db
                .select({
                  id: reservation.id,
                  chargePointId: reservation.chargePointId,
                  connectorNo: reservation.connectorNo,
                  chargeUserAccount: chargeUser.account,
                  expiryAt: reservation.expiryAt,
                })
                .from(reservation)
                .innerJoin(chargeUser, eq(chargeUser.id, reservation.chargeUserId))
                .where(and(inArray(reservation.chargePointId, ids), eq(reservation.status, 'reserved')))
                .orderBy(asc(reservation.id)),
              db.select().from(chargingLimit).where(inArray(chargingLimit.chargePointId, ids)),
            ]);
      const now = new Date();
      const txOf = new Map(running.map((t) => [`${t.chargePointId}:${t.connectorNo}`, t.id]));
      const reservationOf = (pointId: number, no: number, ocppStatus: string | null) => {
        const r =
          reserved.find((x) => x.chargePointId === pointId && x.connectorNo === no) ??
          (ocppStatus === 'Reserved' ? reserved.find((x) => x.chargePointId === pointId && x.connectorNo === 0) : undefined);
        return r ? { id: r.id, chargeUserAccount: r.chargeUserAccount, expiryTime: r.expiryAt.toISOString() } : null;
      };
      return {
        list: rows.map((r) => ({
          ...r,
          status: pointStatusOf(r.ocppStatus, r.online),
          lastSeenAt: iso(r.lastSeenAt),
          connectedAt: iso(r.connectedAt),
          connectors: connectors
            .filter((c) => c.chargePointId === r.chargePointId)
            .map((c): ConnectorState => ({
              connectorNo: c.connectorNo,
              name: c.name,
              standard: c.standard,
              type: c.type,
              status: pointStatusOf(c.status, r.online),
              ocppStatus: c.status,
              errorCode: c.errorCode,
              info: c.info,
              statusAt: iso(c.statusAt),
              transactionId: txOf.get(`${r.chargePointId}:${c.connectorNo}`) ?? null,
              reservation: reservationOf(r.chargePointId, c.connectorNo, c.status),
              externalLimit: externalLimitOf(
                limits.filter((l) => l.chargePointId === r.chargePointId),
                c.connectorNo,
                now,
              ),
            })),
        })),
        total: total?.n ?? 0,
      };
    },

    async stations(
      p: Principal,
      f: { stationName?: string | undefined },
      page: number,
      limit: number,
    ): Promise<{ list: StationState[]; total: number }> {
      const cond = and(
        stationScope(p, station.providerId, station.id),
        f.stationName ? ilike(station.name, contains(f.stationName)) : undefined,
      );
      // The page's stations first (by name, from its index), then their points and connectors
      // counted for those stations only: grouped first, every station's were.
      const [ids, [total]] = await Promise.all([
        db
          .select({ id: station.id })
          .from(station)
          .where(cond)
          .orderBy(asc(station.name), asc(station.id))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ n: count() }).from(station).where(cond),
      ]);
      if (ids.length === 0) return { list: [], total: total?.n ?? 0 };
      const rows = await db
        .select({
          stationId: station.id,
          stationName: station.name,
          providerName: provider.name,
          points: sql<number>`count(distinct ${chargePoint.id})`.mapWith(Number),
          pointsOnline: sql<number>`count(distinct ${chargePoint.id}) filter (where ${chargePoint.online})`.mapWith(Number),
          pointsOffline: sql<number>`count(distinct ${chargePoint.id}) filter (where not ${chargePoint.online})`.mapWith(Number),
          connectors: sql<number>`count(${connector.id})`.mapWith(Number),
          available: countStatus('available'),
          charging: countStatus('charging'),
          unavailable: countStatus('unavailable'),
          faulted: countStatus('faulted'),
          offline: countStatus('offline'),
        })
        .from(station)
        .innerJoin(provider, eq(provider.id, station.providerId))
        .leftJoin(chargePoint, eq(chargePoint.stationId, station.id))
        .leftJoin(connector, eq(connector.chargePointId, chargePoint.id))
        .where(
          and(
            cond,
            inArray(
              station.id,
              ids.map((r) => r.id),
            ),
          ),
        )
        .groupBy(station.id, provider.name)
        .orderBy(asc(station.name), asc(station.id));
      return { list: rows, total: total?.n ?? 0 };
    },

    /**
     * Every station of the caller's scope (by name, at most `limit`) with its place, its connectors
     * by console status and the power its running sessions draw now (each one's last sample).
     */
    async board(p: Principal, limit: number) {
      const cond = stationScope(p, station.providerId, station.id);
      const drawing = db
        .select({
          stationId: tx.stationId,
          powerW: sql<number>`coalesce(sum(${tx.lastPowerW}), 0)`.as('power_w'),
        })
        .from(tx)
        .where(and(isNull(tx.stoppedAt), isNotNull(tx.lastPowerW)))
        .groupBy(tx.stationId)
        .as('drawing');
      const [ids, [total]] = await Promise.all([
        db.select({ id: station.id }).from(station).where(cond).orderBy(asc(station.name), asc(station.id)).limit(limit),
        db.select({ n: count() }).from(station).where(cond),
      ]);
      if (ids.length === 0) return { stations: [], truncated: false };
      const rows = await db
        .select({
          stationId: station.id,
          stationName: station.name,
          longitude: station.longitude,
          latitude: station.latitude,
          connectors: sql<number>`count(${connector.id})`.mapWith(Number),
          available: countStatus('available'),
          charging: countStatus('charging'),
          faulted: countStatus('faulted'),
          offline: countStatus('offline'),
          unavailable: countStatus('unavailable'),
          powerW: sql<number>`coalesce(max(${drawing.powerW}), 0)`.mapWith(Number),
        })
        .from(station)
        .leftJoin(chargePoint, eq(chargePoint.stationId, station.id))
        .leftJoin(connector, eq(connector.chargePointId, chargePoint.id))
        .leftJoin(drawing, eq(drawing.stationId, station.id))
        .where(
          inArray(
            station.id,
            ids.map((r) => r.id),
          ),
        )
        .groupBy(station.id)
        .orderBy(asc(station.name), asc(station.id));
      return { stations: rows, truncated: (total?.n ?? 0) > ids.length };
    },

    async counts(p: Principal, stationId?: number): Promise<StatusCounts> {
      const cond = and(pointScope(p), stationId ? eq(chargePoint.stationId, stationId) : undefined);
      const [[c], [points]] = await Promise.all([
        db
          .select({
            total: sql<number>`count(${connector.id})`.mapWith(Number),
            connected: countWhere(sql`${chargePoint.online}`),
            free: countStatus('available'),
            charging: countStatus('charging'),
            unavailable: countStatus('unavailable'),
            offline: countStatus('offline'),
            fault: countStatus('faulted'),
          })
          .from(connector)
          .innerJoin(chargePoint, eq(chargePoint.id, connector.chargePointId))
          .where(cond),
        db
          .select({
            online: sql<number>`count(*) filter (where ${chargePoint.online})`.mapWith(Number),
            offline: sql<number>`count(*) filter (where not ${chargePoint.online})`.mapWith(Number),
          })
          .from(chargePoint)
          .where(cond),
      ]);
      return {
        total: c?.total ?? 0,
        connected: c?.connected ?? 0,
        free: c?.free ?? 0,
        charging: c?.charging ?? 0,
        unavailable: c?.unavailable ?? 0,
        offline: c?.offline ?? 0,
        fault: c?.fault ?? 0,
        pointsOnline: points?.online ?? 0,
        pointsOffline: points?.offline ?? 0,
      };
    },

    async faults(p: Principal, limit: number): Promise<LiveFault[]> {
      const rows = await db
        .select({
          alarmId: alarm.id,
          stationName: station.name,
          serialNumber: chargePoint.serialNumber,
          pointName: chargePoint.name,
          connectorNo: alarm.connectorNo,
          level: alarm.level,
          status: alarm.status,
          errorCode: alarm.errorCode,
          info: alarm.info,
          occurredAt: alarm.occurredAt,
        })
        .from(alarm)
        .innerJoin(chargePoint, eq(chargePoint.id, alarm.chargePointId))
        .innerJoin(station, eq(station.id, alarm.stationId))
        .where(and(isNull(alarm.clearedAt), stationScope(p, alarm.providerId, alarm.stationId)))
        .orderBy(desc(alarm.occurredAt), desc(alarm.id))
        .limit(limit);
      return rows.map((r) => ({ ...r, occurredAt: iso(r.occurredAt)! }));
    },

    /**
     * The network's mean power per bucket over the last 24 hours: the energy its sessions drew in the
     * bucket ÷ the bucket's length (the bucket under way: its time so far). A session's samples in a
     * bucket stand for their span there plus one sample interval (the span ÷ samples − 1), never past
     * now; a lone sample stands for the whole bucket (a point sampled less often than that). So a
     * session that charged five minutes of an hour counts about a twelfth of its power, not all of it.
     * One grouping pass over the day's samples: a window over them (each sample held until the next)
     * cost 2.7 times the old sum of averages.
     */
    async powerTrend(p: Principal, bucketMinutes: number, now = new Date()) {
      const bucketMs = bucketMinutes * 60_000;
      const buckets = (24 * 60) / bucketMinutes;
      const current = Math.floor(now.getTime() / bucketMs) * bucketMs;
      const first = current - (buckets - 1) * bucketMs;
      const seconds = bucketMinutes * 60;
      const scope = pointScope(p);
      const recent = and(gte(meterValue.sampledAt, new Date(first)), isNotNull(meterValue.powerW));
      // Per session (or connector, outside sessions) and bucket: the mean power × the time it stands for.
      // Timestamps, not epochs, are compared per sample (extract(epoch) is a numeric per row: 1.5 times the cost).
      const t0 = sql`min(${meterValue.sampledAt})`;
      const span = sql`extract(epoch from max(${meterValue.sampledAt}) - ${t0})::float8`;
      const covered = sql`least(case when count(*) > 1 then ${span} * count(*) / (count(*) - 1) else ${seconds}::float8 end, extract(epoch from ${now.toISOString()}::timestamptz - ${t0})::float8, ${seconds}::float8)`;
      const perBucket = db
        .select({
          b: sql<Date>`date_bin(${`${seconds} seconds`}::interval, ${meterValue.sampledAt}, timestamptz 'epoch')`.as('b'),
          wattSeconds: sql<number>`sum(${meterValue.powerW})::float8 / count(*) * greatest(${covered}, 0)`.as('ws'),
        })
        .from(meterValue);
      // The points' table only when the caller's scope needs it (every sample has its point: a foreign key).
      const held = (
        scope
          ? perBucket.innerJoin(chargePoint, eq(chargePoint.id, meterValue.chargePointId)).where(and(recent, scope))
          : perBucket.where(recent)
      )
        .groupBy(sql`1`, meterValue.chargePointId, meterValue.connectorNo, meterValue.transactionId)
        .as('held');
      const rows = await db.transaction(async (tx) => {
        // A day's samples make tens of thousands of groups: hashed in memory (16 MB) instead of sorted on disk (60 → 45 ms).
        await tx.execute(sql`set local work_mem = '16MB'`);
        return tx
          .select({
            at: sql<number>`extract(epoch from ${held.b})`.mapWith(Number),
            wattSeconds: sql<number>`sum(${held.wattSeconds})`.mapWith(Number),
          })
          .from(held)
          .groupBy(held.b);
      });
      const elapsed = Math.max(1, (now.getTime() - current) / 1000);
      const byBucket = new Map(rows.map((r) => [r.at * 1000, r.wattSeconds]));
      return {
        bucketMinutes,
        points: Array.from({ length: buckets }, (_, i) => {
          const at = first + i * bucketMs;
          const span = at === current ? Math.min(elapsed, seconds) : seconds;
          return { at: new Date(at).toISOString(), powerW: Math.round((byBucket.get(at) ?? 0) / span) };
        }),
      };
    },
  };
}

export type MonitorRepo = ReturnType<typeof createMonitorRepo>;

import { pointStatusOf, type ConnectorInput, type PointDto, type PointStatus } from '@csms/contract';
import { and, asc, count, desc, eq, gt, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { chargePoint, chargingTransaction, connector, localControllerPoint, provider, reservation, station } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { providerScope, stationScope } from '../../lib/scope.js';
import { assertPointQuota } from '../../lib/point-quota.js';
import { lowerLike, contains } from '../../lib/text-search.js';

export interface PointFilter {
  serialNumber?: string | undefined;
  pointName?: string | undefined;
  stationId?: number | undefined;
  status?: PointStatus | undefined;
}

/** OCPP statuses that occupy a connector; the SQL twin of `pointStatusOf` (the point test checks they agree). */
const OCCUPIED = ['Preparing', 'Charging', 'SuspendedEV', 'SuspendedEVSE', 'Finishing', 'Reserved'];
const occupiedList = sql.join(
  OCCUPIED.map((s) => sql`${s}`),
  sql`, `,
);
/** The console status of an OCPP status while the point is online (offline is the point's flag). */
const onlineStatusSql = (ocpp: SQL) =>
  sql`case when ${ocpp} = 'Available' then 'available' when ${ocpp} = 'Faulted' then 'faulted' when ${ocpp} in (${occupiedList}) then 'charging' else 'unavailable' end`;
/**
 * The point itself or one of its connectors has status `s` (`pointStatusOf` of either): offline
 * is the point's own flag; otherwise the point is online and its status or a connector's maps to
 * `s`. The connectors are matched in one pass (`in`), not probed point by point.
 */
const statusFilter = (s: PointStatus) =>
  s === 'offline'
    ? sql`not "charge_point"."online"`
    : sql`("charge_point"."online" and (${onlineStatusSql(sql`"charge_point"."status"`)} = ${s} or "charge_point"."id" in (select c.charge_point_id from "connector" c where ${onlineStatusSql(sql`c.status`)} = ${s})))`;

const columns = {
  id: chargePoint.id,
  serialNumber: chargePoint.serialNumber,
  pointName: chargePoint.name,
  stationId: chargePoint.stationId,
  stationName: station.name,
  providerId: chargePoint.providerId,
  providerName: provider.name,
  equipmentType: chargePoint.equipmentType,
  ratedPowerW: chargePoint.ratedPowerW,
  softwareVersion: chargePoint.softwareVersion,
  ocppStatus: chargePoint.status,
  online: chargePoint.online,
  needsPlacement: chargePoint.needsPlacement,
  enabled: chargePoint.enabled,
  ocppKeyHash: chargePoint.ocppKeyHash,
  ocppKeySentAt: chargePoint.ocppKeySentAt,
  vendor: chargePoint.vendor,
  model: chargePoint.model,
  firmwareVersion: chargePoint.firmwareVersion,
  ocppVersion: chargePoint.ocppVersion,
  lastSeenAt: chargePoint.lastSeenAt,
  createdAt: chargePoint.createdAt,
};

export type PointRow = {
  id: number;
  serialNumber: string;
  pointName: string;
  stationId: number;
  stationName: string;
  providerId: number;
  providerName: string;
  equipmentType: string;
  ratedPowerW: number;
  softwareVersion: string | null;
  ocppStatus: string | null;
  online: boolean;
  needsPlacement: boolean;
  enabled: boolean;
  ocppKeyHash: string | null;
  ocppKeySentAt: Date | null;
  vendor: string | null;
  model: string | null;
  firmwareVersion: string | null;
  ocppVersion: string | null;
  lastSeenAt: Date | null;
  createdAt: Date;
};
type ConnectorRow = typeof connector.$inferSelect;

export function toDto(r: PointRow, connectors: ConnectorRow[]): PointDto {
  const own = connectors.filter((c) => c.chargePointId === r.id).sort((a, b) => a.connectorNo - b.connectorNo);
  return {
    id: r.id,
    serialNumber: r.serialNumber,
    pointName: r.pointName,
    stationId: r.stationId,
    stationName: r.stationName,
    providerId: r.providerId,
    providerName: r.providerName,
    equipmentType: r.equipmentType as PointDto['equipmentType'],
    ratedPowerW: r.ratedPowerW,
    softwareVersion: r.softwareVersion,
    connectorCount: own.length,
    connectors: own.map((c) => ({
      connectorNo: c.connectorNo,
      connectorName: c.name,
      standard: c.standard,
      type: c.type as PointDto['connectors'][number]['type'],
      status: pointStatusOf(c.status, r.online),
      ocppStatus: c.status,
      errorCode: c.errorCode,
      statusTime: c.statusAt?.toISOString() ?? null,
    })),
    status: pointStatusOf(r.ocppStatus, r.online),
    online: r.online,
    needsPlacement: r.needsPlacement,
    enabled: r.enabled,
    hasKey: r.ocppKeyHash !== null,
    keySentTime: r.ocppKeySentAt?.toISOString() ?? null,
    vendor: r.vendor,
    model: r.model,
    firmwareVersion: r.firmwareVersion,
    ocppVersion: r.ocppVersion,
    lastSeenTime: r.lastSeenAt?.toISOString() ?? null,
    createTime: r.createdAt.toISOString(),
  };
}

export interface PointValues {
  serialNumber: string;
  name: string;
  equipmentType: string;
  ratedPowerW: number;
  softwareVersion: string | null;
}

/** Charge points with their connectors, scoped by provider and bound stations. */
export function createPointRepo({ db }: { db: Db }) {
  const where = (p: Principal, ...more: (SQL | undefined)[]) =>
    and(providerScope(p, chargePoint.providerId), stationScope(p, chargePoint.stationId), ...more);
  const filterSql = (f: PointFilter) =>
    and(
      f.serialNumber ? lowerLike(chargePoint.serialNumber, contains(f.serialNumber)) : undefined,
      f.pointName ? lowerLike(chargePoint.name, contains(f.pointName)) : undefined,
      f.stationId ? eq(chargePoint.stationId, f.stationId) : undefined,
      f.status ? statusFilter(f.status) : undefined,
    );
  const base = () =>
    db
      .select(columns)
      .from(chargePoint)
      .innerJoin(station, eq(station.id, chargePoint.stationId))
      .innerJoin(provider, eq(provider.id, chargePoint.providerId));
  const connectorsOf = async (ids: number[]) =>
    ids.length === 0 ? [] : db.select().from(connector).where(inArray(connector.chargePointId, ids));
  const withConnectors = async (rows: PointRow[]) => {
    const cs = await connectorsOf(rows.map((r) => r.id));
    return rows.map((r) => toDto(r, cs));
  };

  return {
    /** Refuses (409) when the provider's authorised point count is reached; locks its row until the change commits. */
    assertQuota: (providerId: number) => assertPointQuota(db, providerId),
    async list(p: Principal, f: PointFilter, page: number, limit: number) {
      const cond = where(p, filterSql(f));
      const [rows, [total]] = await Promise.all([
        base()
          .where(cond)
          .orderBy(desc(chargePoint.id))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ n: count() }).from(chargePoint).where(cond),
      ]);
      return { list: await withConnectors(rows), total: total?.n ?? 0 };
    },
    async count(p: Principal, f: PointFilter) {
      const [row] = await db
        .select({ n: count() })
        .from(chargePoint)
        .where(where(p, filterSql(f)));
      return row?.n ?? 0;
    },
    /** One keyset page for the export engine, connectors attached. */
    async page(p: Principal, f: PointFilter, afterId: number, size: number) {
      const rows = await base()
        .where(where(p, filterSql(f), gt(chargePoint.id, afterId)))
        .orderBy(asc(chargePoint.id))
        .limit(size);
      return withConnectors(rows);
    },
    async get(p: Principal, id: number): Promise<PointDto | undefined> {
      const rows = await base()
        .where(where(p, eq(chargePoint.id, id)))
        .limit(1);
      return (await withConnectors(rows))[0];
    },
    async options(
      p: Principal,
      f: {
        stationId?: number | undefined;
        serialNumber?: string | undefined;
        model?: string | undefined;
        firmwareVersion?: string | undefined;
      },
    ) {
      const rows = await base()
        .where(
          where(
            p,
            filterSql(f),
            // What the charger reported at its last boot, exactly as a picker offers it.
            f.model ? eq(chargePoint.model, f.model) : undefined,
            f.firmwareVersion ? eq(chargePoint.firmwareVersion, f.firmwareVersion) : undefined,
          ),
        )
        .orderBy(asc(chargePoint.serialNumber))
        .limit(1000);
      return (await withConnectors(rows)).map((r) => ({
        id: r.id,
        serialNumber: r.serialNumber,
        pointName: r.pointName,
        stationId: r.stationId,
        stationName: r.stationName,
        providerId: r.providerId,
        model: r.model,
        firmwareVersion: r.firmwareVersion,
        ocppVersion: r.ocppVersion,
        connectors: r.connectors.map(({ connectorNo, connectorName, standard, type }) => ({ connectorNo, connectorName, standard, type })),
      }));
    },
    /** A station the caller can see (bound stations included). */
    async station(p: Principal, id: number) {
      const [row] = await db
        .select({ id: station.id, name: station.name, providerId: station.providerId, isUnassigned: station.isUnassigned })
        .from(station)
        .where(and(providerScope(p, station.providerId), stationScope(p, station.id), eq(station.id, id)))
        .limit(1);
      return row;
    },
    /** Serial numbers are the OCPP identity: unique system-wide, and case-insensitively so no two look alike. */
    async serialTaken(serial: string, exceptId?: number) {
      const [row] = await db
        .select({ id: chargePoint.id })
        .from(chargePoint)
        .where(
          and(sql`lower(${chargePoint.serialNumber}) = lower(${serial})`, exceptId ? sql`${chargePoint.id} <> ${exceptId}` : undefined),
        )
        .limit(1);
      return row !== undefined;
    },
    async insert(values: PointValues & { stationId: number; providerId: number; ocppKeyHash: string }, connectors: ConnectorInput[]) {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(chargePoint).values(values).returning({ id: chargePoint.id });
        await tx.insert(connector).values(connectors.map((c) => connectorValues(row!.id, c)));
        return row!.id;
      });
    },
    /** The point's fields and its connectors: kept by number (their OCPP status stays), added, or dropped. */
    async update(id: number, values: PointValues, connectors: ConnectorInput[]) {
      await db.transaction(async (tx) => {
        await tx.update(chargePoint).set(values).where(eq(chargePoint.id, id));
        const numbers = connectors.map((c) => c.connectorNo);
        await tx.delete(connector).where(and(eq(connector.chargePointId, id), notInArray(connector.connectorNo, numbers)));
        for (const c of connectors) {
          const v = connectorValues(id, c);
          await tx
            .insert(connector)
            .values(v)
            .onConflictDoUpdate({
              target: [connector.chargePointId, connector.connectorNo],
              set: { name: v.name, standard: v.standard, type: v.type },
            });
        }
      });
    },
    /** Reservations the point still holds: they belong to its station (its price, its operators), so it stays until they end. */
    async heldReservations(id: number): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(reservation)
        .where(and(eq(reservation.chargePointId, id), eq(reservation.status, 'reserved')));
      return row?.n ?? 0;
    },
    /** A local controller holds points of its own station: a moved point leaves its controller. */
    async move(id: number, to: { stationId: number; providerId: number; needsPlacement: boolean }) {
      await db.update(chargePoint).set(to).where(eq(chargePoint.id, id));
      await db.delete(localControllerPoint).where(eq(localControllerPoint.chargePointId, id));
    },
    /** A key issued by hand: the only one from now on (a key sent to the charger and not yet used stops working too). */
    async setKeyHash(id: number, ocppKeyHash: string) {
      await db.update(chargePoint).set({ ocppKeyHash, ocppKeyPreviousHash: null, ocppKeySentAt: null }).where(eq(chargePoint.id, id));
    },
    /** Ids among `ids` the caller can see, with their charging-record counts. */
    async visible(p: Principal, ids: number[]) {
      return db
        .select({
          id: chargePoint.id,
          serialNumber: chargePoint.serialNumber,
          transactions: sql<number>`(select count(*)::int from ${chargingTransaction} t where t.charge_point_id = "charge_point"."id")`,
        })
        .from(chargePoint)
        .where(where(p, inArray(chargePoint.id, ids)));
    },
    async remove(ids: number[]) {
      const rows = await db.delete(chargePoint).where(inArray(chargePoint.id, ids)).returning({ id: chargePoint.id });
      return rows.length;
    },
  };
}

const connectorValues = (chargePointId: number, c: ConnectorInput) => ({
  chargePointId,
  connectorNo: c.connectorNo,
  name: c.connectorName || null,
  standard: c.standard,
  type: c.type,
});

export type PointRepo = ReturnType<typeof createPointRepo>;

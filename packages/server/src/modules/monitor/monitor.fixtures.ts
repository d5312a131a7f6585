import type { Db } from '../../db/client.js';
import { alarm, chargePoint, chargingTransaction, connector, meterValue, ocppLog, station } from '../../db/schema.js';

/**
 * Rows the OCPP endpoint and the point CRUD would write, inserted straight into the database for
 * the tests of operator actions, monitoring and the OCPP log.
 */
let n = 0;
const uniq = (p: string) => `${p}${++n}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();

export async function insertStation(db: Db, providerId: number, v: Partial<typeof station.$inferInsert> = {}) {
  const [row] = await db
    .insert(station)
    .values({
      providerId,
      name: uniq('Station '),
      country: 'CN',
      address: 'Road 1',
      longitude: 121.5,
      latitude: 31.2,
      timeZone: 'Asia/Shanghai',
      ...v,
    })
    .returning();
  return row!;
}

/** A point with `connectors` connectors (statuses as given, default Available) in a station of its own unless one is given. */
export async function insertPoint(
  db: Db,
  providerId: number,
  v: Partial<typeof chargePoint.$inferInsert> & { connectorStatuses?: (string | null)[] } = {},
) {
  const { connectorStatuses = ['Available'], ...values } = v;
  const stationId = values.stationId ?? (await insertStation(db, providerId)).id;
  const [point] = await db
    .insert(chargePoint)
    .values({
      providerId,
      stationId,
      serialNumber: uniq('CP-'),
      name: uniq('Point '),
      equipmentType: 'ac',
      ratedPowerW: 22_000,
      online: true,
      ...values,
    })
    .returning();
  if (connectorStatuses.length > 0) {
    await db.insert(connector).values(
      connectorStatuses.map((status, i) => ({
        chargePointId: point!.id,
        connectorNo: i + 1,
        standard: 'ac' as const,
        type: 'Type2',
        status,
        errorCode: status === 'Faulted' ? 'GroundFailure' : 'NoError',
        statusAt: new Date(),
      })),
    );
  }
  return point!;
}

export async function insertTransaction(
  db: Db,
  point: { id: number; providerId: number; stationId: number },
  v: Partial<typeof chargingTransaction.$inferInsert> = {},
) {
  const [row] = await db
    .insert(chargingTransaction)
    .values({
      providerId: point.providerId,
      stationId: point.stationId,
      chargePointId: point.id,
      connectorNo: 1,
      idTag: uniq('TAG').slice(0, 20),
      startType: 'card',
      authStatus: 'Accepted',
      meterStartWh: 1000,
      startedAt: new Date(Date.now() - 60_000),
      ...v,
    })
    .returning();
  return row!;
}

export async function insertMeterValue(db: Db, v: typeof meterValue.$inferInsert) {
  await db.insert(meterValue).values(v);
}

export async function insertAlarm(
  db: Db,
  point: { id: number; providerId: number; stationId: number },
  v: Partial<typeof alarm.$inferInsert> = {},
) {
  const [row] = await db
    .insert(alarm)
    .values({
      providerId: point.providerId,
      stationId: point.stationId,
      chargePointId: point.id,
      connectorNo: 1,
      level: 'serious',
      status: 'Faulted',
      errorCode: 'GroundFailure',
      occurredAt: new Date(),
      ...v,
    })
    .returning();
  return row!;
}

export async function insertOcppLog(db: Db, v: typeof ocppLog.$inferInsert) {
  const [row] = await db.insert(ocppLog).values(v).returning();
  return row!;
}

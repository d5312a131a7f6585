import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { chargePoint, provider, station } from '../db/schema.js';
import { coalescing } from '../lib/coalesce.js';
import { pointQuotaFull } from '../lib/point-quota.js';
import type { MeterState } from './meter.js';

/**
 * What the OCPP hot path needs of a connected charger, loaded once per connection with one
 * query (point, station time zone, connectors, open alarms, open transactions), so no message
 * reads the database (DESIGN.md §6). Kept while the socket is open; `invalidate` reloads it.
 */
export interface PointState {
  id: number;
  serialNumber: string;
  providerId: number;
  stationId: number;
  timeZone: string;
  enabled: boolean;
  /** Auto-registered and not yet placed by an operator: its boot is answered Pending (`CSMS_OCPP_PENDING_UNTIL_PLACED`). */
  needsPlacement: boolean;
  ocppKeyHash: string | null;
  /** The key it had before a key sent to it, accepted until it connects with the new one (null: none waits). */
  ocppKeyPreviousHash: string | null;
  ratedPowerW: number;
  /** The OCPP version its last connection negotiated, as stored (null: never connected). */
  ocppVersion: string | null;
  connectors: Map<number, ConnectorState>;
  /** Open alarms by connector number. */
  alarms: Map<number, OpenAlarm[]>;
  /** Open transactions of this point by id. */
  transactions: Map<number, TxState>;
  /** RemoteStartTransaction requests the charger accepted, to tell remote starts from card swipes. */
  remoteStarts?: { idTag: string; connectorId: number | undefined; at: number }[];
}

export interface ConnectorState {
  status: string | null;
  errorCode: string | null;
  standard: 'ac' | 'dc' | 'combo';
  type: string;
}

export interface OpenAlarm {
  id: number;
  errorCode: string;
  level: 'serious' | 'common';
}

export interface TxState extends MeterState {
  id: number;
  connectorNo: number;
  idTag: string;
  /** The authorization status answered at start. */
  authStatus: string;
  /** Whether the start was authorized (counts as the idTag's running transaction). */
  accepted: boolean;
  startedAt: number;
  late: boolean;
  /** OCPP 2.0.1: the charger's transactionId. */
  ocppTxId?: string;
}

interface ConnectorJson {
  no: number;
  status: string | null;
  errorCode: string | null;
  standard: ConnectorState['standard'];
  type: string;
}
interface AlarmJson {
  id: number;
  no: number;
  errorCode: string;
  level: OpenAlarm['level'];
}
export interface TxJson {
  id: number;
  no: number;
  idTag: string;
  authStatus: string;
  meterStart: number;
  lastMeter: number | null;
  lastSampleAt: string | null;
  startedAt: string;
  energy: number;
  valid: boolean;
  invalidReason: string | null;
  late: boolean;
  ocppTxId: string | null;
}

/** json_agg of nothing is null; PGlite and node-postgres both parse json into values. */
const parsed = <T>(v: unknown): T[] => (typeof v === 'string' ? (JSON.parse(v) as T[]) : ((v as T[] | null) ?? []));

export function txFromRow(t: TxJson): TxState {
  const startedAt = Date.parse(t.startedAt);
  return {
    id: t.id,
    connectorNo: t.no,
    idTag: t.idTag,
    authStatus: t.authStatus,
    accepted: t.authStatus === 'Accepted',
    startedAt,
    late: t.late,
    meterStartWh: Number(t.meterStart),
    lastMeterWh: Number(t.lastMeter ?? t.meterStart),
    lastSampleAt: t.lastSampleAt ? Math.max(Date.parse(t.lastSampleAt), startedAt) : startedAt,
    energyWh: Number(t.energy),
    valid: t.valid,
    invalidReason: t.invalidReason,
    ...(t.ocppTxId ? { ocppTxId: t.ocppTxId } : {}),
  };
}

/** The columns of an open transaction as `TxJson`, for SQL that builds one. */
export const txJson = (alias: string) =>
  sql.raw(`json_build_object('id', ${alias}.id, 'no', ${alias}.connector_no, 'idTag', ${alias}.id_tag, 'authStatus', ${alias}.auth_status,
    'meterStart', ${alias}.meter_start_wh, 'lastMeter', ${alias}.last_meter_wh, 'lastSampleAt', ${alias}.last_sample_at,
    'startedAt', ${alias}.started_at, 'energy', ${alias}.energy_wh, 'valid', ${alias}.valid, 'invalidReason', ${alias}.invalid_reason,
    'late', ${alias}.late, 'ocppTxId', ${alias}.ocpp_tx_id)`);

/** The row `loadPoints` reads per point (the columns it needs only, not all of `charge_point`). */
interface PointRow {
  id: number;
  serial_number: string;
  provider_id: number;
  station_id: number;
  time_zone: string;
  enabled: boolean;
  needs_placement: boolean;
  ocpp_key_hash: string | null;
  ocpp_key_previous_hash: string | null;
  rated_power_w: number;
  ocpp_version: string | null;
  connectors: unknown;
  alarms: unknown;
  transactions: unknown;
}

/**
 * Static text of `loadPoints`' query: the serial numbers come as one JSON array parameter, not a
 * placeholder per serial (drizzle builds and checks a chunk per placeholder, which a reconnect
 * storm's batches paid for), and only the columns `PointState` holds are read.
 */
const LOAD_POINTS = {
  head: sql.raw(`select p.id, p.serial_number, p.provider_id, p.station_id, s.time_zone, p.enabled, p.needs_placement, p.ocpp_key_hash, p.ocpp_key_previous_hash, p.rated_power_w, p.ocpp_version,
    (select json_agg(json_build_object('no', c.connector_no, 'status', c.status, 'errorCode', c.error_code,
      'standard', c.standard, 'type', c.type) order by c.connector_no) from connector c where c.charge_point_id = p.id) as connectors,
    (select json_agg(json_build_object('id', a.id, 'no', a.connector_no, 'errorCode', a.error_code, 'level', a.level))
      from alarm a where a.charge_point_id = p.id and a.cleared_at is null) as alarms,
    (select json_agg(`),
  tx: txJson('t'),
  tail: sql.raw(`) from charging_transaction t where t.charge_point_id = p.id and t.stopped_at is null) as transactions
    from charge_point p join station s on s.id = p.station_id
    where p.serial_number = any(array(select json_array_elements_text(`),
};

/** Points by serial number, with everything `PointState` holds, in one query. */
export async function loadPoints(db: Db, serialNumbers: readonly string[]): Promise<Map<string, PointState>> {
  // A NUL cannot be stored in a serial number (nor sent in a PostgreSQL text parameter): no such point.
  const wanted = serialNumbers.filter((s) => !s.includes('\0'));
  const res = wanted.length
    ? ((await db.execute(sql`${LOAD_POINTS.head}${LOAD_POINTS.tx}${LOAD_POINTS.tail}${JSON.stringify(wanted)}::json)))`)) as unknown as {
        rows: PointRow[];
      })
    : { rows: [] };
  const rows = res.rows.map((r) => ({
    id: Number(r.id),
    serialNumber: r.serial_number,
    providerId: Number(r.provider_id),
    stationId: Number(r.station_id),
    timeZone: r.time_zone,
    enabled: r.enabled,
    needsPlacement: r.needs_placement,
    ocppKeyHash: r.ocpp_key_hash,
    ocppKeyPreviousHash: r.ocpp_key_previous_hash,
    ratedPowerW: Number(r.rated_power_w),
    ocppVersion: r.ocpp_version,
    connectors: r.connectors,
    alarms: r.alarms,
    transactions: r.transactions,
  }));
  const out = new Map<string, PointState>();
  for (const row of rows) {
    const connectors = new Map<number, ConnectorState>();
    for (const c of parsed<ConnectorJson>(row.connectors)) {
      connectors.set(c.no, { status: c.status, errorCode: c.errorCode, standard: c.standard, type: c.type });
    }
    const alarms = new Map<number, OpenAlarm[]>();
    for (const a of parsed<AlarmJson>(row.alarms)) {
      const list = alarms.get(a.no) ?? [];
      list.push({ id: a.id, errorCode: a.errorCode, level: a.level });
      alarms.set(a.no, list);
    }
    const transactions = new Map<number, TxState>();
    for (const t of parsed<TxJson>(row.transactions)) transactions.set(t.id, txFromRow(t));
    out.set(row.serialNumber, {
      id: row.id,
      serialNumber: row.serialNumber,
      providerId: row.providerId,
      stationId: row.stationId,
      timeZone: row.timeZone,
      enabled: row.enabled,
      needsPlacement: row.needsPlacement,
      ocppKeyHash: row.ocppKeyHash,
      ocppKeyPreviousHash: row.ocppKeyPreviousHash,
      ratedPowerW: row.ratedPowerW,
      ocppVersion: row.ocppVersion,
      connectors,
      alarms,
      transactions,
    });
  }
  return out;
}

/**
 * Loads points for connecting chargers; requests made while a query runs share the next one, so
 * a reconnect storm costs one query per batch rather than one per charger.
 */
export function createPointLoader(db: Db): (serialNumber: string) => Promise<PointState | null> {
  return coalescing((serials: readonly string[]) => loadPoints(db, [...new Set(serials)]), { missing: null });
}

/**
 * Placeholder location of the "Unassigned" station auto-registered chargers join (DESIGN.md §9):
 * country `ZZ` (ISO 3166 user-assigned, "unknown"), address "-", coordinates 0/0, not public.
 * An operator moves each point to its real station.
 */
export const UNASSIGNED = { name: 'Unassigned', country: 'ZZ', address: '-', longitude: 0, latitude: 0 } as const;

async function unassignedStation(db: Db, providerId: number, timeZone: string): Promise<number> {
  const find = async () => {
    const [s] = await db
      .select({ id: station.id })
      .from(station)
      .where(and(eq(station.providerId, providerId), eq(station.isUnassigned, true)))
      .orderBy(asc(station.id))
      .limit(1);
    return s?.id;
  };
  const existing = await find();
  if (existing !== undefined) return existing;
  // A real station may already carry the name; then the next free "Unassigned N".
  for (let n = 1; n <= 20; n++) {
    const [created] = await db
      .insert(station)
      .values({
        ...UNASSIGNED,
        name: n === 1 ? UNASSIGNED.name : `${UNASSIGNED.name} ${n}`,
        providerId,
        timeZone,
        isPublic: false,
        isUnassigned: true,
      })
      .onConflictDoNothing()
      .returning({ id: station.id });
    if (created) return created.id;
    const raced = await find();
    if (raced !== undefined) return raced;
  }
  throw new Error(`no free name for the Unassigned station of provider ${providerId}`);
}

/**
 * Registers an unknown identity (CSMS_OCPP_AUTO_REGISTER): a point in the provider's
 * "Unassigned" station, marked `needs_placement`, without connectors (StatusNotifications teach
 * them). `ocppKeyHash` is the hash of the password it presented, if any (trust on first use).
 */
export async function autoRegister(
  db: Db,
  serialNumber: string,
  opts: { providerId: number | undefined; timeZone: string; ocppKeyHash: string | null },
): Promise<{ pointId: number; providerId: number } | null> {
  // One transaction: the provider's row stays locked from the count to the insert.
  return db.transaction((tx) => register(tx as unknown as Db, serialNumber, opts));
}

/** Null when the provider's authorised point count is reached. */
async function register(
  db: Db,
  serialNumber: string,
  opts: { providerId: number | undefined; timeZone: string; ocppKeyHash: string | null },
): Promise<{ pointId: number; providerId: number } | null> {
  let providerId = opts.providerId;
  if (providerId === undefined) {
    const [sup] = await db.select({ id: provider.id }).from(provider).where(eq(provider.type, 'super')).orderBy(asc(provider.id)).limit(1);
    if (!sup) throw new Error('no super provider to auto-register chargers into');
    providerId = sup.id;
  }
  // The provider's authorised point count holds for chargers that register themselves too.
  if (await pointQuotaFull(db, providerId)) return null;
  const stationId = await unassignedStation(db, providerId, opts.timeZone);
  const [created] = await db
    .insert(chargePoint)
    .values({
      providerId,
      stationId,
      serialNumber,
      name: serialNumber.slice(0, 100),
      equipmentType: 'ac',
      ratedPowerW: 0,
      ocppKeyHash: opts.ocppKeyHash,
      needsPlacement: true,
    })
    .onConflictDoNothing()
    .returning({ id: chargePoint.id });
  if (created) return { pointId: created.id, providerId };
  const [raced] = await db
    .select({ id: chargePoint.id, providerId: chargePoint.providerId })
    .from(chargePoint)
    .where(eq(chargePoint.serialNumber, serialNumber));
  if (!raced) throw new Error(`auto-registration of ${serialNumber} failed`);
  return { pointId: raced.id, providerId: raced.providerId };
}

/**
 * A charger connected with the key sent to it: that key is now its only one (the previous stops working).
 * True when this call ended the wait (a concurrent connection may have done it first).
 */
export async function keyChangeTaken(db: Db, pointId: number, ocppKeyHash: string): Promise<boolean> {
  const done = await db
    .update(chargePoint)
    .set({ ocppKeyPreviousHash: null, ocppKeySentAt: null })
    .where(and(eq(chargePoint.id, pointId), eq(chargePoint.ocppKeyHash, ocppKeyHash), isNotNull(chargePoint.ocppKeyPreviousHash)))
    .returning({ id: chargePoint.id });
  return done.length > 0;
}

import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { connector, type meterValue } from '../db/schema.js';

/**
 * Group commit for the frequent charger writes (DESIGN.md §3: "group commits of a few
 * milliseconds across chargers are fine"). Handlers enqueue what a message changes and await
 * it; everything enqueued while the previous batch was being written goes into the next one,
 * written as a handful of multi-row statements in one database transaction. A handler's promise
 * resolves only after that commit, so the CALLRESULT still leaves after its data is durable. At
 * low load a batch holds one message and costs what writing it alone would; under load the
 * statements per message fall with the batch size. If a batch fails, its messages are retried
 * one by one so that only the faulty one sees the error.
 */

export type MeterRow = typeof meterValue.$inferInsert;

/**
 * Multi-row insert through one JSON parameter (`json_populate_recordset`): a third of the CPU of
 * building a statement with a placeholder per value, which counts for the high-volume tables.
 * `rows` use the column names.
 */
export async function insertJson(
  q: Pick<Db, 'execute'>,
  table: string,
  columns: readonly string[],
  rows: readonly object[],
): Promise<void> {
  if (rows.length === 0) return;
  let json = JSON.stringify(rows);
  // PostgreSQL text and jsonb cannot hold NUL; a charger may still send one.
  if (json.includes('\\u0000')) json = JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'string' ? v.replaceAll('\0', '') : v));
  const cols = sql.raw(columns.join(', '));
  await q.execute(
    sql`insert into ${sql.raw(table)} (${cols}) select ${cols} from json_populate_recordset(null::${sql.raw(table)}, ${json}::json)`,
  );
}

const METER_COLUMNS = [
  'charge_point_id',
  'connector_no',
  'transaction_id',
  'sampled_at',
  'energy_wh',
  'power_w',
  'current_import_a',
  'current_offered_a',
  'voltage_v',
  'soc',
  'temperature_c',
  'raw',
] as const;

export function insertMeterRows(q: Pick<Db, 'execute'>, rows: readonly MeterRow[]): Promise<void> {
  return insertJson(
    q,
    'meter_value',
    METER_COLUMNS,
    rows.map((r) => ({
      charge_point_id: r.chargePointId,
      connector_no: r.connectorNo,
      transaction_id: r.transactionId ?? null,
      sampled_at: r.sampledAt,
      energy_wh: r.energyWh ?? null,
      power_w: r.powerW ?? null,
      current_import_a: r.currentImportA ?? null,
      current_offered_a: r.currentOfferedA ?? null,
      voltage_v: r.voltageV ?? null,
      soc: r.soc ?? null,
      temperature_c: r.temperatureC ?? null,
      raw: r.raw ?? null,
    })),
  );
}

/** The live columns of a running transaction after some samples. */
export interface TxLive {
  id: number;
  lastMeterWh: number;
  energyWh: number;
  valid: boolean;
  invalidReason: string | null;
  lastSampleAt: Date | undefined;
  lastPowerW: number | undefined;
  lastSoc: number | undefined;
}

export interface ConnectorStatus {
  chargePointId: number;
  connectorNo: number;
  /** Used only when the row is created (a connector learnt from a StatusNotification). */
  standard: 'ac' | 'dc' | 'combo';
  type: string;
  status: string;
  errorCode: string;
  info: string | null;
  vendorErrorCode: string | null;
  statusAt: Date;
}

export interface PointBoot {
  id: number;
  vendor: string;
  model: string;
  chargeBoxSerial: string | null;
  firmwareVersion: string | null;
  iccid: string | null;
  imsi: string | null;
  meterType: string | null;
  meterSerial: string | null;
  at: Date;
}

/** What one message changes; any combination. */
export interface WriteJob {
  meterRows?: MeterRow[];
  tx?: TxLive;
  connector?: ConnectorStatus;
  /** Connector 0: the point's own status. */
  pointStatus?: { id: number; status: string; errorCode: string };
  online?: { id: number; online: boolean; at: Date };
  boot?: PointBoot;
}

interface Pending extends WriteJob {
  resolve(): void;
  reject(err: unknown): void;
}

const MAX_BATCH = 1000;

/** Keeps the last of several values for one key (one statement may not update a row twice). */
function lastBy<T>(items: readonly T[], key: (t: T) => string | number): T[] {
  const m = new Map<string | number, T>();
  for (const it of items) {
    const k = key(it);
    m.delete(k);
    m.set(k, it);
  }
  return [...m.values()];
}

const values = (rows: SQL[][]) =>
  sql.join(
    rows.map((r) => sql`(${sql.join(r, sql`, `)})`),
    sql`, `,
  );

async function write(q: Tx, jobs: readonly WriteJob[]): Promise<void> {
  const rows = jobs.flatMap((j) => j.meterRows ?? []);
  for (let i = 0; i < rows.length; i += MAX_BATCH) await insertMeterRows(q, rows.slice(i, i + MAX_BATCH));

  const txs = lastBy(
    jobs.flatMap((j) => (j.tx ? [j.tx] : [])),
    (t) => t.id,
  );
  if (txs.length > 0) {
    await q.execute(sql`update charging_transaction t set
        last_meter_wh = v.last_meter, energy_wh = v.energy, valid = v.valid, invalid_reason = v.reason,
        last_sample_at = coalesce(v.at, t.last_sample_at), last_power_w = coalesce(v.power, t.last_power_w),
        last_soc = coalesce(v.soc, t.last_soc)
      from (values ${values(
        txs.map((t) => [
          sql`${t.id}::int`,
          sql`${t.lastMeterWh}::bigint`,
          sql`${t.energyWh}::bigint`,
          sql`${t.valid}::boolean`,
          sql`${t.invalidReason}::varchar`,
          sql`${t.lastSampleAt?.toISOString() ?? null}::timestamptz`,
          sql`${t.lastPowerW ?? null}::int`,
          sql`${t.lastSoc ?? null}::int`,
        ]),
      )}) v(id, last_meter, energy, valid, reason, at, power, soc)
      where t.id = v.id`);
  }

  const connectors = lastBy(
    jobs.flatMap((j) => (j.connector ? [j.connector] : [])),
    (c) => `${c.chargePointId}:${c.connectorNo}`,
  );
  if (connectors.length > 0) {
    await q
      .insert(connector)
      .values(connectors)
      .onConflictDoUpdate({
        target: [connector.chargePointId, connector.connectorNo],
        set: {
          status: sql`excluded.status`,
          errorCode: sql`excluded.error_code`,
          info: sql`excluded.info`,
          vendorErrorCode: sql`excluded.vendor_error_code`,
          statusAt: sql`excluded.status_at`,
        },
      });
  }

  const statuses = lastBy(
    jobs.flatMap((j) => (j.pointStatus ? [j.pointStatus] : [])),
    (s) => s.id,
  );
  if (statuses.length > 0) {
    await q.execute(sql`update charge_point p set status = v.status, error_code = v.error_code
      from (values ${values(statuses.map((s) => [sql`${s.id}::int`, sql`${s.status}::varchar`, sql`${s.errorCode}::varchar`]))}) v(id, status, error_code)
      where p.id = v.id`);
  }

  const boots = lastBy(
    jobs.flatMap((j) => (j.boot ? [j.boot] : [])),
    (b) => b.id,
  );
  if (boots.length > 0) {
    await q.execute(sql`update charge_point p set vendor = v.vendor, model = v.model, charge_box_serial = v.cbs,
        firmware_version = v.fw, iccid = v.iccid, imsi = v.imsi, meter_type = v.mt, meter_serial = v.ms,
        last_boot_at = v.at, last_seen_at = v.at
      from (values ${values(
        boots.map((b) => [
          sql`${b.id}::int`,
          sql`${b.vendor}::varchar`,
          sql`${b.model}::varchar`,
          sql`${b.chargeBoxSerial}::varchar`,
          sql`${b.firmwareVersion}::varchar`,
          sql`${b.iccid}::varchar`,
          sql`${b.imsi}::varchar`,
          sql`${b.meterType}::varchar`,
          sql`${b.meterSerial}::varchar`,
          sql`${b.at.toISOString()}::timestamptz`,
        ]),
      )}) v(id, vendor, model, cbs, fw, iccid, imsi, mt, ms, at)
      where p.id = v.id`);
  }

  const online = lastBy(
    jobs.flatMap((j) => (j.online ? [j.online] : [])),
    (o) => o.id,
  );
  if (online.length > 0) {
    await q.execute(sql`update charge_point p set online = v.online,
        connected_at = case when v.online then v.at else p.connected_at end,
        last_seen_at = case when v.online then v.at else p.last_seen_at end
      from (values ${values(online.map((o) => [sql`${o.id}::int`, sql`${o.online}::boolean`, sql`${o.at.toISOString()}::timestamptz`]))}) v(id, online, at)
      where p.id = v.id`);
  }
}

export function createBatchWriter({ db }: { db: Db }) {
  let queue: Pending[] = [];
  let running: Promise<void> | null = null;

  async function flushAll(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, MAX_BATCH);
      queue = queue.slice(batch.length);
      try {
        await db.transaction((q) => write(q, batch));
        for (const j of batch) j.resolve();
      } catch (err) {
        if (batch.length === 1) {
          batch[0]!.reject(err);
          continue;
        }
        for (const j of batch) {
          try {
            await db.transaction((q) => write(q, [j]));
            j.resolve();
          } catch (e) {
            j.reject(e);
          }
        }
      }
    }
  }

  function kick(): void {
    if (running) return;
    running = new Promise<void>((resolve) => setImmediate(resolve)).then(flushAll).finally(() => {
      running = null;
      if (queue.length > 0) kick();
    });
  }

  return {
    /** Resolves once the job is committed. */
    write(job: WriteJob): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        queue.push({ ...job, resolve, reject });
        kick();
      });
    },
    /** Resolves when everything enqueued so far is written (or failed). */
    async drain(): Promise<void> {
      while (running) await running;
    },
  };
}

export type BatchWriter = ReturnType<typeof createBatchWriter>;

import { sql, type SQL } from 'drizzle-orm';
import { poolOf, type Db } from '../db/client.js';
import { runPipelined, type PipelinedStatement as Statement } from '../db/pipeline.js';
import type { meterValue } from '../db/schema.js';
import { replaceBadText } from '@csms/contract';
import { mayHoldBadText } from './text.js';

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
 * building a statement with a placeholder per value, which counts for the high-volume tables, and the
 * same text whatever the number of rows. `rows` use the column names. The statement alone, e.g. for a
 * `with` clause (an empty `rows` inserts nothing).
 */
export function insertJsonSql(
  table: string,
  columns: readonly string[],
  rows: readonly object[],
  /** E.g. an `on conflict` clause. */
  suffix = '',
): SQL {
  const cols = sql.raw(columns.join(', '));
  return sql`insert into ${sql.raw(table)} (${cols}) select ${cols} from json_populate_recordset(null::${sql.raw(table)}, ${jsonParam(rows)}::json) ${sql.raw(suffix)}`;
}

/** `insertJsonSql` run; nothing is sent for no rows. */
export async function insertJson(
  q: Pick<Db, 'execute'>,
  table: string,
  columns: readonly string[],
  rows: readonly object[],
  suffix = '',
): Promise<void> {
  if (rows.length === 0) return;
  await q.execute(insertJsonSql(table, columns, rows, suffix));
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

const meterJson = (rows: readonly MeterRow[]) =>
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
  }));

export function insertMeterRows(q: Pick<Db, 'execute'>, rows: readonly MeterRow[]): Promise<void> {
  return insertJson(q, 'meter_value', METER_COLUMNS, meterJson(rows));
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
  online?: { id: number; online: boolean; at: Date; node: string };
  boot?: PointBoot;
}

interface Pending {
  job: WriteJob;
  resolve(): void;
  reject(err: unknown): void;
}

const MAX_BATCH = 1000;
/** Rows of another writer (the OCPP log) a batch takes along at most. */
const MAX_PASSENGERS = 100;

/**
 * Rows of another writer carried in a batch's message (`createBatchWriter`'s `passengers`): inserted
 * in the batch's transaction. `settle(true)` once they are committed; `settle(false)` if they were
 * not written (the batch failed), and they are the other writer's again.
 */
export interface Passenger {
  table: string;
  columns: readonly string[];
  rows: readonly object[];
  settle(written: boolean): void;
}

/** Keeps the last of several values for one key (one statement may not update a row twice), in the order of their last write. */
function keepLast<K, T>(m: Map<K, T>, key: K, value: T): void {
  m.delete(key);
  m.set(key, value);
}

/**
 * A JSON array parameter, without the text PostgreSQL cannot hold (NUL and a lone surrogate as U+FFFD,
 * the contract's `replaceBadText`). Charger messages holding such text are refused before they get here (session.ts); the OCPP
 * log still keeps the frame, and one bad row must not cost a batch.
 */
function jsonParam(rows: readonly object[]): string {
  const json = JSON.stringify(rows);
  return mayHoldBadText(json) ? JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'string' ? replaceBadText(v) : v)) : json;
}

/** A batch's insert into `table` through its single JSON parameter, like `insertJson`. */
const insertStatement = (table: string, columns: readonly string[], rows: readonly object[], suffix = ''): Statement => ({
  text: `insert into ${table} (${columns.join(', ')}) select ${columns.join(', ')} from json_populate_recordset(null::${table}, $1::json) ${suffix}`,
  values: [jsonParam(rows)],
});

/**
 * `update <table> … from json_to_recordset($1) v(<shape>) where …`: one parameter for the whole
 * batch, like `insertJson`, instead of a placeholder (and a drizzle SQL chunk) per value.
 *
 * The rows are also named by key (`<key> = any(array(…))`), for the planner: it takes a set-returning
 * function for 100 rows, and joining 100 rows made a hash join over a scan of the whole table cheaper
 * in its eyes than looking them up by key, for any table of up to a few hundred pages (a charge_point
 * of 2,000 rows); the keys make it look them up. Telling it the row count instead (`limit $2`) did the
 * same, but then each run's plan, knowing the count, looked cheaper than the generic one, so the
 * statement was planned again at every run. Measured on PGlite, one row updated in a table of 2,000
 * rows, each a transaction: 366 µs with the scan, 283 µs with the count, 192 µs with the keys.
 */
const updateStatement = (statement: { update: string; shape: string; key: string; also?: string }, rows: readonly object[]): Statement => ({
  text: `${statement.update} from json_to_recordset($1::json) v(${statement.shape})
    where ${statement.key} = v.id and ${statement.key} = any(array(select (e->>'id')::int from json_array_elements($1::json) e))${statement.also ? ` and ${statement.also}` : ''}`,
  values: [jsonParam(rows)],
});

const TX_LIVE = {
  update: `update charging_transaction t set
    last_meter_wh = v.last_meter, energy_wh = v.energy, valid = v.valid, invalid_reason = v.reason,
    last_sample_at = coalesce(v.at, t.last_sample_at), last_power_w = coalesce(v.power, t.last_power_w),
    last_soc = coalesce(v.soc, t.last_soc)`,
  shape: 'id int, last_meter bigint, energy bigint, valid boolean, reason varchar, at timestamptz, power int, soc int',
  key: 't.id',
};

const POINT_STATUS = {
  update: 'update charge_point p set status = v.status, error_code = v.error_code',
  shape: 'id int, status varchar, error_code varchar',
  key: 'p.id',
};

// A batch may hold a point's connect and its Boot (or two of its writes) in either order of statements:
// its last_seen_at only ever moves forward.
const POINT_BOOT = {
  update: `update charge_point p set vendor = v.vendor, model = v.model, charge_box_serial = v.cbs,
    firmware_version = v.fw, iccid = v.iccid, imsi = v.imsi, meter_type = v.mt, meter_serial = v.ms,
    last_boot_at = v.at, last_seen_at = greatest(p.last_seen_at, v.at)`,
  shape:
    'id int, vendor varchar, model varchar, cbs varchar, fw varchar, iccid varchar, imsi varchar, mt varchar, ms varchar, at timestamptz',
  key: 'p.id',
};

const POINT_ONLINE = {
  update: `update charge_point p set online = v.online,
    connected_node = case when v.online then v.node end,
    connected_at = case when v.online then v.at else p.connected_at end,
    last_seen_at = case when v.online then greatest(p.last_seen_at, v.at) else p.last_seen_at end`,
  shape: 'id int, online boolean, at timestamptz, node varchar',
  key: 'p.id',
  // Offline only from the node that holds it: a charger that moved to another node stays online there.
  also: '(v.online or p.connected_node is null or p.connected_node = v.node)',
};

const CONNECTOR_COLUMNS = [
  'charge_point_id',
  'connector_no',
  'standard',
  'type',
  'status',
  'error_code',
  'info',
  'vendor_error_code',
  'status_at',
];

/** The statements that write `jobs`, in the order the batch runs them. */
function statements(batch: readonly Pending[]): Statement[] {
  const out: Statement[] = [];
  // One pass over the batch (it may hold a thousand jobs).
  const rows: MeterRow[] = [];
  const txMap = new Map<number, TxLive>();
  const connectorMap = new Map<string, ConnectorStatus>();
  const statusMap = new Map<number, NonNullable<WriteJob['pointStatus']>>();
  const bootMap = new Map<number, PointBoot>();
  const onlineMap = new Map<number, NonNullable<WriteJob['online']>>();
  for (const { job: j } of batch) {
    if (j.meterRows) for (const r of j.meterRows) rows.push(r);
    if (j.tx) keepLast(txMap, j.tx.id, j.tx);
    if (j.connector) keepLast(connectorMap, `${j.connector.chargePointId}:${j.connector.connectorNo}`, j.connector);
    if (j.pointStatus) keepLast(statusMap, j.pointStatus.id, j.pointStatus);
    if (j.boot) keepLast(bootMap, j.boot.id, j.boot);
    if (j.online) keepLast(onlineMap, j.online.id, j.online);
  }
  for (let i = 0; i < rows.length; i += MAX_BATCH) {
    out.push(insertStatement('meter_value', METER_COLUMNS, meterJson(rows.slice(i, i + MAX_BATCH))));
  }

  const txs = [...txMap.values()];
  if (txs.length > 0) {
    out.push(
      updateStatement(
        TX_LIVE,
        txs.map((t) => ({
          id: t.id,
          last_meter: t.lastMeterWh,
          energy: t.energyWh,
          valid: t.valid,
          reason: t.invalidReason,
          at: t.lastSampleAt ?? null,
          power: t.lastPowerW ?? null,
          soc: t.lastSoc ?? null,
        })),
      ),
    );
  }

  const connectors = [...connectorMap.values()];
  if (connectors.length > 0) {
    out.push(
      insertStatement(
        'connector',
        CONNECTOR_COLUMNS,
        connectors.map((c) => ({
          charge_point_id: c.chargePointId,
          connector_no: c.connectorNo,
          standard: c.standard,
          type: c.type,
          status: c.status,
          error_code: c.errorCode,
          info: c.info,
          vendor_error_code: c.vendorErrorCode,
          status_at: c.statusAt,
        })),
        `on conflict (charge_point_id, connector_no) do update set status = excluded.status, error_code = excluded.error_code,
        info = excluded.info, vendor_error_code = excluded.vendor_error_code, status_at = excluded.status_at`,
      ),
    );
  }

  const statuses = [...statusMap.values()];
  if (statuses.length > 0) {
    out.push(
      updateStatement(
        POINT_STATUS,
        statuses.map((s) => ({ id: s.id, status: s.status, error_code: s.errorCode })),
      ),
    );
  }

  const boots = [...bootMap.values()];
  if (boots.length > 0) {
    out.push(
      updateStatement(
        POINT_BOOT,
        boots.map((b) => ({
          id: b.id,
          vendor: b.vendor,
          model: b.model,
          cbs: b.chargeBoxSerial,
          fw: b.firmwareVersion,
          iccid: b.iccid,
          imsi: b.imsi,
          mt: b.meterType,
          ms: b.meterSerial,
          at: b.at,
        })),
      ),
    );
  }

  const online = [...onlineMap.values()];
  if (online.length > 0) {
    out.push(
      updateStatement(
        POINT_ONLINE,
        online.map((o) => ({ id: o.id, online: o.online, at: o.at, node: o.node })),
      ),
    );
  }
  return out;
}

/**
 * Runs a batch's statements atomically in one round trip, each prepared once per connection
 * (src/db/pipeline.ts): a batch costs neither begin, a round trip per statement and commit, nor the
 * parsing and planning of its text (PGlite's thread and PostgreSQL alike).
 */
function run(db: Db, list: readonly Statement[]): Promise<void> {
  return runPipelined(poolOf(db), list);
}

/** Jobs that end a gathering window early (`createBatchWriter`'s `gatherMs`): a batch this size pays its round trip well. */
export const GATHER_FULL = 16;

export function createBatchWriter({
  db,
  passengers,
  gatherMs = 0,
}: {
  db: Db;
  /** Rows another writer would like carried in the next batch (at most `max`), or null. */
  passengers?: (max: number) => Passenger | null;
  /**
   * How long the first job to reach an idle writer waits for others before its batch is written
   * (0: the same turn of the event loop). For a database of one session (PGlite): a batch costs its
   * thread about a millisecond whatever it holds, and at 1,000 calls a second the writer sent one per
   * two calls, which kept that thread about 70 % busy (README "Benchmarks", "Gathering a batch on PGlite").
   * Jobs that arrive while a batch is written go out as soon as it is done, as without a window.
   */
  gatherMs?: number;
}) {
  const write = (batch: readonly Pending[]) => run(db, statements(batch));
  let queue: Pending[] = [];
  let running: Promise<void> | null = null;

  /**
   * The batch with whatever passengers are waiting. If it fails with them, they go back to their
   * writer and the batch is tried once alone, so that a row of theirs cannot cost the batch.
   */
  async function writeCarrying(batch: readonly Pending[]): Promise<void> {
    const list = statements(batch);
    const p = passengers?.(MAX_PASSENGERS);
    if (!p) return run(db, list);
    try {
      await run(db, [...list, insertStatement(p.table, p.columns, p.rows)]);
    } catch {
      p.settle(false);
      return write(batch);
    }
    p.settle(true);
  }

  async function flushAll(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, MAX_BATCH);
      queue = queue.slice(batch.length);
      try {
        await writeCarrying(batch);
        for (const j of batch) j.resolve();
      } catch (err) {
        if (batch.length === 1) {
          batch[0]!.reject(err);
          continue;
        }
        for (const j of batch) {
          try {
            await write([j]);
            j.resolve();
          } catch (e) {
            j.reject(e);
          }
        }
      }
    }
  }

  /** Ends the gathering window under way, if any. */
  let gathered: (() => void) | null = null;

  function kick(gather: boolean): void {
    if (running) {
      if (gathered && queue.length >= GATHER_FULL) gathered();
      return;
    }
    running = new Promise<void>((resolve) => {
      if (!gather || gatherMs <= 0) return void setImmediate(resolve);
      const timer = setTimeout(() => gathered?.(), gatherMs);
      gathered = () => {
        gathered = null;
        clearTimeout(timer);
        resolve();
      };
    })
      .then(flushAll)
      .finally(() => {
        running = null;
        // What came during the batch has waited for it already: no second window.
        if (queue.length > 0) kick(false);
      });
  }

  return {
    /** Resolves once the job is committed. */
    write(job: WriteJob): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        queue.push({ job, resolve, reject });
        kick(true);
      });
    },
    /** Resolves when everything enqueued so far is written (or failed). */
    async drain(): Promise<void> {
      while (running) await running;
    },
  };
}

export type BatchWriter = ReturnType<typeof createBatchWriter>;

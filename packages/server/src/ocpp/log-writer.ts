import type { Db } from '../db/client.js';
import type { ocppLog } from '../db/schema.js';
import { insertJson } from './writer.js';

export type OcppLogRow = typeof ocppLog.$inferInsert;

const COLUMNS = [
  'provider_id',
  'charge_point_id',
  'serial_number',
  'direction',
  'message_type',
  'action',
  'message_id',
  'payload',
  'latency_ms',
  'reason',
  'created_at',
] as const;

interface Logger {
  warn(obj: unknown, msg?: string): void;
}

/**
 * The OCPP log's writer: rows are buffered and inserted in batches (every `flushMs` or once
 * `maxBatch` rows wait), so logging every frame costs the hot path an array push. Each row
 * carries the time its frame was seen, not the time of the insert. Bounded: while the database
 * cannot keep up, rows beyond `maxBuffered` are dropped and counted in a warning rather than
 * growing memory without limit.
 */
export function createOcppLogWriter({
  db,
  log,
  flushMs = 100,
  maxBatch = 500,
  maxBuffered = 100_000,
}: {
  db: Db;
  log: Logger;
  flushMs?: number;
  maxBatch?: number;
  maxBuffered?: number;
}) {
  let buffer: OcppLogRow[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  let dropped = 0;

  const insertAll = (rows: OcppLogRow[]) =>
    insertJson(
      db,
      'ocpp_log',
      COLUMNS,
      rows.map((r) => ({
        provider_id: r.providerId ?? null,
        charge_point_id: r.chargePointId ?? null,
        serial_number: r.serialNumber,
        direction: r.direction,
        message_type: r.messageType ?? null,
        action: r.action ?? null,
        message_id: r.messageId ?? null,
        payload: r.payload ?? null,
        latency_ms: r.latencyMs ?? null,
        reason: r.reason ?? null,
        created_at: r.createdAt,
      })),
    );

  async function insert(rows: OcppLogRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += maxBatch) {
      const batch = rows.slice(i, i + maxBatch);
      try {
        await insertAll(batch);
      } catch {
        // One row the database refuses must not cost the others.
        let lost = 0;
        for (const row of batch) await insertAll([row]).catch(() => lost++);
        if (lost > 0) log.warn({ lost }, 'ocpp log: rows refused by the database');
      }
    }
  }

  /** Writes whatever is buffered; resolves once it (and every earlier batch) is in the database. */
  function flush(): Promise<void> {
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (dropped > 0) {
      log.warn({ dropped }, 'ocpp log: database too slow, rows dropped');
      dropped = 0;
    }
    const rows = buffer;
    buffer = [];
    writing = writing.then(() => (rows.length > 0 ? insert(rows) : undefined));
    return writing;
  }

  return {
    write(row: OcppLogRow): void {
      if (buffer.length >= maxBuffered) {
        dropped++;
        return;
      }
      row.createdAt ??= new Date();
      buffer.push(row);
      if (buffer.length >= maxBatch) void flush();
      else if (!timer) {
        timer = setTimeout(() => void flush(), flushMs);
        timer.unref();
      }
    },
    flush,
    get pending() {
      return buffer.length;
    },
  };
}

export type OcppLogWriter = ReturnType<typeof createOcppLogWriter>;

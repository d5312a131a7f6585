import type { Db } from '../db/client.js';
import type { ocppLog } from '../db/schema.js';
import { insertJson, type Passenger } from './writer.js';

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
  'response_type',
  'response_payload',
  'response_at',
] as const;

interface Logger {
  warn(obj: unknown, msg?: string): void;
}

/**
 * The OCPP log's writer: rows are buffered and inserted in batches (every `flushMs` or once
 * `maxBatch` rows wait), so logging every frame costs the hot path an array push. Each row
 * carries the time its frame was seen, not the time of the insert. Bounded: while the database
 * cannot keep up, rows beyond `maxBuffered`, or beyond `maxBytes` of frames (as `write` is told
 * their size), waiting in the buffer or in inserts not yet done, are dropped and counted in a
 * warning rather than growing memory without limit: a charger flooding large frames faster than
 * the database takes them costs log rows, not the process.
 *
 * Rows may also ride in the batch writer's next message (`board`): one statement more in a
 * transaction the database runs anyway, instead of a flush of its own every `flushMs`. That matters
 * on PGlite, one session: a flush of a few hundred rows holds it for 10–30 ms, and the meter values
 * that queue behind it wait that long for their answer. Whatever is taken, by a flush or a batch,
 * is written in the order it was taken (the log pairs a response with the request before it by id).
 */
export function createOcppLogWriter({
  db,
  log,
  flushMs = 100,
  maxBatch = 500,
  maxBuffered = 100_000,
  maxBytes = 64 * 1024 * 1024,
}: {
  db: Db;
  log: Logger;
  flushMs?: number;
  maxBatch?: number;
  maxBuffered?: number;
  maxBytes?: number;
}) {
  let buffer: OcppLogRow[] = [];
  /** The size `write` was told of each buffered row, in the buffer's order. */
  let sizes: number[] = [];
  /** Bytes of the rows buffered or in inserts not yet settled. */
  let bytesHeld = 0;
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  let dropped = 0;
  /** Rows of the inserts taken and not yet settled, own or boarded (none is taken empty). */
  let rowsInFlight = 0;
  /** `settled` with its rows counted in `rowsInFlight`, and their bytes held, until it settles. */
  const inFlight = (rows: number, bytes: number, settled: Promise<void>): Promise<void> => {
    rowsInFlight += rows;
    return settled.finally(() => {
      rowsInFlight -= rows;
      bytesHeld -= bytes;
    });
  };
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

  const columnRows = (rows: readonly OcppLogRow[]) =>
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
      response_type: r.responseType ?? null,
      response_payload: r.responsePayload ?? null,
      response_at: r.responseAt ?? null,
    }));
  const insertAll = (rows: OcppLogRow[]) => insertJson(db, 'ocpp_log', COLUMNS, columnRows(rows));

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
    const bytes = sum(sizes);
    buffer = [];
    sizes = [];
    if (rows.length === 0) return writing;
    writing = inFlight(
      rows.length,
      bytes,
      writing.then(() => insert(rows)),
    );
    return writing;
  }

  /**
   * Up to `max` rows for the batch writer's next message, or null. Rows are taken only while no
   * insert of the log is under way, so that ids follow the order the rows were taken in; a flush
   * taken after them waits for their batch. Rows of a batch that failed are inserted here instead.
   * The mark falls a few microtasks after the batch's commit, so a batch sent straight after one that
   * carried rows usually goes without: letting it take rows at once was measured worse (bench/ocpp.mjs
   * --quick on PGlite, three runs each: MeterValues p99 33–51 ms against 26–30).
   */
  function board(max: number): Passenger | null {
    if (buffer.length === 0 || rowsInFlight > 0) return null;
    const rows = buffer.length <= max ? buffer : buffer.slice(0, max);
    const bytes = sum(sizes.slice(0, rows.length));
    buffer = rows === buffer ? [] : buffer.slice(max);
    sizes = sizes.slice(rows.length);
    if (buffer.length === 0 && timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    let settle!: (written: boolean) => void;
    const outcome = new Promise<boolean>((resolve) => (settle = resolve));
    writing = inFlight(
      rows.length,
      bytes,
      writing.then(() => outcome).then((written) => (written ? undefined : insert(rows))),
    );
    return { table: 'ocpp_log', columns: COLUMNS, rows: columnRows(rows), settle };
  }

  return {
    /** `bytes`: about what the row holds (the frames' length); small rows may leave it out. */
    write(row: OcppLogRow, bytes = 512): void {
      if (buffer.length + rowsInFlight >= maxBuffered || bytesHeld + bytes > maxBytes) {
        dropped++;
        return;
      }
      row.createdAt ??= new Date();
      buffer.push(row);
      sizes.push(bytes);
      bytesHeld += bytes;
      if (buffer.length >= maxBatch) void flush();
      else if (!timer) {
        timer = setTimeout(() => void flush(), flushMs);
        timer.unref();
      }
    },
    flush,
    board,
    get pending() {
      return buffer.length;
    },
    /** Rows not yet in the database: buffered, or taken by an insert or a batch not yet settled. */
    get backlog() {
      return buffer.length + rowsInFlight;
    },
  };
}

export type OcppLogWriter = ReturnType<typeof createOcppLogWriter>;

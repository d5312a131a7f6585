import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../src/db/client.js';
import { chargePoint, connector, ocppLog } from '../../src/db/schema.js';
import { createLastSeen } from '../../src/ocpp/last-seen.js';
import { createOcppLogWriter, type OcppLogRow } from '../../src/ocpp/log-writer.js';
import { loadPoints } from '../../src/ocpp/registry.js';
import { createBatchWriter, GATHER_FULL } from '../../src/ocpp/writer.js';
import { startServer, type TestServer } from '../harness.js';
import { createPoint } from './support.js';
import { runPipelined, runPipelinedOn, UNNAMED } from '../../src/db/pipeline.js';
import { openPostgres } from '../../src/db/client.js';
import type pg from 'pg';

/*
 * The batch writer sends a batch as one round trip of prepared statements (src/db/pipeline.ts), on
 * PGlite's thread and on PostgreSQL alike.
 */

let s: TestServer;
let db: Db;
beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
});
afterAll(() => s.close());

const boot = (id: number, vendor: string, model: string) => ({
  boot: {
    id,
    vendor,
    model,
    chargeBoxSerial: null,
    firmwareVersion: "1'0\\2",
    iccid: null,
    imsi: null,
    meterType: null,
    meterSerial: null,
    at: new Date(),
  },
});

describe('batch writer', () => {
  it('stores quotes, backslashes and SQL-looking text as sent, several kinds of write in one batch', async () => {
    const a = await createPoint(db);
    const b = await createPoint(db);
    const writer = createBatchWriter({ db });
    const info = `x'); drop table connector; --\\'`;
    // Enqueued in one tick: one batch with boot, point status, connector and online statements.
    await Promise.all([
      writer.write(boot(a.point.id, `O'Brien \\ "A"`, "E\\x41'")),
      writer.write(boot(b.point.id, '$$ $q$ ;', '\\\\')),
      writer.write({ pointStatus: { id: a.point.id, status: 'Available', errorCode: 'NoError' } }),
      writer.write({
        connector: {
          chargePointId: b.point.id,
          connectorNo: 1,
          standard: 'dc',
          type: 'CCS2',
          status: 'Faulted',
          errorCode: 'OtherError',
          info,
          vendorErrorCode: "E'1",
          statusAt: new Date(),
        },
      }),
      writer.write({ online: { id: a.point.id, online: true, at: new Date(), node: "n'1" } }),
    ]);
    const [ra] = await db.select().from(chargePoint).where(eq(chargePoint.id, a.point.id));
    const [rb] = await db.select().from(chargePoint).where(eq(chargePoint.id, b.point.id));
    expect(ra).toMatchObject({ vendor: `O'Brien \\ "A"`, model: "E\\x41'", firmwareVersion: "1'0\\2", status: 'Available', online: true });
    expect(ra!.connectedNode).toBe("n'1");
    expect(rb).toMatchObject({ vendor: '$$ $q$ ;', model: '\\\\' });
    const [c] = await db
      .select()
      .from(connector)
      .where(and(eq(connector.chargePointId, b.point.id), eq(connector.connectorNo, 1)));
    expect(c).toMatchObject({ status: 'Faulted', info, vendorErrorCode: "E'1" });
  });

  it('fails only the write the database refuses: the rest of its batch is committed, nothing of the refused one', async () => {
    const a = await createPoint(db);
    const writer = createBatchWriter({ db });
    const results = await Promise.allSettled([
      writer.write(boot(a.point.id, 'Good', 'M1')),
      // The point status is written before the boot in a batch; the boot's vendor is too long for its
      // column, so the database refuses it after the status went in: neither may stay.
      writer.write({
        pointStatus: { id: a.point.id, status: 'Faulted', errorCode: 'OtherError' },
        boot: { ...boot(a.point.id, 'V'.repeat(21), 'M2').boot },
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    const [row] = await db.select().from(chargePoint).where(eq(chargePoint.id, a.point.id));
    expect(row).toMatchObject({ vendor: 'Good', model: 'M1' });
    expect(row!.status).not.toBe('Faulted');
  });

  describe('with a gathering window (PGlite: one session)', () => {
    const status = (id: number, status = 'Available') => ({ pointStatus: { id, status, errorCode: 'NoError' } });
    /** `passengers` is asked once per batch, as it starts: the batches this writer sends. */
    const counting = (gatherMs: number, onBatch: () => void = () => {}) => {
      const batches = { n: 0 };
      const writer = createBatchWriter({
        db,
        gatherMs,
        passengers: () => {
          batches.n += 1;
          onBatch();
          return null;
        },
      });
      return { writer, batches };
    };
    const turn = () => new Promise<void>((r) => setImmediate(r));

    it('holds the first job until the window ends, and writes what came meanwhile in the same batch', async () => {
      const a = await createPoint(db);
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        const { writer, batches } = counting(8);
        const first = writer.write(status(a.point.id, 'Preparing'));
        await turn();
        await turn();
        const second = writer.write(status(a.point.id, 'Charging'));
        await turn();
        expect(batches.n).toBe(0);
        vi.advanceTimersByTime(8);
        await Promise.all([first, second]);
        expect(batches.n).toBe(1);
      } finally {
        vi.useRealTimers();
      }
      const [row] = await db.select().from(chargePoint).where(eq(chargePoint.id, a.point.id));
      expect(row!.status).toBe('Charging');
    });

    it(`ends the window at ${GATHER_FULL} jobs, and writes jobs that come during a batch right after it`, async () => {
      const a = await createPoint(db);
      // A window that would outlast the test: each write below must go out without it.
      let during: Promise<void> | undefined;
      const { writer, batches } = counting(3_600_000, () => {
        during ??= writer.write(status(a.point.id, 'Finishing'));
      });
      await Promise.all(Array.from({ length: GATHER_FULL }, () => writer.write(status(a.point.id, 'Charging'))));
      await during;
      expect(batches.n).toBe(2);
      const [row] = await db.select().from(chargePoint).where(eq(chargePoint.id, a.point.id));
      expect(row!.status).toBe('Finishing');
    });
  });

  it('loads points by serial number in one query, a serial that cannot exist (NUL) finding nothing', async () => {
    const a = await createPoint(db, { connectors: 2 });
    const found = await loadPoints(db, [a.serialNumber, 'no\0such', 'O\'x,{}"', 'missing']);
    expect([...found.keys()]).toEqual([a.serialNumber]);
    const p = found.get(a.serialNumber)!;
    expect(p).toMatchObject({ id: a.point.id, providerId: a.providerId, stationId: a.stationId, enabled: true, timeZone: 'Asia/Shanghai' });
    expect(p.ocppKeyHash).toBe(a.point.ocppKeyHash);
    expect([...p.connectors.keys()]).toEqual([1, 2]);
    expect(p.transactions.size).toBe(0);
  });
});

describe('pipelined statements', () => {
  const insert = (id: number, v: string) => ({ text: 'insert into pipeline_probe (id, v) values ($1::int, $2)', values: [String(id), v] });
  const upper = (id: number) => ({ text: 'update pipeline_probe set v = upper(v) where id = $1::int', values: [String(id)] });
  const probe = async () => (await s.database.pool.query('select id, v from pipeline_probe order by id')).rows;
  beforeAll(() => s.database.pool.query('create table pipeline_probe (id int primary key, v text)'));

  it('run as one transaction: a failing statement undoes the ones before it; a text parsed by a failed run runs again', async () => {
    await expect(runPipelined(s.database.pool, [insert(1, 'a'), upper(1), insert(1, 'again')])).rejects.toThrow(/duplicate key/);
    expect(await probe()).toEqual([]);
    await runPipelined(s.database.pool, [insert(1, 'a'), upper(1), insert(2, 'b')]);
    expect(await probe()).toEqual([
      { id: 1, v: 'A' },
      { id: 2, v: 'b' },
    ]);
    await s.database.pool.query('delete from pipeline_probe');
  });

  it('parses a text once per connection and only binds it afterwards', async () => {
    const client = await s.database.pool.connect();
    try {
      const prepared = async () =>
        (
          await client.query<{ prepare_time: Date; runs: number }>(
            `select prepare_time, (generic_plans + custom_plans)::int as runs from pg_prepared_statements where statement like 'update pipeline_probe%'`,
          )
        ).rows;
      await runPipelinedOn(client, [insert(10, 'x'), upper(10)]);
      const [first, ...others] = await prepared();
      expect(others).toEqual([]);
      for (let i = 1; i <= 3; i++) await runPipelinedOn(client, [insert(10 + i, 'x'), upper(10 + i)]);
      expect(await prepared()).toEqual([{ prepare_time: first!.prepare_time, runs: first!.runs + 3 }]);
    } finally {
      client.release();
    }
  });
});

describe('pipelined statements on a pool that keeps none (CSMS_DB_NAMED_STATEMENTS=false)', () => {
  const remove = { text: 'delete from pipeline_probe where id = $1::int', values: ['999'] };

  it('sends its texts unnamed, each run parsing them again', async () => {
    const client = await s.database.pool.connect();
    // A pool of this one connection, which runPipelined takes and gives back at each run.
    const held = { [UNNAMED]: true, connect: async () => ({ query: client.query.bind(client), release() {} }) } as unknown as pg.Pool;
    const prepared = async () =>
      Number(
        (await client.query(`select count(*) from pg_prepared_statements where statement like 'delete from pipeline_probe%'`)).rows[0]
          .count,
      );
    try {
      for (let i = 0; i < 3; i++) await runPipelined(held, [remove]);
      expect(await prepared()).toBe(0);
      await runPipelinedOn(client, [remove]);
      expect(await prepared()).toBe(1);
    } finally {
      client.release();
    }
  });

  it('is what a pool opened without named statements says', async () => {
    const unnamed = openPostgres('postgres://nobody@127.0.0.1:1/none', { namedStatements: false });
    const named = openPostgres('postgres://nobody@127.0.0.1:1/none');
    expect([UNNAMED in unnamed.pool, UNNAMED in named.pool]).toEqual([true, false]);
    await Promise.all([unnamed.close(), named.close()]);
  });
});

describe('OCPP log rows in the batches', () => {
  const quiet = { warn: () => {} };
  // A flush of its own only when asked: whatever reaches the table before that rode in a batch.
  const logWriter = () => createOcppLogWriter({ db, log: quiet, flushMs: 3_600_000 });
  const row = (serialNumber: string, messageId: string): OcppLogRow => ({
    serialNumber,
    direction: 'in',
    messageType: 2,
    action: 'Heartbeat',
    messageId,
    payload: {},
  });
  const logged = (serials: string[]) => db.select().from(ocppLog).where(inArray(ocppLog.serialNumber, serials)).orderBy(asc(ocppLog.id));

  it("ride in the batch writer's next message, in the order they were written", async () => {
    const a = await createPoint(db);
    const log = logWriter();
    const writer = createBatchWriter({ db, passengers: (max) => log.board(max) });
    log.write(row(a.serialNumber, 'm1'));
    log.write(row(a.serialNumber, 'm2'));
    await writer.write({ pointStatus: { id: a.point.id, status: 'Available', errorCode: 'NoError' } });
    expect(log.pending).toBe(0);
    expect((await logged([a.serialNumber])).map((r) => r.messageId)).toEqual(['m1', 'm2']);
  });

  it('wait for a flush of the log under way, so that ids follow the order rows were written in', async () => {
    const a = await createPoint(db);
    const log = logWriter();
    const writer = createBatchWriter({ db, passengers: (max) => log.board(max) });
    log.write(row(a.serialNumber, 'm1'));
    const flushed = log.flush();
    log.write(row(a.serialNumber, 'm2'));
    expect(log.board(10)).toBeNull();
    await flushed;
    await writer.write({ pointStatus: { id: a.point.id, status: 'Available', errorCode: 'NoError' } });
    expect((await logged([a.serialNumber])).map((r) => r.messageId)).toEqual(['m1', 'm2']);
  });

  it('counts as its backlog the rows not yet in the database, buffered, boarded or being flushed', async () => {
    const a = await createPoint(db);
    const log = logWriter();
    const writer = createBatchWriter({ db, passengers: (max) => log.board(max) });
    log.write(row(a.serialNumber, 'm1'));
    log.write(row(a.serialNumber, 'm2'));
    expect(log.backlog).toBe(2);
    await writer.write({ pointStatus: { id: a.point.id, status: 'Available', errorCode: 'NoError' } });
    await log.flush(); // nothing buffered: waits for the boarded rows' settling
    expect(log.backlog).toBe(0);
    log.write(row(a.serialNumber, 'm3'));
    const flushed = log.flush();
    expect(log.pending).toBe(0);
    expect(log.backlog).toBe(1);
    await flushed;
    expect(log.backlog).toBe(0);
    expect((await logged([a.serialNumber])).map((r) => r.messageId)).toEqual(['m1', 'm2', 'm3']);
  });

  it('drops rows past its bounds, counting the rows and bytes of inserts under way as well as the buffer', async () => {
    const a = await createPoint(db);
    const warned: unknown[] = [];
    const log = createOcppLogWriter({ db, log: { warn: (o) => warned.push(o) }, flushMs: 3_600_000, maxBuffered: 3, maxBytes: 10_000 });
    log.write(row(a.serialNumber, 'm1'), 4_000);
    log.write(row(a.serialNumber, 'm2'), 4_000);
    const flushed = log.flush(); // both taken by an insert: out of the buffer, still held
    log.write(row(a.serialNumber, 'm3'), 4_000); // 12,000 bytes held: dropped
    log.write(row(a.serialNumber, 'm4'));
    log.write(row(a.serialNumber, 'm5')); // a fourth row: dropped
    expect(log.backlog).toBe(3);
    await flushed;
    await log.flush();
    expect((await logged([a.serialNumber])).map((r) => r.messageId)).toEqual(['m1', 'm2', 'm4']);
    expect(warned).toEqual([{ dropped: 2 }]);
    // Once written, the bounds are free again.
    log.write(row(a.serialNumber, 'm6'), 9_000);
    await log.flush();
    expect((await logged([a.serialNumber])).map((r) => r.messageId)).toEqual(['m1', 'm2', 'm4', 'm6']);
  });

  it('a row the database refuses costs neither the batch nor the rows beside it', async () => {
    const a = await createPoint(db);
    const log = logWriter();
    const writer = createBatchWriter({ db, passengers: (max) => log.board(max) });
    const tooLong = 'S'.repeat(65); // serial_number is varchar(64)
    log.write(row(a.serialNumber, 'm1'));
    log.write(row(tooLong, 'm2'));
    log.write(row(a.serialNumber, 'm3'));
    await writer.write({ pointStatus: { id: a.point.id, status: 'Faulted', errorCode: 'OtherError' } });
    const [p] = await db.select().from(chargePoint).where(eq(chargePoint.id, a.point.id));
    expect(p!.status).toBe('Faulted');
    // Given back to the log writer, which writes the rows it can one by one.
    await log.flush();
    expect((await logged([a.serialNumber, tooLong])).map((r) => r.messageId)).toEqual(['m1', 'm3']);
  });
});

describe('last seen', () => {
  it("writes a point's last_seen_at at most once per period, its connect counting as one, in chunks", async () => {
    const points = await Promise.all([0, 1, 2].map(() => createPoint(db)));
    const [a, b, c] = points.map((p) => p.point.id) as [number, number, number];
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const seen = createLastSeen({ db, everyMs: 30_000, chunk: 2, logger: { warn: () => {} }, now: () => clock });
    /** Each point's last_seen_at, in the order a, b, c, after touching all three and flushing. */
    const touchAll = async () => {
      [a, b, c].forEach((id) => seen.touch(id));
      await seen.flush();
      const rows = await db
        .select()
        .from(chargePoint)
        .where(inArray(chargePoint.id, [a, b, c]));
      return [a, b, c].map((id) => rows.find((r) => r.id === id)!.lastSeenAt?.toISOString() ?? null);
    };
    const at = (ms: number) => new Date(ms).toISOString();
    const t0 = clock;

    seen.written(c, clock); // c came online: its row was written with the online flag
    expect(await touchAll()).toEqual([at(t0), at(t0), null]);

    clock += 29_000; // within the period: nothing written
    expect(await touchAll()).toEqual([at(t0), at(t0), null]);

    clock += 1_000; // the period is over for all three (three points in chunks of two)
    expect(await touchAll()).toEqual([at(clock), at(clock), at(clock)]);

    seen.forget(a); // its connection ended: the next one is written at once
    clock += 1_000;
    expect(await touchAll()).toEqual([at(clock), at(clock - 1_000), at(clock - 1_000)]);
  });
});

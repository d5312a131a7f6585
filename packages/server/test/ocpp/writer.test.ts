import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.js';
import { chargePoint, connector } from '../../src/db/schema.js';
import { loadPoints } from '../../src/ocpp/registry.js';
import { createBatchWriter } from '../../src/ocpp/writer.js';
import { startServer, type TestServer } from '../harness.js';
import { createPoint } from './support.js';

/*
 * The batch writer sends a batch as one message (values spelled as constants), on PGlite's thread
 * and on PostgreSQL alike.
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

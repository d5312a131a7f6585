import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.js';
import { alarm, card, chargePoint, chargingTransaction, connector, meterValue, ocppLog } from '../../src/db/schema.js';
import { startServer, type TestServer } from '../harness.js';
import { createPoint, iso, TestCharger, type Message } from './support.js';

/**
 * Issue 12 item 3 (OCPP part): text PostgreSQL cannot store (NUL, a lone UTF-16 surrogate) in any
 * field of a charger's CALL is answered with PropertyConstraintViolation naming the field, never
 * InternalError, and nothing of the message is stored (the frame itself stays in the OCPP log, the
 * character replaced by U+FFFD as the contract's `replaceBadText` does).
 */

let s: TestServer;
let db: Db;
let c: TestCharger;
let point: Awaited<ReturnType<typeof createPoint>>['point'];
const dataTransfers: unknown[] = [];

beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
  s.app.ocpp.vendors.register('com.example', (req) => {
    dataTransfers.push(req);
    return { status: 'Accepted' };
  });
  const p = await createPoint(db);
  point = p.point;
  c = await TestCharger.connect(s.url, p.serialNumber, { key: p.key });
});
afterAll(async () => {
  await c.close();
  await s.close();
});

let seq = 0;
/** Sends `payload` (with its escapes as written) and expects the field's CALLERROR. */
async function refused(action: string, payload: Record<string, unknown>, field: string) {
  const id = `bad-${++seq}`;
  const reply: Message = await c.call(action, payload, id);
  expect(reply.slice(0, 3), JSON.stringify(reply)).toEqual([4, id, 'PropertyConstraintViolation']);
  expect(reply[3]).toContain(field);
  return reply;
}

const pointRow = async () => (await db.select().from(chargePoint).where(eq(chargePoint.id, point.id)))[0]!;

describe('text the database cannot store', () => {
  it('BootNotification: a NUL or a lone surrogate in any vendor field is refused and the point keeps its data', async () => {
    await c.ok('BootNotification', { chargePointVendor: 'Acme', chargePointModel: 'X1', firmwareVersion: '1.0' });
    await refused('BootNotification', { chargePointVendor: 'Ac\u0000me', chargePointModel: 'X2' }, '/chargePointVendor');
    await refused(
      'BootNotification',
      { chargePointVendor: 'Acme', chargePointModel: 'X2', firmwareVersion: '2\ud800' },
      '/firmwareVersion',
    );
    await refused(
      'BootNotification',
      { chargePointVendor: 'Acme', chargePointModel: 'X2', meterSerialNumber: '\udc00x' },
      '/meterSerialNumber',
    );
    await refused('BootNotification', { chargePointVendor: 'Acme', chargePointModel: 'X2', iccid: 'a\u0000' }, '/iccid');
    expect(await pointRow()).toMatchObject({ vendor: 'Acme', model: 'X1', firmwareVersion: '1.0', iccid: null, meterSerial: null });
    // A proper surrogate pair (an emoji) is ordinary text.
    await c.ok('BootNotification', { chargePointVendor: 'Acme', chargePointModel: 'X\ud83d\ude00' });
    expect((await pointRow()).model).toBe('X\ud83d\ude00');
  });

  it('StatusNotification: info or a vendor code with NUL changes neither the connector nor the alarms', async () => {
    const connectors = () => db.select().from(connector).where(eq(connector.chargePointId, point.id));
    const before = await connectors();
    await refused(
      'StatusNotification',
      { connectorId: 1, errorCode: 'OtherError', status: 'Faulted', info: 'over\u0000heat', timestamp: iso() },
      '/info',
    );
    await refused(
      'StatusNotification',
      { connectorId: 3, errorCode: 'NoError', status: 'Available', vendorErrorCode: 'E\u00001' },
      '/vendorErrorCode',
    );
    expect(await connectors()).toEqual(before);
    expect((await db.select({ n: count() }).from(alarm).where(eq(alarm.chargePointId, point.id)))[0]!.n).toBe(0);
  });

  it('DataTransfer: the vendor handler never sees it', async () => {
    await refused('DataTransfer', { vendorId: 'com.example', data: 'a\u0000b' }, '/data');
    await refused('DataTransfer', { vendorId: 'com.example', messageId: '\ud800' }, '/messageId');
    expect(dataTransfers).toEqual([]);
    expect(await c.ok('DataTransfer', { vendorId: 'com.example', data: 'ok' })).toEqual({ status: 'Accepted' });
  });

  it('idTag: Authorize, StartTransaction and StopTransaction are refused; no session is recorded or stopped', async () => {
    const [good] = await db
      .insert(card)
      .values({
        providerId: 1,
        cardNumber: 'NUL-CARD',
        physicalId: 'NULCARD1',
        balanceCents: 10_000,
        expireAt: new Date(Date.now() + 86_400_000),
      })
      .returning();
    await refused('Authorize', { idTag: 'NULCARD1\u0000' }, '/idTag');
    const sessions = async () =>
      (await db.select({ n: count() }).from(chargingTransaction).where(eq(chargingTransaction.chargePointId, point.id)))[0]!.n;
    await refused('StartTransaction', { connectorId: 1, idTag: '\u0000NULCARD1', meterStart: 0, timestamp: iso() }, '/idTag');
    expect(await sessions()).toBe(0);

    const started = await c.ok<{ transactionId: number }>('StartTransaction', {
      connectorId: 1,
      idTag: good!.physicalId,
      meterStart: 0,
      timestamp: iso(),
    });
    await refused(
      'MeterValues',
      { connectorId: 1, transactionId: started.transactionId, meterValue: [{ timestamp: iso(), sampledValue: [{ value: '1\u00000' }] }] },
      '/meterValue/0/sampledValue/0/value',
    );
    expect((await db.select({ n: count() }).from(meterValue).where(eq(meterValue.transactionId, started.transactionId)))[0]!.n).toBe(0);
    await refused(
      'StopTransaction',
      { transactionId: started.transactionId, meterStop: 500, timestamp: iso(), idTag: 'NULCARD1\u0000' },
      '/idTag',
    );
    const [open] = await db.select().from(chargingTransaction).where(eq(chargingTransaction.id, started.transactionId));
    expect(open).toMatchObject({ stoppedAt: null, stopIdTag: null, meterStopWh: null });
    await c.ok('StopTransaction', { transactionId: started.transactionId, meterStop: 500, timestamp: iso() });
  });

  it("a charger's answer to our call holding such text is an error to the console, not a result", async () => {
    c.onCall = () => ({ status: 'Accepted', data: 'a\u0000b' });
    const reply = await s.app.bus.request(point.serialNumber, { action: 'DataTransfer', payload: { vendorId: 'com.example' } });
    expect(reply).toMatchObject({ kind: 'error', code: 'FormationViolation', details: { violation: 'PropertyConstraintViolation' } });
    c.onCall = () => ({ status: 'Accepted', data: 'ab' });
    expect(await s.app.bus.request(point.serialNumber, { action: 'DataTransfer', payload: { vendorId: 'com.example' } })).toEqual({
      kind: 'result',
      payload: { status: 'Accepted', data: 'ab' },
    });
  });

  it('keeps the refused frames in the OCPP log, the bad character as U+FFFD', async () => {
    await s.app.ocpp.flush();
    const rows = await db
      .select()
      .from(ocppLog)
      .where(and(eq(ocppLog.chargePointId, point.id), eq(ocppLog.messageId, 'bad-1')))
      .orderBy(ocppLog.id);
    expect(rows.map((r) => [r.direction, r.messageType, r.responseType])).toEqual([['in', 2, 4]]);
    expect(rows[0]!.payload).toEqual({ chargePointVendor: 'Ac\ufffdme', chargePointModel: 'X2' });
    expect(rows[0]!.responsePayload).toMatchObject({ errorCode: 'PropertyConstraintViolation' });
    // A lone surrogate too, so the log row is not lost either.
    const [surrogate] = await db
      .select()
      .from(ocppLog)
      .where(and(eq(ocppLog.chargePointId, point.id), eq(ocppLog.messageId, 'bad-2'), eq(ocppLog.direction, 'in')));
    expect(surrogate!.payload).toMatchObject({ firmwareVersion: '2\ufffd' });
  });
});

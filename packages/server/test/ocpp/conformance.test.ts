import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargingTransaction, ocppLog } from '../../src/db/schema.js';
import { startServer, type TestServer } from '../harness.js';
import { createPoint, iso, replySchemas, TestCharger, type Message } from './support.js';

/**
 * Issue 5 item 8: for each of the ten charge-point actions a valid sample gets a schema-valid
 * reply and one invalid sample per violation class gets the right CALLERROR; malformed,
 * oversized and unknown frames too; the node stays up throughout.
 */

type Samples = {
  valid: () => Record<string, unknown>;
  PropertyConstraintViolation?: Record<string, unknown>;
  TypeConstraintViolation?: Record<string, unknown>;
  OccurenceConstraintViolation: Record<string, unknown>;
};

const long = (n: number) => 'x'.repeat(n);
const sv = (value: string, extra: Record<string, unknown> = {}) => ({ value, ...extra });
let txId = 0;

const actions: Record<string, Samples> = {
  Authorize: {
    valid: () => ({ idTag: 'NOCARD01' }),
    PropertyConstraintViolation: { idTag: long(21) },
    TypeConstraintViolation: { idTag: 42 },
    OccurenceConstraintViolation: {},
  },
  BootNotification: {
    valid: () => ({ chargePointVendor: 'Vendor', chargePointModel: 'Model', firmwareVersion: '1.0.0', iccid: '8986', meterType: 'DC' }),
    PropertyConstraintViolation: { chargePointVendor: long(21), chargePointModel: 'M' },
    TypeConstraintViolation: { chargePointVendor: 'V', chargePointModel: 7 },
    OccurenceConstraintViolation: { chargePointVendor: 'V' },
  },
  DataTransfer: {
    valid: () => ({ vendorId: 'com.example', messageId: 'hello', data: '{"a":1}' }),
    PropertyConstraintViolation: { vendorId: long(256) },
    TypeConstraintViolation: { vendorId: 'com.example', data: { a: 1 } },
    OccurenceConstraintViolation: { messageId: 'no vendor' },
  },
  DiagnosticsStatusNotification: {
    valid: () => ({ status: 'Uploaded' }),
    PropertyConstraintViolation: { status: 'Done' },
    TypeConstraintViolation: { status: 1 },
    OccurenceConstraintViolation: {},
  },
  FirmwareStatusNotification: {
    valid: () => ({ status: 'Installed' }),
    PropertyConstraintViolation: { status: 'Flashed' },
    TypeConstraintViolation: { status: true },
    OccurenceConstraintViolation: {},
  },
  Heartbeat: {
    // Heartbeat has no fields: neither a value nor a type can be wrong, only an extra field.
    valid: () => ({}),
    OccurenceConstraintViolation: { extra: 1 },
  },
  MeterValues: {
    valid: () => ({
      connectorId: 1,
      meterValue: [{ timestamp: iso(), sampledValue: [sv('1500'), sv('7.2', { measurand: 'Power.Active.Import', unit: 'kW' })] }],
    }),
    PropertyConstraintViolation: { connectorId: 1, meterValue: [{ timestamp: 'yesterday', sampledValue: [sv('1')] }] },
    TypeConstraintViolation: { connectorId: '1', meterValue: [{ timestamp: iso(), sampledValue: [sv('1')] }] },
    OccurenceConstraintViolation: { connectorId: 1 },
  },
  StartTransaction: {
    valid: () => ({ connectorId: 1, idTag: 'NOCARD02', meterStart: 1000, timestamp: iso() }),
    PropertyConstraintViolation: { connectorId: 1, idTag: 'NOCARD02', meterStart: 1000, timestamp: 'not a date' },
    TypeConstraintViolation: { connectorId: 1, idTag: 'NOCARD02', meterStart: '1000', timestamp: iso() },
    OccurenceConstraintViolation: { connectorId: 1, meterStart: 1000, timestamp: iso() },
  },
  StatusNotification: {
    valid: () => ({ connectorId: 1, errorCode: 'NoError', status: 'Available', timestamp: iso() }),
    PropertyConstraintViolation: { connectorId: 1, errorCode: 'NoError', status: 'Sleeping' },
    TypeConstraintViolation: { connectorId: '1', errorCode: 'NoError', status: 'Available' },
    OccurenceConstraintViolation: { connectorId: 1, errorCode: 'NoError' },
  },
  StopTransaction: {
    valid: () => ({ transactionId: txId, meterStop: 2000, timestamp: iso(), idTag: 'NOCARD02', reason: 'Local' }),
    PropertyConstraintViolation: { transactionId: 1, meterStop: 2000, timestamp: iso(), reason: 'Bored' },
    TypeConstraintViolation: { transactionId: '1', meterStop: 2000, timestamp: iso() },
    OccurenceConstraintViolation: { transactionId: 1, timestamp: iso() },
  },
};

const isCallError = (m: Message, id: string, code: string) =>
  m.length === 5 && m[0] === 4 && m[1] === id && m[2] === code && typeof m[3] === 'string' && typeof m[4] === 'object';

describe('OCPP 1.6J conformance', () => {
  let s: TestServer;
  let c: TestCharger;
  let serialNumber: string;
  const validReply = replySchemas();
  beforeAll(async () => {
    s = await startServer();
    const p = await createPoint(s.database.db);
    serialNumber = p.serialNumber;
    c = await TestCharger.connect(s.url, p.serialNumber, { key: p.key });
  });
  afterAll(async () => {
    await c.close();
    await s.close();
  });

  const transactions = async () => (await s.database.db.select({ n: count() }).from(chargingTransaction))[0]!.n;

  for (const [action, samples] of Object.entries(actions)) {
    it(`${action}: a valid sample gets a schema-valid reply`, async () => {
      const reply = await c.call(action, samples.valid());
      expect(reply[0], JSON.stringify(reply)).toBe(3);
      expect(validReply(action, reply[2]), JSON.stringify(reply[2])).toBe(true);
      if (action === 'StartTransaction') txId = (reply[2] as { transactionId: number }).transactionId;
    });

    it(`${action}: each violation class gets its CALLERROR and changes nothing`, async () => {
      const before = await transactions();
      const cases: [string, unknown][] = [
        ['FormationViolation', []],
        ['FormationViolation', 'text'],
        ...(['PropertyConstraintViolation', 'TypeConstraintViolation', 'OccurenceConstraintViolation'] as const)
          .filter((k) => samples[k] !== undefined)
          .map((k): [string, unknown] => [k, samples[k]]),
      ];
      for (const [code, payload] of cases) {
        const id = `${action}-${code}-${Math.random().toString(36).slice(2, 8)}`;
        const reply = await c.call(action, payload, id);
        expect(isCallError(reply, id, code), `${JSON.stringify(payload)} → ${JSON.stringify(reply)}`).toBe(true);
      }
      expect(await transactions()).toBe(before);
    });
  }

  it('answers an unknown action with NotImplemented', async () => {
    expect(isCallError(await c.call('MakeCoffee', {}, 'u1'), 'u1', 'NotImplemented')).toBe(true);
    // A central-system action sent the wrong way is not implemented here either.
    expect(isCallError(await c.call('Reset', { type: 'Soft' }, 'u2'), 'u2', 'NotImplemented')).toBe(true);
  });

  it('answers malformed frames with the proper CALLERROR and keeps the socket', async () => {
    const cases: [string, string, string][] = [
      ['[2, "j1", "Heartbeat", {', 'j1', 'FormationViolation'],
      ['not json at all', '-1', 'FormationViolation'],
      ['{"a":1}', '-1', 'FormationViolation'],
      ['[]', '-1', 'FormationViolation'],
      ['[2, 17, "Heartbeat", {}]', '-1', 'FormationViolation'],
      ['["2", "j2", "Heartbeat", {}]', 'j2', 'FormationViolation'],
      ['[2, "j3", "Heartbeat"]', 'j3', 'ProtocolError'],
      ['[2, "j4", "Heartbeat", {}, "extra"]', 'j4', 'FormationViolation'],
      ['[2, "j5", 12, {}]', 'j5', 'FormationViolation'],
      ['[6, "j6", "Heartbeat", {}]', 'j6', 'NotImplemented'],
      ['[5, "j7", {}]', 'j7', 'NotImplemented'],
    ];
    for (const [text, id, code] of cases) {
      const reply = await c.sendRaw(text);
      expect(isCallError(reply, id, code), `${text} → ${JSON.stringify(reply)}`).toBe(true);
    }
    // A stray CALLRESULT / CALLERROR (nothing outstanding) is not answered; the socket carries on.
    c.ws.send('[3, "nobody-asked", {}]');
    c.ws.send('[4, "nobody-asked", "GenericError", "", {}]');
    const hb = await c.call('Heartbeat', {});
    expect(hb[0]).toBe(3);
  });

  it('answers an oversized CALL with a CALLERROR, and closes with 1009 when no id can be read', async () => {
    const big = JSON.stringify([2, 'big1', 'DataTransfer', { vendorId: 'v', data: 'x'.repeat(70 * 1024) }]);
    const reply = await c.sendRaw(big, 'big1');
    expect(isCallError(reply, 'big1', 'FormationViolation'), JSON.stringify(reply).slice(0, 200)).toBe(true);
    expect((await c.call('Heartbeat', {}))[0]).toBe(3);

    const p = await createPoint(s.database.db);
    const other = await TestCharger.connect(s.url, p.serialNumber, { key: p.key });
    other.ws.send(`"${'y'.repeat(70 * 1024)}"`);
    expect(await other.closed).toBe(1009);
    const huge = await TestCharger.connect(s.url, p.serialNumber, { key: p.key });
    huge.ws.send(JSON.stringify([2, 'big2', 'Heartbeat', { pad: 'z'.repeat(300 * 1024) }]));
    expect(await huge.closed).toBe(1009);
  });

  it('stays up: the health check and a new connection still work', async () => {
    expect((await s.call('GET', '/health')).code).toBe(200);
    const p = await createPoint(s.database.db);
    const fresh = await TestCharger.connect(s.url, p.serialNumber, { key: p.key });
    expect((await fresh.call('Heartbeat', {}))[0]).toBe(3);
    await fresh.close();
  });

  it('logs every frame, pairing each response with its request', async () => {
    await c.call('Heartbeat', {}, 'pair-1');
    await c.call('Authorize', { idTag: long(30) }, 'pair-2');
    await s.app.ocpp.flush();
    const rows = await s.database.db
      .select()
      .from(ocppLog)
      .where(and(eq(ocppLog.serialNumber, serialNumber), eq(ocppLog.messageId, 'pair-1')))
      .orderBy(ocppLog.id);
    // A charger's CALL and our answer are one row: the request's columns and the answer's.
    expect(rows.map((r) => [r.direction, r.messageType, r.action, r.responseType])).toEqual([['in', 2, 'Heartbeat', 3]]);
    expect(rows[0]!.payload).toEqual({});
    expect(rows[0]!.responsePayload).toMatchObject({ currentTime: expect.any(String) });
    expect(rows[0]!.latencyMs).not.toBeNull();
    expect(rows[0]!.responseAt!.getTime()).toBeGreaterThanOrEqual(rows[0]!.createdAt.getTime());
    const err = await s.database.db
      .select()
      .from(ocppLog)
      .where(and(eq(ocppLog.serialNumber, serialNumber), eq(ocppLog.messageId, 'pair-2')))
      .orderBy(ocppLog.id);
    expect(err.map((r) => [r.direction, r.messageType, r.action, r.responseType])).toEqual([['in', 2, 'Authorize', 4]]);
    expect(err[0]!.responsePayload).toMatchObject({ errorCode: 'PropertyConstraintViolation' });
    // A NUL character (which PostgreSQL text cannot hold) is refused (see unstorable.test.ts) and logged as U+FFFD.
    c.ws.send(JSON.stringify([2, 'nul-1', 'DataTransfer', { vendorId: 'v\u0000x', data: 'a\u0000b' }]));
    await c.call('Heartbeat', {});
    await s.app.ocpp.flush();
    const nul = await s.database.db
      .select()
      .from(ocppLog)
      .where(and(eq(ocppLog.serialNumber, serialNumber), eq(ocppLog.messageId, 'nul-1')))
      .orderBy(ocppLog.id);
    expect(nul.map((r) => [r.payload, r.responsePayload])).toMatchObject([
      [{ vendorId: 'v\ufffdx', data: 'a\ufffdb' }, { errorCode: 'PropertyConstraintViolation' }],
    ]);
    // Malformed frames are kept too.
    const raw = await s.database.db
      .select()
      .from(ocppLog)
      .where(and(eq(ocppLog.serialNumber, serialNumber), eq(ocppLog.messageId, 'j1')))
      .orderBy(ocppLog.id);
    expect(raw.map((r) => r.direction)).toEqual(['in', 'out']);
  });
});

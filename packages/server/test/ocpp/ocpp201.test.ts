import net from 'node:net';
import { createChargePoint } from '@csms/simulator';
import { and, asc, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.js';
import {
  card,
  chargePoint,
  chargeUser,
  chargingTransaction,
  connector,
  ledger,
  meterValue,
  ocppLog,
  price,
  reservation,
  systemLog,
} from '../../src/db/schema.js';
import { createOperator } from '../fixtures.js';
import { startServer, type TestServer } from '../harness.js';
import { createPoint, eventually, iso, replySchemas, TestCharger, type Message } from './support.js';

/**
 * Issue 22: OCPP 2.0.1 on the same model. Subprotocol negotiation, OCA's 2.0.1 schemas both ways
 * with 2.0.1's CALLERROR names, the charger-initiated core onto the same rows as 1.6 (connectors,
 * transactions, meter values, bills, alarms), and the console's 1.6 commands translated for it.
 */

let s: TestServer;
let db: Db;
let n = 0;
const uniq = (p: string) => `${p}${++n}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
const slots = Array.from({ length: 48 }, () => 'flat' as const);
const V201 = ['ocpp2.0.1'];

beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
});
afterAll(() => s.close());

async function connect201(opts: Parameters<typeof createPoint>[1] = {}) {
  const p = await createPoint(db, opts);
  const c = await TestCharger.connect(s.url, p.serialNumber, { key: p.key, protocols: V201 });
  return { ...p, c };
}

async function cardOf(providerId: number) {
  const [u] = await db
    .insert(chargeUser)
    .values({ providerId, account: uniq('acct'), userType: 'card', status: 1 })
    .returning();
  const [c] = await db
    .insert(card)
    .values({
      providerId,
      cardNumber: uniq('NO'),
      physicalId: uniq('UID').slice(0, 20),
      chargeUserId: u!.id,
      balanceCents: 10_000,
      expireAt: new Date(Date.now() + 365 * 86_400_000),
    })
    .returning();
  return c!;
}

const isCallError = (m: Message, id: string, code: string) =>
  m.length === 5 && m[0] === 4 && m[1] === id && m[2] === code && typeof m[3] === 'string' && typeof m[4] === 'object';

const pointRow = async (id: number) => (await db.select().from(chargePoint).where(eq(chargePoint.id, id)))[0]!;

describe('OCPP 2.0.1 subprotocol', () => {
  it('speaks the subprotocol the charger lists first among those it supports, and records it on the point', async () => {
    const p = await createPoint(db);
    const a = await TestCharger.connect(s.url, p.serialNumber, { key: p.key, protocols: ['ocpp2.0.1', 'ocpp1.6'] });
    expect(a.ws.protocol).toBe('ocpp2.0.1');
    await eventually(async () => (await pointRow(p.point.id)).ocppVersion === '2.0.1');
    await a.close();
    const b = await TestCharger.connect(s.url, p.serialNumber, { key: p.key, protocols: ['ocpp1.6', 'ocpp2.0.1'] });
    expect(b.ws.protocol).toBe('ocpp1.6');
    await eventually(async () => (await pointRow(p.point.id)).ocppVersion === '1.6');
    // A 1.6 message on the 1.6 connection is 1.6's; 2.0.1's TransactionEvent is unknown to 1.6.
    expect(isCallError(await b.call('TransactionEvent', {}, 'x1'), 'x1', 'NotImplemented')).toBe(true);
    await b.close();
  });

  it('refuses a charger offering no subprotocol it speaks, and checks the key as for 1.6 (profiles 1 and 2)', async () => {
    const p = await createPoint(db);
    await expect(TestCharger.connect(s.url, p.serialNumber, { key: p.key, protocols: ['ocpp2.1'] })).rejects.toMatchObject({ status: 400 });
    await expect(TestCharger.connect(s.url, p.serialNumber, { key: 'wrong-key-0123456789', protocols: V201 })).rejects.toMatchObject({
      status: 401,
    });
    await expect(TestCharger.connect(s.url, p.serialNumber, { protocols: V201 })).rejects.toMatchObject({ status: 401 });
  });
});

type Samples = {
  valid: () => Record<string, unknown>;
  PropertyConstraintViolation?: Record<string, unknown>;
  TypeConstraintViolation?: Record<string, unknown>;
  OccurrenceConstraintViolation: Record<string, unknown>;
};
const long = (k: number) => 'x'.repeat(k);
const token = (idToken: string) => ({ idToken, type: 'ISO14443' });
const energy = (wh: number, context = 'Sample.Periodic') => ({ value: wh, context, measurand: 'Energy.Active.Import.Register' });

const actions: Record<string, Samples> = {
  Authorize: {
    valid: () => ({ idToken: token('NOCARD01') }),
    PropertyConstraintViolation: { idToken: { idToken: 'A', type: 'Fingerprint' } },
    TypeConstraintViolation: { idToken: { idToken: 42, type: 'ISO14443' } },
    OccurrenceConstraintViolation: {},
  },
  BootNotification: {
    valid: () => ({
      reason: 'PowerUp',
      chargingStation: { model: 'M1', vendorName: 'Vendor', firmwareVersion: '2.0', modem: { iccid: '8986' } },
    }),
    PropertyConstraintViolation: { reason: 'Bored', chargingStation: { model: 'M', vendorName: 'V' } },
    TypeConstraintViolation: { reason: 'PowerUp', chargingStation: { model: 7, vendorName: 'V' } },
    OccurrenceConstraintViolation: { reason: 'PowerUp' },
  },
  DataTransfer: {
    valid: () => ({ vendorId: 'com.example', messageId: 'hello', data: { a: 1 } }),
    PropertyConstraintViolation: { vendorId: long(256) },
    TypeConstraintViolation: { vendorId: 7 },
    OccurrenceConstraintViolation: { messageId: 'no vendor' },
  },
  FirmwareStatusNotification: {
    valid: () => ({ status: 'Installed', requestId: 1 }),
    PropertyConstraintViolation: { status: 'Flashed' },
    TypeConstraintViolation: { status: 'Installed', requestId: 'one' },
    OccurrenceConstraintViolation: {},
  },
  Heartbeat: { valid: () => ({}), OccurrenceConstraintViolation: { extra: 1 } },
  LogStatusNotification: {
    valid: () => ({ status: 'Uploaded', requestId: 2 }),
    PropertyConstraintViolation: { status: 'Done' },
    TypeConstraintViolation: { status: 1 },
    OccurrenceConstraintViolation: {},
  },
  MeterValues: {
    valid: () => ({
      evseId: 1,
      meterValue: [{ timestamp: iso(), sampledValue: [{ value: 7.2, measurand: 'Power.Active.Import', unitOfMeasure: { unit: 'kW' } }] }],
    }),
    PropertyConstraintViolation: { evseId: 1, meterValue: [{ timestamp: 'yesterday', sampledValue: [{ value: 1 }] }] },
    TypeConstraintViolation: { evseId: 1, meterValue: [{ timestamp: iso(), sampledValue: [{ value: '1' }] }] },
    OccurrenceConstraintViolation: { evseId: 1 },
  },
  NotifyEvent: {
    valid: () => ({
      generatedAt: iso(),
      seqNo: 0,
      eventData: [
        {
          eventId: 1,
          timestamp: iso(),
          trigger: 'Delta',
          actualValue: 'false',
          eventNotificationType: 'HardWiredNotification',
          component: { name: 'EVSE', evse: { id: 1 } },
          variable: { name: 'Problem' },
        },
      ],
    }),
    PropertyConstraintViolation: { generatedAt: 'now', seqNo: 0, eventData: [] },
    TypeConstraintViolation: { generatedAt: iso(), seqNo: '0', eventData: [] },
    OccurrenceConstraintViolation: { generatedAt: iso(), seqNo: 0 },
  },
  NotifyReport: {
    valid: () => ({ requestId: 1, generatedAt: iso(), seqNo: 0 }),
    PropertyConstraintViolation: { requestId: 1, generatedAt: 'now', seqNo: 0 },
    TypeConstraintViolation: { requestId: '1', generatedAt: iso(), seqNo: 0 },
    OccurrenceConstraintViolation: { requestId: 1, seqNo: 0 },
  },
  NotifyChargingLimit: {
    valid: () => ({ chargingLimit: { chargingLimitSource: 'EMS', isGridCritical: false }, evseId: 1 }),
    PropertyConstraintViolation: { chargingLimit: { chargingLimitSource: 'Neighbour' } },
    TypeConstraintViolation: { chargingLimit: { chargingLimitSource: 'EMS', isGridCritical: 'no' } },
    OccurrenceConstraintViolation: { evseId: 1 },
  },
  ClearedChargingLimit: {
    valid: () => ({ chargingLimitSource: 'EMS', evseId: 1 }),
    PropertyConstraintViolation: { chargingLimitSource: 'Neighbour' },
    TypeConstraintViolation: { chargingLimitSource: 'EMS', evseId: 'one' },
    OccurrenceConstraintViolation: { evseId: 1 },
  },
  ReservationStatusUpdate: {
    valid: () => ({ reservationId: 999_999, reservationUpdateStatus: 'Expired' }),
    PropertyConstraintViolation: { reservationId: 1, reservationUpdateStatus: 'Forgotten' },
    TypeConstraintViolation: { reservationId: 'one', reservationUpdateStatus: 'Removed' },
    OccurrenceConstraintViolation: { reservationId: 1 },
  },
  SecurityEventNotification: {
    valid: () => ({ type: 'StartupOfTheDevice', timestamp: iso() }),
    PropertyConstraintViolation: { type: long(51), timestamp: iso() },
    TypeConstraintViolation: { type: 1, timestamp: iso() },
    OccurrenceConstraintViolation: { type: 'x' },
  },
  StatusNotification: {
    valid: () => ({ timestamp: iso(), connectorStatus: 'Available', evseId: 1, connectorId: 1 }),
    PropertyConstraintViolation: { timestamp: iso(), connectorStatus: 'Sleeping', evseId: 1, connectorId: 1 },
    TypeConstraintViolation: { timestamp: iso(), connectorStatus: 'Available', evseId: '1', connectorId: 1 },
    OccurrenceConstraintViolation: { timestamp: iso(), connectorStatus: 'Available', evseId: 1 },
  },
  TransactionEvent: {
    valid: () => ({
      eventType: 'Started',
      timestamp: iso(),
      triggerReason: 'Authorized',
      seqNo: 0,
      transactionInfo: { transactionId: uniq('conf') },
      idToken: token('NOCARD02'),
      evse: { id: 1, connectorId: 1 },
      meterValue: [{ timestamp: iso(), sampledValue: [energy(1000, 'Transaction.Begin')] }],
    }),
    PropertyConstraintViolation: {
      eventType: 'Paused',
      timestamp: iso(),
      triggerReason: 'Authorized',
      seqNo: 0,
      transactionInfo: { transactionId: 'a' },
    },
    TypeConstraintViolation: {
      eventType: 'Started',
      timestamp: iso(),
      triggerReason: 'Authorized',
      seqNo: '0',
      transactionInfo: { transactionId: 'a' },
    },
    OccurrenceConstraintViolation: { eventType: 'Started', timestamp: iso(), triggerReason: 'Authorized', seqNo: 0 },
  },
};

describe('OCPP 2.0.1 conformance', () => {
  let c: TestCharger;
  const validReply = replySchemas('ocpp2_0_1');
  beforeAll(async () => {
    ({ c } = await connect201());
  });
  afterAll(() => c.close());
  const transactions = async () => (await db.select({ k: count() }).from(chargingTransaction))[0]!.k;

  for (const [action, samples] of Object.entries(actions)) {
    it(`${action}: a valid sample gets a schema-valid reply`, async () => {
      const reply = await c.call(action, samples.valid());
      expect(reply[0], JSON.stringify(reply)).toBe(3);
      expect(validReply(action, reply[2]), JSON.stringify(reply[2])).toBe(true);
    });

    it(`${action}: each violation class gets its 2.0.1 CALLERROR and changes nothing`, async () => {
      const before = await transactions();
      const cases: [string, unknown][] = [
        ['FormatViolation', []],
        ['FormatViolation', 'text'],
        ...(['PropertyConstraintViolation', 'TypeConstraintViolation', 'OccurrenceConstraintViolation'] as const)
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

  it('answers unknown actions, message types and malformed frames in 2.0.1 words', async () => {
    expect(isCallError(await c.call('MakeCoffee', {}, 'u1'), 'u1', 'NotImplemented')).toBe(true);
    // 1.6's StartTransaction is no 2.0.1 action.
    expect(isCallError(await c.call('StartTransaction', {}, 'u2'), 'u2', 'NotImplemented')).toBe(true);
    const cases: [string, string, string][] = [
      ['[2, "j1", "Heartbeat", {', 'j1', 'FormatViolation'],
      ['not json at all', '-1', 'FormatViolation'],
      ['[6, "j6", "Heartbeat", {}]', 'j6', 'MessageTypeNotSupported'],
      ['[2, "j3", "Heartbeat"]', 'j3', 'ProtocolError'],
    ];
    for (const [text, id, code] of cases) {
      const reply = await c.sendRaw(text);
      expect(isCallError(reply, id, code), `${text} → ${JSON.stringify(reply)}`).toBe(true);
    }
    expect((await c.call('Heartbeat', {}))[0]).toBe(3);
  });
});

describe('OCPP 2.0.1 charger-initiated messages on the same model', () => {
  let providerId: number;
  let other: number;
  let stationId: number;
  beforeAll(async () => {
    providerId = (await createOperator(db, { permissions: [] })).providerId;
    other = (await createOperator(db, { permissions: [] })).providerId;
    const p = await createPoint(db, { providerId, connectors: 0 });
    stationId = p.stationId;
    await db.insert(price).values({
      providerId,
      stationId,
      effectiveFrom: new Date('2020-01-01T00:00:00Z'),
      slots,
      sharpElec: 10_000,
      sharpService: 0,
      peakElec: 10_000,
      peakService: 0,
      flatElec: 10_000,
      flatService: 0,
      valleyElec: 10_000,
      valleyService: 0,
    });
  });

  const txOf = async (pointId: number, ocppTxId: string) =>
    (
      await db
        .select()
        .from(chargingTransaction)
        .where(and(eq(chargingTransaction.chargePointId, pointId), eq(chargingTransaction.ocppTxId, ocppTxId)))
    )[0];

  it('Boot, status by EVSE, a session Started/Updated/Ended with meter values, billed once at Ended; repeats change nothing', async () => {
    const { c, point } = await connect201({ providerId, stationId, connectors: 1 });
    const good = await cardOf(providerId);
    const boot = await c.ok<{ status: string; interval: number }>('BootNotification', {
      reason: 'PowerUp',
      chargingStation: { model: 'M201', vendorName: 'Vendor201', firmwareVersion: 'fw-2' },
    });
    expect(boot.status).toBe('Accepted');
    await eventually(async () => (await pointRow(point.id)).firmwareVersion === 'fw-2');

    await c.ok('StatusNotification', { timestamp: iso(), connectorStatus: 'Available', evseId: 1, connectorId: 1 });
    await eventually(async () => {
      const [row] = await db.select().from(connector).where(eq(connector.chargePointId, point.id));
      return row?.status === 'Available';
    });
    expect((await c.ok<{ idTokenInfo: { status: string } }>('Authorize', { idToken: token(good.physicalId) })).idTokenInfo.status).toBe(
      'Accepted',
    );

    const t0 = Date.now() - 3 * 3600_000;
    const at = (min: number) => new Date(t0 + min * 60_000).toISOString();
    const transactionId = uniq('tx-');
    const started = {
      eventType: 'Started',
      timestamp: at(0),
      triggerReason: 'Authorized',
      seqNo: 0,
      transactionInfo: { transactionId, chargingState: 'Charging' },
      idToken: token(good.physicalId),
      evse: { id: 1, connectorId: 1 },
      meterValue: [{ timestamp: at(0), sampledValue: [energy(1000, 'Transaction.Begin')] }],
    };
    const r1 = await c.ok<{ idTokenInfo: { status: string } }>('TransactionEvent', started);
    expect(r1.idTokenInfo.status).toBe('Accepted');
    // A repeat of the Started (e.g. after a reconnect) is the same transaction.
    await c.ok('TransactionEvent', started);
    let row = (await txOf(point.id, transactionId))!;
    expect(row).toMatchObject({ connectorNo: 1, meterStartWh: 1000, cardId: good.id, authStatus: 'Accepted', startType: 'card' });

    await c.ok('TransactionEvent', {
      eventType: 'Updated',
      timestamp: at(30),
      triggerReason: 'MeterValuePeriodic',
      seqNo: 1,
      transactionInfo: { transactionId, chargingState: 'Charging' },
      meterValue: [
        {
          timestamp: at(30),
          sampledValue: [
            { value: 3.5, measurand: 'Energy.Active.Import.Register', unitOfMeasure: { unit: 'kWh' } },
            { value: 7, measurand: 'Power.Active.Import', unitOfMeasure: { unit: 'W', multiplier: 3 } },
            { value: 16, measurand: 'Current.Import', phase: 'L1' },
            { value: 16, measurand: 'Current.Import', phase: 'L2' },
          ],
        },
      ],
    });
    row = (await txOf(point.id, transactionId))!;
    expect(row).toMatchObject({ energyWh: 2500, lastPowerW: 7000 });
    const samples = await db.select().from(meterValue).where(eq(meterValue.transactionId, row.id)).orderBy(asc(meterValue.id));
    expect(samples.at(-1)).toMatchObject({ energyWh: 3500, powerW: 7000, currentImportA: 16 });
    const [conn] = await db.select().from(connector).where(eq(connector.chargePointId, point.id));
    expect(conn!.status).toBe('Charging');

    const ended = {
      eventType: 'Ended',
      timestamp: at(60),
      triggerReason: 'StopAuthorized',
      seqNo: 2,
      transactionInfo: { transactionId, stoppedReason: 'Local' },
      idToken: token(good.physicalId),
      meterValue: [{ timestamp: at(60), sampledValue: [energy(6000, 'Transaction.End')] }],
    };
    await c.ok('TransactionEvent', ended);
    const billed = await eventually(async () => {
      const r = await txOf(point.id, transactionId);
      return r?.billedAt ? r : null;
    });
    expect(billed).toMatchObject({ meterStopWh: 6000, energyWh: 5000, stopReason: 'Local', totalCents: 500, paidFrom: 'card' });
    // The EVSE stays occupied after its session until the vehicle leaves: Finishing in 1.6's words, then Available.
    const statusOf = async () => (await db.select().from(connector).where(eq(connector.chargePointId, point.id)))[0]!.status;
    await eventually(async () => (await statusOf()) === 'Finishing');
    await c.ok('StatusNotification', { timestamp: iso(), connectorStatus: 'Occupied', evseId: 1, connectorId: 1 });
    await s.app.ocpp.flush();
    expect(await statusOf()).toBe('Finishing');
    await c.ok('StatusNotification', { timestamp: iso(), connectorStatus: 'Available', evseId: 1, connectorId: 1 });
    await eventually(async () => (await statusOf()) === 'Available');
    // The Ended again (its reply lost): answered, not billed twice.
    await c.ok('TransactionEvent', ended);
    await s.app.ocpp.flush();
    expect((await db.select().from(ledger).where(eq(ledger.cardId, good.id))).map((l) => l.amountCents)).toEqual([-500]);
    await c.close();
  });

  it("another provider's card is refused, attached to nobody and never billed", async () => {
    const { c, point } = await connect201({ providerId, stationId, connectors: 1 });
    const foreign = await cardOf(other);
    const transactionId = uniq('tx-');
    const t0 = Date.now() - 3600_000;
    const r = await c.ok<{ idTokenInfo: { status: string } }>('TransactionEvent', {
      eventType: 'Started',
      timestamp: new Date(t0).toISOString(),
      triggerReason: 'Authorized',
      seqNo: 0,
      transactionInfo: { transactionId },
      idToken: token(foreign.physicalId),
      evse: { id: 1 },
      meterValue: [{ timestamp: new Date(t0).toISOString(), sampledValue: [energy(0, 'Transaction.Begin')] }],
    });
    expect(r.idTokenInfo.status).toBe('Invalid');
    await c.ok('TransactionEvent', {
      eventType: 'Ended',
      timestamp: new Date(t0 + 1800_000).toISOString(),
      triggerReason: 'EVCommunicationLost',
      seqNo: 1,
      transactionInfo: { transactionId, stoppedReason: 'EVDisconnected' },
      meterValue: [{ timestamp: new Date(t0 + 1800_000).toISOString(), sampledValue: [energy(2000, 'Transaction.End')] }],
    });
    const row = await eventually(async () => {
      const x = await txOf(point.id, transactionId);
      return x?.billingNote ? x : null;
    });
    expect(row).toMatchObject({
      cardId: null,
      chargeUserId: null,
      authReason: 'otherProvider',
      billedAt: null,
      stopReason: 'EVDisconnected',
    });
    expect(await db.select().from(ledger).where(eq(ledger.cardId, foreign.id))).toEqual([]);
    await c.close();
  });

  it('late delivery: events queued offline arrive after the Started was lost; the session is recorded, flagged late, and ended once', async () => {
    const { c, point } = await connect201({ providerId, stationId, connectors: 2 });
    const good = await cardOf(providerId);
    const transactionId = uniq('tx-');
    const t0 = Date.now() - 5 * 3600_000;
    // No Started ever came: the first event heard of creates the session.
    await c.ok('TransactionEvent', {
      eventType: 'Updated',
      timestamp: new Date(t0).toISOString(),
      triggerReason: 'MeterValuePeriodic',
      seqNo: 1,
      offline: true,
      transactionInfo: { transactionId },
      idToken: token(good.physicalId),
      evse: { id: 2, connectorId: 1 },
      meterValue: [{ timestamp: new Date(t0).toISOString(), sampledValue: [energy(500)] }],
    });
    await c.ok('TransactionEvent', {
      eventType: 'Ended',
      timestamp: new Date(t0 + 600_000).toISOString(),
      triggerReason: 'EVCommunicationLost',
      seqNo: 2,
      offline: true,
      transactionInfo: { transactionId, stoppedReason: 'ImmediateReset' },
      meterValue: [{ timestamp: new Date(t0 + 600_000).toISOString(), sampledValue: [energy(1500, 'Transaction.End')] }],
    });
    const row = await eventually(async () => {
      const x = await txOf(point.id, transactionId);
      return x?.billedAt ? x : null;
    });
    expect(row).toMatchObject({ connectorNo: 2, late: true, cardId: good.id, energyWh: 1000, stopReason: 'HardReset', totalCents: 100 });
    await c.close();
  });

  it('a session started on plug-in without an idToken becomes the card’s when it is authorized later', async () => {
    const { c, point } = await connect201({ providerId, stationId, connectors: 1 });
    const good = await cardOf(providerId);
    const transactionId = uniq('tx-');
    const t0 = Date.now() - 600_000;
    const plugged = await c.ok('TransactionEvent', {
      eventType: 'Started',
      timestamp: new Date(t0).toISOString(),
      triggerReason: 'CablePluggedIn',
      seqNo: 0,
      transactionInfo: { transactionId, chargingState: 'EVConnected' },
      evse: { id: 1, connectorId: 1 },
      meterValue: [{ timestamp: new Date(t0).toISOString(), sampledValue: [energy(100, 'Transaction.Begin')] }],
    });
    expect(plugged).toEqual({});
    const authorized = await c.ok<{ idTokenInfo: { status: string } }>('TransactionEvent', {
      eventType: 'Updated',
      timestamp: new Date(t0 + 10_000).toISOString(),
      triggerReason: 'Authorized',
      seqNo: 1,
      transactionInfo: { transactionId, chargingState: 'Charging' },
      idToken: token(good.physicalId),
    });
    expect(authorized.idTokenInfo.status).toBe('Accepted');
    expect(await txOf(point.id, transactionId)).toMatchObject({ idTag: good.physicalId, cardId: good.id, authStatus: 'Accepted' });
    await c.close();
  });

  it('a reservation named by a Started is used by that session; one the charger reports Removed is cancelled, free', async () => {
    const { c, point } = await connect201({ providerId, stationId, connectors: 1 });
    const { c: c2, point: otherPoint } = await connect201({ providerId, stationId, connectors: 1 });
    const good = await cardOf(providerId);
    const reserve = async (chargePointId: number) =>
      (
        await db
          .insert(reservation)
          .values({
            providerId,
            stationId,
            chargePointId,
            connectorNo: 1,
            chargeUserId: good.chargeUserId!,
            cardId: good.id,
            idTag: good.physicalId,
            expiryAt: new Date(Date.now() + 3600_000),
            status: 'reserved',
            chargerStatus: 'Accepted',
          })
          .returning()
      )[0]!;
    const statusOf = async (id: number) => (await db.select().from(reservation).where(eq(reservation.id, id)))[0]!;

    const used = await reserve(point.id);
    const transactionId = uniq('tx-');
    await c.ok('TransactionEvent', {
      eventType: 'Started',
      timestamp: iso(),
      triggerReason: 'Authorized',
      seqNo: 0,
      reservationId: used.id,
      transactionInfo: { transactionId, chargingState: 'Charging' },
      idToken: token(good.physicalId),
      evse: { id: 1, connectorId: 1 },
      meterValue: [{ timestamp: iso(), sampledValue: [energy(0, 'Transaction.Begin')] }],
    });
    const tx = (await txOf(point.id, transactionId))!;
    expect(await statusOf(used.id)).toMatchObject({ status: 'used', transactionId: tx.id });

    const removed = await reserve(point.id);
    const elsewhere = await reserve(otherPoint.id);
    await c.ok('ReservationStatusUpdate', { reservationId: removed.id, reservationUpdateStatus: 'Removed' });
    // Another charger cannot end this point's reservation by naming its id.
    await c2.ok('ReservationStatusUpdate', { reservationId: removed.id, reservationUpdateStatus: 'Removed' });
    await c.ok('ReservationStatusUpdate', { reservationId: elsewhere.id, reservationUpdateStatus: 'Removed' });
    expect(await statusOf(removed.id)).toMatchObject({ status: 'cancelled', chargerStatus: 'Removed', feeCents: null });
    expect((await statusOf(elsewhere.id)).status).toBe('reserved');
    // Expired is left to the expiry job (the fee is charged at the reservation's own time, as for 1.6).
    await c2.ok('ReservationStatusUpdate', { reservationId: elsewhere.id, reservationUpdateStatus: 'Expired' });
    expect((await statusOf(elsewhere.id)).status).toBe('reserved');
    await c.close();
    await c2.close();
  });

  it("firmware statuses 1.6 has no word for are the upgrade's step they belong to; a bad signature is a failed download", async () => {
    const { c, point } = await connect201({ providerId, stationId, connectors: 1 });
    for (const [status, as16] of [
      ['DownloadScheduled', 'Downloading'],
      ['SignatureVerified', 'Downloaded'],
      ['InstallRebooting', 'Installing'],
      ['InstallVerificationFailed', 'InstallationFailed'],
      ['InvalidSignature', 'DownloadFailed'],
      ['Installed', 'Installed'],
    ]) {
      await c.ok('FirmwareStatusNotification', { status, requestId: 1 });
      await eventually(async () => (await pointRow(point.id)).firmwareStatus === as16);
    }
    await c.close();
  });

  it('a security event is kept in the system log under the point’s provider, for its operators to see', async () => {
    const { c, point } = await connect201({ providerId, stationId, connectors: 1 });
    const at = iso();
    await c.ok('SecurityEventNotification', { type: 'TamperDetectionActivated', timestamp: at, techInfo: 'cabinet door opened' });
    const [row] = await db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.operation, 'securityEvent'), eq(systemLog.operand, `point:${point.serialNumber}`)));
    expect(row).toMatchObject({
      providerId,
      mode: 'ocpp',
      method: 'OCPP',
      result: 200,
      msg: 'TamperDetectionActivated: cabinet door opened',
      request: { type: 'TamperDetectionActivated', timestamp: at, techInfo: 'cabinet door opened' },
    });
    await c.close();
  });

  it('a Problem reported by NotifyEvent raises an alarm on its EVSE, and its clearing clears it', async () => {
    const { c, point } = await connect201({ providerId, stationId, connectors: 1 });
    const event = (actualValue: string) => ({
      generatedAt: iso(),
      seqNo: 0,
      eventData: [
        {
          eventId: 7,
          timestamp: iso(),
          trigger: 'Delta',
          actualValue,
          techCode: 'E42',
          eventNotificationType: 'HardWiredNotification',
          component: { name: 'ConnectorPlugRetentionLock', evse: { id: 1 } },
          variable: { name: 'Problem' },
        },
      ],
    });
    await c.ok('NotifyEvent', event('true'));
    const { alarm } = await import('../../src/db/schema.js');
    const raised = await eventually(async () => (await db.select().from(alarm).where(eq(alarm.chargePointId, point.id)))[0]);
    expect(raised).toMatchObject({ connectorNo: 1, level: 'serious', vendorErrorCode: 'E42', clearedAt: null });
    await c.ok('NotifyEvent', event('false'));
    await eventually(async () => (await db.select().from(alarm).where(eq(alarm.id, raised.id)))[0]!.clearedAt);
    await c.close();
  });
});

describe('operator commands to an OCPP 2.0.1 charger', () => {
  it('translates the console’s 1.6 commands and answers in 1.6 words', async () => {
    const { c, serialNumber, point } = await connect201({ connectors: 1 });
    const asked: [string, Record<string, unknown>][] = [];
    c.onCall = (action, payload) => {
      asked.push([action, payload]);
      switch (action) {
        case 'UnlockConnector':
          return { status: 'OngoingAuthorizedTransaction' };
        case 'GetVariables':
          return {
            getVariableResult: [
              {
                attributeStatus: 'Accepted',
                attributeValue: '300',
                component: { name: 'OCPPCommCtrlr' },
                variable: { name: 'HeartbeatInterval' },
              },
            ],
          };
        case 'SetVariables':
          return {
            setVariableResult: [
              { attributeStatus: 'RebootRequired', component: { name: 'OCPPCommCtrlr' }, variable: { name: 'HeartbeatInterval' } },
            ],
          };
        default:
          return { status: 'Accepted' };
      }
    };
    const ask = (action: string, payload: Record<string, unknown>) => s.app.bus.request(serialNumber, { action, payload });
    expect(await ask('Reset', { type: 'Hard' })).toEqual({ kind: 'result', payload: { status: 'Accepted' } });
    expect(await ask('Reset', { type: 'Soft' })).toEqual({ kind: 'result', payload: { status: 'Accepted' } });
    expect(await ask('UnlockConnector', { connectorId: 1 })).toEqual({ kind: 'result', payload: { status: 'Occupied' } });
    expect(await ask('ChangeAvailability', { connectorId: 1, type: 'Inoperative' })).toMatchObject({ kind: 'result' });
    expect(await ask('RemoteStartTransaction', { idTag: 'CARD1', connectorId: 1 })).toMatchObject({ kind: 'result' });
    expect(await ask('GetConfiguration', { key: ['HeartbeatInterval'] })).toEqual({
      kind: 'result',
      payload: { configurationKey: [{ key: 'HeartbeatInterval', readonly: false, value: '300' }] },
    });
    expect(await ask('ChangeConfiguration', { key: 'HeartbeatInterval', value: '60' })).toEqual({
      kind: 'result',
      payload: { status: 'RebootRequired' },
    });
    expect(await ask('TriggerMessage', { requestedMessage: 'StatusNotification', connectorId: 1 })).toMatchObject({ kind: 'result' });
    expect(asked.map(([a, p]) => [a, a === 'RequestStartTransaction' ? { ...p, remoteStartId: 0 } : p])).toEqual([
      ['Reset', { type: 'Immediate' }],
      ['Reset', { type: 'OnIdle' }],
      ['UnlockConnector', { evseId: 1, connectorId: 1 }],
      ['ChangeAvailability', { operationalStatus: 'Inoperative', evse: { id: 1 } }],
      ['RequestStartTransaction', { idToken: { idToken: 'CARD1', type: 'ISO14443' }, remoteStartId: 0, evseId: 1 }],
      ['GetVariables', { getVariableData: [{ component: { name: 'OCPPCommCtrlr' }, variable: { name: 'HeartbeatInterval' } }] }],
      [
        'SetVariables',
        { setVariableData: [{ component: { name: 'OCPPCommCtrlr' }, variable: { name: 'HeartbeatInterval' }, attributeValue: '60' }] },
      ],
      ['TriggerMessage', { requestedMessage: 'StatusNotification', evse: { id: 1, connectorId: 1 } }],
    ]);

    // A remote stop names the charger's own transactionId; the remote start's session is a remote one.
    const [start] = asked.filter(([a]) => a === 'RequestStartTransaction');
    const transactionId = uniq('rtx-');
    await c.ok('TransactionEvent', {
      eventType: 'Started',
      timestamp: iso(),
      triggerReason: 'RemoteStart',
      seqNo: 0,
      transactionInfo: { transactionId, remoteStartId: start![1].remoteStartId },
      idToken: token('CARD1'),
      evse: { id: 1, connectorId: 1 },
    });
    const [row] = await db
      .select()
      .from(chargingTransaction)
      .where(and(eq(chargingTransaction.chargePointId, point.id), eq(chargingTransaction.ocppTxId, transactionId)));
    expect(row!.startType).toBe('remote');
    asked.length = 0;
    expect(await ask('RemoteStopTransaction', { transactionId: row!.id })).toEqual({ kind: 'result', payload: { status: 'Accepted' } });
    expect(asked).toEqual([['RequestStopTransaction', { transactionId }]]);

    // What the charger answers is checked against 2.0.1's schema too.
    c.onCall = () => ({ status: 'Unlocked!' });
    expect(await ask('UnlockConnector', { connectorId: 1 })).toMatchObject({ kind: 'error', code: 'FormationViolation' });
    await s.app.ocpp.flush();
    const logged = await db
      .select()
      .from(ocppLog)
      .where(and(eq(ocppLog.serialNumber, serialNumber), eq(ocppLog.action, 'RequestStopTransaction')));
    expect(logged.map((r) => r.direction).sort()).toEqual(['in', 'out']);
    await c.close();
  });
});

describe('the configuration of an OCPP 2.0.1 charger', () => {
  it('GetConfiguration of everything is a GetBaseReport, its NotifyReports assembled into the keys the console shows', async () => {
    const { c, serialNumber } = await connect201({ connectors: 1 });
    const item = (component: string, variable: string, value: string, mutability = 'ReadWrite') => ({
      component: { name: component },
      variable: { name: variable },
      variableAttribute: [{ type: 'Actual', value, mutability }],
    });
    c.onCall = (action, payload) => {
      if (action !== 'GetBaseReport') return { status: 'Rejected' };
      const requestId = payload.requestId as number;
      // The report follows the answer, in two parts.
      setImmediate(() => {
        void c
          .ok('NotifyReport', {
            requestId,
            generatedAt: iso(),
            seqNo: 0,
            tbc: true,
            reportData: [item('OCPPCommCtrlr', 'HeartbeatInterval', '300'), item('SecurityCtrlr', 'Identity', 'CP-1', 'ReadOnly')],
          })
          .then(() =>
            c.ok('NotifyReport', {
              requestId,
              generatedAt: iso(),
              seqNo: 1,
              reportData: [item('SampledDataCtrlr', 'TxUpdatedInterval', '60')],
            }),
          );
      });
      return { status: 'Accepted' };
    };
    const reply = await s.app.bus.request(serialNumber, { action: 'GetConfiguration', payload: {} });
    expect(reply).toEqual({
      kind: 'result',
      payload: {
        configurationKey: [
          { key: 'HeartbeatInterval', readonly: false, value: '300' },
          { key: 'SecurityCtrlr.Identity', readonly: true, value: 'CP-1' },
          { key: 'MeterValueSampleInterval', readonly: false, value: '60' },
        ],
      },
    });
    await c.close();
  });
});

describe('the simulator speaking OCPP 2.0.1', () => {
  it('boots, charges on a card, is stopped, reconfigured and reset by the operator and billed, every frame schema-valid both ways', async () => {
    const providerId = (await createOperator(db, { permissions: [] })).providerId;
    const p = await createPoint(db, { providerId, connectors: 2, ratedPowerW: 22_000 });
    await db.insert(price).values({
      providerId,
      stationId: p.stationId,
      effectiveFrom: new Date('2020-01-01T00:00:00Z'),
      slots,
      sharpElec: 10_000,
      sharpService: 0,
      peakElec: 10_000,
      peakService: 0,
      flatElec: 10_000,
      flatService: 0,
      valleyElec: 10_000,
      valleyService: 0,
    });
    const good = await cardOf(providerId);
    const sim = createChargePoint({
      url: `${s.url.replace(/^http/, 'ws')}/ocpp`,
      serialNumber: p.serialNumber,
      key: p.key!,
      ocppVersion: '2.0.1',
      connectors: 2,
      powerW: 22_000,
      firmwareVersion: 'sim-201',
      meterValueSampleInterval: 0,
      clockAlignedDataInterval: 0,
      rebootDelayMs: 50,
    });
    const errors: unknown[] = [];
    sim.on('traffic', (e) => {
      if (e.type === 'callError' || e.type === 'errorSent' || e.type === 'protocolError') errors.push(e);
    });
    sim.on('warning', (w) => errors.push(w.message));
    try {
      sim.start();
      await sim.ready();
      await eventually(async () => {
        const row = await pointRow(p.point.id);
        return row.ocppVersion === '2.0.1' && row.firmwareVersion === 'sim-201';
      });
      const started = await sim.startCharging(1, good.physicalId);
      expect(started).toMatchObject({ idTagInfo: { status: 'Accepted' } });
      const row = await eventually(
        async () =>
          (
            await db
              .select()
              .from(chargingTransaction)
              .where(and(eq(chargingTransaction.chargePointId, p.point.id), eq(chargingTransaction.connectorNo, 1)))
          )[0],
      );
      expect(row).toMatchObject({ cardId: good.id, authStatus: 'Accepted', startType: 'card' });
      expect(row.ocppTxId).toBeTruthy();
      // GetTransactionStatus (E14) by the charger's transactionId: ongoing, nothing waiting; after the stop, not ongoing.
      const txStatus = (payload: Record<string, unknown>) => s.app.bus.request(p.serialNumber, { action: 'GetTransactionStatus', payload });
      expect(await txStatus({ transactionId: row.ocppTxId })).toEqual({
        kind: 'result',
        payload: { ongoingIndicator: true, messagesInQueue: false },
      });

      const stop = await s.app.bus.request(p.serialNumber, { action: 'RemoteStopTransaction', payload: { transactionId: row.id } });
      expect(stop).toEqual({ kind: 'result', payload: { status: 'Accepted' } });
      const ended = await eventually(async () => {
        const r = (await db.select().from(chargingTransaction).where(eq(chargingTransaction.id, row.id)))[0]!;
        return r.billedAt ? r : null;
      });
      expect(ended).toMatchObject({ stopReason: 'Remote', cardId: good.id });
      expect(await txStatus({ transactionId: row.ocppTxId })).toEqual({
        kind: 'result',
        payload: { ongoingIndicator: false, messagesInQueue: false },
      });
      // Without one: whether any message waits (the Ended, until its answer reaches the simulator).
      await eventually(async () => sim.state().queuedMessages === 0);
      expect(await txStatus({})).toEqual({ kind: 'result', payload: { messagesInQueue: false } });

      // Its whole configuration (a GetBaseReport and the NotifyReports it brings), then one key changed and read again.
      const all = await s.app.bus.request(p.serialNumber, { action: 'GetConfiguration', payload: {} });
      expect(all.kind).toBe('result');
      const keys = (all as unknown as { payload: { configurationKey: { key: string; readonly: boolean; value?: string }[] } }).payload
        .configurationKey;
      expect(keys.length).toBeGreaterThan(20);
      expect(keys.find((k) => k.key === 'HeartbeatInterval')).toMatchObject({ readonly: false });
      expect(keys.find((k) => k.key === 'SimulatorCtrlr.NumberOfConnectors')).toEqual({
        key: 'SimulatorCtrlr.NumberOfConnectors',
        readonly: true,
        value: '2',
      });
      expect(
        await s.app.bus.request(p.serialNumber, { action: 'ChangeConfiguration', payload: { key: 'HeartbeatInterval', value: '77' } }),
      ).toEqual({ kind: 'result', payload: { status: 'Accepted' } });
      expect(
        await s.app.bus.request(p.serialNumber, { action: 'GetConfiguration', payload: { key: ['HeartbeatInterval'] } }),
      ).toMatchObject({
        kind: 'result',
        payload: { configurationKey: [{ key: 'HeartbeatInterval', value: '77' }] },
      });
      // Several keys in one SetVariables; a read-only one refused, the others taken.
      const changes = [
        { key: 'MeterValueSampleInterval', value: '15' },
        { key: 'SimulatorCtrlr.NumberOfConnectors', value: '4' },
        { key: 'ClockAlignedDataInterval', value: '600' },
      ];
      const several = await s.app.bus.request(p.serialNumber, { action: 'ChangeConfigurations', payload: { changes } });
      expect(several).toMatchObject({
        kind: 'result',
        payload: {
          results: [
            { key: 'MeterValueSampleInterval', reply: { kind: 'result', payload: { status: 'Accepted' } } },
            { key: 'SimulatorCtrlr.NumberOfConnectors', reply: { kind: 'result', payload: { status: 'Rejected' } } },
            { key: 'ClockAlignedDataInterval', reply: { kind: 'result', payload: { status: 'Accepted' } } },
          ],
        },
      });
      expect(
        await s.app.bus.request(p.serialNumber, {
          action: 'GetConfiguration',
          payload: { key: ['MeterValueSampleInterval', 'ClockAlignedDataInterval'] },
        }),
      ).toMatchObject({
        kind: 'result',
        payload: {
          configurationKey: [
            { key: 'MeterValueSampleInterval', value: '15' },
            { key: 'ClockAlignedDataInterval', value: '600' },
          ],
        },
      });

      expect(await s.app.bus.request(p.serialNumber, { action: 'Reset', payload: { type: 'Soft' } })).toEqual({
        kind: 'result',
        payload: { status: 'Accepted' },
      });
      expect(errors).toEqual([]);
    } finally {
      await sim.stop();
    }
  });

  it('takes a network profile and, first in its order and reset, connects with it: here through a loopback relay to this server', async () => {
    const p = await createPoint(db, { connectors: 1 });
    // A second address of this server: a TCP relay counting the connections it carries.
    let relayed = 0;
    const relay = net.createServer((inbound) => {
      relayed++;
      const outbound = net.connect(Number(new URL(s.url).port), '127.0.0.1');
      inbound.pipe(outbound).pipe(inbound);
      inbound.on('error', () => outbound.destroy());
      outbound.on('error', () => inbound.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const relayUrl = `ws://127.0.0.1:${(relay.address() as net.AddressInfo).port}/ocpp`;
    const sim = createChargePoint({
      url: `${s.url.replace(/^http/, 'ws')}/ocpp`,
      serialNumber: p.serialNumber,
      key: p.key!,
      ocppVersion: '2.0.1',
      connectors: 1,
      meterValueSampleInterval: 0,
      clockAlignedDataInterval: 0,
      rebootDelayMs: 50,
      reconnect: { minMs: 50, maxMs: 200 },
    });
    try {
      sim.start();
      await sim.ready();
      expect(relayed).toBe(0);
      const admin = await s.login();
      const r = await s.call<{ status: string; activated: boolean }>('POST', '/web/point/setNetworkProfile', {
        token: admin,
        body: {
          serialNumber: p.serialNumber,
          configurationSlot: 2,
          ocppCsmsUrl: relayUrl,
          securityProfile: 1,
          ocppInterface: 'Wired0',
          messageTimeout: 30,
          activate: true,
        },
      });
      expect(r.data).toMatchObject({ status: 'accepted', activated: true });
      expect(sim.configuration.get('NetworkConfigurationPriority')).toBe('2,1');
      await eventually(async () => relayed > 0 && sim.state().registration === 'Accepted');
      // A profile it could not use (TLS named with a ws:// address) is Rejected by the charger itself.
      const bad = await s.app.bus.request(p.serialNumber, {
        action: 'SetNetworkProfile',
        payload: {
          configurationSlot: 3,
          connectionData: {
            ocppVersion: 'OCPP20',
            ocppTransport: 'JSON',
            ocppCsmsUrl: relayUrl,
            messageTimeout: 30,
            securityProfile: 2,
            ocppInterface: 'Wired0',
          },
        },
      });
      expect(bad).toEqual({ kind: 'result', payload: { status: 'Rejected' } });
    } finally {
      await sim.stop();
      await new Promise((resolve) => relay.close(resolve));
    }
  });
});

import { api } from '@csms/contract';
import { createChargePoint } from '@csms/simulator';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.js';
import {
  card,
  chargePoint,
  chargeUser,
  chargingTransaction,
  connector,
  meterValue,
  ocppLog,
  systemLog,
  unplacedTransaction,
} from '../../src/db/schema.js';
import { startServer, type TestServer } from '../harness.js';
import { createPoint, eventually, iso, replySchemas, TestCharger } from './support.js';

/*
 * OCA's OCPP 2.0.1 conformance test cases (OCPP 2.0.1 Part 6, the OCTT test cases) whose system under
 * test is the CSMS, for the Core blocks (B Provisioning, C Authorization, E Transactions, F Remote
 * control, G Availability, J Meter values, P Data transfer, and A's Basic authentication), for the cases
 * no other test shows; README "OCPP 2.0.1 conformance (OCTT Core cases)" maps every case to its test.
 * The tool's Charging Station is a bare OCPP-J 2.0.1 client over a real socket that sends what the case's
 * steps send and answers the CSMS's requests as the case says; the CSMS's own requests come from the
 * console's API, as an operator would send them. Every reply is checked against OCA's 2.0.1 schemas.
 * One server for the file; runs on PGlite and, with DATABASE_URL, on PostgreSQL.
 */

type Payload = Record<string, unknown>;
type Reply<T> = { code: number; msg: string; data: T };
type Action = { status: string; chargerStatus: string | null; message: string | null };

let s: TestServer;
let db: Db;
let admin: string;
const open: TestCharger[] = [];
const validReply = replySchemas('ocpp2_0_1');
const V201 = ['ocpp2.0.1'];

beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
  admin = await s.login();
});
afterAll(async () => {
  await Promise.all(open.filter((c) => c.closeCode === undefined).map((c) => c.close()));
  await s.close();
});

let n = 0;
const uniq = (p: string) => `${p}${++n}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();

const post = <T = Payload>(ep: { path: string }, body: unknown) =>
  s.call<T & Action>('POST', ep.path, { token: admin, body }) as Promise<Reply<T & Action>>;

/** A CALL of the charger whose CALLRESULT must be schema-valid; its payload. */
async function ok<T = Payload>(c: TestCharger, action: string, payload: unknown): Promise<T> {
  const reply = await c.ok<T>(action, payload);
  expect(validReply(action, reply), `${action} → ${JSON.stringify(reply)}`).toBe(true);
  return reply;
}

/** The CSMS's requests the charger received, in order, and a way to answer each action. */
function answering(c: TestCharger, answers: Record<string, Payload | ((p: Payload) => Payload)> = {}) {
  const asked: [string, Payload][] = [];
  c.onCall = (action, payload) => {
    asked.push([action, payload]);
    const a = answers[action];
    return typeof a === 'function' ? a(payload) : (a ?? { status: 'Accepted' });
  };
  return asked;
}

/** A 2.0.1 Charging Station of provider 1 with `evses` EVSEs, connected and booted, each EVSE reported Available. */
async function station(evses = 1) {
  const p = await createPoint(db, { connectors: evses });
  const c = await TestCharger.connect(s.url, p.serialNumber, { key: p.key, protocols: V201 });
  open.push(c);
  const boot = await ok<{ status: string }>(c, 'BootNotification', {
    reason: 'PowerUp',
    chargingStation: { model: 'OCTT', vendorName: 'OCA' },
  });
  expect(boot.status).toBe('Accepted');
  for (let e = 1; e <= evses; e++)
    await ok(c, 'StatusNotification', { timestamp: iso(), connectorStatus: 'Available', evseId: e, connectorId: 1 });
  return { c, pointId: p.point.id, serialNumber: p.serialNumber, key: p.key };
}

/** A 1.6 charge point, connected and booted, with the CSMS's requests it receives (none expected: 2.0.1-only commands). */
async function point16() {
  const p = await createPoint(db);
  const c = await TestCharger.connect(s.url, p.serialNumber, { key: p.key, protocols: ['ocpp1.6'] });
  open.push(c);
  await c.ok('BootNotification', { chargePointVendor: 'OCA', chargePointModel: 'OCTT' });
  return { serialNumber: p.serialNumber, asked: answering(c) };
}

/** A charge user of provider 1 and `cards` cards of it (one group: the user's account), with the card row's overrides. */
async function driver(cards = 1, v: Partial<typeof card.$inferInsert> = {}) {
  const [u] = await db
    .insert(chargeUser)
    .values({ providerId: 1, account: uniq('acct'), userType: 'card', status: 1 })
    .returning();
  const rows = [];
  for (let i = 0; i < cards; i++) {
    const tag = uniq('T').slice(0, 20);
    const [row] = await db
      .insert(card)
      .values({
        providerId: 1,
        cardNumber: tag,
        physicalId: tag,
        chargeUserId: u!.id,
        balanceCents: 10_000,
        expireAt: new Date(Date.now() + 365 * 86_400_000),
        ...v,
      })
      .returning();
    rows.push(row!);
  }
  return { account: u!.account, cards: rows, tags: rows.map((r) => r.physicalId) };
}

const token = (idToken: string) => ({ idToken, type: 'ISO14443' });
const energy = (wh: number, context = 'Sample.Periodic') => ({ value: wh, context, measurand: 'Energy.Active.Import.Register' });
const sample = (wh: number, context?: string, at = iso()) => ({ timestamp: at, sampledValue: [energy(wh, context)] });

/** A TransactionEvent of transaction `id` (seqNo counted per transaction), its schema-valid answer. */
function transaction(c: TestCharger, id = uniq('tx-')) {
  let seqNo = 0;
  const send = <T = { idTokenInfo?: Payload & { status: string } }>(eventType: 'Started' | 'Updated' | 'Ended', v: Payload = {}) => {
    const { transactionInfo, ...rest } = v as { transactionInfo?: Payload };
    return ok<T>(c, 'TransactionEvent', {
      eventType,
      timestamp: iso(),
      triggerReason: 'Authorized',
      seqNo: seqNo++,
      transactionInfo: { transactionId: id, ...transactionInfo },
      ...rest,
    });
  };
  return { id, send };
}

/** A new driver's transaction Started, charging, on EVSE `evse` of station `c` (its register at 0). */
async function driverCharging(c: TestCharger, evse: number) {
  const d = await driver();
  const tx = transaction(c);
  await tx.send('Started', {
    idToken: token(d.tags[0]!),
    evse: { id: evse, connectorId: 1 },
    transactionInfo: { chargingState: 'Charging' },
    meterValue: [sample(0, 'Transaction.Begin')],
  });
  return { d, tx };
}

/** A 2.0.1 station of `evses` EVSEs with a driver's transaction Started, charging, on EVSE `evse` (its register at 0). */
async function charging(evses = 1, evse = 1) {
  const st = await station(evses);
  return { ...st, ...(await driverCharging(st.c, evse)) };
}

const txOf = async (pointId: number, ocppTxId: string) =>
  (
    await db
      .select()
      .from(chargingTransaction)
      .where(and(eq(chargingTransaction.chargePointId, pointId), eq(chargingTransaction.ocppTxId, ocppTxId)))
  )[0];
const txsOf = (pointId: number) =>
  db.select().from(chargingTransaction).where(eq(chargingTransaction.chargePointId, pointId)).orderBy(asc(chargingTransaction.id));
const statusOf = async (pointId: number, no: number) =>
  (
    await db
      .select({ status: connector.status })
      .from(connector)
      .where(and(eq(connector.chargePointId, pointId), eq(connector.connectorNo, no)))
  )[0]?.status;
const pointRow = async (id: number) => (await db.select().from(chargePoint).where(eq(chargePoint.id, id)))[0]!;

describe('A Security (Basic authentication)', () => {
  it('TC_A_02_CSMS Basic Authentication - Username does not equal ChargingStationId: the upgrade is refused with 401, and an unknown identity with 404', async () => {
    const a = await createPoint(db);
    const b = await createPoint(db);
    // b's own valid credentials, presented for a's identity.
    await expect(TestCharger.connect(s.url, a.serialNumber, { key: b.key, user: b.serialNumber, protocols: V201 })).rejects.toMatchObject({
      status: 401,
    });
    await expect(TestCharger.connect(s.url, a.serialNumber, { key: a.key, user: b.serialNumber, protocols: V201 })).rejects.toMatchObject({
      status: 401,
    });
    // Auto-registration is off: a Charging Station nobody registered never gets to send a BootNotification.
    await expect(TestCharger.connect(s.url, uniq('NOBODY'), { key: 'some-password-1234', protocols: V201 })).rejects.toMatchObject({
      status: 404,
    });
    const c = await TestCharger.connect(s.url, a.serialNumber, { key: a.key, protocols: V201 });
    expect(c.ws.protocol).toBe('ocpp2.0.1');
    await c.close();
  });
});

describe('A Security (password update)', () => {
  /** Answers SetVariables with `status` for every variable, and records what the CSMS sent. */
  const setVariables = (c: TestCharger, status: string) =>
    answering(c, {
      SetVariables: (p) => ({
        setVariableResult: (p.setVariableData as Payload[]).map((d) => ({
          attributeStatus: status,
          component: d.component,
          variable: d.variable,
        })),
      }),
    });
  /** The password the CSMS sent in its (one) SetVariablesRequest, checked to be SecurityCtrlr.BasicAuthPassword. */
  function sentPassword(asked: [string, Payload][]) {
    expect(asked.map(([action]) => action)).toEqual(['SetVariables']);
    const data = (asked[0]![1].setVariableData as Payload[])[0]!;
    expect(data).toMatchObject({ component: { name: 'SecurityCtrlr' }, variable: { name: 'BasicAuthPassword' } });
    // A00.FR.205: a passwordString of 16 to 40 characters.
    expect(data.attributeValue).toMatch(/^[\x21-\x7e]{16,40}$/);
    return data.attributeValue as string;
  }

  it('TC_A_09_CSMS Update Charging Station Password for HTTP Basic Authentication - Accepted: SetVariablesRequest SecurityCtrlr.BasicAuthPassword; the station reconnects with the new password and is accepted, after which the old one is refused', async () => {
    const st = await station();
    const asked = setVariables(st.c, 'Accepted');
    const r = await post<{ keySentTime: string | null }>(api.pointAction.sendKey, { serialNumber: st.serialNumber });
    expect(r.data).toMatchObject({ status: 'accepted', chargerStatus: 'Accepted' });
    expect(r.data.keySentTime).not.toBeNull();
    const password = sentPassword(asked);
    await s.app.ocpp.flush();
    const logged = await db.select().from(ocppLog).where(eq(ocppLog.serialNumber, st.serialNumber));
    expect(logged.some((l) => l.action === 'SetVariables')).toBe(true);
    expect(JSON.stringify(logged)).not.toContain(password);
    await st.c.close();

    // Until the station connects with the new password, the old one still opens: it may not have stored the new one.
    await (await TestCharger.connect(s.url, st.serialNumber, { key: st.key, protocols: V201 })).close();
    const c = await TestCharger.connect(s.url, st.serialNumber, { key: password, protocols: V201 });
    open.push(c);
    expect(
      (await ok<{ status: string }>(c, 'BootNotification', { reason: 'PowerUp', chargingStation: { model: 'OCTT', vendorName: 'OCA' } }))
        .status,
    ).toBe('Accepted');
    await ok(c, 'StatusNotification', { timestamp: iso(), connectorStatus: 'Available', evseId: 1, connectorId: 1 });
    await expect(TestCharger.connect(s.url, st.serialNumber, { key: st.key, protocols: V201 })).rejects.toMatchObject({ status: 401 });
    expect(await pointRow(st.pointId)).toMatchObject({ ocppKeyPreviousHash: null, ocppKeySentAt: null });
    const [taken] = await db
      .select()
      .from(systemLog)
      .where(and(eq(systemLog.operation, 'keyTaken'), eq(systemLog.operand, `point:${st.serialNumber}`)));
    expect(taken).toMatchObject({ mode: 'ocpp', result: 200 });
  });

  it('TC_A_10_CSMS Update Charging Station Password for HTTP Basic Authentication - Rejected: the station rejects the new password; its old one stays the only one', async () => {
    const st = await station();
    const asked = setVariables(st.c, 'Rejected');
    const r = await post<{ keySentTime: string | null }>(api.pointAction.sendKey, { serialNumber: st.serialNumber });
    expect(r.data).toMatchObject({ status: 'rejected', chargerStatus: 'Rejected', keySentTime: null });
    const password = sentPassword(asked);
    await st.c.close();
    await expect(TestCharger.connect(s.url, st.serialNumber, { key: password, protocols: V201 })).rejects.toMatchObject({ status: 401 });
    const c = await TestCharger.connect(s.url, st.serialNumber, { key: st.key, protocols: V201 });
    open.push(c);
    expect(
      (await ok<{ status: string }>(c, 'BootNotification', { reason: 'PowerUp', chargingStation: { model: 'OCTT', vendorName: 'OCA' } }))
        .status,
    ).toBe('Accepted');
  });
});

describe('B Provisioning: Pending until placed', () => {
  /** A 2.0.1 station auto-registered and not yet placed by an operator, connected; its first boot's answer. */
  async function unplaced() {
    const p = await createPoint(db, { connectors: 1 });
    await db.update(chargePoint).set({ needsPlacement: true }).where(eq(chargePoint.id, p.point.id));
    const c = await TestCharger.connect(s.url, p.serialNumber, { key: p.key, protocols: V201 });
    open.push(c);
    const boot = await ok<{ status: string; interval: number }>(c, 'BootNotification', {
      reason: 'PowerUp',
      chargingStation: { model: 'OCTT', vendorName: 'OCA' },
    });
    return { c, boot, pointId: p.point.id, serialNumber: p.serialNumber };
  }
  /** An operator places the point into a station of its own (Configuration → Stations → Move). */
  async function place(pointId: number) {
    const home = await createPoint(db);
    const r = await post(api.point.move, { id: pointId, stationId: home.stationId });
    expect(r.code).toBe(200);
  }

  it('TC_B_02_CSMS Cold Boot Charging Station - Pending: a station waiting to be placed gets Pending and answers the CSMS’s requests meanwhile; once placed it is asked to boot again and is Accepted', async () => {
    const st = await unplaced();
    expect(st.boot).toMatchObject({ status: 'Pending', interval: expect.any(Number) });
    // B02.FR.01: while Pending the CSMS may read the station's configuration.
    answering(st.c, {
      GetVariables: (p) => ({
        getVariableResult: (p.getVariableData as Payload[]).map((d) => ({
          attributeStatus: 'Accepted',
          component: d.component,
          variable: d.variable,
          attributeValue: '60',
        })),
      }),
    });
    const read = await post<{ configurationKey: { key: string; value: string | null }[] }>(api.pointAction.getConfiguration, {
      serialNumber: st.serialNumber,
      key: ['HeartbeatInterval'],
    });
    expect(read.data.configurationKey).toEqual([{ key: 'HeartbeatInterval', readonly: false, value: '60' }]);
    // Still Pending at its next boot: nothing changed.
    expect(
      (await ok<{ status: string }>(st.c, 'BootNotification', { reason: 'PowerUp', chargingStation: { model: 'OCTT', vendorName: 'OCA' } }))
        .status,
    ).toBe('Pending');
    const asked = answering(st.c);
    await place(st.pointId);
    await eventually(async () => asked.some(([action, p]) => action === 'TriggerMessage' && p.requestedMessage === 'BootNotification'));
    expect(
      (
        await ok<{ status: string }>(st.c, 'BootNotification', {
          reason: 'Triggered',
          chargingStation: { model: 'OCTT', vendorName: 'OCA' },
        })
      ).status,
    ).toBe('Accepted');
    await ok(st.c, 'StatusNotification', { timestamp: iso(), connectorStatus: 'Available', evseId: 1, connectorId: 1 });
    expect(await statusOf(st.pointId, 1)).toBe('Available');
  });

  it('TC_B_30_CSMS Cold Boot Charging Station - Pending/Rejected - SecurityError: while Pending, a StatusNotification or NotifyEvent nobody asked for gets CALLERROR SecurityError and is not stored', async () => {
    const st = await unplaced();
    expect(st.boot.status).toBe('Pending');
    const status = await st.c.call('StatusNotification', { timestamp: iso(), connectorStatus: 'Unavailable', evseId: 1, connectorId: 1 });
    expect(status.slice(0, 3)).toEqual([4, expect.any(String), 'SecurityError']);
    const event = await st.c.call('NotifyEvent', {
      generatedAt: iso(),
      seqNo: 0,
      eventData: [
        {
          eventId: 1,
          timestamp: iso(),
          trigger: 'Delta',
          actualValue: 'Available',
          eventNotificationType: 'HardWiredNotification',
          component: { name: 'Connector' },
          variable: { name: 'AvailabilityState' },
        },
      ],
    });
    expect(event.slice(0, 3)).toEqual([4, expect.any(String), 'SecurityError']);
    expect(await statusOf(st.pointId, 1)).not.toBe('Unavailable');
  });

  it('TC_B_31_CSMS Cold Boot Charging Station - Pending/Rejected - TriggerMessage: while Pending, what the CSMS triggers is taken, once; then the triggered boot is Accepted', async () => {
    const st = await unplaced();
    answering(st.c);
    const r = await post(api.pointAction.triggerMessage, {
      serialNumber: st.serialNumber,
      requestedMessage: 'StatusNotification',
      connectorId: 1,
    });
    expect(r.data.status).toBe('accepted');
    await ok(st.c, 'StatusNotification', { timestamp: iso(), connectorStatus: 'Unavailable', evseId: 1, connectorId: 1 });
    expect(await statusOf(st.pointId, 1)).toBe('Unavailable');
    // Once: a second, untriggered, is refused.
    const again = await st.c.call('StatusNotification', { timestamp: iso(), connectorStatus: 'Available', evseId: 1, connectorId: 1 });
    expect(again[2]).toBe('SecurityError');
    await post(api.pointAction.triggerMessage, { serialNumber: st.serialNumber, requestedMessage: 'BootNotification' });
    // Not placed yet: the triggered boot is Pending still; placed, the next one is Accepted.
    expect(
      (
        await ok<{ status: string }>(st.c, 'BootNotification', {
          reason: 'Triggered',
          chargingStation: { model: 'OCTT', vendorName: 'OCA' },
        })
      ).status,
    ).toBe('Pending');
    await place(st.pointId);
    expect(
      (
        await ok<{ status: string }>(st.c, 'BootNotification', {
          reason: 'Triggered',
          chargingStation: { model: 'OCTT', vendorName: 'OCA' },
        })
      ).status,
    ).toBe('Accepted');
  });
});

describe('B Provisioning: network connection profiles', () => {
  const PROFILE = {
    configurationSlot: 2,
    ocppCsmsUrl: 'ws://csms.example:8180/ocpp',
    securityProfile: 1,
    ocppInterface: 'Wired0',
    messageTimeout: 30,
  };
  const setProfile = (serialNumber: string, extra: Payload = {}) =>
    post<{ configurationSlot: number; activated: boolean }>(api.pointAction.setNetworkProfile, { serialNumber, ...PROFILE, ...extra });

  it('TC_B_42_CSMS Set new NetworkConnectionProfile - Accepted: SetNetworkProfileRequest with the slot and the connection data as entered (OCPP20 over JSON); Accepted shown as accepted', async () => {
    const st = await station();
    const asked = answering(st.c, { SetNetworkProfile: { status: 'Accepted' } });
    const r = await setProfile(st.serialNumber);
    expect(r.data).toMatchObject({ status: 'accepted', configurationSlot: 2, activated: false });
    expect(asked).toEqual([
      [
        'SetNetworkProfile',
        {
          configurationSlot: 2,
          connectionData: {
            ocppVersion: 'OCPP20',
            ocppTransport: 'JSON',
            ocppCsmsUrl: 'ws://csms.example:8180/ocpp',
            messageTimeout: 30,
            securityProfile: 1,
            ocppInterface: 'Wired0',
          },
        },
      ],
    ]);
  });

  it('TC_B_44_CSMS Set new NetworkConnectionProfile - Failed: Failed shown as failed, and nothing more is sent even when the profile was to be used at once', async () => {
    const st = await station();
    const asked = answering(st.c, { SetNetworkProfile: { status: 'Failed' } });
    const r = await setProfile(st.serialNumber, { activate: true });
    expect(r.data).toMatchObject({ status: 'failed', chargerStatus: 'Failed', activated: false });
    expect(asked.map(([action]) => action)).toEqual(['SetNetworkProfile']);
  });

  it('used at once (TC_A_19’s steps): first in NetworkConfigurationPriority with the others after it, then a soft reset; a charger that keeps its order is told so', async () => {
    const st = await station();
    let order = '1,2,3';
    const asked = answering(st.c, {
      SetNetworkProfile: { status: 'Accepted' },
      GetVariables: (p) => ({
        getVariableResult: (p.getVariableData as Payload[]).map((d) => ({
          attributeStatus: 'Accepted',
          component: d.component,
          variable: d.variable,
          attributeValue: order,
        })),
      }),
      SetVariables: (p) => ({
        setVariableResult: (p.setVariableData as Payload[]).map((d) => ({
          attributeStatus: 'Accepted',
          component: d.component,
          variable: d.variable,
        })),
      }),
      Reset: { status: 'Scheduled' },
    });
    const r = await setProfile(st.serialNumber, { activate: true, configurationSlot: 3 });
    expect(r.data).toMatchObject({ status: 'scheduled', activated: true, configurationSlot: 3 });
    expect(r.data.message).toContain("first in the charge point's order");
    expect(asked.map(([action]) => action)).toEqual(['SetNetworkProfile', 'GetVariables', 'SetVariables', 'Reset']);
    const priority = { component: { name: 'OCPPCommCtrlr' }, variable: { name: 'NetworkConfigurationPriority' } };
    expect(asked[1]![1]).toEqual({ getVariableData: [priority] });
    expect(asked[2]![1]).toEqual({ setVariableData: [{ ...priority, attributeValue: '3,1,2' }] });
    expect(asked[3]![1]).toEqual({ type: 'OnIdle' });

    // The new order refused: no reset, and the answer says the charger connects as before.
    order = '1';
    asked.length = 0;
    st.c.onCall = (action, payload) => {
      asked.push([action, payload]);
      if (action === 'SetVariables')
        return {
          setVariableResult: (payload.setVariableData as Payload[]).map((d) => ({
            attributeStatus: 'Rejected',
            component: d.component,
            variable: d.variable,
          })),
        };
      if (action === 'GetVariables')
        return {
          getVariableResult: (payload.getVariableData as Payload[]).map((d) => ({
            attributeStatus: 'Accepted',
            component: d.component,
            variable: d.variable,
            attributeValue: order,
          })),
        };
      return { status: 'Accepted' };
    };
    const refused = await setProfile(st.serialNumber, { activate: true });
    expect(refused.data).toMatchObject({ status: 'rejected', activated: false });
    expect(refused.data.message).toBe('Stored in slot 2, but the charge point did not put it first (Rejected); it connects as before');
    expect(asked.map(([action]) => action)).toEqual(['SetNetworkProfile', 'GetVariables', 'SetVariables']);
  });

  it('is refused before anything is sent: a 1.6 point, a wss:// profile without this server’s TLS listener, a URL whose scheme is not the profile’s', async () => {
    const p16 = await point16();
    const r16 = await setProfile(p16.serialNumber);
    expect(r16.data).toMatchObject({ status: 'notSupported' });
    expect(p16.asked).toEqual([]);
    const st = await station();
    const asked = answering(st.c);
    const tls = await setProfile(st.serialNumber, { securityProfile: 2, ocppCsmsUrl: 'wss://csms.example/ocpp' });
    expect(tls).toMatchObject({ code: 400, data: { field: 'securityProfile' } });
    expect(tls.msg).toContain('no TLS listener');
    const scheme = await setProfile(st.serialNumber, { ocppCsmsUrl: 'https://csms.example/ocpp' });
    expect(scheme).toMatchObject({ code: 400, data: { field: 'ocppCsmsUrl' } });
    expect(scheme.msg).toBe('Central system URL must be a ws:// address for this security profile');
    expect(asked).toEqual([]);
  });
});

describe('B Provisioning', () => {
  it('TC_B_01_CSMS Cold Boot Charging Station - Accepted: Accepted with the configured heartbeat interval and the time, the station recorded; Heartbeat and the EVSE status answered', async () => {
    const p = await createPoint(db, { connectors: 1 });
    const c = await TestCharger.connect(s.url, p.serialNumber, { key: p.key, protocols: V201 });
    open.push(c);
    const before = Date.now();
    const boot = await ok<{ status: string; interval: number; currentTime: string }>(c, 'BootNotification', {
      reason: 'PowerUp',
      chargingStation: { model: 'OCTT-M', vendorName: 'OCA-Vendor', serialNumber: 'SN-201', firmwareVersion: 'fw-b01' },
    });
    expect(boot.status).toBe('Accepted');
    expect(boot.interval).toBe(s.config.ocpp.heartbeatIntervalSec);
    expect(Math.abs(Date.parse(boot.currentTime) - before)).toBeLessThan(60_000);
    await eventually(async () => {
      const row = await pointRow(p.point.id);
      return row.vendor === 'OCA-Vendor' && row.model === 'OCTT-M' && row.firmwareVersion === 'fw-b01' && row.ocppVersion === '2.0.1';
    });
    expect(await ok(c, 'StatusNotification', { timestamp: iso(), connectorStatus: 'Available', evseId: 1, connectorId: 1 })).toEqual({});
    await eventually(async () => (await statusOf(p.point.id, 1)) === 'Available');
    expect(
      await ok(c, 'NotifyEvent', {
        generatedAt: iso(),
        seqNo: 0,
        eventData: [
          {
            eventId: 1,
            timestamp: iso(),
            trigger: 'Delta',
            actualValue: 'Available',
            eventNotificationType: 'HardWiredNotification',
            component: { name: 'Connector', evse: { id: 1, connectorId: 1 } },
            variable: { name: 'AvailabilityState' },
          },
        ],
      }),
    ).toEqual({});
    const hb = await ok<{ currentTime: string }>(c, 'Heartbeat', {});
    expect(Math.abs(Date.parse(hb.currentTime) - Date.now())).toBeLessThan(60_000);
  });

  it('TC_B_06_CSMS Get Variables - single value: GetVariablesRequest for OCPPCommCtrlr.OfflineThreshold, the value shown', async () => {
    const { c, serialNumber } = await station();
    const asked = answering(c, {
      GetVariables: {
        getVariableResult: [
          {
            attributeStatus: 'Accepted',
            attributeValue: '60',
            component: { name: 'OCPPCommCtrlr' },
            variable: { name: 'OfflineThreshold' },
          },
        ],
      },
    });
    const r = await post<{ configurationKey: Payload[]; unknownKey: string[] }>(api.pointAction.getConfiguration, {
      serialNumber,
      key: ['OCPPCommCtrlr.OfflineThreshold'],
    });
    expect(asked).toEqual([
      ['GetVariables', { getVariableData: [{ component: { name: 'OCPPCommCtrlr' }, variable: { name: 'OfflineThreshold' } }] }],
    ]);
    expect(r.data).toMatchObject({
      status: 'accepted',
      configurationKey: [{ key: 'OCPPCommCtrlr.OfflineThreshold', readonly: false, value: '60' }],
      unknownKey: [],
    });
  });

  it('TC_B_07_CSMS Get Variables - multiple values: one GetVariablesRequest for all of them; what the station does not know is shown unknown', async () => {
    const { c, serialNumber } = await station();
    const asked = answering(c, {
      GetVariables: {
        getVariableResult: [
          {
            attributeStatus: 'Accepted',
            attributeValue: '60',
            component: { name: 'OCPPCommCtrlr' },
            variable: { name: 'OfflineThreshold' },
          },
          {
            attributeStatus: 'Accepted',
            attributeValue: 'true',
            component: { name: 'AuthCtrlr' },
            variable: { name: 'AuthorizeRemoteStart' },
          },
          { attributeStatus: 'UnknownVariable', component: { name: 'AuthCtrlr' }, variable: { name: 'NoSuchThing' } },
        ],
      },
    });
    const r = await post<{ configurationKey: Payload[]; unknownKey: string[] }>(api.pointAction.getConfiguration, {
      serialNumber,
      key: ['OCPPCommCtrlr.OfflineThreshold', 'AuthCtrlr.AuthorizeRemoteStart', 'AuthCtrlr.NoSuchThing'],
    });
    expect(asked).toEqual([
      [
        'GetVariables',
        {
          getVariableData: [
            { component: { name: 'OCPPCommCtrlr' }, variable: { name: 'OfflineThreshold' } },
            { component: { name: 'AuthCtrlr' }, variable: { name: 'AuthorizeRemoteStart' } },
            { component: { name: 'AuthCtrlr' }, variable: { name: 'NoSuchThing' } },
          ],
        },
      ],
    ]);
    expect(r.data.configurationKey).toEqual([
      { key: 'OCPPCommCtrlr.OfflineThreshold', readonly: false, value: '60' },
      { key: 'AuthCtrlr.AuthorizeRemoteStart', readonly: false, value: 'true' },
    ]);
    expect(r.data.unknownKey).toEqual(['AuthCtrlr.NoSuchThing']);
  });

  it('TC_B_09_CSMS Set Variables - single value: SetVariablesRequest with the value; Accepted, Rejected, RebootRequired and an unknown variable each shown as such', async () => {
    const { c, serialNumber } = await station();
    let answer = 'Accepted';
    const asked = answering(c, {
      SetVariables: (p) => {
        const [d] = p.setVariableData as { component: Payload; variable: Payload }[];
        return { setVariableResult: [{ attributeStatus: answer, component: d!.component, variable: d!.variable }] };
      },
    });
    const set = (key: string, value: string) => post<{ key: string }>(api.pointAction.changeConfiguration, { serialNumber, key, value });
    expect((await set('OCPPCommCtrlr.OfflineThreshold', '123')).data).toMatchObject({ status: 'accepted', chargerStatus: 'Accepted' });
    expect(asked.at(-1)).toEqual([
      'SetVariables',
      { setVariableData: [{ component: { name: 'OCPPCommCtrlr' }, variable: { name: 'OfflineThreshold' }, attributeValue: '123' }] },
    ]);
    answer = 'Rejected';
    expect((await set('AuthCtrlr.AuthorizeRemoteStart', 'false')).data.status).toBe('rejected');
    answer = 'RebootRequired';
    // A 1.6 key goes to its device-model variable.
    expect((await set('HeartbeatInterval', '120')).data.status).toBe('rebootRequired');
    expect(asked.at(-1)![1]).toEqual({
      setVariableData: [{ component: { name: 'OCPPCommCtrlr' }, variable: { name: 'HeartbeatInterval' }, attributeValue: '120' }],
    });
    answer = 'UnknownVariable';
    expect((await set('OCPPCommCtrlr.NoSuchThing', '1')).data.status).toBe('notSupported');
    expect(asked).toHaveLength(4);
  });

  it('TC_B_10_CSMS Set Variables - multiple values: the change of several keys is one SetVariablesRequest; each key’s answer shown, and the point’s as a whole', async () => {
    const { c, serialNumber } = await station();
    const asked = answering(c, {
      SetVariables: (p) => ({
        setVariableResult: (p.setVariableData as { component: Payload; variable: Payload }[]).map((d) => ({
          attributeStatus:
            d.variable.name === 'OfflineThreshold'
              ? 'UnknownVariable'
              : d.variable.name === 'HeartbeatInterval'
                ? 'RebootRequired'
                : 'Accepted',
          component: d.component,
          variable: d.variable,
        })),
      }),
    });
    type Answer = { results: { status: string; keys: { key: string; status: string; chargerStatus: string | null }[] }[] };
    const changes = [
      { key: 'HeartbeatInterval', value: '120' },
      { key: 'SampledDataCtrlr.TxEndedInterval', value: '60' },
      { key: 'OCPPCommCtrlr.OfflineThreshold', value: '30' },
      // A 1.6 key with no device-model variable: not sent, not supported.
      { key: 'UnknownVendorKey', value: '1' },
    ];
    const r = await post<Answer>(api.pointAction.changeConfigurationMany, { serialNumbers: [serialNumber], changes });
    expect(r.code, r.msg).toBe(200);
    expect(asked).toEqual([
      [
        'SetVariables',
        {
          setVariableData: [
            { component: { name: 'OCPPCommCtrlr' }, variable: { name: 'HeartbeatInterval' }, attributeValue: '120' },
            { component: { name: 'SampledDataCtrlr' }, variable: { name: 'TxEndedInterval' }, attributeValue: '60' },
            { component: { name: 'OCPPCommCtrlr' }, variable: { name: 'OfflineThreshold' }, attributeValue: '30' },
          ],
        },
      ],
    ]);
    const [point] = r.data.results;
    expect(point!.keys.map((k) => [k.key, k.status, k.chargerStatus])).toEqual([
      ['HeartbeatInterval', 'rebootRequired', 'RebootRequired'],
      ['SampledDataCtrlr.TxEndedInterval', 'accepted', 'Accepted'],
      ['OCPPCommCtrlr.OfflineThreshold', 'notSupported', 'NotSupported'],
      ['UnknownVendorKey', 'notSupported', 'NotSupported'],
    ]);
    expect(point!.status).toBe('notSupported');
  });

  it('TC_B_13_CSMS Get Base Report - FullInventory: the console’s device model is a GetBaseReport FullInventory; its NotifyReports shown attribute by attribute; a 1.6 point is not asked', async () => {
    const { c, serialNumber } = await station();
    const asked = answering(c, {
      GetBaseReport: (p) => {
        // The report follows the answer, in two parts.
        setImmediate(() => {
          const requestId = p.requestId as number;
          void ok(c, 'NotifyReport', {
            requestId,
            generatedAt: iso(),
            seqNo: 0,
            tbc: true,
            reportData: [
              {
                component: { name: 'EVSE', evse: { id: 1 } },
                variable: { name: 'Power' },
                variableAttribute: [
                  { type: 'Actual', value: '0', mutability: 'ReadOnly' },
                  { type: 'MaxSet', value: '22000', mutability: 'ReadOnly' },
                ],
                variableCharacteristics: { unit: 'W', dataType: 'decimal', supportsMonitoring: true },
              },
            ],
          }).then(() =>
            ok(c, 'NotifyReport', {
              requestId,
              generatedAt: iso(),
              seqNo: 1,
              reportData: [
                {
                  component: { name: 'Connector', evse: { id: 1, connectorId: 2 } },
                  variable: { name: 'ConnectorType' },
                  variableAttribute: [{ value: 'cCCS2', mutability: 'ReadOnly' }],
                },
                {
                  component: { name: 'SecurityCtrlr' },
                  variable: { name: 'BasicAuthPassword' },
                  variableAttribute: [{ value: 'secret', mutability: 'WriteOnly' }],
                },
              ],
            }),
          );
        });
        return { status: 'Accepted' };
      },
    });
    const r = await post<{ items: Payload[] }>(api.pointAction.deviceModel, { serialNumber });
    expect(asked).toEqual([['GetBaseReport', { requestId: expect.any(Number), reportBase: 'FullInventory' }]]);
    expect(r.data.status).toBe('accepted');
    const row = { componentInstance: null, variableInstance: null, unit: null, dataType: null };
    expect(r.data.items).toEqual([
      {
        ...row,
        component: 'EVSE',
        evseId: 1,
        connectorId: null,
        variable: 'Power',
        type: 'Actual',
        value: '0',
        mutability: 'ReadOnly',
        unit: 'W',
        dataType: 'decimal',
      },
      {
        ...row,
        component: 'EVSE',
        evseId: 1,
        connectorId: null,
        variable: 'Power',
        type: 'MaxSet',
        value: '22000',
        mutability: 'ReadOnly',
        unit: 'W',
        dataType: 'decimal',
      },
      {
        ...row,
        component: 'Connector',
        evseId: 1,
        connectorId: 2,
        variable: 'ConnectorType',
        type: 'Actual',
        value: 'cCCS2',
        mutability: 'ReadOnly',
      },
      // A password is never shown.
      {
        ...row,
        component: 'SecurityCtrlr',
        evseId: null,
        connectorId: null,
        variable: 'BasicAuthPassword',
        type: 'Actual',
        value: null,
        mutability: 'WriteOnly',
      },
    ]);
    // A station with nothing to report.
    answering(c, { GetBaseReport: { status: 'EmptyResultSet' } });
    expect((await post<{ items: Payload[] }>(api.pointAction.deviceModel, { serialNumber })).data).toMatchObject({
      status: 'accepted',
      items: [],
    });
    answering(c, { GetBaseReport: { status: 'NotSupported' } });
    expect((await post(api.pointAction.deviceModel, { serialNumber })).data).toMatchObject({ status: 'failed', items: [] });

    const { serialNumber: serial16, asked: asked16 } = await point16();
    expect((await post(api.pointAction.deviceModel, { serialNumber: serial16 })).data).toMatchObject({
      status: 'notSupported',
      message: 'Not available for a charge point speaking OCPP 1.6; nothing was sent',
    });
    expect(asked16).toEqual([]);
  });

  it('TC_B_20_CSMS Reset Charging Station - Without ongoing transaction - OnIdle: ResetRequest OnIdle, Accepted; the station boots again and is accepted', async () => {
    const { c, pointId, serialNumber, key } = await station();
    const asked = answering(c);
    const r = await post(api.pointAction.reset, { serialNumber, type: 'Soft' });
    expect(r.data).toMatchObject({ status: 'accepted', chargerStatus: 'Accepted' });
    expect(asked).toEqual([['Reset', { type: 'OnIdle' }]]);
    await c.close();
    const again = await TestCharger.connect(s.url, serialNumber, { key, protocols: V201 });
    open.push(again);
    const boot = await ok<{ status: string }>(again, 'BootNotification', {
      reason: 'RemoteReset',
      chargingStation: { model: 'OCTT', vendorName: 'OCA', firmwareVersion: 'after-reset' },
    });
    expect(boot.status).toBe('Accepted');
    await eventually(async () => (await pointRow(pointId)).firmwareVersion === 'after-reset');
  });

  it('TC_B_21_CSMS Reset Charging Station - With Ongoing Transaction - OnIdle: Scheduled is shown as scheduled; the transaction ends normally, then the station boots', async () => {
    const { c, pointId, serialNumber } = await station();
    const d = await driver();
    const tx = transaction(c);
    await tx.send('Started', {
      idToken: token(d.tags[0]!),
      evse: { id: 1, connectorId: 1 },
      meterValue: [sample(100, 'Transaction.Begin')],
    });
    const asked = answering(c, { Reset: { status: 'Scheduled' } });
    const r = await post(api.pointAction.reset, { serialNumber, type: 'Soft' });
    expect(r.data).toMatchObject({ status: 'scheduled', chargerStatus: 'Scheduled' });
    expect(asked).toEqual([['Reset', { type: 'OnIdle' }]]);
    expect((await txOf(pointId, tx.id))!.stoppedAt).toBeNull();
    await tx.send('Ended', {
      triggerReason: 'StopAuthorized',
      idToken: token(d.tags[0]!),
      transactionInfo: { stoppedReason: 'Local' },
      meterValue: [sample(900, 'Transaction.End')],
    });
    expect(await txOf(pointId, tx.id)).toMatchObject({ stopReason: 'Local', meterStopWh: 900, energyWh: 800 });
    expect(
      (
        await ok<{ status: string }>(c, 'BootNotification', {
          reason: 'RemoteReset',
          chargingStation: { model: 'OCTT', vendorName: 'OCA' },
        })
      ).status,
    ).toBe('Accepted');
  });

  it('TC_B_22_CSMS Reset Charging Station - With Ongoing Transaction - Immediate: ResetRequest Immediate; the transaction ended by ImmediateReset is closed as a hard reset', async () => {
    const { c, pointId, serialNumber } = await station();
    const d = await driver();
    const tx = transaction(c);
    await tx.send('Started', { idToken: token(d.tags[0]!), evse: { id: 1, connectorId: 1 }, meterValue: [sample(0, 'Transaction.Begin')] });
    const asked = answering(c);
    expect((await post(api.pointAction.reset, { serialNumber, type: 'Hard' })).data.status).toBe('accepted');
    expect(asked).toEqual([['Reset', { type: 'Immediate' }]]);
    expect(
      await tx.send('Ended', {
        triggerReason: 'ResetCommand',
        transactionInfo: { stoppedReason: 'ImmediateReset' },
        meterValue: [sample(400, 'Transaction.End')],
      }),
    ).toEqual({});
    expect(await txOf(pointId, tx.id)).toMatchObject({ stopReason: 'HardReset', meterStopWh: 400, cardId: d.cards[0]!.id });
    expect(
      (
        await ok<{ status: string }>(c, 'BootNotification', {
          reason: 'RemoteReset',
          chargingStation: { model: 'OCTT', vendorName: 'OCA' },
        })
      ).status,
    ).toBe('Accepted');
  });

  describe('Reset EVSE', () => {
    it('TC_B_25_CSMS Reset EVSE - Without ongoing transaction: ResetRequest OnIdle with the EVSE; Accepted, its Unavailable and Available stored, the other EVSE untouched', async () => {
      const { c, pointId, serialNumber } = await station(2);
      const asked = answering(c);
      const r = await post(api.pointAction.reset, { serialNumber, type: 'Soft', connectorId: 2 });
      expect(r.data).toMatchObject({ status: 'accepted', chargerStatus: 'Accepted' });
      expect(asked).toEqual([['Reset', { type: 'OnIdle', evseId: 2 }]]);
      await ok(c, 'StatusNotification', { timestamp: iso(), connectorStatus: 'Unavailable', evseId: 2, connectorId: 1 });
      expect(await statusOf(pointId, 2)).toBe('Unavailable');
      await ok(c, 'StatusNotification', { timestamp: iso(), connectorStatus: 'Available', evseId: 2, connectorId: 1 });
      expect([await statusOf(pointId, 1), await statusOf(pointId, 2)]).toEqual(['Available', 'Available']);
    });

    it('TC_B_26_CSMS Reset EVSE - With Ongoing Transaction - OnIdle: Scheduled is shown as scheduled; the transaction ends normally', async () => {
      const { c, pointId, serialNumber, d, tx } = await charging(2, 1);
      const asked = answering(c, { Reset: { status: 'Scheduled' } });
      const r = await post(api.pointAction.reset, { serialNumber, type: 'Soft', connectorId: 1 });
      expect(r.data).toMatchObject({ status: 'scheduled', chargerStatus: 'Scheduled' });
      expect(asked).toEqual([['Reset', { type: 'OnIdle', evseId: 1 }]]);
      expect((await txOf(pointId, tx.id))!.stoppedAt).toBeNull();
      await tx.send('Ended', {
        triggerReason: 'StopAuthorized',
        idToken: token(d.tags[0]!),
        transactionInfo: { stoppedReason: 'Local' },
        meterValue: [sample(700, 'Transaction.End')],
      });
      expect(await txOf(pointId, tx.id)).toMatchObject({ stopReason: 'Local', meterStopWh: 700 });
    });

    it('TC_B_27_CSMS Reset EVSE - With Ongoing Transaction - Immediate: ResetRequest Immediate with the EVSE; the transaction it ends is closed as a hard reset; a 1.6 point is not asked', async () => {
      const { c, pointId, serialNumber, tx } = await charging(2, 2);
      const asked = answering(c);
      expect((await post(api.pointAction.reset, { serialNumber, type: 'Hard', connectorId: 2 })).data.status).toBe('accepted');
      expect(asked).toEqual([['Reset', { type: 'Immediate', evseId: 2 }]]);
      await tx.send('Ended', {
        triggerReason: 'ResetCommand',
        transactionInfo: { stoppedReason: 'ImmediateReset' },
        meterValue: [sample(300, 'Transaction.End')],
      });
      expect(await txOf(pointId, tx.id)).toMatchObject({ stopReason: 'HardReset', meterStopWh: 300 });

      const { serialNumber: serial16, asked: asked16 } = await point16();
      expect((await post(api.pointAction.reset, { serialNumber: serial16, type: 'Hard', connectorId: 1 })).data).toMatchObject({
        status: 'notSupported',
        message: 'Not available for a charge point speaking OCPP 1.6; nothing was sent',
      });
      expect(asked16).toEqual([]);
    });
  });
});

describe('C Authorization', () => {
  const authorize = (c: TestCharger, idToken: string) =>
    ok<{ idTokenInfo: Payload & { status: string } }>(c, 'Authorize', { idToken: token(idToken) });

  /** The reason the OCPP log keeps beside the CSMS's answer to the charger's last `action` (one row for the exchange). */
  async function loggedReason(serialNumber: string, action: string) {
    await s.app.ocpp.flush();
    const rows = await db
      .select()
      .from(ocppLog)
      .where(and(eq(ocppLog.serialNumber, serialNumber), eq(ocppLog.action, action), eq(ocppLog.responseType, 3)))
      .orderBy(asc(ocppLog.id));
    return rows.at(-1)?.reason;
  }

  it('TC_C_02_CSMS Local start transaction - Authorization Invalid/Unknown: an unknown idToken is Invalid, the reason kept in the OCPP log', async () => {
    const { c, pointId, serialNumber } = await station();
    const r = await authorize(c, uniq('UNKNOWN'));
    expect(r.idTokenInfo).toEqual({ status: 'Invalid' });
    expect(await loggedReason(serialNumber, 'Authorize')).toBe('unknown');
    expect(await txsOf(pointId)).toEqual([]);
  });

  it('TC_C_06_CSMS Local start transaction - Authorization Blocked: a blocked (lost) card is Blocked', async () => {
    const { c, serialNumber } = await station();
    const d = await driver(1, { status: 'lost' });
    expect((await authorize(c, d.tags[0]!)).idTokenInfo).toEqual({ status: 'Blocked' });
    expect(await loggedReason(serialNumber, 'Authorize')).toBe('lost');
  });

  it('TC_C_07_CSMS Local start transaction - Authorization Expired: a card past its expiry is Expired', async () => {
    const { c, serialNumber } = await station();
    const d = await driver(1, { expireAt: new Date(Date.now() - 86_400_000) });
    expect((await authorize(c, d.tags[0]!)).idTokenInfo).toEqual({ status: 'Expired' });
    expect(await loggedReason(serialNumber, 'Authorize')).toBe('expired');
  });

  it('TC_C_08_CSMS Authorization through authorization cache - Accepted: a Started with a cached idToken (no Authorize) is Accepted, with how long it may be cached and its group', async () => {
    const { c, pointId } = await station();
    const d = await driver();
    const tx = transaction(c);
    const r = await tx.send('Started', {
      idToken: token(d.tags[0]!),
      evse: { id: 1, connectorId: 1 },
      meterValue: [sample(0, 'Transaction.Begin')],
    });
    expect(r.idTokenInfo).toEqual({
      status: 'Accepted',
      cacheExpiryDateTime: d.cards[0]!.expireAt.toISOString(),
      groupIdToken: { idToken: d.account, type: 'Central' },
    });
    expect(await txOf(pointId, tx.id)).toMatchObject({ cardId: d.cards[0]!.id, authStatus: 'Accepted', startType: 'card' });
  });

  it('TC_C_20_CSMS Authorization through authorization cache - Invalid: a cached idToken no longer valid is answered Blocked; the session it deauthorizes is kept, nobody’s and never billed', async () => {
    const { c, pointId } = await station();
    const d = await driver(1, { status: 'lost' });
    const tx = transaction(c);
    const r = await tx.send('Started', {
      idToken: token(d.tags[0]!),
      evse: { id: 1, connectorId: 1 },
      meterValue: [sample(0, 'Transaction.Begin')],
    });
    expect(r.idTokenInfo).toEqual({ status: 'Blocked' });
    expect(
      await tx.send('Ended', {
        triggerReason: 'Deauthorized',
        transactionInfo: { stoppedReason: 'DeAuthorized' },
        meterValue: [sample(10, 'Transaction.End')],
      }),
    ).toEqual({});
    const row = await eventually(async () => {
      const x = await txOf(pointId, tx.id);
      return x?.billingNote ? x : undefined;
    });
    expect(row).toMatchObject({
      authStatus: 'Blocked',
      authReason: 'lost',
      cardId: null,
      chargeUserId: null,
      stopReason: 'DeAuthorized',
      billedAt: null,
    });
  });

  it('TC_C_37_CSMS Clear Authorization Data in Authorization Cache - Accepted: ClearCacheRequest, Accepted shown as accepted', async () => {
    const { c, serialNumber } = await station();
    const asked = answering(c);
    expect((await post(api.pointAction.clearCache, { serialNumber })).data).toMatchObject({
      status: 'accepted',
      chargerStatus: 'Accepted',
    });
    expect(asked).toEqual([['ClearCache', {}]]);
  });

  it('TC_C_38_CSMS Clear Authorization Data in Authorization Cache - Rejected: Rejected shown as rejected', async () => {
    const { c, serialNumber } = await station();
    const asked = answering(c, { ClearCache: { status: 'Rejected' } });
    expect((await post(api.pointAction.clearCache, { serialNumber })).data).toMatchObject({
      status: 'rejected',
      chargerStatus: 'Rejected',
    });
    expect(asked).toEqual([['ClearCache', {}]]);
  });

  it('TC_C_39_CSMS Authorization by GroupId - Success: both idTokens of a group get its groupIdToken; the second one, stopping the first one’s transaction, is Accepted with it', async () => {
    const { c, pointId } = await station();
    const d = await driver(2);
    const group = { idToken: d.account, type: 'Central' };
    const [first, second] = d.tags as [string, string];
    expect((await authorize(c, second)).idTokenInfo).toMatchObject({ status: 'Accepted', groupIdToken: group });
    await ok(c, 'StatusNotification', { timestamp: iso(), connectorStatus: 'Occupied', evseId: 1, connectorId: 1 });
    const tx = transaction(c);
    const started = await tx.send('Started', {
      idToken: token(first),
      evse: { id: 1, connectorId: 1 },
      transactionInfo: { chargingState: 'EVConnected' },
      meterValue: [sample(0, 'Transaction.Begin')],
    });
    expect(started.idTokenInfo).toMatchObject({ status: 'Accepted', groupIdToken: group });
    await tx.send('Updated', { triggerReason: 'ChargingStateChanged', transactionInfo: { chargingState: 'Charging' } });
    expect((await authorize(c, second)).idTokenInfo).toMatchObject({ status: 'Accepted', groupIdToken: group });
    const stop = await tx.send('Updated', {
      triggerReason: 'StopAuthorized',
      idToken: token(second),
      evse: { id: 1, connectorId: 1 },
      transactionInfo: { chargingState: 'EVConnected' },
    });
    expect(stop.idTokenInfo).toMatchObject({ status: 'Accepted', groupIdToken: group });
    // A card of another group stopping it would get its own decision, with its own group.
    const stranger = await driver();
    const other = await tx.send('Updated', { triggerReason: 'StopAuthorized', idToken: token(stranger.tags[0]!) });
    expect(other.idTokenInfo).toMatchObject({ status: 'Accepted', groupIdToken: { idToken: stranger.account, type: 'Central' } });
    await tx.send('Ended', {
      triggerReason: 'EVCommunicationLost',
      transactionInfo: { stoppedReason: 'Local' },
      meterValue: [sample(900, 'Transaction.End')],
    });
    expect(await txOf(pointId, tx.id)).toMatchObject({
      cardId: d.cards[0]!.id,
      idTag: first,
      meterStopWh: 900,
      energyWh: 900,
      stopReason: 'Local',
    });
  });

  describe('Master pass', () => {
    /** The master pass group (CSMS_OCPP_MASTER_PASS_GROUP_ID, by default MasterPass) as the answers carry it. */
    const group = { idToken: 'MasterPass', type: 'Central' };
    /** A station of two EVSEs with a session on each (two drivers), and a master pass of the provider (no balance). */
    async function twoSessions() {
      const st = await station(2);
      const sessions = [];
      for (const evse of [1, 2]) sessions.push({ ...(await driverCharging(st.c, evse)), evse });
      const pass = (await driver(1, { masterPass: true, balanceCents: 0 })).cards[0]!;
      return { ...st, sessions, pass };
    }
    const endByPass = (tx: ReturnType<typeof transaction>, passTag: string, evse: number) =>
      tx.send('Ended', {
        triggerReason: 'StopAuthorized',
        idToken: token(passTag),
        evse: { id: evse, connectorId: 1 },
        transactionInfo: { chargingState: 'Idle', stoppedReason: 'MasterPass' },
        meterValue: [sample(100 * evse, 'Transaction.End')],
      });

    it('TC_C_47_CSMS Stop Transaction with a Master Pass - With UI - All transactions (and TC_C_49_CSMS, without UI: the same messages): Authorize and each Ended answered Accepted with the master pass group; each session ends billed to its own driver', async () => {
      const { c, pointId, sessions, pass } = await twoSessions();
      expect((await authorize(c, pass.physicalId)).idTokenInfo).toMatchObject({ status: 'Accepted', groupIdToken: group });
      for (const { tx, evse } of sessions) {
        const ended = await endByPass(tx, pass.physicalId, evse);
        expect(ended.idTokenInfo).toMatchObject({ status: 'Accepted', groupIdToken: group });
      }
      for (const { d, tx, evse } of sessions)
        expect(await txOf(pointId, tx.id)).toMatchObject({
          cardId: d.cards[0]!.id,
          stopIdTag: pass.physicalId,
          stopReason: 'MasterPass',
          energyWh: 100 * evse,
        });
      // The master pass paid nothing.
      expect((await db.select().from(card).where(eq(card.id, pass.id)))[0]!.balanceCents).toBe(0);
    });

    it('TC_C_48_CSMS Stop Transaction with a Master Pass - With UI - Specific transactions: the chosen session ends, the other runs on', async () => {
      const { c, pointId, sessions, pass } = await twoSessions();
      expect((await authorize(c, pass.physicalId)).idTokenInfo).toMatchObject({ status: 'Accepted', groupIdToken: group });
      const [chosen, other] = sessions as [(typeof sessions)[0], (typeof sessions)[0]];
      expect((await endByPass(chosen.tx, pass.physicalId, chosen.evse)).idTokenInfo).toMatchObject({
        status: 'Accepted',
        groupIdToken: group,
      });
      expect(await txOf(pointId, chosen.tx.id)).toMatchObject({ stopReason: 'MasterPass', stoppedAt: expect.any(Date) });
      expect(await txOf(pointId, other.tx.id)).toMatchObject({ stoppedAt: null });
    });

    it('the simulator set with the group plays C16 against this server: its master pass ends every session (MasterPass, each billed to its own card) and starts none', async () => {
      const p = await createPoint(db, { connectors: 2 });
      const sim = createChargePoint({
        ocppVersion: '2.0.1',
        url: `${s.url.replace(/^http/, 'ws')}/ocpp`,
        serialNumber: p.serialNumber,
        key: p.key!,
        connectors: 2,
        meterValueSampleInterval: 0,
        clockAlignedDataInterval: 0,
        configuration: { MasterPassGroupId: 'MasterPass' },
      });
      sim.start();
      try {
        await sim.ready();
        const drivers = [await driver(), await driver()];
        for (const [i, d] of drivers.entries()) {
          sim.plugIn(i + 1);
          expect((await sim.startCharging(i + 1, d.tags[0]!)).accepted).toBe(true);
        }
        const pass = (await driver(1, { masterPass: true, balanceCents: 0 })).cards[0]!;
        // Presented at the reader: both sessions end; presented to start, nothing starts.
        expect(await sim.swipe(pass.physicalId)).toMatchObject({ status: 'Accepted', parentIdTag: 'MasterPass' });
        await sim.drained();
        const rows = await db.select().from(chargingTransaction).where(eq(chargingTransaction.chargePointId, p.point.id));
        expect(rows.map((r) => [r.cardId, r.stopIdTag, r.stopReason]).sort()).toEqual(
          drivers.map((d) => [d.cards[0]!.id, pass.physicalId, 'MasterPass']).sort(),
        );
        expect((await sim.startCharging(1, pass.physicalId)).accepted).toBe(false);
        await sim.drained();
        expect(await db.select().from(chargingTransaction).where(eq(chargingTransaction.chargePointId, p.point.id))).toHaveLength(2);
      } finally {
        await sim.stop();
      }
    });

    it('a master pass starts nothing: a Started with it is Invalid (reason masterPass, billed to nobody), and the console refuses it for a remote start', async () => {
      const { c, pointId, serialNumber } = await station();
      const pass = (await driver(1, { masterPass: true })).cards[0]!;
      const tx = transaction(c);
      const started = await tx.send('Started', {
        idToken: token(pass.physicalId),
        evse: { id: 1, connectorId: 1 },
        transactionInfo: { chargingState: 'EVConnected' },
        meterValue: [sample(0, 'Transaction.Begin')],
      });
      expect(started.idTokenInfo).toMatchObject({ status: 'Invalid' });
      expect(await loggedReason(serialNumber, 'TransactionEvent')).toBe('masterPass');
      expect(await txOf(pointId, tx.id)).toMatchObject({ cardId: null, chargeUserId: null, authStatus: 'Invalid' });
      const refused = await post(api.pointAction.remoteStart, { serialNumber, connectorId: 1, idTag: pass.physicalId });
      expect(refused).toMatchObject({ code: 400, data: { field: 'idTag' } });
      expect(refused.msg).toContain('master pass');
    });
  });
});

describe('E Transactions', () => {
  for (const [id, title, triggerReason] of [
    ['TC_E_01_CSMS', 'PowerPathClosed', 'ChargingStateChanged'],
    ['TC_E_02_CSMS', 'EnergyTransfer', 'ChargingStateChanged'],
  ] as const) {
    it(`${id} Start transaction options - ${title}: the EV connected and authorized first, the Started at ${title} is Accepted and the EVSE charging`, async () => {
      const { c, pointId } = await station();
      const d = await driver();
      await ok(c, 'StatusNotification', { timestamp: iso(), connectorStatus: 'Occupied', evseId: 1, connectorId: 1 });
      await eventually(async () => (await statusOf(pointId, 1)) === 'Preparing');
      expect((await ok<{ idTokenInfo: { status: string } }>(c, 'Authorize', { idToken: token(d.tags[0]!) })).idTokenInfo.status).toBe(
        'Accepted',
      );
      const tx = transaction(c);
      const r = await tx.send('Started', {
        triggerReason,
        idToken: token(d.tags[0]!),
        evse: { id: 1, connectorId: 1 },
        transactionInfo: { chargingState: 'Charging' },
        meterValue: [sample(50, 'Transaction.Begin')],
      });
      expect(r.idTokenInfo?.status).toBe('Accepted');
      expect(await txOf(pointId, tx.id)).toMatchObject({ connectorNo: 1, meterStartWh: 50, cardId: d.cards[0]!.id });
      await eventually(async () => (await statusOf(pointId, 1)) === 'Charging');
    });
  }

  it('TC_E_04_CSMS Local start transaction - Authorization first - Success: a Started before the EVSE is known is Accepted; the session is recorded on the EVSE the next event names, from the Started', async () => {
    const { c, pointId } = await station(2);
    const d = await driver();
    expect((await ok<{ idTokenInfo: { status: string } }>(c, 'Authorize', { idToken: token(d.tags[0]!) })).idTokenInfo.status).toBe(
      'Accepted',
    );
    const tx = transaction(c);
    const startedAt = new Date(Date.now() - 60_000).toISOString();
    // TxStartPoint Authorized, two EVSEs: the driver has not chosen one yet (E01.FR.17).
    const r = await tx.send('Started', { timestamp: startedAt, idToken: token(d.tags[0]!) });
    expect(r.idTokenInfo?.status).toBe('Accepted');
    expect(await txsOf(pointId)).toEqual([]);
    // Repeated (its answer lost): the same answer, still nothing to record.
    await c.ok('TransactionEvent', {
      eventType: 'Started',
      timestamp: startedAt,
      triggerReason: 'Authorized',
      seqNo: 0,
      transactionInfo: { transactionId: tx.id },
      idToken: token(d.tags[0]!),
    });
    expect(
      await tx.send('Updated', {
        triggerReason: 'CablePluggedIn',
        evse: { id: 2, connectorId: 1 },
        transactionInfo: { chargingState: 'EVConnected' },
        meterValue: [sample(300, 'Transaction.Begin')],
      }),
    ).toEqual({});
    const rows = await txsOf(pointId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      ocppTxId: tx.id,
      connectorNo: 2,
      idTag: d.tags[0],
      cardId: d.cards[0]!.id,
      authStatus: 'Accepted',
      meterStartWh: 300,
      startedAt: new Date(startedAt),
      startType: 'card',
    });
    await tx.send('Updated', { triggerReason: 'ChargingStateChanged', transactionInfo: { chargingState: 'Charging' } });
    await eventually(async () => (await statusOf(pointId, 2)) === 'Charging');
    expect(await statusOf(pointId, 1)).toBe('Available');
    await tx.send('Ended', {
      triggerReason: 'EVCommunicationLost',
      transactionInfo: { stoppedReason: 'EVDisconnected' },
      meterValue: [sample(1200, 'Transaction.End')],
    });
    expect(await txOf(pointId, tx.id)).toMatchObject({ energyWh: 900, stopReason: 'EVDisconnected' });
  });

  it('TC_E_11_CSMS Start transaction options - DataSigned: a Started carrying a signed meter value is Accepted and its register read', async () => {
    const { c, pointId } = await station();
    const d = await driver();
    const tx = transaction(c);
    const r = await tx.send('Started', {
      triggerReason: 'SignedDataReceived',
      idToken: token(d.tags[0]!),
      evse: { id: 1, connectorId: 1 },
      meterValue: [
        {
          timestamp: iso(),
          sampledValue: [
            {
              ...energy(1234, 'Transaction.Begin'),
              signedMeterValue: {
                signedMeterData: 'AQIDBA==',
                signingMethod: 'ECDSA-secp256r1-SHA256',
                encodingMethod: 'OCMF',
                publicKey: 'BAUG',
              },
            },
          ],
        },
      ],
    });
    expect(r.idTokenInfo?.status).toBe('Accepted');
    expect(await txOf(pointId, tx.id)).toMatchObject({ meterStartWh: 1234 });
  });

  it('TC_E_12_CSMS Start transaction options - ParkingBayOccupied: a Started on EV detection, without idToken, is recorded unauthorised until the driver is authorized', async () => {
    const { c, pointId } = await station();
    const d = await driver();
    const tx = transaction(c);
    expect(await tx.send('Started', { triggerReason: 'EVDetected', evse: { id: 1 } })).toEqual({});
    expect(await txOf(pointId, tx.id)).toMatchObject({ idTag: '', cardId: null, authStatus: 'Invalid' });
    const r = await tx.send('Updated', { triggerReason: 'Authorized', idToken: token(d.tags[0]!) });
    expect(r.idTokenInfo?.status).toBe('Accepted');
    expect(await txOf(pointId, tx.id)).toMatchObject({
      idTag: d.tags[0],
      cardId: d.cards[0]!.id,
      authStatus: 'Accepted',
      startType: 'card',
    });
  });

  // Ways a transaction ends: each Ended is answered and closes the session with the reason in the console's words.
  for (const [id, title, triggerReason, stoppedReason, stopReason] of [
    ['TC_E_08_CSMS', 'EnergyTransfer stopped - StopAuthorized', 'StopAuthorized', 'Local', 'Local'],
    ['TC_E_14_CSMS', 'EVDisconnected - Charging Station side', 'EVCommunicationLost', 'EVDisconnected', 'EVDisconnected'],
    ['TC_E_17_CSMS', 'Deauthorized - EV side disconnect', 'EVCommunicationLost', 'EVDisconnected', 'EVDisconnected'],
    ['TC_E_19_CSMS', 'ParkingBayUnoccupied', 'EVDeparted', 'Local', 'Local'],
    ['TC_E_20_CSMS', 'EVDisconnected - EV side (able to charge IEC 61851-1 EV)', 'EVCommunicationLost', 'EVDisconnected', 'EVDisconnected'],
  ] as const) {
    it(`${id} Stop transaction options - ${title}: the Ended (${triggerReason}, ${stoppedReason}) closes the session once, with its register`, async () => {
      const { c, pointId } = await station();
      const d = await driver();
      const tx = transaction(c);
      await tx.send('Started', {
        idToken: token(d.tags[0]!),
        evse: { id: 1, connectorId: 1 },
        transactionInfo: { chargingState: 'Charging' },
        meterValue: [sample(100, 'Transaction.Begin')],
      });
      if (triggerReason === 'StopAuthorized') {
        const r = await tx.send('Updated', {
          triggerReason,
          idToken: token(d.tags[0]!),
          transactionInfo: { chargingState: 'EVConnected' },
        });
        expect(r.idTokenInfo?.status).toBe('Accepted');
        await eventually(async () => (await statusOf(pointId, 1)) === 'Preparing');
      }
      if (triggerReason === 'EVDeparted') {
        // The cable is out, the bay still occupied: the transaction goes on, idle.
        await ok(c, 'StatusNotification', { timestamp: iso(), connectorStatus: 'Available', evseId: 1, connectorId: 1 });
        await tx.send('Updated', { triggerReason: 'EVCommunicationLost', transactionInfo: { chargingState: 'Idle' } });
        expect((await txOf(pointId, tx.id))!.stoppedAt).toBeNull();
      }
      const ended = { triggerReason, transactionInfo: { stoppedReason }, meterValue: [sample(700, 'Transaction.End')] };
      expect(await tx.send('Ended', ended)).toEqual({});
      expect(await txOf(pointId, tx.id)).toMatchObject({ stopReason, meterStopWh: 700, energyWh: 600, cardId: d.cards[0]!.id });
      const stoppedAt = (await txOf(pointId, tx.id))!.stoppedAt;
      // Its repeat changes nothing.
      await tx.send('Ended', { ...ended, meterValue: [sample(900, 'Transaction.End')] });
      expect(await txOf(pointId, tx.id)).toMatchObject({ meterStopWh: 700, stoppedAt });
    });
  }

  it('TC_E_16_CSMS Stop transaction options - Deauthorized - Invalid idToken: the Started is answered Invalid; the transaction the station deauthorizes is kept unauthorised and not billed', async () => {
    const { c, pointId } = await station();
    const tx = transaction(c);
    const unknown = uniq('NOCARD');
    const r = await tx.send('Started', {
      idToken: token(unknown),
      evse: { id: 1, connectorId: 1 },
      meterValue: [sample(0, 'Transaction.Begin')],
    });
    expect(r.idTokenInfo).toEqual({ status: 'Invalid' });
    await tx.send('Ended', {
      triggerReason: 'Deauthorized',
      transactionInfo: { stoppedReason: 'DeAuthorized' },
      meterValue: [sample(5, 'Transaction.End')],
    });
    const row = await eventually(async () => {
      const x = await txOf(pointId, tx.id);
      return x?.billingNote ? x : undefined;
    });
    expect(row).toMatchObject({ idTag: unknown, authStatus: 'Invalid', cardId: null, stopReason: 'DeAuthorized', billedAt: null });
  });

  it('TC_E_22_CSMS Stop transaction options - EnergyTransfer stopped - SuspendedEV: the EVSE shows SuspendedEV, then the transaction ends', async () => {
    const { c, pointId } = await station();
    const d = await driver();
    const tx = transaction(c);
    await tx.send('Started', {
      idToken: token(d.tags[0]!),
      evse: { id: 1, connectorId: 1 },
      transactionInfo: { chargingState: 'Charging' },
    });
    await eventually(async () => (await statusOf(pointId, 1)) === 'Charging');
    await tx.send('Updated', { triggerReason: 'ChargingStateChanged', transactionInfo: { chargingState: 'SuspendedEV' } });
    await eventually(async () => (await statusOf(pointId, 1)) === 'SuspendedEV');
    await tx.send('Ended', { triggerReason: 'EVCommunicationLost', transactionInfo: { stoppedReason: 'EVDisconnected' } });
    expect(await txOf(pointId, tx.id)).toMatchObject({ stopReason: 'EVDisconnected' });
    await eventually(async () => (await statusOf(pointId, 1)) === 'Finishing');
  });

  it('TC_E_26_CSMS Disconnect cable on EV-side - Suspend transaction: the transaction stays open while the cable is out and charges again once it is back', async () => {
    const { c, pointId } = await station();
    const d = await driver();
    const tx = transaction(c);
    await tx.send('Started', {
      idToken: token(d.tags[0]!),
      evse: { id: 1, connectorId: 1 },
      transactionInfo: { chargingState: 'Charging' },
    });
    await tx.send('Updated', { triggerReason: 'ChargingStateChanged', transactionInfo: { chargingState: 'SuspendedEV' } });
    await tx.send('Updated', { triggerReason: 'EVCommunicationLost', transactionInfo: { chargingState: 'Idle' } });
    await ok(c, 'StatusNotification', { timestamp: iso(), connectorStatus: 'Available', evseId: 1, connectorId: 1 });
    await eventually(async () => (await statusOf(pointId, 1)) === 'Available');
    await tx.send('Updated', { triggerReason: 'CablePluggedIn', transactionInfo: { chargingState: 'EVConnected' } });
    await tx.send('Updated', { triggerReason: 'ChargingStateChanged', transactionInfo: { chargingState: 'Charging' } });
    await eventually(async () => (await statusOf(pointId, 1)) === 'Charging');
    expect(await txOf(pointId, tx.id)).toMatchObject({ stoppedAt: null, cardId: d.cards[0]!.id });
  });

  it('TC_E_38_CSMS Local start transaction - EV not ready: a transaction whose EV does not draw is recorded, its EVSE SuspendedEV', async () => {
    const { c, pointId } = await station();
    const d = await driver();
    const tx = transaction(c);
    await tx.send('Started', {
      triggerReason: 'CablePluggedIn',
      evse: { id: 1, connectorId: 1 },
      transactionInfo: { chargingState: 'EVConnected' },
    });
    await eventually(async () => (await statusOf(pointId, 1)) === 'Preparing');
    expect((await tx.send('Updated', { idToken: token(d.tags[0]!) })).idTokenInfo?.status).toBe('Accepted');
    await tx.send('Updated', { triggerReason: 'ChargingStateChanged', transactionInfo: { chargingState: 'SuspendedEV' } });
    await eventually(async () => (await statusOf(pointId, 1)) === 'SuspendedEV');
    expect(await txOf(pointId, tx.id)).toMatchObject({ cardId: d.cards[0]!.id, stoppedAt: null });
  });

  it('TC_E_39_CSMS Stop transaction options - Deauthorized - timeout: a transaction authorized but never plugged in (no EVSE known) ends on EVConnectTimeout; answered, nothing recorded', async () => {
    const { c, pointId } = await station(2);
    const d = await driver();
    const tx = transaction(c);
    expect((await tx.send('Started', { idToken: token(d.tags[0]!) })).idTokenInfo?.status).toBe('Accepted');
    expect(await tx.send('Ended', { triggerReason: 'EVConnectTimeout', transactionInfo: { stoppedReason: 'Timeout' } })).toEqual({});
    expect(await txsOf(pointId)).toEqual([]);
    // Nothing is held for it: a later event naming an EVSE starts a session of its own (the first heard of).
    await tx.send('Updated', { triggerReason: 'CablePluggedIn', evse: { id: 1 } });
    expect(await txOf(pointId, tx.id)).toMatchObject({ idTag: '', authStatus: 'Invalid' });
  });

  it('holds at most 16 transactions without an EVSE per point: the oldest is forgotten, and its later event starts a session of its own', async () => {
    const { c, pointId } = await station(2);
    const d = await driver();
    const txs = Array.from({ length: 17 }, () => transaction(c));
    for (const tx of txs) await tx.send('Started', { idToken: token(d.tags[0]!) });
    const held = await db.select().from(unplacedTransaction).where(eq(unplacedTransaction.chargePointId, pointId));
    expect(held.map((h) => h.ocppTxId).sort()).toEqual(
      txs
        .slice(1)
        .map((t) => t.id)
        .sort(),
    );
    await txs[0]!.send('Updated', { triggerReason: 'CablePluggedIn', evse: { id: 1 } });
    expect(await txOf(pointId, txs[0]!.id)).toMatchObject({ idTag: '', authStatus: 'Invalid' });
    await txs[16]!.send('Updated', { triggerReason: 'CablePluggedIn', evse: { id: 2 } });
    expect(await txOf(pointId, txs[16]!.id)).toMatchObject({ idTag: d.tags[0], authStatus: 'Accepted', connectorNo: 2 });
    // Recorded: no longer held.
    expect(await db.select().from(unplacedTransaction).where(eq(unplacedTransaction.ocppTxId, txs[16]!.id))).toEqual([]);
  });

  it('TC_E_53_CSMS Reset Sequence Number - CSMS accepting seqNo = 0 at start of transaction: each new transaction starting at seqNo 0 is its own', async () => {
    const { c, pointId } = await station();
    const d = await driver();
    for (const wh of [0, 1000]) {
      const tx = transaction(c);
      const r = await tx.send('Started', {
        idToken: token(d.tags[0]!),
        evse: { id: 1, connectorId: 1 },
        meterValue: [sample(wh, 'Transaction.Begin')],
      });
      expect(r.idTokenInfo?.status).toBe('Accepted');
      await tx.send('Ended', {
        triggerReason: 'StopAuthorized',
        transactionInfo: { stoppedReason: 'Local' },
        meterValue: [sample(wh + 500, 'Transaction.End')],
      });
    }
    const rows = await txsOf(pointId);
    expect(rows.map((r) => [r.meterStartWh, r.meterStopWh, r.energyWh])).toEqual([
      [0, 500, 500],
      [1000, 1500, 500],
    ]);
  });
  describe('GetTransactionStatus', () => {
    type Status = { transactionId: number | null; ongoing: boolean | null; messagesInQueue: boolean | null };
    const status = (serialNumber: string, transactionId?: number) =>
      post<Status>(api.pointAction.transactionStatus, { serialNumber, ...(transactionId !== undefined ? { transactionId } : {}) });

    /** A station with one transaction of a driver, ended or not; its row. */
    async function withTransaction(ended: boolean) {
      const st = await charging();
      if (ended)
        await st.tx.send('Ended', {
          triggerReason: 'StopAuthorized',
          transactionInfo: { stoppedReason: 'Local' },
          meterValue: [sample(900, 'Transaction.End')],
        });
      return { ...st, ocppTxId: st.tx.id, session: (await txOf(st.pointId, st.tx.id))! };
    }

    for (const [id, title, ongoing, queued] of [
      ['TC_E_29_CSMS', 'Transaction with id ongoing - with message in queue', true, true],
      ['TC_E_30_CSMS', 'Transaction with id ongoing - without message in queue', true, false],
      ['TC_E_31_CSMS', 'Transaction with id ended - with message in queue', false, true],
      ['TC_E_32_CSMS', 'Transaction with id ended - without message in queue', false, false],
    ] as const) {
      it(`${id} Check transaction status - ${title}: GetTransactionStatusRequest with the station's transactionId; its answer shown`, async () => {
        const { c, serialNumber, ocppTxId, session } = await withTransaction(!ongoing);
        const asked = answering(c, { GetTransactionStatus: { ongoingIndicator: ongoing, messagesInQueue: queued } });
        const r = await status(serialNumber, session.id);
        expect(asked).toEqual([['GetTransactionStatus', { transactionId: ocppTxId }]]);
        expect(r.data).toMatchObject({ status: 'accepted', transactionId: session.id, ongoing, messagesInQueue: queued });
      });
    }

    for (const [id, queued] of [
      ['TC_E_33_CSMS', true],
      ['TC_E_34_CSMS', false],
    ] as const) {
      it(`${id} Check transaction status - Without transactionId - ${queued ? 'with' : 'without'} message in queue: GetTransactionStatusRequest without a transaction; whether any message waits is shown`, async () => {
        const { c, serialNumber } = await station();
        const asked = answering(c, { GetTransactionStatus: { messagesInQueue: queued } });
        const r = await status(serialNumber);
        expect(asked).toEqual([['GetTransactionStatus', {}]]);
        expect(r.data).toMatchObject({ status: 'accepted', transactionId: null, ongoing: null, messagesInQueue: queued });
      });
    }

    it("is refused before anything is sent: another point's session is not found, a 1.6 point is not asked; an answer without messagesInQueue is no answer", async () => {
      const a = await withTransaction(false);
      const b = await station();
      const asked = answering(b.c);
      expect((await status(b.serialNumber, a.session.id)).code).toBe(404);
      expect(asked).toEqual([]);

      const { serialNumber: serial16, asked: asked16 } = await point16();
      expect((await status(serial16)).data).toMatchObject({
        status: 'notSupported',
        messagesInQueue: null,
        message: 'Not available for a charge point speaking OCPP 1.6; nothing was sent',
      });
      expect(asked16).toEqual([]);

      answering(a.c, { GetTransactionStatus: { ongoingIndicator: true } });
      expect((await status(a.serialNumber, a.session.id)).data).toMatchObject({ status: 'failed', ongoing: null, messagesInQueue: null });
    });
  });
});

describe('F Remote control', () => {
  const remoteStart = (serialNumber: string, idTag: string, connectorId = 1) =>
    post<{ idTag: string }>(api.pointAction.remoteStart, { serialNumber, connectorId, idTag });

  it('TC_F_01_CSMS Remote start transaction - Cable plugin first: RequestStartTransaction for the EVSE; the plugged-in transaction becomes the card’s and a remote one', async () => {
    const { c, pointId, serialNumber } = await station();
    const d = await driver();
    const tx = transaction(c);
    await tx.send('Started', {
      triggerReason: 'CablePluggedIn',
      evse: { id: 1, connectorId: 1 },
      transactionInfo: { chargingState: 'EVConnected' },
    });
    const asked = answering(c, { RequestStartTransaction: { status: 'Accepted', transactionId: tx.id } });
    expect((await remoteStart(serialNumber, d.tags[0]!)).data).toMatchObject({ status: 'accepted', idTag: d.tags[0] });
    const [[action, request]] = asked as [[string, { remoteStartId: number } & Payload]];
    expect(action).toBe('RequestStartTransaction');
    expect(request).toEqual({ idToken: token(d.tags[0]!), evseId: 1, remoteStartId: expect.any(Number) });
    const r = await tx.send('Updated', {
      triggerReason: 'RemoteStart',
      idToken: token(d.tags[0]!),
      transactionInfo: { remoteStartId: request.remoteStartId, chargingState: 'Charging' },
    });
    expect(r.idTokenInfo?.status).toBe('Accepted');
    expect(await txOf(pointId, tx.id)).toMatchObject({ cardId: d.cards[0]!.id, authStatus: 'Accepted', startType: 'remote' });
  });

  for (const [id, title, authorizeRemoteStart] of [
    ['TC_F_02_CSMS', 'AuthorizeRemoteStart is true', true],
    ['TC_F_03_CSMS', 'AuthorizeRemoteStart is false', false],
  ] as const) {
    it(`${id} Remote start transaction - Remote start first - ${title}: the transaction named by the remoteStartId is Accepted and a remote one`, async () => {
      const { c, pointId, serialNumber } = await station();
      const d = await driver();
      const asked = answering(c);
      expect((await remoteStart(serialNumber, d.tags[0]!)).data.status).toBe('accepted');
      const request = asked[0]![1] as { remoteStartId: number };
      if (authorizeRemoteStart)
        expect((await ok<{ idTokenInfo: { status: string } }>(c, 'Authorize', { idToken: token(d.tags[0]!) })).idTokenInfo.status).toBe(
          'Accepted',
        );
      const tx = transaction(c);
      const r = await tx.send('Started', {
        triggerReason: 'RemoteStart',
        idToken: token(d.tags[0]!),
        evse: { id: 1, connectorId: 1 },
        transactionInfo: { remoteStartId: request.remoteStartId, chargingState: 'EVConnected' },
      });
      expect(r.idTokenInfo?.status).toBe('Accepted');
      expect(await txOf(pointId, tx.id)).toMatchObject({ cardId: d.cards[0]!.id, startType: 'remote', connectorNo: 1 });
    });
  }

  it('TC_F_04_CSMS Remote start transaction - Remote start first - Cable plugin timeout: the transaction the station ends on EVConnectTimeout is closed without energy', async () => {
    const { c, pointId, serialNumber } = await station();
    const d = await driver();
    const asked = answering(c);
    expect((await remoteStart(serialNumber, d.tags[0]!)).data.status).toBe('accepted');
    const tx = transaction(c);
    await tx.send('Started', {
      triggerReason: 'RemoteStart',
      idToken: token(d.tags[0]!),
      evse: { id: 1, connectorId: 1 },
      transactionInfo: { remoteStartId: (asked[0]![1] as { remoteStartId: number }).remoteStartId },
      meterValue: [sample(10, 'Transaction.Begin')],
    });
    expect(await tx.send('Ended', { triggerReason: 'EVConnectTimeout', transactionInfo: { stoppedReason: 'Timeout' } })).toEqual({});
    expect(await txOf(pointId, tx.id)).toMatchObject({ startType: 'remote', stopReason: 'Timeout', energyWh: 0, meterStopWh: 10 });
  });

  it('TC_F_06_CSMS Remote unlock Connector - Without ongoing transaction - Accepted: UnlockConnectorRequest for the EVSE’s connector; Unlocked shown as accepted, UnlockFailed as failed', async () => {
    const { c, serialNumber } = await station();
    let status = 'Unlocked';
    const asked = answering(c, { UnlockConnector: () => ({ status }) });
    expect((await post(api.pointAction.unlock, { serialNumber, connectorId: 1 })).data).toMatchObject({
      status: 'accepted',
      chargerStatus: 'Unlocked',
    });
    expect(asked).toEqual([['UnlockConnector', { evseId: 1, connectorId: 1 }]]);
    status = 'UnlockFailed';
    expect((await post(api.pointAction.unlock, { serialNumber, connectorId: 1 })).data).toMatchObject({
      status: 'failed',
      chargerStatus: 'UnlockFailed',
    });
  });

  describe('TriggerMessage', () => {
    const trigger = (serialNumber: string, requestedMessage: string, connectorId?: number) =>
      post(api.pointAction.triggerMessage, { serialNumber, requestedMessage, ...(connectorId !== undefined ? { connectorId } : {}) });
    const meterRows = (pointId: number) =>
      db.select().from(meterValue).where(eq(meterValue.chargePointId, pointId)).orderBy(asc(meterValue.id));

    it('TC_F_11_CSMS Trigger message - MeterValues - Specific EVSE: TriggerMessageRequest for the EVSE; the MeterValues it triggers are kept', async () => {
      const { c, pointId, serialNumber } = await station(2);
      const asked = answering(c);
      expect((await trigger(serialNumber, 'MeterValues', 2)).data.status).toBe('accepted');
      expect(asked).toEqual([['TriggerMessage', { requestedMessage: 'MeterValues', evse: { id: 2 } }]]);
      await ok(c, 'MeterValues', { evseId: 2, meterValue: [sample(4321, 'Trigger')] });
      expect((await meterRows(pointId)).map((r) => [r.connectorNo, r.energyWh, r.transactionId])).toEqual([[2, 4321, null]]);
    });

    it('TC_F_12_CSMS Trigger message - MeterValues - All EVSE: TriggerMessageRequest without an EVSE; each EVSE’s MeterValues kept', async () => {
      const { c, pointId, serialNumber } = await station(2);
      const asked = answering(c);
      expect((await trigger(serialNumber, 'MeterValues')).data.status).toBe('accepted');
      expect(asked).toEqual([['TriggerMessage', { requestedMessage: 'MeterValues' }]]);
      for (const evseId of [1, 2]) await ok(c, 'MeterValues', { evseId, meterValue: [sample(100 * evseId, 'Trigger')] });
      expect((await meterRows(pointId)).map((r) => [r.connectorNo, r.energyWh])).toEqual([
        [1, 100],
        [2, 200],
      ]);
    });

    for (const [id, title, evse] of [
      ['TC_F_13_CSMS', 'Specific EVSE', 2],
      ['TC_F_14_CSMS', 'All EVSE', undefined],
    ] as const) {
      it(`${id} Trigger message - TransactionEvent - ${title}: TriggerMessageRequest TransactionEvent; the Updated (Trigger) it brings is the session's`, async () => {
        const { c, pointId, serialNumber } = await station(2);
        const d = await driver();
        const tx = transaction(c);
        await tx.send('Started', {
          idToken: token(d.tags[0]!),
          evse: { id: 2, connectorId: 1 },
          transactionInfo: { chargingState: 'Charging' },
          meterValue: [sample(100, 'Transaction.Begin')],
        });
        const asked = answering(c);
        expect((await trigger(serialNumber, 'TransactionEvent', evse)).data.status).toBe('accepted');
        expect(asked).toEqual([['TriggerMessage', { requestedMessage: 'TransactionEvent', ...(evse ? { evse: { id: evse } } : {}) }]]);
        await tx.send('Updated', {
          triggerReason: 'Trigger',
          transactionInfo: { chargingState: 'Charging' },
          meterValue: [sample(777, 'Trigger')],
        });
        const session = (await txOf(pointId, tx.id))!;
        expect((await meterRows(pointId)).filter((r) => r.energyWh === 777).map((r) => [r.connectorNo, r.transactionId])).toEqual([
          [2, session.id],
        ]);
        expect(session.stoppedAt).toBeNull();
      });
    }

    it('TransactionEvent is 2.0.1 only: a 1.6 point is not asked and the answer is notSupported', async () => {
      const { serialNumber: serial16, asked: asked } = await point16();
      expect((await trigger(serial16, 'TransactionEvent')).data).toMatchObject({
        status: 'notSupported',
        message: 'Not available for a charge point speaking OCPP 1.6; nothing was sent',
      });
      expect(asked).toEqual([]);
    });

    it('TC_F_15_CSMS Trigger message - LogStatusNotification - Idle: TriggerMessageRequest LogStatusNotification; the Idle status is kept', async () => {
      const { c, pointId, serialNumber } = await station();
      const asked = answering(c);
      expect((await trigger(serialNumber, 'DiagnosticsStatusNotification')).data.status).toBe('accepted');
      expect(asked).toEqual([['TriggerMessage', { requestedMessage: 'LogStatusNotification' }]]);
      expect(await ok(c, 'LogStatusNotification', { status: 'Idle' })).toEqual({});
      await eventually(async () => (await pointRow(pointId)).diagnosticsStatus === 'Idle');
    });

    it('TC_F_18_CSMS Trigger message - FirmwareStatusNotification - Idle: TriggerMessageRequest FirmwareStatusNotification; the Idle status is kept', async () => {
      const { c, pointId, serialNumber } = await station();
      const asked = answering(c);
      expect((await trigger(serialNumber, 'FirmwareStatusNotification')).data.status).toBe('accepted');
      expect(asked).toEqual([['TriggerMessage', { requestedMessage: 'FirmwareStatusNotification' }]]);
      expect(await ok(c, 'FirmwareStatusNotification', { status: 'Idle' })).toEqual({});
      await eventually(async () => (await pointRow(pointId)).firmwareStatus === 'Idle');
    });

    it('TC_F_20_CSMS Trigger message - Heartbeat: TriggerMessageRequest Heartbeat; the Heartbeat is answered with the time', async () => {
      const { c, serialNumber } = await station();
      const asked = answering(c);
      expect((await trigger(serialNumber, 'Heartbeat')).data.status).toBe('accepted');
      expect(asked).toEqual([['TriggerMessage', { requestedMessage: 'Heartbeat' }]]);
      const hb = await ok<{ currentTime: string }>(c, 'Heartbeat', {});
      expect(Math.abs(Date.parse(hb.currentTime) - Date.now())).toBeLessThan(60_000);
    });

    for (const [id, status, shown] of [
      ['TC_F_23_CSMS', 'Available', 'Available'],
      ['TC_F_24_CSMS', 'Occupied', 'Preparing'],
    ] as const) {
      it(`${id} Trigger message - StatusNotification - Specific EVSE - ${status}: TriggerMessageRequest for the EVSE's connector; ${status} is shown as ${shown}`, async () => {
        const { c, pointId, serialNumber } = await station(2);
        const asked = answering(c);
        expect((await trigger(serialNumber, 'StatusNotification', 2)).data.status).toBe('accepted');
        expect(asked).toEqual([['TriggerMessage', { requestedMessage: 'StatusNotification', evse: { id: 2, connectorId: 1 } }]]);
        await ok(c, 'StatusNotification', { timestamp: iso(), connectorStatus: status, evseId: 2, connectorId: 1 });
        await eventually(async () => (await statusOf(pointId, 2)) === shown);
        expect(await statusOf(pointId, 1)).toBe('Available');
      });
    }

    it('TC_F_27_CSMS Trigger message - NotImplemented: the station’s NotImplemented is shown as such', async () => {
      const { c, serialNumber } = await station();
      answering(c, { TriggerMessage: { status: 'NotImplemented' } });
      expect((await trigger(serialNumber, 'FirmwareStatusNotification')).data).toMatchObject({
        status: 'notImplemented',
        chargerStatus: 'NotImplemented',
      });
    });
  });
});

describe('G Availability', () => {
  it('an EVSE of two plugs: its status is the plugs’ together; the plug in use keeps it Occupied while the other is Unavailable', async () => {
    const { c, pointId } = await station(1);
    const plug = (connectorId: number, connectorStatus: string) =>
      ok(c, 'StatusNotification', { timestamp: iso(), connectorStatus, evseId: 1, connectorId });
    await plug(2, 'Available');
    expect(await statusOf(pointId, 1)).toBe('Available');
    // A vehicle on plug 2: the station makes plug 1 Unavailable while plug 2 is in use.
    await plug(2, 'Occupied');
    await plug(1, 'Unavailable');
    expect(await statusOf(pointId, 1)).toBe('Preparing');
    const d = await driver();
    const tx = transaction(c);
    await tx.send('Started', {
      idToken: token(d.tags[0]!),
      evse: { id: 1, connectorId: 2 },
      transactionInfo: { chargingState: 'Charging' },
      meterValue: [sample(0, 'Transaction.Begin')],
    });
    await eventually(async () => (await statusOf(pointId, 1)) === 'Charging');
    await plug(1, 'Unavailable');
    expect(await statusOf(pointId, 1)).toBe('Charging');
    await tx.send('Ended', { triggerReason: 'EVCommunicationLost', transactionInfo: { stoppedReason: 'EVDisconnected' } });
    // One plug free is enough; Unavailable only when every plug is.
    await plug(2, 'Available');
    expect(await statusOf(pointId, 1)).toBe('Available');
    await plug(2, 'Unavailable');
    expect(await statusOf(pointId, 1)).toBe('Unavailable');
    await plug(1, 'Available');
    expect(await statusOf(pointId, 1)).toBe('Available');
    // A faulted plug shows the EVSE Faulted until it is cleared, though the other is free.
    await plug(1, 'Faulted');
    expect(await statusOf(pointId, 1)).toBe('Faulted');
    await plug(1, 'Available');
    expect(await statusOf(pointId, 1)).toBe('Available');
  });

  const change = (serialNumber: string, connectorId: number, type: 'Operative' | 'Inoperative') =>
    post(api.pointAction.changeAvailability, { serialNumber, connectorId, type });

  it('TC_G_03_CSMS Change Availability EVSE - Operative to inoperative, and TC_G_04_CSMS back: ChangeAvailabilityRequest for the EVSE; its Unavailable and Available follow', async () => {
    const { c, pointId, serialNumber } = await station(2);
    const asked = answering(c);
    expect((await change(serialNumber, 1, 'Inoperative')).data.status).toBe('accepted');
    await ok(c, 'StatusNotification', { timestamp: iso(), connectorStatus: 'Unavailable', evseId: 1, connectorId: 1 });
    await eventually(async () => (await statusOf(pointId, 1)) === 'Unavailable');
    expect(await statusOf(pointId, 2)).toBe('Available');
    expect((await change(serialNumber, 1, 'Operative')).data.status).toBe('accepted');
    await ok(c, 'StatusNotification', { timestamp: iso(), connectorStatus: 'Available', evseId: 1, connectorId: 1 });
    await eventually(async () => (await statusOf(pointId, 1)) === 'Available');
    expect(asked).toEqual([
      ['ChangeAvailability', { operationalStatus: 'Inoperative', evse: { id: 1 } }],
      ['ChangeAvailability', { operationalStatus: 'Operative', evse: { id: 1 } }],
    ]);
  });

  it('TC_G_05_CSMS Change Availability Charging Station - Operative to inoperative, and TC_G_06_CSMS back: ChangeAvailabilityRequest without an EVSE; every EVSE follows', async () => {
    const { c, pointId, serialNumber } = await station(2);
    const asked = answering(c);
    for (const [type, status] of [
      ['Inoperative', 'Unavailable'],
      ['Operative', 'Available'],
    ] as const) {
      expect((await change(serialNumber, 0, type)).data.status).toBe('accepted');
      for (const evseId of [1, 2]) await ok(c, 'StatusNotification', { timestamp: iso(), connectorStatus: status, evseId, connectorId: 1 });
      await eventually(async () => (await statusOf(pointId, 1)) === status && (await statusOf(pointId, 2)) === status);
    }
    expect(asked).toEqual([
      ['ChangeAvailability', { operationalStatus: 'Inoperative' }],
      ['ChangeAvailability', { operationalStatus: 'Operative' }],
    ]);
  });

  it('TC_G_07_CSMS Change Availability Connector - Operative to inoperative, and TC_G_08_CSMS back: ChangeAvailabilityRequest for one plug of the EVSE; the EVSE shows its plugs together', async () => {
    const { c, pointId, serialNumber } = await station(1);
    await ok(c, 'StatusNotification', { timestamp: iso(), connectorStatus: 'Available', evseId: 1, connectorId: 2 });
    const asked = answering(c);
    const plug = (type: 'Operative' | 'Inoperative') =>
      post(api.pointAction.changeAvailability, { serialNumber, connectorId: 1, plug: 2, type });
    expect((await plug('Inoperative')).data.status).toBe('accepted');
    await ok(c, 'StatusNotification', { timestamp: iso(), connectorStatus: 'Unavailable', evseId: 1, connectorId: 2 });
    // Plug 1 is still free: the EVSE is Available; with plug 1 disabled too, Unavailable.
    expect(await statusOf(pointId, 1)).toBe('Available');
    await ok(c, 'StatusNotification', { timestamp: iso(), connectorStatus: 'Unavailable', evseId: 1, connectorId: 1 });
    expect(await statusOf(pointId, 1)).toBe('Unavailable');
    expect((await plug('Operative')).data.status).toBe('accepted');
    await ok(c, 'StatusNotification', { timestamp: iso(), connectorStatus: 'Available', evseId: 1, connectorId: 2 });
    expect(await statusOf(pointId, 1)).toBe('Available');
    expect(asked).toEqual([
      ['ChangeAvailability', { operationalStatus: 'Inoperative', evse: { id: 1, connectorId: 2 } }],
      ['ChangeAvailability', { operationalStatus: 'Operative', evse: { id: 1, connectorId: 2 } }],
    ]);
  });

  it('TC_G_17_CSMS Change Availability Connector - With ongoing transaction: Scheduled shown as scheduled; a plug without its EVSE, or of a 1.6 point, is refused before anything is sent', async () => {
    const { c, serialNumber } = await station(1);
    const d = await driver();
    const tx = transaction(c);
    await tx.send('Started', {
      idToken: token(d.tags[0]!),
      evse: { id: 1, connectorId: 1 },
      transactionInfo: { chargingState: 'Charging' },
    });
    const asked = answering(c, { ChangeAvailability: { status: 'Scheduled' } });
    expect(
      (await post(api.pointAction.changeAvailability, { serialNumber, connectorId: 1, plug: 1, type: 'Inoperative' })).data,
    ).toMatchObject({
      status: 'scheduled',
      chargerStatus: 'Scheduled',
    });
    const whole = await post(api.pointAction.changeAvailability, { serialNumber, connectorId: 0, plug: 1, type: 'Inoperative' });
    expect(whole).toMatchObject({ code: 400, data: { field: 'plug' } });
    expect(whole.msg).toBe('Plug is a plug of one EVSE: choose the EVSE (connector) first');
    expect(asked).toEqual([['ChangeAvailability', { operationalStatus: 'Inoperative', evse: { id: 1, connectorId: 1 } }]]);
    const p16 = await point16();
    const r16 = await post(api.pointAction.changeAvailability, {
      serialNumber: p16.serialNumber,
      connectorId: 1,
      plug: 1,
      type: 'Inoperative',
    });
    expect(r16.data).toMatchObject({ status: 'notSupported' });
    expect(p16.asked).toEqual([]);
  });

  for (const [id, title, connectorId] of [
    ['TC_G_11_CSMS', 'EVSE', 1],
    ['TC_G_14_CSMS', 'Charging Station', 0],
  ] as const) {
    it(`${id} Change Availability ${title} - With ongoing transaction: Scheduled is shown as scheduled; the EVSE becomes Unavailable once the transaction ends`, async () => {
      const { c, pointId, serialNumber } = await station();
      const d = await driver();
      const tx = transaction(c);
      await tx.send('Started', {
        idToken: token(d.tags[0]!),
        evse: { id: 1, connectorId: 1 },
        transactionInfo: { chargingState: 'Charging' },
      });
      const asked = answering(c, { ChangeAvailability: { status: 'Scheduled' } });
      expect((await change(serialNumber, connectorId, 'Inoperative')).data).toMatchObject({
        status: 'scheduled',
        chargerStatus: 'Scheduled',
      });
      expect(asked).toEqual([
        ['ChangeAvailability', connectorId ? { operationalStatus: 'Inoperative', evse: { id: 1 } } : { operationalStatus: 'Inoperative' }],
      ]);
      await eventually(async () => (await statusOf(pointId, 1)) === 'Charging');
      await tx.send('Ended', { triggerReason: 'StopAuthorized', transactionInfo: { stoppedReason: 'Local' } });
      await ok(c, 'StatusNotification', { timestamp: iso(), connectorStatus: 'Unavailable', evseId: 1, connectorId: 1 });
      await eventually(async () => (await statusOf(pointId, 1)) === 'Unavailable');
      expect((await txOf(pointId, tx.id))!.stoppedAt).not.toBeNull();
    });
  }
});

describe('J Meter values', () => {
  const rowsOf = (pointId: number) =>
    db.select().from(meterValue).where(eq(meterValue.chargePointId, pointId)).orderBy(asc(meterValue.sampledAt), asc(meterValue.id));
  const aligned = (at: Date, wh: number, context = 'Sample.Clock') => ({
    timestamp: at.toISOString(),
    sampledValue: [energy(wh, context)],
  });
  const t0 = () => new Date(Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000);

  it('TC_J_01_CSMS Clock-aligned Meter Values - No transaction ongoing: MeterValues of the station (EVSE 0) and of each EVSE are kept, outside any transaction', async () => {
    const { c, pointId } = await station();
    const at = t0();
    for (let k = 0; k < 3; k++) {
      const when = new Date(at.getTime() + k * 60_000);
      for (const evseId of [0, 1]) await ok(c, 'MeterValues', { evseId, meterValue: [aligned(when, 10_000 * (evseId + 1) + k)] });
      expect(
        await ok(c, 'NotifyEvent', {
          generatedAt: when.toISOString(),
          seqNo: 0,
          eventData: [
            {
              eventId: k,
              timestamp: when.toISOString(),
              trigger: 'Periodic',
              actualValue: String(10_000 + k),
              eventNotificationType: 'PreconfiguredMonitor',
              component: { name: 'FiscalMetering' },
              variable: { name: 'EnergyImportRegister' },
            },
          ],
        }),
      ).toEqual({});
    }
    const rows = await rowsOf(pointId);
    expect(rows.map((r) => [r.connectorNo, r.energyWh, r.transactionId])).toEqual([
      [0, 10_000, null],
      [1, 20_000, null],
      [0, 10_001, null],
      [1, 20_001, null],
      [0, 10_002, null],
      [1, 20_002, null],
    ]);
    expect((await pointRow(pointId)).status).not.toBe('Faulted');
  });

  it('TC_J_02_CSMS Clock-aligned Meter Values - Transaction ongoing, and TC_J_03_CSMS - EventType Ended: clock-aligned samples in the TransactionEvents count for the transaction; its end is the Transaction.End sample', async () => {
    const { c, pointId } = await station();
    const d = await driver();
    const at = t0();
    const tx = transaction(c);
    await tx.send('Started', {
      timestamp: at.toISOString(),
      idToken: token(d.tags[0]!),
      evse: { id: 1, connectorId: 1 },
      meterValue: [aligned(at, 1000, 'Transaction.Begin')],
    });
    for (let k = 1; k <= 3; k++) {
      const when = new Date(at.getTime() + k * 60_000);
      await tx.send('Updated', {
        timestamp: when.toISOString(),
        triggerReason: 'MeterValueClock',
        meterValue: [aligned(when, 1000 + 200 * k)],
      });
      // The station's own meter (EVSE 0) during the transaction is the station's, not the transaction's.
      await ok(c, 'MeterValues', { evseId: 0, meterValue: [aligned(when, 50_000 + k)] });
    }
    expect(await txOf(pointId, tx.id)).toMatchObject({ energyWh: 600, lastMeterWh: 1600 });
    const end = new Date(at.getTime() + 5 * 60_000);
    await tx.send('Ended', {
      timestamp: end.toISOString(),
      triggerReason: 'EVCommunicationLost',
      transactionInfo: { stoppedReason: 'EVDisconnected' },
      meterValue: [aligned(new Date(at.getTime() + 4 * 60_000), 1700), aligned(end, 1750, 'Transaction.End')],
    });
    const row = (await txOf(pointId, tx.id))!;
    expect(row).toMatchObject({ meterStopWh: 1750, energyWh: 750, stopReason: 'EVDisconnected' });
    const rows = await rowsOf(pointId);
    expect(rows.filter((r) => r.transactionId === row.id).map((r) => r.energyWh)).toEqual([1200, 1400, 1600, 1700, 1750]);
    expect(rows.filter((r) => r.connectorNo === 0).map((r) => [r.energyWh, r.transactionId])).toEqual([
      [50_001, null],
      [50_002, null],
      [50_003, null],
    ]);
  });

  it('TC_J_04_CSMS Clock-aligned Meter Values - Signed, and TC_J_11_CSMS Sampled Meter Values - Signed: signed sampled values are answered and their registers used', async () => {
    const { c, pointId } = await station();
    const d = await driver();
    const signed = (wh: number, context: string) => ({
      timestamp: iso(),
      sampledValue: [
        { ...energy(wh, context), signedMeterValue: { signedMeterData: 'AQID', signingMethod: '', encodingMethod: 'OCMF', publicKey: '' } },
      ],
    });
    expect(await ok(c, 'MeterValues', { evseId: 1, meterValue: [signed(700, 'Sample.Clock')] })).toEqual({});
    const tx = transaction(c);
    await tx.send('Started', {
      idToken: token(d.tags[0]!),
      evse: { id: 1, connectorId: 1 },
      meterValue: [signed(800, 'Transaction.Begin')],
    });
    await tx.send('Updated', { triggerReason: 'MeterValuePeriodic', meterValue: [signed(950, 'Sample.Periodic')] });
    await tx.send('Ended', { transactionInfo: { stoppedReason: 'Local' }, meterValue: [signed(1000, 'Transaction.End')] });
    expect(await txOf(pointId, tx.id)).toMatchObject({ meterStartWh: 800, meterStopWh: 1000, energyWh: 200 });
    expect((await rowsOf(pointId)).map((r) => r.energyWh)).toEqual([700, 950, 1000]);
  });

  it('TC_J_08_CSMS Sampled Meter Values - Context Transaction.Begin - EVSE not known: the Transaction.Begin sample sent once the EVSE is known starts the transaction’s register', async () => {
    const { c, pointId } = await station(2);
    const d = await driver();
    expect((await ok<{ idTokenInfo: { status: string } }>(c, 'Authorize', { idToken: token(d.tags[0]!) })).idTokenInfo.status).toBe(
      'Accepted',
    );
    const tx = transaction(c);
    expect((await tx.send('Started', { idToken: token(d.tags[0]!) })).idTokenInfo?.status).toBe('Accepted');
    await ok(c, 'StatusNotification', { timestamp: iso(), connectorStatus: 'Occupied', evseId: 1, connectorId: 1 });
    await tx.send('Updated', {
      triggerReason: 'CablePluggedIn',
      evse: { id: 1, connectorId: 1 },
      transactionInfo: { chargingState: 'EVConnected' },
      meterValue: [sample(2500, 'Transaction.Begin')],
    });
    await tx.send('Updated', {
      triggerReason: 'ChargingStateChanged',
      evse: { id: 1, connectorId: 1 },
      transactionInfo: { chargingState: 'Charging' },
    });
    await tx.send('Updated', { triggerReason: 'MeterValuePeriodic', meterValue: [sample(2900)] });
    expect(await txOf(pointId, tx.id)).toMatchObject({ connectorNo: 1, meterStartWh: 2500, energyWh: 400, cardId: d.cards[0]!.id });
    await eventually(async () => (await statusOf(pointId, 1)) === 'Charging');
  });
});

describe('P DataTransfer', () => {
  it('TC_P_02_CSMS Data Transfer to the CSMS - Rejected / Unknown VendorId / Unknown MessageId: an unknown vendor is UnknownVendorId; a known one answers for its messages', async () => {
    const { c } = await station();
    expect(await ok(c, 'DataTransfer', { vendorId: 'org.unknown.vendor', messageId: 'x', data: { a: 1 } })).toEqual({
      status: 'UnknownVendorId',
    });
    const vendorId = `com.octt.${uniq('v').toLowerCase()}`;
    const seen: unknown[] = [];
    const remove = s.app.ocpp.vendors.register(vendorId, (req) => {
      seen.push(req.data);
      return req.messageId === 'known' ? { status: 'Accepted', data: 'pong' } : { status: 'UnknownMessageId' };
    });
    try {
      expect(await ok(c, 'DataTransfer', { vendorId, messageId: 'nope' })).toEqual({ status: 'UnknownMessageId' });
      expect(await ok(c, 'DataTransfer', { vendorId, messageId: 'known', data: { ping: true } })).toEqual({
        status: 'Accepted',
        data: 'pong',
      });
      expect(seen).toEqual([undefined, '{"ping":true}']);
    } finally {
      remove();
    }
  });

  it('TC_P_03_CSMS CustomData - Receive custom data: messages carrying vendor customData are handled as without it', async () => {
    const { c, pointId } = await station();
    const customData = { vendorId: 'com.octt', extra: { anything: [1, 2, 3] } };
    expect(await ok(c, 'Heartbeat', { customData })).toMatchObject({ currentTime: expect.any(String) });
    expect(
      await ok(c, 'StatusNotification', { customData, timestamp: iso(), connectorStatus: 'Unavailable', evseId: 1, connectorId: 1 }),
    ).toEqual({});
    await eventually(async () => (await statusOf(pointId, 1)) === 'Unavailable');
  });
});

import {
  api,
  type ChargingProfileDto,
  type DiagnosticsDto,
  type FirmwareUpgradeDto,
  type FirmwareUpgradePointDto,
  type RemoteStartProfileOption,
  type ReservationDto,
} from '@csms/contract';
import { createChargePoint, type ChargePoint, type TrafficEvent } from '@csms/simulator';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, chargePoint, chargeUser, chargingTransaction, connector } from '../../src/db/schema.js';
import { createProvider } from '../fixtures.js';
import { startServer, type TestServer } from '../harness.js';
import { createPoint, eventually, iso, TestCharger } from './support.js';

/*
 * OCA's OCPP 1.6 conformance test cases (the OCTT test-case document) whose system under test is the
 * Central System, for the cases no other test shows; README "OCPP 1.6 conformance (OCTT cases)" maps
 * every case to its test. The charge point the tool simulates is our simulator over a real socket,
 * in the state each case starts from (faulted, unavailable, charging…), or, where the tool only gives
 * a canned answer (TC_052), a bare OCPP-J client. One server for the file; runs on PGlite and, with
 * DATABASE_URL, on PostgreSQL.
 */

type Reply<T> = { code: number; msg: string; data: T };
type Payload = Record<string, unknown>;

let s: TestServer;
let admin: string;
const sims: ChargePoint[] = [];
const raw: TestCharger[] = [];

beforeAll(async () => {
  // The job queue times reservation expiry: polled every half second here.
  s = await startServer({ jobPollSeconds: 0.5 });
  admin = await s.login();
});
afterAll(async () => {
  await Promise.all([...sims.map((x) => x.stop()), ...raw.map((x) => x.close())]);
  await s.close();
});

let n = 0;
const uniq = (p: string) => `${p}${++n}${Math.random().toString(36).slice(2, 6)}`;

const post = <T>(ep: { path: string }, body: unknown, lang: 'en' | 'zh' = 'en') =>
  s.call<T>('POST', ep.path, { token: admin, body, lang }) as Promise<Reply<T>>;
const get = <T>(path: string) => s.call<T>('GET', path, { token: admin }) as Promise<Reply<T>>;

/** A simulated 22 kW charger with two connectors, connected and booted, with every frame it sent and received. */
async function charger(opts: { configuration?: Record<string, string>; providerId?: number } = {}) {
  const p = await createPoint(s.database.db, {
    connectors: 2,
    ratedPowerW: 22_000,
    ...(opts.providerId ? { providerId: opts.providerId } : {}),
  });
  const sim = createChargePoint({
    url: `${s.url.replace(/^http/, 'ws')}/ocpp`,
    serialNumber: p.serialNumber,
    key: p.key!,
    connectors: 2,
    powerW: 22_000,
    firmwareVersion: '1.0.0',
    meterValueSampleInterval: 0,
    clockAlignedDataInterval: 0,
    rebootDelayMs: 50,
    ...(opts.configuration ? { configuration: opts.configuration } : {}),
  });
  const traffic: TrafficEvent[] = [];
  sim.on('traffic', (e) => traffic.push(e));
  sims.push(sim);
  sim.start();
  await sim.ready();
  return { sim, traffic, serialNumber: p.serialNumber, stationId: p.stationId, pointId: p.point.id, key: p.key! };
}

/** What the charger received of `action`, in order. */
const received = (traffic: TrafficEvent[], action: string) =>
  traffic.flatMap((e) => (e.type === 'callReceived' && e.action === action ? [e.payload as Payload] : []));

/**
 * Waits for the charger to send `action` with a payload that `match` accepts (after the `from`th frame)
 * and for the CSMS's CALLRESULT to it; both, with where the request stands in the traffic.
 */
function exchange(traffic: TrafficEvent[], action: string, match: (p: Payload) => boolean = () => true, from = 0) {
  return eventually(async () => {
    const at = traffic.findIndex((e, i) => i >= from && e.type === 'callSent' && e.action === action && match(e.payload as Payload));
    if (at < 0) return undefined;
    const request = traffic[at] as Extract<TrafficEvent, { type: 'callSent' }>;
    const result = traffic.find((e) => e.type === 'callResult' && e.messageId === request.messageId);
    return result && result.type === 'callResult'
      ? { at, request: request.payload as Payload, result: result.payload as Payload }
      : undefined;
  });
}

/** A charge user of provider 1 with `cards` valid cards holding $100 each; the first card is the oldest. */
async function driver(cards = 1) {
  const db = s.database.db;
  const [u] = await db
    .insert(chargeUser)
    .values({ providerId: 1, account: uniq('drv'), userType: 'card' })
    .returning();
  const tags: string[] = [];
  for (let i = 0; i < cards; i++) {
    const tag = uniq('T').slice(0, 20).toUpperCase();
    await db.insert(card).values({
      providerId: 1,
      cardNumber: tag,
      physicalId: tag,
      chargeUserId: u!.id,
      balanceCents: 10_000,
      expireAt: new Date(Date.now() + 365 * 86_400_000),
    });
    tags.push(tag);
  }
  return { userId: u!.id, account: u!.account, tags };
}

const connectorStatus = async (pointId: number, no: number) =>
  (
    await s.database.db
      .select({ status: connector.status })
      .from(connector)
      .where(and(eq(connector.chargePointId, pointId), eq(connector.connectorNo, no)))
  )[0]?.status;

describe('Security (OCPP 1.6 security whitepaper): the charge point’s password', () => {
  it('a new key sent by ChangeConfiguration AuthorizationKey: the charger reconnects with it and is accepted; its old key no longer opens', async () => {
    const { sim, traffic, serialNumber, pointId, key } = await charger();
    const connections: string[] = [];
    sim.on('connection', (e) => connections.push(e.state));
    const r = await post<{ status: string }>(api.pointAction.sendKey, { serialNumber });
    expect(r.data).toMatchObject({ status: 'accepted', chargerStatus: 'Accepted' });
    const [change] = received(traffic, 'ChangeConfiguration');
    expect(change).toMatchObject({ key: 'AuthorizationKey', value: expect.stringMatching(/^[0-9a-f]{40}$/) });
    // It drops the connection and comes back with the new key, which from then on is the only one.
    await eventually(async () => {
      const [row] = await s.database.db
        .select({ previous: chargePoint.ocppKeyPreviousHash })
        .from(chargePoint)
        .where(eq(chargePoint.id, pointId));
      return row!.previous === null && connections.includes('offline') && sim.state().registration === 'Accepted';
    });
    await expect(TestCharger.connect(s.url, serialNumber, { key })).rejects.toMatchObject({ status: 401 });
    // Write-only: listed, never read back.
    const conf = await post<{ configurationKey: unknown[] }>(api.pointAction.getConfiguration, { serialNumber, key: ['AuthorizationKey'] });
    expect(conf.data.configurationKey).toEqual([{ key: 'AuthorizationKey', readonly: false, value: null }]);
  });
});

describe('Reservation profile', () => {
  const reserve = (serialNumber: string, userId: number, v: Record<string, unknown> = {}, lang: 'en' | 'zh' = 'en') =>
    post<ReservationDto>(
      api.reservation.add,
      { serialNumber, connectorNo: 1, chargeUserId: userId, expiryTime: new Date(Date.now() + 3_600_000).toISOString(), ...v },
      lang,
    );
  const reservationOf = async (id: number) => (await get<ReservationDto>(`${api.reservation.get.path}?id=${id}`)).data;

  it('TC_047_CSMS Reservation of a Connector – Expire: acknowledges Reserved, then Available once the expiry passes, and the reservation ends expired', async () => {
    const c = await charger();
    const d = await driver();
    const r = await reserve(c.serialNumber, d.userId, { expiryTime: new Date(Date.now() + 2_000).toISOString() });
    expect(r.code, r.msg).toBe(200);
    expect(r.data.status).toBe('reserved');
    expect(received(c.traffic, 'ReserveNow')).toEqual([
      expect.objectContaining({ connectorId: 1, idTag: d.tags[0], reservationId: r.data.id, expiryDate: r.data.expiryTime }),
    ]);
    const reserved = await exchange(c.traffic, 'StatusNotification', (p) => p.connectorId === 1 && p.status === 'Reserved');
    expect(reserved.result).toEqual({});
    // At the expiry the charger frees the connector; the CSMS acknowledges it and ends the reservation.
    const freed = await exchange(c.traffic, 'StatusNotification', (p) => p.connectorId === 1 && p.status === 'Available', reserved.at);
    expect(freed.result).toEqual({});
    const expired = await eventually(async () => {
      const x = await reservationOf(r.data.id);
      return x.status === 'expired' ? x : undefined;
    });
    expect(expired.transactionId).toBeNull();
    await eventually(async () => (await connectorStatus(c.pointId, 1)) === 'Available');
  });

  it('TC_048_1_CSMS Reservation of a Connector – Faulted: keeps the charger’s Faulted answer as the reservation’s status, holding nothing', async () => {
    const c = await charger();
    const d = await driver();
    c.sim.fault(1, 'GroundFailure');
    await exchange(c.traffic, 'StatusNotification', (p) => p.connectorId === 1 && p.status === 'Faulted');
    await eventually(async () => (await connectorStatus(c.pointId, 1)) === 'Faulted');
    const r = await reserve(c.serialNumber, d.userId);
    expect(r.code, r.msg).toBe(200);
    expect(r.data).toMatchObject({ status: 'faulted', chargerStatus: 'Faulted', connectorNo: 1 });
    expect(received(c.traffic, 'ReserveNow')).toHaveLength(1);
    expect(await connectorStatus(c.pointId, 1)).toBe('Faulted');
  });

  it('TC_048_3_CSMS Reservation of a Connector – Unavailable: keeps the charger’s Unavailable answer for a connector made inoperative', async () => {
    const c = await charger();
    const d = await driver();
    const off = await post<{ status: string }>(api.pointAction.changeAvailability, {
      serialNumber: c.serialNumber,
      connectorId: 1,
      type: 'Inoperative',
    });
    expect(off.data.status).toBe('accepted');
    await eventually(async () => (await connectorStatus(c.pointId, 1)) === 'Unavailable');
    const r = await reserve(c.serialNumber, d.userId);
    expect(r.code, r.msg).toBe(200);
    expect(r.data).toMatchObject({ status: 'unavailable', chargerStatus: 'Unavailable' });
    expect(await connectorStatus(c.pointId, 1)).toBe('Unavailable');
  });

  it('TC_048_4_CSMS Reservation of a Connector – Rejected: keeps the charger’s Rejected answer (connector 0 on a charger that does not reserve it)', async () => {
    const c = await charger({ configuration: { ReserveConnectorZeroSupported: 'false' } });
    const d = await driver();
    // The boot is accepted before the connectors' StatusNotifications are stored: wait for both to be free.
    const statuses = () => Promise.all([connectorStatus(c.pointId, 1), connectorStatus(c.pointId, 2)]);
    await eventually(async () => (await statuses()).every((x) => x === 'Available'));
    const r = await reserve(c.serialNumber, d.userId, { connectorNo: 0 });
    expect(r.code, r.msg).toBe(200);
    expect(r.data).toMatchObject({ status: 'rejected', chargerStatus: 'Rejected', connectorNo: 0 });
    expect(received(c.traffic, 'ReserveNow')).toEqual([expect.objectContaining({ connectorId: 0, reservationId: r.data.id })]);
    // Nothing is held: the user may reserve again, and the connectors stay free.
    expect(await statuses()).toEqual(['Available', 'Available']);
  });

  it('TC_052_CSMS Cancel Reservation – Rejected: the charger holds no such reservation, so it ends as cancelled without a fee, and the operator is told so in both languages', async () => {
    const p = await createPoint(s.database.db, { connectors: 1 });
    const d = await driver();
    const c = await TestCharger.connect(s.url, p.serialNumber, { key: p.key });
    raw.push(c);
    const calls: [string, Payload][] = [];
    c.onCall = (action, payload) => {
      calls.push([action, payload]);
      return { status: action === 'CancelReservation' ? 'Rejected' : 'Accepted' };
    };
    expect((await c.ok('BootNotification', { chargePointVendor: 'OCTT', chargePointModel: 'CP' })).status).toBe('Accepted');
    const r = await reserve(p.serialNumber, d.userId);
    expect(r.data.status).toBe('reserved');
    expect(await c.ok('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Reserved', timestamp: iso() })).toEqual({});

    const en = await post(api.reservation.cancel, { id: r.data.id });
    expect(en.code).toBe(200);
    expect(en.msg).toBe(`The point holds no reservation ${r.data.id} (it answered Rejected): cancelled here too, without a fee`);
    expect(calls.filter(([a]) => a === 'CancelReservation')).toEqual([['CancelReservation', { reservationId: r.data.id }]]);
    expect(await reservationOf(r.data.id)).toMatchObject({ status: 'cancelled', chargerStatus: 'Rejected', feeCents: null });

    // In Chinese too, on a second reservation.
    const r2 = await reserve(p.serialNumber, d.userId);
    const zh = await post(api.reservation.cancel, { id: r2.data.id }, 'zh');
    expect(zh.code).toBe(200);
    expect(zh.msg).toBe(`充电桩上没有预约 ${r2.data.id}（应答 Rejected），平台上也已取消，不收预约费`);
  });

  it('TC_053_CSMS Use a Reserved Connector with parentIdTag: ReserveNow carries the parentIdTag, Authorize of another card of the group answers it, and that card’s start uses the reservation', async () => {
    const c = await charger();
    const d = await driver(2);
    const r = await reserve(c.serialNumber, d.userId);
    expect(r.data).toMatchObject({ status: 'reserved', cardNumber: d.tags[0] });
    expect(received(c.traffic, 'ReserveNow')).toEqual([
      expect.objectContaining({ connectorId: 1, idTag: d.tags[0], parentIdTag: d.account, reservationId: r.data.id }),
    ]);
    await exchange(c.traffic, 'StatusNotification', (p) => p.connectorId === 1 && p.status === 'Reserved');

    // The other card of the same user: the charger asks for its parent, which matches the reservation's.
    const other = d.tags[1]!;
    c.sim.plugIn(1);
    const started = await c.sim.startCharging(1, other);
    expect(started.accepted).toBe(true);
    const auth = await exchange(c.traffic, 'Authorize', (p) => p.idTag === other);
    expect(auth.result).toMatchObject({ idTagInfo: { status: 'Accepted', parentIdTag: d.account } });
    const start = await exchange(c.traffic, 'StartTransaction', (p) => p.idTag === other);
    expect(start.request).toMatchObject({ connectorId: 1, reservationId: r.data.id });
    expect(start.result).toMatchObject({ transactionId: started.transactionId, idTagInfo: { status: 'Accepted', parentIdTag: d.account } });
    const used = await eventually(async () => {
      const x = await reservationOf(r.data.id);
      return x.status === 'used' ? x : undefined;
    });
    expect(used.transactionId).toBe(started.transactionId);
    await exchange(c.traffic, 'StatusNotification', (p) => p.connectorId === 1 && p.status === 'Charging');
  });
});

describe('Smart Charging profile', () => {
  /** A profile of the point's station, stored through the console's API. */
  async function profile(stationId: number, serialNumber: string, v: Record<string, unknown> = {}) {
    const r = await post<ChargingProfileDto>(api.chargingProfile.add, {
      stationId,
      serialNumbers: [serialNumber],
      connectors: [1],
      purpose: 'TxProfile',
      stackLevel: 2,
      chargingProfileKind: 'Relative',
      chargingRateUnit: 'W',
      periods: [{ startPeriod: 0, limit: 7_000 }],
      ...v,
    });
    expect(r.code, r.msg).toBe(200);
    return r.data;
  }
  const composite = async (serialNumber: string, connectorId: number) =>
    (
      await post<{ status: string; chargingSchedule: { chargingSchedulePeriod: { limit: number }[] } | null }>(
        api.pointAction.getCompositeSchedule,
        { serialNumber, connectorId, duration: 600, chargingRateUnit: 'W' },
      )
    ).data;

  it('TC_057_CSMS Central Smart Charging – TxProfile: SetChargingProfile with the running transaction’s id, accepted and in force', async () => {
    const c = await charger();
    const d = await driver();
    c.sim.plugIn(1);
    const started = await c.sim.startCharging(1, d.tags[0]!);
    expect(started.accepted).toBe(true);
    const tx = await profile(c.stationId, c.serialNumber);
    const sent = await post<{ results: { serialNumber: string; connectorNo: number; status: string }[] }>(api.chargingProfile.send, {
      id: tx.id,
    });
    expect(sent.data.results).toEqual([expect.objectContaining({ serialNumber: c.serialNumber, connectorNo: 1, status: 'accepted' })]);
    expect(received(c.traffic, 'SetChargingProfile')).toEqual([
      {
        connectorId: 1,
        csChargingProfiles: expect.objectContaining({
          chargingProfileId: tx.id,
          transactionId: started.transactionId,
          chargingProfilePurpose: 'TxProfile',
          stackLevel: 2,
        }),
      },
    ]);
    const got = (await get<ChargingProfileDto>(`${api.chargingProfile.get.path}?id=${tx.id}`)).data;
    expect(got.targets).toEqual([expect.objectContaining({ connectorNo: 1, status: 'accepted', transactionId: started.transactionId })]);
    // The charger limits the transaction by it.
    expect((await composite(c.serialNumber, 1)).chargingSchedule?.chargingSchedulePeriod[0]?.limit).toBe(7_000);
  });

  it('TC_059_CSMS Remote Start Transaction with Charging Profile: RemoteStartTransaction carries a stored TxProfile without transactionId; the transaction starts under it; other purposes and providers are refused on the field', async () => {
    const c = await charger();
    const d = await driver();
    const tx = await profile(c.stationId, c.serialNumber);
    const txDefault = await profile(c.stationId, c.serialNumber, {
      purpose: 'TxDefaultProfile',
      chargingProfileKind: 'Absolute',
      startSchedule: new Date().toISOString(),
    });
    const elsewhere = await charger({ providerId: (await createProvider(s.database.db)).id });
    const foreign = await profile(elsewhere.stationId, elsewhere.serialNumber);

    // The console offers the point's provider's TxProfiles only.
    const options = await get<RemoteStartProfileOption[]>(`${api.pointAction.profileOptions.path}?serialNumber=${c.serialNumber}`);
    const offered = options.data.map((o) => o.id);
    expect(offered).toContain(tx.id);
    expect(offered).not.toContain(txDefault.id);
    expect(offered).not.toContain(foreign.id);
    expect(options.data.find((o) => o.id === tx.id)).toMatchObject({
      chargingProfileKind: 'Relative',
      chargingRateUnit: 'W',
      limit: 7_000,
    });

    // Refused before anything is sent, on the field, in both languages; an id the caller cannot see is not found.
    const start = (chargingProfileId: number, lang: 'en' | 'zh' = 'en') =>
      post<{ status: string; field?: string }>(
        api.pointAction.remoteStart,
        { serialNumber: c.serialNumber, connectorId: 1, idTag: d.tags[0], chargingProfileId },
        lang,
      );
    const wrongPurpose = await start(txDefault.id);
    expect([wrongPurpose.code, wrongPurpose.data.field, wrongPurpose.msg]).toEqual([
      400,
      'chargingProfileId',
      `Charging profile ${txDefault.id} is for "Tx default"; a remote start can only carry a Tx profile`,
    ]);
    expect((await start(txDefault.id, 'zh')).msg).toBe(`充电配置 ${txDefault.id} 的用途是“默认交易配置”，远程启动只能附带“当前交易配置”`);
    const otherProvider = await start(foreign.id);
    expect([otherProvider.code, otherProvider.data.field, otherProvider.msg]).toEqual([
      400,
      'chargingProfileId',
      `Charging profile ${foreign.id} does not belong to this charge point's provider`,
    ]);
    expect((await start(foreign.id, 'zh')).msg).toBe(`充电配置 ${foreign.id} 不属于该充电桩的运营商`);
    expect((await start(2_000_000_000)).code).toBe(404);
    expect(received(c.traffic, 'RemoteStartTransaction')).toEqual([]);

    // The TxProfile goes with the start request; the charger starts the transaction under it.
    const ok = await start(tx.id);
    expect(ok.code, ok.msg).toBe(200);
    expect(ok.data).toMatchObject({ status: 'accepted', chargingProfileId: tx.id });
    const [request] = received(c.traffic, 'RemoteStartTransaction');
    expect(request).toEqual({
      idTag: d.tags[0],
      connectorId: 1,
      chargingProfile: {
        chargingProfileId: tx.id,
        stackLevel: 2,
        chargingProfilePurpose: 'TxProfile',
        chargingProfileKind: 'Relative',
        chargingSchedule: { chargingRateUnit: 'W', chargingSchedulePeriod: [{ startPeriod: 0, limit: 7_000 }] },
      },
    });
    const begun = await exchange(c.traffic, 'StartTransaction', (p) => p.idTag === d.tags[0]);
    expect(begun.result).toMatchObject({ idTagInfo: { status: 'Accepted' } });
    const row = await eventually(async () => {
      const [t] = await s.database.db
        .select()
        .from(chargingTransaction)
        .where(eq(chargingTransaction.id, begun.result.transactionId as number));
      return t;
    });
    expect(row).toMatchObject({ connectorNo: 1, startType: 'remote' });
    expect((await composite(c.serialNumber, 1)).chargingSchedule?.chargingSchedulePeriod[0]?.limit).toBe(7_000);
  });
});

describe('Firmware Management profile', () => {
  it('TC_044_2_CSMS Firmware Update – Download Failed: acknowledges Downloading and DownloadFailed, and shows the point failed, to retry', async () => {
    const c = await charger();
    const statuses: string[] = [];
    c.sim.on('firmware', (e) => statuses.push(e.status));
    // A package location that answers 404.
    const location = `${s.url}/files/firmware/${'0'.repeat(64)}/missing.bin`;
    const up = await post<FirmwareUpgradeDto>(api.firmwareUpgrade.add, { serialNumbers: [c.serialNumber], location, retries: 0 });
    expect(up.code, up.msg).toBe(200);
    const points = await eventually(async () => {
      const r = (await get<FirmwareUpgradePointDto[]>(`${api.firmwareUpgrade.points.path}?id=${up.data.id}`)).data;
      return r[0]?.state === 'DownloadFailed' ? r : undefined;
    });
    expect(points[0]).toMatchObject({ serialNumber: c.serialNumber, reportedVersion: null });
    expect(received(c.traffic, 'UpdateFirmware')).toEqual([expect.objectContaining({ location })]);
    expect(statuses).toEqual(['Downloading', 'DownloadFailed']);
    for (const status of statuses)
      expect((await exchange(c.traffic, 'FirmwareStatusNotification', (p) => p.status === status)).result).toEqual({});
    const summary = (await get<FirmwareUpgradeDto>(`${api.firmwareUpgrade.get.path}?id=${up.data.id}`)).data;
    expect(summary.counts).toEqual({ DownloadFailed: 1 });
  });

  it('TC_045_2_CSMS Get Diagnostics – Upload Failed: acknowledges Uploading and UploadFailed, and shows the request failed', async () => {
    const c = await charger();
    // An upload target that refuses the file (no such token).
    const location = `${s.url}/files/diagnostics/${'0'.repeat(64)}`;
    const r = await post<DiagnosticsDto[]>(api.diagnostics.add, { serialNumbers: [c.serialNumber], location, retries: 0 });
    expect(r.code, r.msg).toBe(200);
    // Sent; the charger's Uploading may already have reached the row by the time the answer is built.
    expect(['sent', 'Uploading']).toContain(r.data[0]!.state);
    const failed = await eventually(async () => {
      const x = (await get<DiagnosticsDto>(`${api.diagnostics.get.path}?id=${r.data[0]!.id}`)).data;
      return x.state === 'UploadFailed' ? x : undefined;
    });
    expect(failed.sizeBytes ?? null).toBeNull();
    expect(received(c.traffic, 'GetDiagnostics')).toEqual([expect.objectContaining({ location, retries: 0 })]);
    const uploading = await exchange(c.traffic, 'DiagnosticsStatusNotification', (p) => p.status === 'Uploading');
    expect(uploading.result).toEqual({});
    expect((await exchange(c.traffic, 'DiagnosticsStatusNotification', (p) => p.status === 'UploadFailed', uploading.at)).result).toEqual(
      {},
    );
  });
});

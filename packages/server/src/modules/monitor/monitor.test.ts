import {
  api,
  pointStatusOf,
  type LiveFault,
  type LiveSession,
  type PointState,
  type StationState,
  type StatusCounts,
} from '@csms/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createUser } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import type { Db } from '../../db/client.js';
import { card, chargeUser } from '../../db/schema.js';
import { insertAlarm, insertMeterValue, insertPoint, insertStation, insertTransaction } from './monitor.fixtures.js';

let s: TestServer;
let db: Db;
const PERMS = ['monitor:charging:list', 'monitor:station:list', 'monitor:point:list'];
let a: { token: string; providerId: number; roleId: number };
let b: { token: string; providerId: number };
let stationA: Awaited<ReturnType<typeof insertStation>>;
let stationA2: Awaited<ReturnType<typeof insertStation>>;
let p1: Awaited<ReturnType<typeof insertPoint>>;
let p2: Awaited<ReturnType<typeof insertPoint>>;
let p3: Awaited<ReturnType<typeof insertPoint>>;
let pb: Awaited<ReturnType<typeof insertPoint>>;

async function operator(providerId?: number) {
  const op = await createOperator(db, { permissions: PERMS, rolePaths: ['/realTimeMonitor'], ...(providerId ? { providerId } : {}) });
  return { token: await s.login(op.user.username, op.user.password), providerId: op.providerId, roleId: op.role.id };
}

const get = async <T>(path: string, token = a.token) => {
  const r = await s.call<T>('GET', path, { token });
  expect(r.code, r.msg).toBe(200);
  return r.data;
};

beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
  a = await operator();
  b = await operator();
  stationA = await insertStation(db, a.providerId, { name: 'Alpha station' });
  stationA2 = await insertStation(db, a.providerId, { name: 'Beta station' });
  // Alpha: p1 online (Available, Charging, Faulted), p2 offline (its connectors said Available); Beta: p3 online (never reported, Reserved).
  p1 = await insertPoint(db, a.providerId, {
    stationId: stationA.id,
    connectorStatuses: ['Available', 'Charging', 'Faulted'],
    lastSeenAt: new Date(),
  });
  p2 = await insertPoint(db, a.providerId, { stationId: stationA.id, online: false, connectorStatuses: ['Available'] });
  p3 = await insertPoint(db, a.providerId, { stationId: stationA2.id, connectorStatuses: [null, 'Reserved'] });
  pb = await insertPoint(db, b.providerId, { connectorStatuses: ['Charging'] });
});
afterAll(() => s.close());

describe('status mapping', () => {
  it('maps OCPP statuses to the five console statuses', () => {
    expect(pointStatusOf('Available', true)).toBe('available');
    for (const st of ['Preparing', 'Charging', 'SuspendedEV', 'SuspendedEVSE', 'Finishing', 'Reserved'])
      expect(pointStatusOf(st, true)).toBe('charging');
    expect(pointStatusOf('Unavailable', true)).toBe('unavailable');
    expect(pointStatusOf(null, true)).toBe('unavailable');
    expect(pointStatusOf('Faulted', true)).toBe('faulted');
    expect(pointStatusOf('Charging', false)).toBe('offline');
  });
});

describe('points', () => {
  it('lists the caller’s points with mapped connector statuses and running transactions', async () => {
    const tx = await insertTransaction(db, p1, { connectorNo: 2 });
    const data = await get<{ list: PointState[]; total: number }>(`${api.monitor.points.path}?limit=50`);
    expect(data.total).toBe(3);
    // Ordered by station name, then serial number.
    expect(data.list.map((p) => p.serialNumber)).toEqual([...[p1.serialNumber, p2.serialNumber].sort(), p3.serialNumber]);
    const one = data.list.find((p) => p.serialNumber === p1.serialNumber)!;
    expect(one).toMatchObject({ online: true, stationName: 'Alpha station' });
    expect(one.connectors.map((c) => [c.connectorNo, c.status, c.ocppStatus, c.transactionId])).toEqual([
      [1, 'available', 'Available', null],
      [2, 'charging', 'Charging', tx.id],
      [3, 'faulted', 'Faulted', null],
    ]);
    expect(data.list.find((p) => p.serialNumber === p2.serialNumber)!.connectors[0]!.status).toBe('offline');
    expect(data.list.find((p) => p.serialNumber === p3.serialNumber)!.connectors.map((c) => c.status)).toEqual(['unavailable', 'charging']);
  });

  it('filters by status, online, station and serial', async () => {
    const serials = async (qs: string) =>
      (await get<{ list: PointState[] }>(`${api.monitor.points.path}?${qs}`)).list.map((p) => p.serialNumber).sort();
    expect(await serials('status=faulted')).toEqual([p1.serialNumber]);
    expect(await serials('status=offline')).toEqual([p2.serialNumber]);
    expect(await serials('status=charging')).toEqual([p1.serialNumber, p3.serialNumber].sort());
    expect(await serials('status=unavailable')).toEqual([p3.serialNumber]);
    expect(await serials('status=available')).toEqual([p1.serialNumber]);
    expect(await serials('online=false')).toEqual([p2.serialNumber]);
    expect(await serials(`stationId=${stationA2.id}`)).toEqual([p3.serialNumber]);
    expect(await serials(`serialNumber=${p2.serialNumber.slice(-6)}`)).toEqual([p2.serialNumber]);
  });

  it('shows a station-bound user only the points of its stations', async () => {
    const u = await createUser(db, { providerId: a.providerId, roleId: a.roleId, stationIds: [stationA2.id] });
    const token = await s.login(u.username, u.password);
    const data = await get<{ list: PointState[] }>(api.monitor.points.path, token);
    expect(data.list.map((p) => p.serialNumber)).toEqual([p3.serialNumber]);
    const counts = await get<StatusCounts>(api.monitor.counts.path, token);
    expect(counts).toMatchObject({ total: 2, charging: 1, unavailable: 1 });
  });
});

describe('counts and stations', () => {
  it('counts connectors by status in the caller’s scope', async () => {
    const counts = await get<StatusCounts>(api.monitor.counts.path);
    expect(counts).toEqual({
      total: 6,
      connected: 5,
      free: 1,
      charging: 2,
      unavailable: 1,
      offline: 1,
      fault: 1,
      pointsOnline: 2,
      pointsOffline: 1,
    });
    expect(await get<StatusCounts>(`${api.monitor.counts.path}?stationId=${stationA2.id}`)).toMatchObject({ total: 2, charging: 1 });
    expect(await get<StatusCounts>(api.monitor.counts.path, b.token)).toMatchObject({ total: 1, charging: 1, pointsOnline: 1 });
  });

  it('aggregates per station', async () => {
    const empty = await insertStation(db, a.providerId, { name: 'Gamma station' });
    const data = await get<{ list: StationState[]; total: number }>(api.monitor.stations.path);
    expect(data.total).toBe(3);
    expect(data.list.map((x) => x.stationName)).toEqual(['Alpha station', 'Beta station', 'Gamma station']);
    expect(data.list[0]).toMatchObject({
      stationId: stationA.id,
      points: 2,
      pointsOnline: 1,
      pointsOffline: 1,
      connectors: 4,
      available: 1,
      charging: 1,
      faulted: 1,
      offline: 1,
      unavailable: 0,
    });
    expect(data.list[2]).toMatchObject({ stationId: empty.id, points: 0, connectors: 0 });
    const filtered = await get<{ list: StationState[] }>(`${api.monitor.stations.path}?stationName=beta`);
    expect(filtered.list.map((x) => x.stationId)).toEqual([stationA2.id]);
  });
});

describe('charging sessions', () => {
  it('lists transactions in progress with card, account and live values', async () => {
    const [user] = await db.insert(chargeUser).values({ providerId: a.providerId, account: 'driver-live', userType: 'card' }).returning();
    const [c] = await db
      .insert(card)
      .values({
        providerId: a.providerId,
        cardNumber: 'C-LIVE',
        physicalId: 'LIVE01',
        chargeUserId: user!.id,
        expireAt: new Date(Date.now() + 86_400_000),
      })
      .returning();
    const live = await insertTransaction(db, p3, {
      connectorNo: 2,
      idTag: 'LIVE01',
      cardId: c!.id,
      meterStartWh: 5000,
      lastMeterWh: 7500,
      lastPowerW: 7200,
      lastSoc: 64,
      lastSampleAt: new Date(),
      startedAt: new Date(Date.now() - 30_000),
    });
    const done = await insertTransaction(db, p3, { stoppedAt: new Date(), energyWh: 999, startedAt: new Date(Date.now() - 90_000_000) });
    await insertTransaction(db, pb);
    const data = await get<{ list: LiveSession[]; total: number }>(`${api.monitor.charging.path}?limit=50`);
    const ids = data.list.map((x) => x.transactionId);
    expect(ids).toContain(live.id);
    expect(ids).not.toContain(done.id);
    expect(data.list.every((x) => x.providerId === a.providerId)).toBe(true);
    expect(data.list.find((x) => x.transactionId === live.id)).toMatchObject({
      stationName: 'Beta station',
      serialNumber: p3.serialNumber,
      connectorNo: 2,
      idTag: 'LIVE01',
      cardNumber: 'C-LIVE',
      account: 'driver-live',
      energyWh: 2500,
      powerW: 7200,
      soc: 64,
      meterStartWh: 5000,
    });
    expect(data.list[0]!.transactionId).toBe(live.id);
    const byTag = await get<{ list: LiveSession[] }>(`${api.monitor.charging.path}?idTag=live0`);
    expect(byTag.list.map((x) => x.transactionId)).toEqual([live.id]);
  });
});

describe('dashboard widgets', () => {
  it('lists open faults newest first, in scope', async () => {
    const older = await insertAlarm(db, p1, { occurredAt: new Date(Date.now() - 60_000), connectorNo: 3 });
    const newer = await insertAlarm(db, p3, { level: 'common', status: 'Available', errorCode: 'HighTemperature' });
    await insertAlarm(db, p1, { clearedAt: new Date() });
    await insertAlarm(db, pb);
    const faults = await get<LiveFault[]>(api.monitor.faults.path);
    expect(faults.map((f) => f.alarmId)).toEqual([newer.id, older.id]);
    expect(faults[0]).toMatchObject({
      serialNumber: p3.serialNumber,
      stationName: 'Beta station',
      level: 'common',
      errorCode: 'HighTemperature',
    });
  });

  it('sums each connector’s average power per bucket over the last 24 hours', async () => {
    const now = Date.now();
    const hour = 3_600_000;
    const bucket = Math.floor(now / hour) * hour;
    const sample = (point: { id: number }, connectorNo: number, at: number, powerW: number) =>
      insertMeterValue(db, { chargePointId: point.id, connectorNo, sampledAt: new Date(at), powerW });
    // This hour: p1 connector 1 averages 6 kW, connector 2 at 4 kW; two hours ago p3 at 10 kW; 30 hours ago ignored; B's ignored.
    await sample(p1, 1, bucket + 1000, 5000);
    await sample(p1, 1, bucket + 2000, 7000);
    await sample(p1, 2, bucket + 1500, 4000);
    await sample(p3, 1, bucket - 2 * hour + 10, 10_000);
    await sample(p1, 1, now - 30 * hour, 99_000);
    await sample(pb, 1, bucket + 1000, 50_000);
    const trend = await get<{ bucketMinutes: number; points: { at: string; powerW: number }[] }>(api.monitor.powerTrend.path);
    expect(trend.bucketMinutes).toBe(60);
    expect(trend.points).toHaveLength(24);
    const at = (ms: number) => trend.points.find((x) => x.at === new Date(ms).toISOString())?.powerW;
    expect(at(bucket)).toBe(10_000);
    expect(at(bucket - 2 * hour)).toBe(10_000);
    expect(at(bucket - hour)).toBe(0);
    expect(trend.points.reduce((sum, x) => sum + x.powerW, 0)).toBe(20_000);
    const quarter = await get<{ points: unknown[] }>(`${api.monitor.powerTrend.path}?bucketMinutes=15`);
    expect(quarter.points).toHaveLength(96);
    expect((await s.call('GET', `${api.monitor.powerTrend.path}?bucketMinutes=5`, { token: a.token })).code).toBe(400);
  });
});

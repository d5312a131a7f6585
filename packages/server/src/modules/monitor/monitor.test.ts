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
import { createOperator, createUser, repoCaller } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import type { Db } from '../../db/client.js';
import { card, chargeUser } from '../../db/schema.js';
import { createMonitorRepo } from './monitor.repo.js';
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

  it('gives the mean power of each bucket: the energy its sessions drew there over its time', async () => {
    const hour = 3_600_000;
    const minute = 60_000;
    const current = Math.floor(Date.now() / hour) * hour;
    const now = new Date(current + 30 * minute);
    const h = current - 2 * hour;
    const sample = (point: { id: number }, connectorNo: number, at: number, powerW: number, transactionId?: number) =>
      insertMeterValue(db, { chargePointId: point.id, connectorNo, sampledAt: new Date(at), powerW, transactionId });
    const stopped = (point: typeof p1, connectorNo: number, from: number, to: number) =>
      insertTransaction(db, point, { connectorNo, startedAt: new Date(from), stoppedAt: new Date(to), meterStopWh: 2000 });
    // Two hours ago: a session through the whole hour at 8 kW, sampled every 15 minutes (8 kW), and one
    // of three minutes at 12 kW (12 kW × 180 s / 3,600 s = 600 W); the old sum of averages said 20 kW.
    const long = await stopped(p1, 1, h, h + hour);
    for (const m of [0, 15, 30, 45]) await sample(p1, 1, h + m * minute, 8000, long.id);
    const short = await stopped(p1, 2, h + 10 * minute, h + 13 * minute);
    for (const m of [10, 11, 12]) await sample(p1, 2, h + m * minute, 12_000, short.id);
    // Three hours ago: a lone sample (a point sampling less often than the bucket) stands for the bucket.
    await sample(p3, 1, h - hour + 5 * minute, 6000);
    // The hour under way (30 minutes so far): a running session sampled every 10 minutes at 9 kW
    // stands for 20 minutes of it (its last sample held until now): 9 kW × 1,200 s / 1,800 s.
    const running = await insertTransaction(db, p3, { connectorNo: 1, startedAt: new Date(current + 10 * minute) });
    for (const m of [10, 20]) await sample(p3, 1, current + m * minute, 9000, running.id);
    // Ignored: a day and more ago, and another provider's point.
    await sample(p1, 1, current - 30 * hour, 99_000);
    await sample(pb, 1, h, 50_000);

    const trend = await createMonitorRepo({ db }).powerTrend(repoCaller(a.providerId), 60, now);
    expect(trend.points).toHaveLength(24);
    const at = (ms: number) => trend.points.find((x) => x.at === new Date(ms).toISOString())?.powerW;
    expect(at(h)).toBe(8600);
    expect(at(h - hour)).toBe(6000);
    expect(at(current)).toBe(6000);
    expect(at(h + hour)).toBe(0);
    expect(trend.points.reduce((sum, x) => sum + x.powerW, 0)).toBe(20_600);
    // Another provider sees only its own point.
    const other = await createMonitorRepo({ db }).powerTrend(repoCaller(b.providerId), 60, now);
    expect(other.points.find((x) => x.at === new Date(h).toISOString())?.powerW).toBe(50_000);

    const api24 = await get<{ bucketMinutes: number; points: unknown[] }>(api.monitor.powerTrend.path);
    expect(api24.bucketMinutes).toBe(60);
    expect(api24.points).toHaveLength(24);
    const quarter = await get<{ points: unknown[] }>(`${api.monitor.powerTrend.path}?bucketMinutes=15`);
    expect(quarter.points).toHaveLength(96);
    expect((await s.call('GET', `${api.monitor.powerTrend.path}?bucketMinutes=5`, { token: a.token })).code).toBe(400);
  });
});

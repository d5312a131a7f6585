import { api, type AlarmRecordDto } from '@csms/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import type { Db } from '../../db/client.js';
import { alarm, chargePoint, station, systemUser } from '../../db/schema.js';

let s: TestServer;
let db: Db;
let n = 0;
const uniq = (p: string) => `${p}${++n}${Math.random().toString(36).slice(2, 6)}`;
const PERMS = ['record:alarm:list', 'record:alarm:query', 'record:alarm:export'];

async function site() {
  const op = await createOperator(db, { permissions: PERMS, rolePaths: ['/historyRecord/alarmRecord'] });
  const points: { stationId: number; pointId: number; serial: string }[] = [];
  // Two stations in different zones: each row carries its own station's.
  for (const [name, timeZone] of [
    ['north', 'Asia/Shanghai'],
    ['south', 'America/New_York'],
  ] as const) {
    const [st] = await db
      .insert(station)
      .values({
        providerId: op.providerId,
        name: uniq(name),
        country: 'CN',
        address: 'x',
        longitude: 121,
        latitude: 31,
        timeZone,
      })
      .returning();
    const serial = uniq('SN');
    const [cp] = await db
      .insert(chargePoint)
      .values({
        providerId: op.providerId,
        stationId: st!.id,
        serialNumber: serial,
        name: uniq('pt'),
        equipmentType: 'dc',
        ratedPowerW: 60000,
      })
      .returning();
    points.push({ stationId: st!.id, pointId: cp!.id, serial });
  }
  return { ...op, points, token: await s.login(op.user.username, op.user.password) };
}

type Site = Awaited<ReturnType<typeof site>>;

async function fault(x: Site, k: number, v: Partial<typeof alarm.$inferInsert>) {
  const p = x.points[k]!;
  const [row] = await db
    .insert(alarm)
    .values({
      providerId: x.providerId,
      stationId: p.stationId,
      chargePointId: p.pointId,
      connectorNo: 1,
      level: 'common',
      status: 'Available',
      errorCode: 'HighTemperature',
      occurredAt: new Date('2026-03-01T00:00:00Z'),
      ...v,
    })
    .returning();
  return row!.id;
}

let a: Site;
const ids: Record<string, number> = {};

beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
  a = await site();
  ids.serious = await fault(a, 0, { level: 'serious', status: 'Faulted', errorCode: 'GroundFailure', info: 'RCD tripped' });
  ids.cleared = await fault(a, 0, {
    errorCode: 'OverVoltage',
    occurredAt: new Date('2026-03-05T00:00:00Z'),
    clearedAt: new Date('2026-03-05T00:10:30Z'),
  });
  ids.south = await fault(a, 1, { errorCode: 'VendorSpecific42', occurredAt: new Date('2026-03-10T00:00:00Z') });
});
afterAll(() => s.close());

const list = async (token: string, q: Record<string, string | number> = {}) => {
  const r = await s.call<{ list: AlarmRecordDto[]; total: number }>(
    'GET',
    `${api.alarmRecord.list.path}?${new URLSearchParams(q as never)}`,
    {
      token,
    },
  );
  expect(r.code).toBe(200);
  return r.data;
};
const found = async (q: Record<string, string | number>) => (await list(a.token, q)).list.map((r) => r.id).sort((x, y) => x - y);

describe('alarm records', () => {
  it('lists faults newest first with station, its time zone, point, state and duration', async () => {
    const r = await list(a.token);
    expect(r.total).toBe(3);
    expect(r.list.map((x) => x.id)).toEqual([ids.south, ids.cleared, ids.serious]);
    expect(r.list[0]).toMatchObject({ stationId: a.points[1]!.stationId, stationTimeZone: 'America/New_York' });
    expect(r.list[1]).toMatchObject({
      state: 'cleared',
      durationSec: 630,
      clearTime: '2026-03-05T00:10:30.000Z',
      serialNumber: a.points[0]!.serial,
      stationTimeZone: 'Asia/Shanghai',
    });
    expect(r.list[2]).toMatchObject({
      level: 'serious',
      status: 'Faulted',
      errorCode: 'GroundFailure',
      info: 'RCD tripped',
      state: 'open',
    });
  });

  it('filters by time range, station, point, level, error code and state', async () => {
    expect(await found({ startTime: '2026-03-04T00:00:00Z', endTime: '2026-03-06T00:00:00Z' })).toEqual([ids.cleared]);
    expect(await found({ stationId: a.points[1]!.stationId })).toEqual([ids.south]);
    expect(await found({ pointId: a.points[0]!.pointId })).toEqual([ids.serious, ids.cleared].sort((x, y) => x! - y!));
    expect(await found({ serialNumber: a.points[1]!.serial })).toEqual([ids.south]);
    expect(await found({ level: 'serious' })).toEqual([ids.serious]);
    expect(await found({ errorCode: 'voltage' })).toEqual([ids.cleared]);
    expect(await found({ state: 'open' })).toEqual([ids.serious, ids.south].sort((x, y) => x! - y!));
    expect(await found({ state: 'cleared' })).toEqual([ids.cleared]);
    const bad = await s.call('GET', `${api.alarmRecord.list.path}?level=fatal`, { token: a.token, lang: 'zh' });
    expect(bad.code).toBe(400);
    expect(bad.msg).toContain('告警级别');
  });

  it('hides another provider’s faults and other stations of a station-bound user', async () => {
    const b = await site();
    expect((await list(b.token)).total).toBe(0);
    expect((await s.call('GET', `${api.alarmRecord.get.path}?id=${ids.serious}`, { token: b.token })).code).toBe(404);
    const bound = await createOperator(db, { providerId: a.providerId, permissions: PERMS });
    await db
      .update(systemUser)
      .set({ stationIds: [a.points[1]!.stationId] })
      .where(eq(systemUser.id, bound.user.id));
    const token = await s.login(bound.user.username, bound.user.password);
    expect((await list(token)).list.map((x) => x.id)).toEqual([ids.south]);
  });

  it('exports with levels, states and known error codes in words, unknown codes as sent', async () => {
    const res = await fetch(`${s.url}/prod-api${api.alarmRecord.export.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json', 'x-language': 'en' },
      body: JSON.stringify({ format: 'csv', state: 'open' }),
    });
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]!.startsWith('Alarm ID,Occurred at,Cleared at,State,Duration,Level,Error code')).toBe(true);
    expect(lines.find((l) => l.startsWith(`${ids.serious},`))).toContain('Open,');
    expect(lines.find((l) => l.startsWith(`${ids.serious},`))).toContain(',Serious,Ground failure,RCD tripped');
    expect(lines.find((l) => l.startsWith(`${ids.south},`))).toContain(',Common,VendorSpecific42,');
    // Times are exported as instants (UTC); the station's zone is not a column.
    expect(lines.find((l) => l.startsWith(`${ids.south},`))).toContain('2026-03-10T00:00:00.000Z');
    expect(lines.join('\n')).not.toContain('America/New_York');

    const zh = await fetch(`${s.url}/prod-api${api.alarmRecord.export.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json', 'x-language': 'zh' },
      body: JSON.stringify({ format: 'csv', level: 'serious' }),
    });
    const text = await zh.text();
    expect(text).toContain('告警级别');
    expect(text).toContain('严重');
    expect(text).toContain('接地故障');
  });
});

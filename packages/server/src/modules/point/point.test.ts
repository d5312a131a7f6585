import { pointStatusOf, type PointDto, type StationDto } from '@csms/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import { chargePoint, chargingTransaction, connector, systemLog } from '../../db/schema.js';
import { createSessionStore } from '../../http/sessions.js';
import { createEventHub } from '../../lib/events.js';
import { createExportColumns } from '../../lib/export-config.js';
import { verifyOcppKey } from '../../ocpp/keys.js';
import { insertUnassignedStation, stationOperator } from '../station/station.fixtures.js';
import { createPointRepo } from './point.repo.js';
import { pointRoutes } from './point.routes.js';

let s: TestServer;
let admin: string;
let home: StationDto;
let next: StationDto;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
  home = await addStation(admin, { stationName: 'Home' });
  next = await addStation(admin, { stationName: 'Next door' });
});
afterAll(() => s.close());

let seq = 0;
async function addStation(token: string, v: Record<string, unknown> = {}) {
  const r = await s.call<StationDto>('POST', '/web/station/add', {
    token,
    body: { stationName: `S${++seq}`, providerId: 1, country: 'CN', address: 'x', longitude: 1, latitude: 2, ...v },
  });
  if (r.code !== 200) throw new Error(r.msg);
  return r.data;
}
const connectors = (n: number) => Array.from({ length: n }, (_, i) => ({ connectorNo: i + 1, standard: 'dc', type: 'CCS2' }));
const pointBody = (v: Record<string, unknown> = {}) => ({
  serialNumber: `CP-${++seq}`,
  pointName: 'Bay 1',
  stationId: home.id,
  equipmentType: 'dc',
  ratedPowerW: 60_000,
  softwareVersion: '1.2.3',
  connectors: connectors(2),
  ...v,
});
type Created = PointDto & { ocppKey: string };
const add = (token: string, v: Record<string, unknown> = {}, lang: 'zh' | 'en' = 'en') =>
  s.call<Created>('POST', '/web/point/add', { token, lang, body: pointBody(v) });
const get = (token: string, id: number) => s.call<PointDto>('GET', `/web/point/get?id=${id}`, { token });
const list = (token: string, q = '') =>
  s.call<{ list: PointDto[]; total: number }>('GET', `/web/point/list?page=1&limit=50${q}`, { token });
const keyHash = async (id: number) =>
  (await s.database.db.select({ h: chargePoint.ocppKeyHash }).from(chargePoint).where(eq(chargePoint.id, id)))[0]!.h;
const pointCount = async () => (await s.database.db.select({ n: count() }).from(chargePoint))[0]!.n;

describe('charge points', () => {
  it('creates a point with two connectors and shows its OCPP key once', async () => {
    const r = await add(admin, {
      serialNumber: 'ACME-0001',
      connectors: [...connectors(1), { connectorNo: 2, connectorName: 'Left', standard: 'ac', type: 'Type2' }],
    });
    expect(r).toMatchObject({
      code: 200,
      data: {
        serialNumber: 'ACME-0001',
        pointName: 'Bay 1',
        stationId: home.id,
        stationName: 'Home',
        providerId: 1,
        providerName: 'CSMS',
        equipmentType: 'dc',
        ratedPowerW: 60_000,
        connectorCount: 2,
        connectors: [
          { connectorNo: 1, connectorName: null, standard: 'dc', type: 'CCS2', status: 'offline', ocppStatus: null },
          { connectorNo: 2, connectorName: 'Left', standard: 'ac', type: 'Type2', status: 'offline' },
        ],
        status: 'offline',
        online: false,
        needsPlacement: false,
        hasKey: true,
      },
    });
    const key = r.data.ocppKey;
    expect(key).toMatch(/^[0-9a-f]{40}$/);
    // Only a salted hash is stored; the key verifies against it and appears nowhere else.
    const hash = await keyHash(r.data.id);
    expect(hash).not.toContain(key);
    expect(verifyOcppKey(key, hash)).toBe(true);
    expect(verifyOcppKey(`${key}x`, hash)).toBe(false);
    const got = await get(admin, r.data.id);
    expect(JSON.stringify(got)).not.toContain(key);
    expect(got.data).not.toHaveProperty('ocppKey');
    expect(JSON.stringify(await list(admin))).not.toContain(key);
    const [logged] = await s.database.db.select().from(systemLog).where(eq(systemLog.operand, 'point:ACME-0001'));
    expect(logged).toMatchObject({ operation: 'add', result: 200 });
    expect(JSON.stringify(logged)).not.toContain(key);
  });

  it('refuses bad input naming the field in both languages, and changes nothing', async () => {
    const before = await pointCount();
    const cases: [Record<string, unknown>, string, string, string][] = [
      [{ serialNumber: 'has space' }, 'serialNumber', 'Serial number is not in the right format', '充电桩编号格式不正确'],
      [{ serialNumber: 'x'.repeat(49) }, 'serialNumber', 'Serial number is not in the right format', '充电桩编号格式不正确'],
      [{ serialNumber: 'a/b' }, 'serialNumber', 'Serial number is not in the right format', '充电桩编号格式不正确'],
      [{ pointName: '' }, 'pointName', 'Point name is required', '请输入充电桩名称'],
      [{ equipmentType: 'steam' }, 'equipmentType', 'Equipment type must be one of the offered values', '设备类型的取值无效'],
      [{ ratedPowerW: 0 }, 'ratedPowerW', 'Rated power must be at least 1', '额定功率不能小于 1'],
      [{ connectors: [] }, 'connectors', 'Connectors is required', '请输入枪口'],
      [
        { connectors: [...connectors(1), { connectorNo: 1, standard: 'ac', type: 'Type2' }] },
        'connectors.1.connectorNo',
        'Connectors must be numbered 1, 2, 3… each number once',
        '枪口编号须从 1 开始连续编号且不重复',
      ],
      [
        { connectors: [{ connectorNo: 2, standard: 'ac', type: 'Type2' }] },
        'connectors.0.connectorNo',
        'Connectors must be numbered 1, 2, 3… each number once',
        '枪口编号须从 1 开始连续编号且不重复',
      ],
      [
        { connectors: [{ connectorNo: 1, standard: 'ac', type: 'Type3' }] },
        'connectors.0.type',
        'Connector type must be one of the offered values',
        '枪口类型的取值无效',
      ],
      [{ stationId: undefined }, 'stationId', 'Station is required', '请输入所属场站'],
    ];
    for (const [v, field, en, zh] of cases) {
      const r = await add(admin, v);
      expect(r, JSON.stringify(v)).toMatchObject({ code: 400, data: { field } });
      expect([r.msg, (await add(admin, v, 'zh')).msg]).toEqual([en, zh]);
    }
    expect(await pointCount()).toBe(before);
  });

  it('keeps serial numbers unique across providers, case-insensitively', async () => {
    await add(admin, { serialNumber: 'UNIQ-1' });
    expect(await add(admin, { serialNumber: 'uniq-1' })).toEqual({
      code: 409,
      msg: 'Serial number "uniq-1" already exists',
      data: { field: 'serialNumber' },
    });
    expect((await add(admin, { serialNumber: 'UNIQ-1' }, 'zh')).msg).toBe('充电桩编号“UNIQ-1”已存在');
    const { token: t, ...other } = await stationOperator(s);
    const st = await addStation(t, { providerId: other.providerId });
    expect((await add(t, { serialNumber: 'UNIQ-1', stationId: st.id })).code).toBe(409);
  });

  it('edits fields and connectors, keeping the status of connectors that stay', async () => {
    const p = (await add(admin, { connectors: connectors(2) })).data;
    await s.database.db.update(connector).set({ status: 'Charging' }).where(eq(connector.chargePointId, p.id));
    await s.database.db.update(chargePoint).set({ online: true, status: 'Available' }).where(eq(chargePoint.id, p.id));
    const r = await s.call<PointDto>('POST', '/web/point/edit', {
      token: admin,
      body: {
        id: p.id,
        serialNumber: `${p.serialNumber}-B`,
        pointName: 'Renamed',
        equipmentType: 'acdc',
        ratedPowerW: 150_000,
        softwareVersion: '',
        connectors: [
          { connectorNo: 1, connectorName: 'Front', standard: 'combo', type: 'GBT_DC' },
          { connectorNo: 2, standard: 'dc', type: 'CHAdeMO' },
          { connectorNo: 3, standard: 'ac', type: 'SCHUKO' },
        ],
      },
    });
    expect(r.data).toMatchObject({
      serialNumber: `${p.serialNumber}-B`,
      pointName: 'Renamed',
      equipmentType: 'acdc',
      ratedPowerW: 150_000,
      softwareVersion: null,
      stationId: home.id,
      status: 'available',
      connectorCount: 3,
      connectors: [
        { connectorNo: 1, connectorName: 'Front', type: 'GBT_DC', status: 'charging', ocppStatus: 'Charging' },
        { connectorNo: 2, type: 'CHAdeMO', status: 'charging' },
        { connectorNo: 3, type: 'SCHUKO', status: 'unavailable', ocppStatus: null },
      ],
    });
    const fewer = await s.call<PointDto>('POST', '/web/point/edit', {
      token: admin,
      body: {
        id: p.id,
        serialNumber: p.serialNumber,
        pointName: 'Renamed',
        equipmentType: 'dc',
        ratedPowerW: 1,
        connectors: connectors(1),
      },
    });
    expect(fewer.data.connectors.map((c) => c.connectorNo)).toEqual([1]);
  });

  it('moves a point to another station of its provider, never to another provider', async () => {
    const p = (await add(admin)).data;
    const moved = await s.call<PointDto>('POST', '/web/point/move', { token: admin, body: { id: p.id, stationId: next.id } });
    expect(moved).toMatchObject({ code: 200, data: { stationId: next.id, stationName: 'Next door' } });
    expect(await s.call('POST', '/web/point/move', { token: admin, body: { id: p.id, stationId: next.id } })).toMatchObject({
      code: 409,
      msg: 'Move failed: the point is already in station "Next door"',
      data: { field: 'stationId' },
    });
    const { token: t, ...other } = await stationOperator(s);
    const foreign = await addStation(t, { stationName: 'Foreign', providerId: other.providerId });
    const refused = await s.call('POST', '/web/point/move', { token: admin, body: { id: p.id, stationId: foreign.id }, lang: 'zh' });
    expect(refused).toMatchObject({ code: 409, msg: '移动失败：目标场站“Foreign”属于其他运营商' });
    expect((await get(admin, p.id)).data.stationId).toBe(next.id);
    // The other provider's user cannot see the point nor move into its own station.
    expect((await s.call('POST', '/web/point/move', { token: t, body: { id: p.id, stationId: foreign.id } })).code).toBe(404);
    expect((await s.call('POST', '/web/point/move', { token: t, body: { id: p.id, stationId: home.id } })).code).toBe(404);
  });

  it('places an auto-registered point into any station the caller sees', async () => {
    const unassigned = await insertUnassignedStation(s.database.db);
    const [auto] = await s.database.db
      .insert(chargePoint)
      .values({
        providerId: 1,
        stationId: unassigned.id,
        serialNumber: 'AUTO-1',
        name: 'AUTO-1',
        equipmentType: 'ac',
        ratedPowerW: 7000,
        needsPlacement: true,
      })
      .returning();
    expect((await list(admin, '&serialNumber=AUTO-1')).data.list[0]).toMatchObject({
      needsPlacement: true,
      hasKey: false,
      connectorCount: 0,
    });
    const { token: t, ...other } = await stationOperator(s);
    const target = await addStation(t, { providerId: other.providerId });
    const r = await s.call<PointDto>('POST', '/web/point/move', { token: admin, body: { id: auto!.id, stationId: target.id } });
    expect(r.data).toMatchObject({ stationId: target.id, providerId: other.providerId, needsPlacement: false });
    expect((await get(t, auto!.id)).code).toBe(200);
  });

  it('issues a new key that replaces the old one', async () => {
    const p = (await add(admin)).data;
    const r = await s.call<{ id: number; serialNumber: string; ocppKey: string }>('POST', '/web/point/newKey', {
      token: admin,
      body: { id: p.id },
    });
    expect(r.data).toMatchObject({ id: p.id, serialNumber: p.serialNumber });
    expect(r.data.ocppKey).not.toBe(p.ocppKey);
    const hash = await keyHash(p.id);
    expect(verifyOcppKey(r.data.ocppKey, hash)).toBe(true);
    expect(verifyOcppKey(p.ocppKey, hash)).toBe(false);
    const [logged] = await s.database.db.select().from(systemLog).where(eq(systemLog.path, '/web/point/newKey'));
    expect(logged).toMatchObject({ operation: 'newKey', operand: `point:${p.serialNumber}` });
    expect(JSON.stringify(logged)).not.toContain(r.data.ocppKey);
  });

  it('refuses to remove a point with charging records', async () => {
    const p = (await add(admin)).data;
    await s.database.db.insert(chargingTransaction).values({
      providerId: 1,
      stationId: home.id,
      chargePointId: p.id,
      connectorNo: 1,
      idTag: 'TAG1',
      startType: 'card',
      authStatus: 'Accepted',
      meterStartWh: 0,
      startedAt: new Date(),
    });
    expect(await s.call('POST', '/web/point/remove', { token: admin, body: { ids: [p.id] } })).toMatchObject({
      code: 409,
      msg: `Charge point "${p.serialNumber}" has 1 charging record(s) and cannot be removed`,
    });
    const free = (await add(admin)).data;
    expect(await s.call('POST', '/web/point/remove', { token: admin, body: { ids: [free.id] } })).toMatchObject({
      code: 200,
      data: { removed: 1 },
    });
    expect(await s.database.db.select().from(connector).where(eq(connector.chargePointId, free.id))).toEqual([]);
  });

  it('derives statuses like the monitor does, and filters by them', async () => {
    const st = await addStation(admin);
    const ocpp = [
      'Available',
      'Preparing',
      'Charging',
      'SuspendedEVSE',
      'SuspendedEV',
      'Finishing',
      'Reserved',
      'Unavailable',
      'Faulted',
      null,
    ];
    const ids: number[] = [];
    const online = (i: number) => i !== 1 && i !== 4;
    for (const [i, status] of ocpp.entries()) {
      const p = (await add(admin, { stationId: st.id, connectors: connectors(1) })).data;
      ids.push(p.id);
      await s.database.db.update(connector).set({ status }).where(eq(connector.chargePointId, p.id));
      await s.database.db
        .update(chargePoint)
        .set({ online: online(i), status: 'Available' })
        .where(eq(chargePoint.id, p.id));
    }
    const all = (await list(admin, `&stationId=${st.id}`)).data.list;
    for (const [i, status] of ocpp.entries()) {
      const row = all.find((p) => p.id === ids[i])!;
      expect(row.connectors[0]!.status, String(status)).toBe(pointStatusOf(status, online(i)));
      expect(row.status).toBe(pointStatusOf('Available', online(i)));
    }
    for (const want of ['available', 'charging', 'faulted', 'unavailable', 'offline'] as const) {
      const expected = all
        .filter((p) => p.status === want || p.connectors.some((c) => c.status === want))
        .map((p) => p.id)
        .sort();
      const got = (await list(admin, `&stationId=${st.id}&status=${want}`)).data.list.map((p) => p.id).sort();
      expect(got, want).toEqual(expected);
      expect(got.length, want).toBeGreaterThan(0);
    }
  });

  it('tells the OCPP endpoint about every change to a point', async () => {
    const changed = vi.fn();
    const principal = (await createSessionStore({ db: s.database.db, config: s.config }).resolve(admin))!;
    const routes = pointRoutes({
      repo: createPointRepo({ db: s.database.db }),
      events: createEventHub(),
      config: s.config,
      columns: createExportColumns({ db: s.database.db }),
      onPointChanged: changed,
    });
    const ctx = { lang: 'en' as const, ip: '127.0.0.1', principal };
    const run = (name: 'add' | 'edit' | 'move' | 'newKey' | 'remove', body: unknown) =>
      (routes[name] as (a: unknown) => Promise<{ id: number }>)({ body, ctx, audit: {} });
    const created = await run('add', { ...pointBody({ serialNumber: 'HOOK-1' }), softwareVersion: undefined });
    expect(changed).toHaveBeenLastCalledWith(['HOOK-1']);
    await run('edit', { ...pointBody({ serialNumber: 'HOOK-2' }), id: created.id });
    expect(changed).toHaveBeenLastCalledWith(['HOOK-1', 'HOOK-2']);
    await run('move', { id: created.id, stationId: next.id });
    await run('newKey', { id: created.id });
    await run('remove', { ids: [created.id] });
    expect(changed.mock.calls.map((c) => c[0])).toEqual([['HOOK-1'], ['HOOK-1', 'HOOK-2'], ['HOOK-2'], ['HOOK-2'], ['HOOK-2']]);
  });
});

describe('scope and pickers', () => {
  it("another provider's points do not exist; bound users see only their stations' points", async () => {
    const { token: ta, ...a } = await stationOperator(s);
    const { token: tb } = await stationOperator(s);
    const a1 = await addStation(ta, { providerId: a.providerId });
    const a2 = await addStation(ta, { providerId: a.providerId });
    const p1 = (await add(ta, { stationId: a1.id, serialNumber: 'SCOPE-1' })).data;
    const p2 = (await add(ta, { stationId: a2.id, serialNumber: 'SCOPE-2' })).data;

    expect((await add(tb, { stationId: a1.id })).code).toBe(404);
    expect((await get(tb, p1.id)).code).toBe(404);
    expect((await s.call('GET', `/web/getStationNameByPoint?pointId=${p1.id}`, { token: tb })).code).toBe(404);
    expect((await s.call('POST', '/web/point/remove', { token: tb, body: { ids: [p1.id] } })).code).toBe(404);
    expect((await s.call('POST', '/web/point/newKey', { token: tb, body: { id: p1.id } })).code).toBe(404);
    expect((await list(tb, `&stationId=${a1.id}`)).data).toEqual({ list: [], total: 0 });
    expect((await s.call('POST', '/web/getPoints', { token: tb, body: { stationId: a1.id } })).data).toEqual([]);

    const bound = await createUser(s.database.db, { providerId: a.providerId, roleId: a.role.id, stationIds: [a2.id] });
    const tbound = await s.login(bound.username, bound.password);
    expect((await list(tbound)).data.list.map((p) => p.id)).toEqual([p2.id]);
    expect((await get(tbound, p1.id)).code).toBe(404);
    expect((await add(tbound, { stationId: a1.id })).code).toBe(404);
    expect((await s.call('POST', '/web/point/move', { token: tbound, body: { id: p2.id, stationId: a1.id } })).code).toBe(404);
    expect((await s.call('POST', '/web/getPoints', { token: tbound, body: {} })).data).toEqual([
      {
        id: p2.id,
        serialNumber: 'SCOPE-2',
        pointName: 'Bay 1',
        stationId: a2.id,
        stationName: a2.stationName,
        providerId: a.providerId,
        // What the charger reported at boot (none yet): the firmware upgrade's picker filters on them.
        model: null,
        firmwareVersion: null,
        // Never connected: the version it speaks is not known yet (the configuration tab offers the device model by it).
        ocppVersion: null,
        connectors: [
          { connectorNo: 1, connectorName: null, standard: 'dc', type: 'CCS2' },
          { connectorNo: 2, connectorName: null, standard: 'dc', type: 'CCS2' },
        ],
      },
    ]);
    expect(await s.call('GET', `/web/getStationNameByPoint?pointId=${p2.id}`, { token: tbound })).toMatchObject({
      code: 200,
      data: { stationId: a2.id, stationName: a2.stationName },
    });
    const bySerial = await s.call<{ id: number }[]>('POST', '/web/getPoints', { token: ta, body: { serialNumber: 'scope-' } });
    expect(bySerial.data.map((p) => p.id).sort()).toEqual([p1.id, p2.id].sort());
  });
});

describe('export', () => {
  it('streams CSV in kW with connectors spelled out', async () => {
    await add(admin, { serialNumber: 'EXPORT-1', ratedPowerW: 22_000, connectors: [{ connectorNo: 1, standard: 'ac', type: 'Type2' }] });
    const res = await fetch(`${s.url}/prod-api/web/point/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', 'x-language': 'en' },
      body: JSON.stringify({ format: 'csv', serialNumber: 'EXPORT-1' }),
    });
    const [head, ...rows] = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(head).toBe(
      'ID,Serial number,Point name,Station,Provider,Equipment type,Rated power (kW),Software version,Connector count,Connectors,Status,Online,To be placed,Last seen,Created at',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(',EXPORT-1,Bay 1,Home,CSMS,DC,22,1.2.3,1,1: Type 2 (AC),Offline,No,No,,');
  });
});

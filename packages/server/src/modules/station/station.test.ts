import type { StationDto } from '@csms/contract';
import { count, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createUser } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import { gif as gifBytes, png } from '../../../test/support/files.js';
import { chargePoint, station, systemLog } from '../../db/schema.js';
import { pricedSite } from '../operations/ops-fixtures.js';
import { insertUnassignedStation, stationOperator, stationPermissions } from './station.fixtures.js';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startServer({ timeZone: 'Europe/Berlin' });
  admin = await s.login();
});
afterAll(() => s.close());

let seq = 0;
const stationBody = (v: Record<string, unknown> = {}) => ({
  stationName: `Station ${++seq}`,
  providerId: 1,
  country: 'CN',
  address: '1 Century Avenue, Shanghai',
  longitude: 121.5,
  latitude: 31.2,
  ...v,
});
const add = (token: string, v: Record<string, unknown> = {}, lang: 'zh' | 'en' = 'en') =>
  s.call<StationDto>('POST', '/web/station/add', { token, lang, body: stationBody(v) });
const list = (token: string, q = '') =>
  s.call<{ list: StationDto[]; total: number }>('GET', `/web/station/list?page=1&limit=50${q}`, { token });
const point = (token: string, stationId: number, serialNumber: string, ratedPowerW = 7000, connectors = 1) =>
  s.call<{ id: number }>('POST', '/web/point/add', {
    token,
    body: {
      serialNumber,
      pointName: serialNumber,
      stationId,
      equipmentType: 'ac',
      ratedPowerW,
      connectors: Array.from({ length: connectors }, (_, i) => ({ connectorNo: i + 1, standard: 'ac', type: 'Type2' })),
    },
  });
const stationCount = async () => (await s.database.db.select({ n: count() }).from(station))[0]!.n;

async function upload(token: string, name: string, bytes: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${s.url}/prod-api/common/upload?kind=image`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return (await res.json()) as { code: number; url: string; fileName: string };
}

describe('stations', () => {
  it('adds with every field, gets, searches and edits', async () => {
    const pic = await upload(admin, 'front.png', png());
    const r = await add(admin, {
      stationName: ' Pudong Hub ',
      openingStart: '08:00',
      openingEnd: '22:30',
      isPublic: false,
      servicePhone: '+86 21 5555 0000',
      description: 'Basement level 2',
      amenities: ['parking', 'wifi', 'parking'],
      picture: pic.url,
      guide: 'Enter from Lujiazui Ring Road',
      status: 'maintenance',
      timeZone: 'Asia/Shanghai',
    });
    expect(r).toMatchObject({
      code: 200,
      data: {
        stationName: 'Pudong Hub',
        providerName: 'CSMS',
        country: 'CN',
        openingStart: '08:00',
        openingEnd: '22:30',
        isPublic: false,
        amenities: ['parking', 'wifi'],
        picture: pic.url,
        status: 'maintenance',
        timeZone: 'Asia/Shanghai',
        isUnassigned: false,
        pointCount: 0,
        connectorCount: 0,
        totalPowerW: 0,
      },
    });
    const got = await s.call<StationDto>('GET', `/web/station/get?id=${r.data.id}`, { token: admin });
    expect(got.data).toEqual(r.data);

    const other = await add(admin, { country: 'DE', status: 'closed' });
    expect((await list(admin, '&stationName=pudong')).data).toMatchObject({ total: 1, list: [{ stationName: 'Pudong Hub' }] });
    expect((await list(admin, '&country=DE')).data.list.map((x) => x.id)).toEqual([other.data.id]);
    expect((await list(admin, '&status=closed')).data.list.map((x) => x.id)).toEqual([other.data.id]);
    expect((await list(admin, '&providerId=1')).data.total).toBeGreaterThanOrEqual(2);

    const edited = await s.call<StationDto>('POST', '/web/station/edit', {
      token: admin,
      body: { ...stationBody({ stationName: 'Pudong Hub' }), id: r.data.id, openingStart: '', openingEnd: '', amenities: [], picture: '' },
    });
    expect(edited.data).toMatchObject({
      openingStart: null,
      openingEnd: null,
      amenities: [],
      picture: null,
      isPublic: true,
      status: 'operating',
    });
    // An edit without a time zone keeps the station's own.
    expect(edited.data.timeZone).toBe('Asia/Shanghai');
  });

  it('takes the configured default time zone when none is given', async () => {
    expect((await add(admin)).data.timeZone).toBe('Europe/Berlin');
    expect((await add(admin, { timeZone: 'Asia/Kolkata' })).data.timeZone).toBe('Asia/Kolkata');
  });

  it('refuses bad input naming the field in both languages, and changes nothing', async () => {
    const before = await stationCount();
    const cases: [Record<string, unknown>, string, string, string][] = [
      [{ stationName: '' }, 'stationName', 'Station name is required', '请输入场站名称'],
      [{ longitude: 181 }, 'longitude', 'Longitude must be at most 180', '经度不能大于 180'],
      [{ latitude: -90.5 }, 'latitude', 'Latitude must be at least -90', '纬度不能小于 -90'],
      [{ country: 'XX' }, 'country', 'Country/region must be one of the offered values', '国家/地区的取值无效'],
      [{ timeZone: 'Mars/Olympus' }, 'timeZone', 'Time zone is not a valid IANA time zone', '时区不是有效的 IANA 时区'],
      [
        { openingStart: '08:00' },
        'openingEnd',
        'Enter both opening and closing time, or neither',
        '营业开始时间和结束时间须同时填写或同时留空',
      ],
      [{ openingStart: '25:00', openingEnd: '26:00' }, 'openingStart', 'Opens at is not in the right format', '营业开始时间格式不正确'],
      [{ amenities: ['sauna'] }, 'amenities.0', 'Amenities must be one of the offered values', '配套设施的取值无效'],
      [{ status: 'demolished' }, 'status', 'Station status must be one of the offered values', '场站状态的取值无效'],
    ];
    for (const [v, field, en, zh] of cases) {
      const r = await add(admin, v);
      expect(r, JSON.stringify(v)).toMatchObject({ code: 400, data: { field } });
      const [msgEn, msgZh] = [r.msg, (await add(admin, v, 'zh')).msg];
      expect([msgEn, msgZh]).toEqual([en, zh]);
    }
    expect(await stationCount()).toBe(before);
  });

  it('searches names literally: % and _ are characters, not wildcards', async () => {
    await add(admin, { stationName: 'Depot_7 100%' });
    await add(admin, { stationName: 'DepotX7 1000' });
    expect((await list(admin, '&stationName=Depot_7')).data.list.map((x) => x.stationName)).toEqual(['Depot_7 100%']);
    expect((await list(admin, '&stationName=100%25')).data.list.map((x) => x.stationName)).toEqual(['Depot_7 100%']);
  });

  it('keeps names unique per provider, case-insensitively', async () => {
    await add(admin, { stationName: 'Riverside' });
    expect(await add(admin, { stationName: 'RIVERSIDE' })).toEqual({
      code: 409,
      msg: 'Station name "RIVERSIDE" already exists',
      data: { field: 'stationName' },
    });
    expect((await add(admin, { stationName: 'riverside' }, 'zh')).msg).toBe('场站名称“riverside”已存在');
    const { token: ta, ...a } = await stationOperator(s);
    expect((await add(ta, { stationName: 'Riverside', providerId: a.providerId })).code).toBe(200);
    const mine = await add(admin, { stationName: 'Lakeside' });
    const r = await s.call('POST', '/web/station/edit', {
      token: admin,
      body: { ...stationBody({ stationName: 'riverSIDE' }), id: mine.data.id },
    });
    expect(r).toMatchObject({ code: 409, data: { field: 'stationName' } });
  });

  it('derives point count, connectors and total power from its points', async () => {
    const st = (await add(admin)).data;
    await point(admin, st.id, `DER-${seq}-A`, 7000, 2);
    await point(admin, st.id, `DER-${seq}-B`, 120_000, 1);
    const got = (await s.call<StationDto>('GET', `/web/station/get?id=${st.id}`, { token: admin })).data;
    expect(got).toMatchObject({ pointCount: 2, connectorCount: 3, totalPowerW: 127_000 });
    expect((await list(admin, `&stationName=${encodeURIComponent(st.stationName)}`)).data.list[0]).toMatchObject({
      pointCount: 2,
      totalPowerW: 127_000,
    });
  });

  it('refuses to remove a station with points, and the unassigned station', async () => {
    const busy = (await add(admin, { stationName: 'Busy' })).data;
    const p = await point(admin, busy.id, `BUSY-${seq}`);
    const r = await s.call('POST', '/web/station/remove', { token: admin, body: { ids: [busy.id] } });
    expect(r).toMatchObject({ code: 409, msg: 'Station "Busy" still has 1 charge point(s) and cannot be removed' });
    expect((await s.call('POST', '/web/station/remove', { token: admin, body: { ids: [busy.id] }, lang: 'zh' })).msg).toBe(
      '场站“Busy”下还有 1 个充电桩，不能删除',
    );
    // A station with points keeps its provider.
    const a = await createOperator(s.database.db, { permissions: stationPermissions });
    const moved = await s.call('POST', '/web/station/edit', {
      token: admin,
      body: { ...stationBody({ stationName: 'Busy', providerId: a.providerId }), id: busy.id },
    });
    expect(moved).toMatchObject({ code: 409, data: { field: 'providerId' } });

    const unassigned = await insertUnassignedStation(s.database.db);
    expect((await list(admin, '&stationName=Unassigned')).data.list[0]).toMatchObject({ isUnassigned: true });
    expect(await s.call('POST', '/web/station/remove', { token: admin, body: { ids: [unassigned.id] } })).toMatchObject({ code: 409 });

    await s.call('POST', '/web/point/remove', { token: admin, body: { ids: [p.data.id] } });
    expect(await s.call('POST', '/web/station/remove', { token: admin, body: { ids: [busy.id] } })).toMatchObject({
      code: 200,
      data: { removed: 1 },
    });
    expect((await s.call('GET', `/web/station/get?id=${busy.id}`, { token: admin })).code).toBe(404);
  });

  it('keeps the provider of a station that anything of its provider hangs on, a price as well as a point', async () => {
    const db = s.database.db;
    const [a, b] = [
      await createOperator(db, { permissions: stationPermissions }),
      await createOperator(db, { permissions: stationPermissions }),
    ];
    const priced = await pricedSite(db, a.providerId);
    await db.delete(chargePoint).where(eq(chargePoint.id, priced.pointId));
    const [row] = await db.select({ name: station.name }).from(station).where(eq(station.id, priced.stationId));
    const move = (id: number, stationName: string) =>
      s.call('POST', '/web/station/edit', {
        token: admin,
        lang: 'en',
        body: { ...stationBody({ stationName, providerId: b.providerId }), id },
      });
    expect(await move(priced.stationId, row!.name)).toMatchObject({
      code: 409,
      msg: `Station "${row!.name}" has charge points, prices or other records of its provider; its provider cannot change`,
      data: { field: 'providerId' },
    });
    const [after] = await db.select({ providerId: station.providerId }).from(station).where(eq(station.id, priced.stationId));
    expect(after!.providerId).toBe(a.providerId);
    // A station nothing hangs on yet moves.
    const empty = (await add(admin, { stationName: 'Empty mover', providerId: a.providerId })).data;
    expect((await move(empty.id, 'Empty mover')).code).toBe(200);
  });

  it('accepts only an uploaded jpg, png or gif of at most 2 MB as the picture', async () => {
    const big = await upload(admin, 'huge.png', png(2 * 1024 * 1024));
    expect(big.code).toBe(200); // the upload widget allows 5 MB; the station allows 2
    const small = await upload(admin, 'small.png', png());
    for (const picture of [
      big.url,
      'https://example.test/x.png',
      '2020/01/01/nothing.png',
      // Another host's URL that merely carries a stored file's name.
      `https://evil.example/prod-api/common/download/resource?resource=${encodeURIComponent(small.fileName)}`,
      `${small.url}&next=https://evil.example/x.png`,
    ]) {
      expect(await add(admin, { picture })).toMatchObject({
        code: 400,
        msg: 'The station picture must be an uploaded jpg, png or gif image of at most 2 MB',
        data: { field: 'picture' },
      });
    }
    const gif = await upload(admin, 'ok.gif', gifBytes);
    expect((await add(admin, { picture: gif.fileName })).code).toBe(200);
  });

  it('logs each mutation once', async () => {
    const before = (await s.database.db.select({ n: count() }).from(systemLog))[0]!.n;
    const r = await add(admin, { stationName: 'Logged' });
    await s.call('POST', '/web/station/edit', { token: admin, body: { ...stationBody({ stationName: 'Logged' }), id: r.data.id } });
    await s.call('POST', '/web/station/remove', { token: admin, body: { ids: [r.data.id] } });
    const rows = await s.database.db.select().from(systemLog).where(eq(systemLog.operand, 'station:Logged'));
    expect(rows.map((x) => x.operation)).toEqual(['add', 'edit', 'remove']);
    expect((await s.database.db.select({ n: count() }).from(systemLog))[0]!.n).toBe(before + 3);
  });
});

describe('scope', () => {
  it("another provider's stations do not exist; bound users see only their stations", async () => {
    const { token: ta, ...a } = await stationOperator(s);
    const { token: tb, ...b } = await stationOperator(s);
    const a1 = (await add(ta, { stationName: 'A one', providerId: a.providerId })).data;
    const a2 = (await add(ta, { stationName: 'A two', providerId: a.providerId })).data;
    expect((await add(tb, { providerId: a.providerId })).code).toBe(404);

    expect((await list(tb)).data.total).toBe(0);
    expect((await s.call('GET', `/web/station/get?id=${a1.id}`, { token: tb })).code).toBe(404);
    expect(
      (await s.call('POST', '/web/station/edit', { token: tb, body: { ...stationBody(), id: a1.id, providerId: b.providerId } })).code,
    ).toBe(404);
    expect((await s.call('POST', '/web/station/remove', { token: tb, body: { ids: [a1.id] } })).code).toBe(404);
    expect((await s.call<unknown[]>('POST', '/web/getStations', { token: tb, body: {} })).data).toEqual([]);

    // Bound to one station: sees that one, in lists and pickers, and cannot add stations.
    const bound = await createUser(s.database.db, { providerId: a.providerId, roleId: a.role.id, stationIds: [a2.id] });
    const tbound = await s.login(bound.username, bound.password);
    expect((await list(tbound)).data.list.map((x) => x.id)).toEqual([a2.id]);
    expect((await s.call('GET', `/web/station/get?id=${a1.id}`, { token: tbound })).code).toBe(404);
    expect((await s.call('POST', '/web/station/remove', { token: tbound, body: { ids: [a1.id, a2.id] } })).code).toBe(404);
    expect((await s.call('POST', '/web/getStations', { token: tbound, body: {} })).data).toEqual([
      { id: a2.id, stationName: 'A two', providerId: a.providerId, providerName: expect.any(String) },
    ]);
    expect(await add(tbound, { providerId: a.providerId })).toMatchObject({
      code: 409,
      msg: 'Users bound to stations cannot add stations',
    });

    const opts = await s.call<{ stationName: string }[]>('POST', '/web/getStations', { token: ta, body: { stationName: 'one' } });
    expect(opts.data.map((o) => o.stationName)).toEqual(['A one']);
    expect((await s.call<unknown[]>('POST', '/web/getStations', { token: admin, body: { providerId: a.providerId } })).data).toHaveLength(
      2,
    );
  });
});

describe('export', () => {
  const exportStations = (body: unknown, lang = 'en') =>
    fetch(`${s.url}/prod-api/web/station/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', 'x-language': lang },
      body: JSON.stringify(body),
    });

  it('streams CSV with names instead of codes and kW', async () => {
    const st = (
      await add(admin, { stationName: 'Exported', country: 'FR', amenities: ['food', 'wifi'], openingStart: '06:00', openingEnd: '23:00' })
    ).data;
    await point(admin, st.id, `EXP-${seq}`, 22_000);
    const text = await (await exportStations({ format: 'csv', stationName: 'Exported' })).text();
    const [head, ...rows] = text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(head).toBe(
      'ID,Station name,Provider,Country/region,Address,Longitude,Latitude,Time zone,Opening hours,Open to the public,Service phone,Amenities,Station status,Points,Connectors,Total power (kW),Created at',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(',France,');
    expect(rows[0]).toContain(',06:00-23:00,Yes,,"Food, Wi-Fi",Operating,1,1,22,');
    const zh = await (await exportStations({ format: 'csv', stationName: 'Exported' }, 'zh')).text();
    expect(zh).toContain(',法国,');
  });

  it('streams xlsx', async () => {
    const res = await exportStations({ format: 'xlsx' });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    expect(wb.worksheets[0]!.actualRowCount).toBe((await list(admin)).data.total + 1);
  });
});

describe('pictures in one zip', () => {
  // What the station list's "download pictures" posts: the stored files its selected rows' pictures name.
  const zipOf = (token: string, pictures: string[]) => {
    const form = new URLSearchParams();
    for (const p of pictures) form.append('fileNames', new URLSearchParams(p.split('?')[1]).get('resource') ?? p);
    form.set('name', 'station pictures');
    return fetch(`${s.url}/prod-api/common/download/zip`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded', 'x-language': 'en' },
      body: form.toString(),
    });
  };

  it("holds the selected stations' pictures, and refuses another provider's", async () => {
    const a = await stationOperator(s);
    const b = await stationOperator(s);
    const mine = [];
    for (const [name, bytes] of [
      ['north.png', png(10)],
      ['south.gif', gifBytes],
    ] as const) {
      const pic = await upload(a.token, name, bytes);
      const r = await add(a.token, { providerId: a.providerId, picture: pic.url });
      expect(r.code).toBe(200);
      mine.push(r.data);
    }
    const theirs = await add(b.token, { providerId: b.providerId, picture: (await upload(b.token, 'theirs.png', png())).url });
    expect(theirs.code).toBe(200);
    // The list the operator selects from shows its own stations only, with their pictures.
    const shown = (await list(a.token)).data.list;
    expect(shown.map((x) => x.picture).sort()).toEqual(mine.map((x) => x.picture).sort());

    const res = await zipOf(
      a.token,
      shown.map((x) => x.picture!),
    );
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(decodeURIComponent(res.headers.get('download-filename')!)).toBe('station pictures.zip');
    const archive = await JSZip.loadAsync(await res.arrayBuffer());
    expect(Object.keys(archive.files).sort()).toEqual(['north.png', 'south.gif']);
    expect(Buffer.from(await archive.file('north.png')!.async('uint8array'))).toEqual(png(10));
    expect(Buffer.from(await archive.file('south.gif')!.async('uint8array'))).toEqual(gifBytes);

    // Another provider's station picture, even beside its own: the whole archive is refused.
    const refused = await zipOf(a.token, [mine[0]!.picture!, theirs.data.picture!]);
    expect(refused.headers.get('content-type')).toMatch(/application\/json/);
    expect(await refused.json()).toMatchObject({ code: 404, data: { field: 'fileNames' } });
  });
});

import { randomBytes } from 'node:crypto';
import type { CarDto, CarImportReport } from '@csms/contract';
import { count, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/harness.js';
import { car, provider } from '../../db/schema.js';
import { cardsApi, ok, twoProviders, uniq, type CardsApi, type Operator } from './cards.fixtures.js';

let s: TestServer, a: Operator, b: Operator, A: CardsApi, B: CardsApi;
let providerA: string;
beforeAll(async () => {
  ({ s, a, b, A, B } = await twoProviders());
  providerA = (await s.database.db.select().from(provider).where(eq(provider.id, a.providerId)))[0]!.name;
});
afterAll(() => s.close());

type Page<T> = { list: T[]; total: number };
let vinSeq = 0;
/** A valid VIN: 11 characters of the ISO 3779 alphabet and a 6-digit serial. */
const vin = () => `LSVAM4187C2${String(++vinSeq).padStart(6, '0')}`;
const plateOf = () =>
  `沪A${uniq('')
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, '')
    .slice(-5)}`;
const carCount = async () => (await s.database.db.select({ n: count() }).from(car))[0]!.n;

async function upload(token: string, bytes: Buffer | ArrayBuffer, name = 'cars.xlsx') {
  const form = new FormData();
  form.append('file', new Blob([bytes as ArrayBuffer]), name);
  const res = await fetch(`${s.url}/prod-api/common/upload?kind=file`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const r = (await res.json()) as { code: number; fileName: string; msg: string };
  expect(r.code, r.msg).toBe(200);
  return r.fileName;
}

async function sheet(headers: string[], rows: (string | number)[][]) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('cars');
  ws.addRow(headers);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function template(lang: 'zh' | 'en') {
  const res = await fetch(`${s.url}/prod-api/web/car/importTemplate`, {
    headers: { authorization: `Bearer ${a.token}`, 'x-language': lang },
  });
  expect(res.headers.get('content-type')).toContain('spreadsheetml');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
  return wb;
}

describe('cars', () => {
  it('adds, searches, gets, edits and removes; the VIN is checked and stored upper-case', async () => {
    const owner = await A.addUser({ providerId: a.providerId });
    const plate = plateOf();
    const v = vin();
    const c = await ok(
      A.post<CarDto>('/web/car/add', {
        plate,
        vin: v.toLowerCase(),
        alias: 'Blue',
        brand: 'BYD',
        model: 'Han',
        chargeUserId: owner.id,
        providerId: a.providerId,
      }),
    );
    expect(c).toMatchObject({ plate, vin: v, alias: 'Blue', brand: 'BYD', model: 'Han', account: owner.account, providerId: a.providerId });
    expect((await ok(A.get<Page<CarDto>>(`/web/car/list?page=1&limit=10&account=${owner.account}`))).list.map((x) => x.id)).toEqual([c.id]);
    expect((await ok(A.get<Page<CarDto>>(`/web/car/list?page=1&limit=10&vin=${v.slice(-6)}`))).total).toBe(1);
    const edited = await ok(
      A.post<CarDto>('/web/car/edit', { id: c.id, plate, vin: v, providerId: a.providerId, alias: '', chargeUserId: null }),
    );
    expect(edited).toMatchObject({ alias: null, chargeUserId: null, account: null });
    expect(await ok(A.get(`/web/car/get?id=${c.id}`))).toEqual(edited);
    expect(await ok(A.post('/web/car/remove', { ids: [c.id] }))).toEqual({ removed: 1 });
  });

  it('validates plate and VIN in both languages', async () => {
    const before = await carCount();
    const cases: [Record<string, unknown>, string, string, string][] = [
      [
        { vin: 'LSVAM4187C2O00001' },
        'vin',
        'VIN must be 17 letters or digits (no I, O or Q)',
        '车架号（VIN）须为 17 位字母或数字（不含 I、O、Q）',
      ],
      [
        { vin: 'LSVAM4187C200001' },
        'vin',
        'VIN must be 17 letters or digits (no I, O or Q)',
        '车架号（VIN）须为 17 位字母或数字（不含 I、O、Q）',
      ],
      [{ vin: '' }, 'vin', 'VIN is required', '请输入车架号（VIN）'],
      [{ plate: '' }, 'plate', 'Plate number is required', '请输入车牌号'],
      [{ plate: '#1' }, 'plate', 'Plate number is not in the right format', '车牌号格式不正确'],
    ];
    for (const [patch, field, en, zh] of cases) {
      const body = { plate: plateOf(), vin: vin(), providerId: a.providerId, ...patch };
      expect(await A.post('/web/car/add', body, 'en')).toEqual({ code: 400, msg: en, data: { field } });
      expect(await A.post('/web/car/add', body, 'zh')).toEqual({ code: 400, msg: zh, data: { field } });
    }
    expect(await carCount()).toBe(before);
  });

  it('keeps plates unique within a provider regardless of case', async () => {
    const plate = `AB-${uniq('').slice(-4)}x`;
    await ok(A.post('/web/car/add', { plate, vin: vin(), providerId: a.providerId }));
    expect(await A.post('/web/car/add', { plate: plate.toUpperCase(), vin: vin(), providerId: a.providerId })).toEqual({
      code: 409,
      msg: `Plate number "${plate.toUpperCase()}" already exists for this provider`,
      data: { field: 'plate' },
    });
    expect((await B.post('/web/car/add', { plate, vin: vin(), providerId: b.providerId })).code).toBe(200);
  });

  it("refuses another provider's provider, driver and car", async () => {
    const userA = await A.addUser({ providerId: a.providerId });
    const carA = await ok(A.post<CarDto>('/web/car/add', { plate: plateOf(), vin: vin(), providerId: a.providerId }));
    expect((await B.post('/web/car/add', { plate: plateOf(), vin: vin(), providerId: a.providerId })).code).toBe(404);
    expect((await B.post('/web/car/add', { plate: plateOf(), vin: vin(), providerId: b.providerId, chargeUserId: userA.id })).code).toBe(
      404,
    );
    expect((await B.post('/web/car/edit', { id: carA.id, plate: 'X1', vin: vin(), providerId: b.providerId })).code).toBe(404);
    expect((await B.post('/web/car/remove', { ids: [carA.id] })).code).toBe(404);
    expect((await B.get(`/web/car/get?id=${carA.id}`)).code).toBe(404);
    const userB = await B.addUser({ providerId: b.providerId });
    const admin = cardsApi(s, await s.login());
    expect(
      await admin.post('/web/car/edit', {
        id: carA.id,
        plate: carA.plate,
        vin: carA.vin,
        providerId: a.providerId,
        chargeUserId: userB.id,
      }),
    ).toEqual({
      code: 400,
      msg: "The chosen account does not belong to the car's provider",
      data: { field: 'chargeUserId' },
    });
  });
});

describe('car import', () => {
  it('serves the template with headers in the caller language, required columns marked', async () => {
    const zh = (await template('zh')).worksheets[0]!.getRow(1).values as unknown[];
    expect(zh.slice(1)).toEqual(['车牌号 *', '车架号（VIN） *', '运营商名称 *', '用户账号', '车辆别名', '品牌', '型号']);
    const en = (await template('en')).worksheets[0]!.getRow(1).values as unknown[];
    expect(en.slice(1)).toEqual(['Plate number *', 'VIN *', 'Provider name *', 'Account', 'Alias', 'Brand', 'Model']);
  });

  it('imports the valid rows of a 500-row template in one go and reports every rejected row', async () => {
    const owner = await A.addUser({ providerId: a.providerId });
    const taken = plateOf();
    await ok(A.post('/web/car/add', { plate: taken, vin: vin(), providerId: a.providerId }));
    const wb = await template('zh');
    const ws = wb.worksheets[0]!;
    const plates: string[] = [];
    for (let i = 0; i < 500; i++) {
      const p = `沪D${String(10000 + i)}`;
      plates.push(p);
      ws.addRow([p, vin(), providerA, i % 50 === 0 ? owner.account : '', `car ${i}`, 'BYD', 'Qin']);
    }
    // The bad rows (spreadsheet rows are the index + 2: the header is row 1).
    ws.getRow(12).getCell(3).value = ''; // empty provider
    ws.getRow(13).getCell(3).value = 'No Such Provider'; // wrong provider
    ws.getRow(14).getCell(2).value = 'LSVAM4187C2I00001'; // VIN with an I
    ws.getRow(15).getCell(1).value = plates[100]!; // row 102's plate: the later row is the duplicate
    ws.getRow(16).getCell(1).value = taken; // taken in the provider
    ws.getRow(17).getCell(4).value = 'nobody-here'; // unknown account
    ws.getRow(18).getCell(1).value = ''; // no plate
    ws.getRow(19).getCell(3).value = (await s.database.db.select().from(provider).where(eq(provider.id, b.providerId)))[0]!.name; // not A's
    const fileName = await upload(a.token, Buffer.from(await wb.xlsx.writeBuffer()));

    const before = await carCount();
    const r = await A.post<CarImportReport>('/web/car/import', { fileName }, 'en');
    expect(r.code, r.msg).toBe(200);
    expect(r.data.total).toBe(500);
    expect(r.data.imported).toBe(492);
    expect(r.data.rejected.map((x) => [x.row, x.field, x.reason])).toEqual([
      [12, 'providerName', 'Provider name is empty'],
      [13, 'providerName', 'Provider "No Such Provider" does not exist or is not yours'],
      [14, 'vin', 'The VIN must be 17 letters or digits (no I, O or Q)'],
      [16, 'plate', `Plate number "${taken}" already exists for this provider`],
      [17, 'account', 'Account "nobody-here" does not exist for this provider'],
      [18, 'plate', 'Plate number is empty'],
      [19, 'providerName', expect.stringMatching(/^Provider ".+" does not exist or is not yours$/)],
      [102, 'plate', 'The plate number repeats row 15'],
    ]);
    expect(await carCount()).toBe(before + 492);
    const owned = await ok(A.get<Page<CarDto>>(`/web/car/list?page=1&limit=50&account=${owner.account}`));
    // Every 50th row names the owner; row 102 (index 100) was the duplicate.
    expect(owned.total).toBe(9);
    expect(owned.list.every((c) => c.brand === 'BYD' && c.providerId === a.providerId)).toBe(true);

    // The same file again: every row is now taken, nothing is imported; the reasons are in Chinese for a Chinese caller.
    const again = await A.post<CarImportReport>('/web/car/import', { fileName }, 'zh');
    expect(again.data).toMatchObject({ total: 500, imported: 0 });
    expect(again.data.rejected).toHaveLength(500);
    expect(again.data.rejected[0]!.reason).toMatch(/在该运营商下已存在/);
    expect(await carCount()).toBe(before + 492);
  });

  it('imports a file made in the other language, columns in any order', async () => {
    const plate = plateOf();
    const bytes = await sheet(['Model', 'Provider name', 'VIN *', 'Plate number'], [['Han', providerA, vin(), plate]]);
    const r = await ok(A.post<CarImportReport>('/web/car/import', { fileName: await upload(a.token, bytes) }, 'zh'));
    expect(r).toEqual({ total: 1, imported: 1, rejected: [] });
    expect((await ok(A.get<Page<CarDto>>(`/web/car/list?page=1&limit=10&plate=${plate}`))).list[0]).toMatchObject({ model: 'Han' });
  });

  it('refuses file-level errors whole: too big, unreadable, not the template, empty, unknown or foreign file', async () => {
    const before = await carCount();
    // Uploads are judged by their bytes: random bytes named .xlsx never get as far as the import.
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(randomBytes(2000))]), 'cars.xlsx');
    const refused = await fetch(`${s.url}/prod-api/common/upload?kind=file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}` },
      body: form,
    });
    expect(await refused.json()).toMatchObject({ code: 400, data: { field: 'file' } });
    // A real workbook over 1 MB (random text barely compresses).
    const bigRows = Array.from({ length: 1500 }, () => [randomBytes(750).toString('base64')]);
    const big = await upload(a.token, await sheet(['Plate number'], bigRows));
    expect(await A.post('/web/car/import', { fileName: big }, 'en')).toEqual({
      code: 400,
      msg: 'The file must not be larger than 1 MB!',
      data: { field: 'fileName' },
    });
    // A workbook cut short: still an xlsx by its first bytes, but no reader can open it.
    const junk = await upload(a.token, Buffer.from(await sheet(['Plate number', 'VIN', 'Provider name'], [])).subarray(0, 1500));
    expect(await A.post('/web/car/import', { fileName: junk }, 'zh')).toEqual({
      code: 400,
      msg: '无法读取文件，请上传 xlsx 格式的导入模板',
      data: { field: 'fileName' },
    });
    const wrong = await upload(a.token, await sheet(['Name', 'Phone'], [['a', '1']]));
    expect(await A.post('/web/car/import', { fileName: wrong }, 'en')).toMatchObject({
      code: 400,
      msg: 'The file is not the car import template (column "Plate number" is missing); download the template, fill it in and upload it',
    });
    const empty = await upload(a.token, await sheet(['车牌号 *', '车架号（VIN） *', '运营商名称 *'], []));
    expect(await A.post('/web/car/import', { fileName: empty }, 'en')).toMatchObject({ code: 400, msg: 'The template has no data rows' });
    expect((await A.post('/web/car/import', { fileName: '2020/01/01/none.xlsx' })).code).toBe(404);
    const mine = await upload(a.token, await sheet(['Plate number', 'VIN', 'Provider name'], [[plateOf(), vin(), providerA]]));
    expect((await B.post('/web/car/import', { fileName: mine })).code).toBe(404);
    expect(await carCount()).toBe(before);
  });

  it('refuses a file that inflates far beyond its size, and counts rows of spaces toward the row limit', async () => {
    const before = await carCount();
    // 25 MB of one letter packs into a few KB: refused before the workbook is parsed.
    const bomb = await upload(
      a.token,
      await sheet(['Plate number', 'VIN', 'Provider name'], [['a'.repeat(25 * 1024 * 1024), vin(), providerA]]),
    );
    expect(await A.post('/web/car/import', { fileName: bomb }, 'en')).toEqual({
      code: 400,
      msg: 'The file must not be larger than 1 MB!',
      data: { field: 'fileName' },
    });
    // Rows that hold only a space are rows of the file: 20,001 of them pass the limit.
    const spaces = await upload(
      a.token,
      await sheet(
        ['Plate number', 'VIN', 'Provider name'],
        Array.from({ length: 20_001 }, () => [' ']),
      ),
    );
    expect(await A.post('/web/car/import', { fileName: spaces }, 'en')).toEqual({
      code: 400,
      msg: 'At most 20000 rows can be imported at once',
      data: { field: 'fileName' },
    });
    expect(await carCount()).toBe(before);
  });

  it('reports progress on the event stream', async () => {
    const events: { importId: string; done: number; total: number }[] = [];
    const off = s.app.events.subscribe({
      userId: a.userId,
      canSee: () => true,
      send: (e) => e.type === 'import.progress' && events.push(e.payload as never),
    });
    const rows = Array.from({ length: 250 }, () => [plateOf(), vin(), providerA]);
    const fileName = await upload(a.token, await sheet(['Plate number', 'VIN', 'Provider name'], rows));
    await ok(A.post('/web/car/import', { fileName, importId: 'imp-1' }));
    off();
    expect(events.map((e) => e.done)).toEqual([100, 200, 250]);
    expect(events.every((e) => e.importId === 'imp-1' && e.total === 250)).toBe(true);
  });
});

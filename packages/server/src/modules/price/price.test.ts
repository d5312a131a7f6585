import {
  allPermissions,
  allMenuPaths,
  translate,
  type PriceDetailDto,
  type PriceImpactDto,
  type PriceRowDto,
  type PriceVersionDto,
} from '@csms/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createUser } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import type { Db } from '../../db/client.js';
import { billLine, card, chargePoint, chargeUser, chargingTransaction, price, station, systemLog, userGroup } from '../../db/schema.js';
import { createBilling } from '../billing/settle.js';
import { createLedger } from '../cards/ledger.js';
import { currentAndNext, stationTime } from './price.routes.js';

let s: TestServer;
let db: Db;
let admin: string;

let n = 0;
const uniq = (p: string) => `${p}${++n}${Math.random().toString(36).slice(2, 6)}`;

type Tier = 'sharp' | 'peak' | 'flat' | 'valley';
const allFlat: Tier[] = Array.from({ length: 48 }, () => 'flat');
/** Valley before 08:00, peak 08:00–12:00, flat after. */
const painted: Tier[] = Array.from({ length: 48 }, (_, i) => (i < 16 ? 'valley' : i < 24 ? 'peak' : 'flat'));
const fees = {
  sharpElec: 15000,
  sharpService: 5000,
  peakElec: 12345,
  peakService: 4000,
  flatElec: 8000,
  flatService: 3000,
  valleyElec: 3333,
  valleyService: 1000,
  reserveFeeCents: 250,
};

async function newStation(providerId = 1, timeZone = 'Asia/Shanghai') {
  const [st] = await db
    .insert(station)
    .values({ providerId, name: uniq('st'), country: 'CN', address: 'x', longitude: 121.47, latitude: 31.23, timeZone })
    .returning();
  return st!;
}

async function newGroup(providerId = 1) {
  const [g] = await db
    .insert(userGroup)
    .values({ providerId, name: uniq('grp') })
    .returning();
  return g!;
}

/** A finished session at the station paid by a fresh card with money on it. */
async function finishedSession(stationId: number, providerId: number, startedAt: Date, stoppedAt: Date, groupId: number | null = null) {
  const [cp] = await db
    .insert(chargePoint)
    .values({ providerId, stationId, serialNumber: uniq('SN'), name: 'p', equipmentType: 'ac', ratedPowerW: 7000 })
    .returning();
  const [u] = await db
    .insert(chargeUser)
    .values({ providerId, account: uniq('acct'), userType: 'card', groupId })
    .returning();
  const [c] = await db
    .insert(card)
    .values({
      providerId,
      cardNumber: uniq('no'),
      physicalId: uniq('UID').slice(0, 20),
      chargeUserId: u!.id,
      balanceCents: 100_000,
      expireAt: new Date('2035-01-01'),
    })
    .returning();
  const [t] = await db
    .insert(chargingTransaction)
    .values({
      providerId,
      stationId,
      chargePointId: cp!.id,
      connectorNo: 1,
      idTag: c!.physicalId,
      cardId: c!.id,
      startType: 'card',
      authStatus: 'Accepted',
      meterStartWh: 0,
      startedAt,
      meterStopWh: 10_000,
      stoppedAt,
      energyWh: 10_000,
    })
    .returning();
  return t!;
}

const add = (token: string, body: unknown, lang: 'zh' | 'en' = 'en') =>
  s.call<PriceVersionDto>('POST', '/web/price/add', { token, body, lang });
const edit = (token: string, body: unknown, lang: 'zh' | 'en' = 'en') =>
  s.call<PriceVersionDto>('POST', '/web/price/edit', { token, body, lang });
const remove = (token: string, ids: number[], lang: 'zh' | 'en' = 'en') =>
  s.call<{ removed: number }>('POST', '/web/price/remove', { token, body: { ids }, lang });
const get = (token: string, stationId: number, groupId?: number) =>
  s.call<PriceDetailDto>('GET', `/web/price/get?stationId=${stationId}${groupId ? `&groupId=${groupId}` : ''}`, { token });
const list = (token: string, q = '') =>
  s.call<{ list: PriceRowDto[]; total: number }>('GET', `/web/price/list?page=1&limit=50${q}`, { token });
const groupList = (token: string, q = '') =>
  s.call<{ list: PriceRowDto[]; total: number }>('GET', `/web/price/groupList?page=1&limit=50${q}`, { token });
const priceCount = async () => (await db.select({ n: count() }).from(price))[0]!.n;

/** Marks a session billed with a version, as settlement would. */
async function billWith(transactionId: number, priceId: number) {
  await db
    .insert(billLine)
    .values({ transactionId, priceId, tier: 'flat', kind: 'elec', energyWh: 1000, unitPrice: 8000, amountCents: 80 });
  await db.update(chargingTransaction).set({ billedAt: new Date(), totalCents: 80 }).where(eq(chargingTransaction.id, transactionId));
}

beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
  admin = await s.login();
});
afterAll(() => s.close());

describe('station prices', () => {
  it('adds a version, lists it as current with its fees, and edits an unused version in place', async () => {
    const st = await newStation();
    const before = (await list(admin, `&stationName=${st.name}`)).data.list[0]!;
    expect(before).toMatchObject({
      stationId: st.id,
      currentId: null,
      sharpElec: null,
      slots: null,
      versionCount: 0,
      timeZone: 'Asia/Shanghai',
    });

    const from = new Date(Date.now() - 3600_000).toISOString();
    const r = await add(admin, { stationId: st.id, effectiveFrom: from, ...fees, slots: painted, confirmPast: true });
    expect(r.code, r.msg).toBe(200);
    expect(r.data).toMatchObject({
      stationId: st.id,
      groupId: null,
      effectiveFrom: from,
      ...fees,
      slots: painted,
      used: false,
      billedCount: 0,
    });
    expect(r.data.createdByName).toBe('admin');

    const row = (await list(admin, `&stationName=${st.name}`)).data.list[0]!;
    expect(row).toMatchObject({ currentId: r.data.id, effectiveFrom: from, ...fees, slots: painted, versionCount: 1, upcomingFrom: null });

    const e = await edit(admin, { id: r.data.id, effectiveFrom: from, ...fees, peakElec: 20000, slots: allFlat, confirmPast: true });
    expect(e.data).toMatchObject({ id: r.data.id, peakElec: 20000, slots: allFlat, effectiveFrom: from });
    // Without an instant, the version takes effect now.
    const moved = await edit(admin, { id: r.data.id, ...fees, slots: allFlat });
    expect(moved.data.id).toBe(r.data.id);
    expect(Math.abs(new Date(moved.data.effectiveFrom).getTime() - Date.now())).toBeLessThan(60_000);
    expect((await get(admin, st.id)).data.versions).toHaveLength(1);
  });

  it('shows a future version as upcoming while the current one stays in force', async () => {
    const st = await newStation();
    const now = await add(admin, { stationId: st.id, ...fees, slots: allFlat });
    expect(now.code, now.msg).toBe(200);
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const next = await add(admin, { stationId: st.id, effectiveFrom: later, ...fees, flatElec: 9000, slots: allFlat });
    const row = (await list(admin, `&stationName=${st.name}`)).data.list[0]!;
    expect(row).toMatchObject({ currentId: now.data.id, flatElec: 8000, upcomingFrom: later, versionCount: 2 });
    const detail = (await get(admin, st.id)).data;
    expect(detail.currentId).toBe(now.data.id);
    expect(detail.versions.map((v) => v.id)).toEqual([next.data.id, now.data.id]);

    // Two versions of one price never share an instant.
    const twin = await add(admin, { stationId: st.id, effectiveFrom: later, ...fees, slots: allFlat });
    expect(twin).toMatchObject({ code: 409, data: { field: 'effectiveFrom' } });

    expect(await remove(admin, [next.data.id])).toMatchObject({ code: 200, data: { removed: 1 } });
    expect((await get(admin, st.id)).data.versions).toHaveLength(1);
  });

  it('refuses bad input naming the field in both languages, and stores nothing', async () => {
    const st = await newStation();
    const before = await priceCount();
    const ok = { stationId: st.id, ...fees, slots: painted };
    const cases: [unknown, string, string, string][] = [
      [
        { ...ok, sharpElec: 1_000_001 },
        'sharpElec',
        'Sharp electricity fee ($/kWh) must be between 0 and 100 with at most 4 decimals',
        '尖时电费（$/kWh）须在 0 到 100 之间，最多 4 位小数',
      ],
      [
        { ...ok, valleyService: -1 },
        'valleyService',
        'Valley service fee ($/kWh) must be between 0 and 100 with at most 4 decimals',
        '谷时服务费（$/kWh）须在 0 到 100 之间，最多 4 位小数',
      ],
      [
        { ...ok, peakElec: 0.5 },
        'peakElec',
        'Peak electricity fee ($/kWh) must be between 0 and 100 with at most 4 decimals',
        '峰时电费（$/kWh）须在 0 到 100 之间，最多 4 位小数',
      ],
      [
        { ...ok, reserveFeeCents: 100_001 },
        'reserveFeeCents',
        'Reservation fee ($ per reservation) must be between 0 and 1000 with at most 2 decimals',
        '预约费（$/次）须在 0 到 1000 之间，最多 2 位小数',
      ],
      [
        { ...ok, slots: painted.slice(1) },
        'slots',
        'Time slots must be the 48 half hours of the day, each with a tier',
        '分时时段须为全天 48 个半小时时段，每个时段一个费率',
      ],
      [
        { ...ok, slots: [...painted.slice(0, 47), 'noon'] },
        'slots.47',
        translate('en', 'validation.invalidOption', { field: 'Time slots' }),
        translate('zh', 'validation.invalidOption', { field: '分时时段' }),
      ],
      [
        { ...ok, flatService: undefined },
        'flatService',
        translate('en', 'validation.required', { field: 'Flat service fee ($/kWh)' }),
        translate('zh', 'validation.required', { field: '平时服务费（$/kWh）' }),
      ],
      [{ ...ok, effectiveFrom: 'soon' }, 'effectiveFrom', '', ''],
    ];
    for (const [body, field, en, zh] of cases) {
      const r = await add(admin, body);
      expect(r.code, field).toBe(400);
      expect((r.data as unknown as { field: string }).field).toBe(field);
      if (en) expect(r.msg).toBe(en);
      const rz = await add(admin, body, 'zh');
      if (zh) expect(rz.msg).toBe(zh);
      else expect(rz.msg).toMatch(/生效时间/);
    }
    expect(await priceCount()).toBe(before);
  });

  it('keeps a used version: editing makes a new version, removing is refused, nothing takes effect before a billed session', async () => {
    const st = await newStation();
    const v1 = (await add(admin, { stationId: st.id, effectiveFrom: '2026-01-01T00:00:00Z', ...fees, slots: painted, confirmPast: true }))
      .data;
    const t = await finishedSession(st.id, 1, new Date('2026-02-01T01:00:00Z'), new Date('2026-02-01T02:00:00Z'));
    await billWith(t.id, v1.id);
    const snapshot = await db.select().from(price).where(eq(price.id, v1.id));

    const e = await edit(admin, { id: v1.id, ...fees, flatElec: 9999, slots: allFlat });
    expect(e.code, e.msg).toBe(200);
    expect(e.data.id).not.toBe(v1.id);
    expect(e.data).toMatchObject({ stationId: st.id, groupId: null, flatElec: 9999, slots: allFlat, used: false });
    // Without an instant, the new version takes effect now.
    expect(Math.abs(new Date(e.data.effectiveFrom).getTime() - Date.now())).toBeLessThan(60_000);
    expect(await db.select().from(price).where(eq(price.id, v1.id))).toEqual(snapshot);

    const detail = (await get(admin, st.id)).data;
    expect(detail.versions.map((v) => [v.id, v.used, v.billedCount])).toEqual([
      [e.data.id, false, 0],
      [v1.id, true, 1],
    ]);
    expect(detail.currentId).toBe(e.data.id);

    const refused = await remove(admin, [v1.id, e.data.id]);
    expect(refused).toMatchObject({
      code: 409,
      msg: 'The version effective from 2026-01-01 08:00 has billed 1 sessions and cannot be removed',
    });
    expect((await remove(admin, [v1.id], 'zh')).msg).toBe('2026-01-01 08:00 生效的版本已有 1 笔订单结算，不能删除');
    expect((await get(admin, st.id)).data.versions).toHaveLength(2);

    // The session billed until 10:00 Shanghai time on 1 February: no version may start before that.
    const early = await add(admin, { stationId: st.id, effectiveFrom: '2026-02-01T01:30:00Z', ...fees, slots: allFlat, confirmPast: true });
    expect(early).toMatchObject({
      code: 409,
      data: { field: 'effectiveFrom' },
      msg: 'Sessions at this station are billed up to 2026-02-01 10:00 (station time); a version cannot take effect before then. Choose a later time or now',
    });
    // Nor may an unused version be moved to before it.
    const moved = await edit(admin, { id: e.data.id, effectiveFrom: '2026-01-15T00:00:00Z', ...fees, slots: allFlat, confirmPast: true });
    expect(moved).toMatchObject({ code: 409, data: { field: 'effectiveFrom' } });
    const after = await add(admin, { stationId: st.id, effectiveFrom: '2026-02-01T02:00:00Z', ...fees, slots: allFlat, confirmPast: true });
    expect(after.code, after.msg).toBe(200);
  });

  it('bills the sessions that waited for a price as soon as one is set for their time', async () => {
    const st = await newStation();
    const t = await finishedSession(st.id, 1, new Date('2026-03-01T23:30:00Z'), new Date('2026-03-02T00:30:00Z'));
    await db.update(chargingTransaction).set({ billingNote: 'noPrice' }).where(eq(chargingTransaction.id, t.id));
    const v = await add(admin, { stationId: st.id, effectiveFrom: '2026-03-01T00:00:00Z', ...fees, slots: painted, confirmPast: true });
    expect(v.code, v.msg).toBe(200);
    const [row] = await db.select().from(chargingTransaction).where(eq(chargingTransaction.id, t.id));
    // 5 kWh valley (07:30–08:00) and 5 kWh peak (08:00–08:30).
    expect(row).toMatchObject({ billingNote: null, elecFeeCents: 167 + 617, serviceFeeCents: 50 + 200 });
    expect(row!.billedAt).not.toBeNull();
    const lines = await db.select().from(billLine).where(eq(billLine.transactionId, t.id));
    expect(new Set(lines.map((l) => l.priceId))).toEqual(new Set([v.data.id]));
    expect((await get(admin, st.id)).data.versions[0]).toMatchObject({ used: true, billedCount: 1 });
  });
});

const impact = (token: string, body: unknown, lang: 'zh' | 'en' = 'en') =>
  s.call<PriceImpactDto>('POST', '/web/price/impact', { token, body, lang });
const txRow = async (id: number) => (await db.select().from(chargingTransaction).where(eq(chargingTransaction.id, id)))[0]!;

describe('back-dated versions', () => {
  it('refuses a version for the past without confirmation, naming the sessions and money it re-prices, and stores nothing', async () => {
    const st = await newStation();
    const waiting = await finishedSession(st.id, 1, new Date('2026-03-01T23:30:00Z'), new Date('2026-03-02T00:30:00Z'));
    await db.update(chargingTransaction).set({ billingNote: 'noPrice' }).where(eq(chargingTransaction.id, waiting.id));
    const before = await priceCount();
    const body = { stationId: st.id, effectiveFrom: '2026-03-01T00:00:00Z', ...fees, slots: painted };

    // The preview prices the waiting session with the billing code: 5 kWh valley and 5 kWh peak.
    const seen = await impact(admin, body);
    expect(seen.code, seen.msg).toBe(200);
    expect(seen.data).toEqual({
      effectiveFrom: '2026-03-01T00:00:00.000Z',
      backdated: true,
      sessions: 1,
      finished: 1,
      running: 0,
      unpriced: 1,
      currentCents: 0,
      newCents: 167 + 617 + 50 + 200,
    });

    const en = await add(admin, body);
    expect(en).toMatchObject({ code: 409, data: { field: 'confirmPast' } });
    expect(en.msg).toBe(
      'This version takes effect in the past (2026-03-01 08:00, station time): it re-prices 1 unbilled sessions ($0.00 now, $10.34 with it). Confirm to save it',
    );
    const zh = await add(admin, body, 'zh');
    expect(zh.msg).toBe(
      '该版本自 2026-03-01 08:00（场站时间）起生效，早于当前时间：将重新计价 1 笔未结算订单（现为 $0.00，改后 $10.34）。请确认后再保存',
    );
    expect(await priceCount()).toBe(before);
    expect(await txRow(waiting.id)).toMatchObject({ billedAt: null, totalCents: null });
    // Saving from now, or for the future, needs no confirmation.
    expect((await impact(admin, { ...body, effectiveFrom: undefined })).data).toMatchObject({ backdated: false, sessions: 0 });
  });

  it('saves it when confirmed, records the figures in the system log and bills the waiting session', async () => {
    const st = await newStation();
    const waiting = await finishedSession(st.id, 1, new Date('2026-03-01T23:30:00Z'), new Date('2026-03-02T00:30:00Z'));
    const r = await add(admin, { stationId: st.id, effectiveFrom: '2026-03-01T00:00:00Z', ...fees, slots: painted, confirmPast: true });
    expect(r.code, r.msg).toBe(200);
    expect(r.msg).toBe(
      'Saved, as confirmed, a version effective from 2026-03-01 08:00 (station time): 1 unbilled sessions re-priced ($0.00 before, $10.34 now)',
    );
    expect(await txRow(waiting.id)).toMatchObject({ totalCents: 1034 });
    const [log] = await db
      .select()
      .from(systemLog)
      .where(eq(systemLog.operand, `price:station:${st.id}`));
    expect(log).toMatchObject({ result: 200, msg: r.msg, request: expect.objectContaining({ confirmPast: true }) });
  });

  it('counts a running session up to its last sample, and a changed fee of the version in force', async () => {
    const st = await newStation();
    const v = await add(admin, { stationId: st.id, effectiveFrom: '2026-03-01T00:00:00Z', ...fees, slots: allFlat, confirmPast: true });
    expect(v.code, v.msg).toBe(200);
    const t = await finishedSession(st.id, 1, new Date(Date.now() - 3600_000), new Date());
    // Still charging: 4 kWh so far.
    await db
      .update(chargingTransaction)
      .set({ stoppedAt: null, meterStopWh: null, energyWh: 4000, lastMeterWh: 4000, lastSampleAt: new Date(Date.now() - 60_000) })
      .where(eq(chargingTransaction.id, t.id));
    const body = { id: v.data.id, effectiveFrom: '2026-03-01T00:00:00Z', ...fees, flatElec: 10000, slots: allFlat };
    const seen = await impact(admin, body);
    // flat: 0.8 + 0.3 $/kWh → 1.0 + 0.3 $/kWh over 4 kWh.
    expect(seen.data).toMatchObject({
      backdated: true,
      sessions: 1,
      running: 1,
      finished: 0,
      unpriced: 0,
      currentCents: 440,
      newCents: 520,
    });
    expect(await edit(admin, body)).toMatchObject({ code: 409, data: { field: 'confirmPast' } });
    expect((await get(admin, st.id)).data.versions[0]).toMatchObject({ id: v.data.id, flatElec: 8000 });
    const saved = await edit(admin, { ...body, confirmPast: true });
    expect(saved.code, saved.msg).toBe(200);
    expect(saved.data).toMatchObject({ id: v.data.id, flatElec: 10000 });
    // A version for the future changes nothing yet and needs no confirmation.
    const later = { stationId: st.id, effectiveFrom: new Date(Date.now() + 86_400_000).toISOString(), ...fees, slots: allFlat };
    expect((await impact(admin, later)).data).toMatchObject({ backdated: false, sessions: 0 });
    expect((await add(admin, later)).code).toBe(200);
  });

  it('never changes a settled bill: confirmation does not pass the billed sessions, and bills before the instant stay as they are', async () => {
    const st = await newStation();
    const v1 = await add(admin, { stationId: st.id, effectiveFrom: '2026-01-01T00:00:00Z', ...fees, slots: allFlat, confirmPast: true });
    const done = await finishedSession(st.id, 1, new Date('2026-02-01T01:00:00Z'), new Date('2026-02-01T02:00:00Z'));
    await createBilling({ db, ledger: createLedger({ db }) }).settle(done.id);
    const settled = await txRow(done.id);
    expect(settled.totalCents).toBe(1100);
    const lines = await db.select().from(billLine).where(eq(billLine.transactionId, done.id));
    const [cardRow] = await db.select().from(card).where(eq(card.id, done.cardId!));

    const early = { stationId: st.id, effectiveFrom: '2026-02-01T01:30:00Z', ...fees, flatElec: 50000, slots: allFlat, confirmPast: true };
    expect(await add(admin, early)).toMatchObject({ code: 409, data: { field: 'effectiveFrom' } });
    expect(await edit(admin, { ...early, id: v1.data.id })).toMatchObject({ code: 409, data: { field: 'effectiveFrom' } });
    const after = await add(admin, { ...early, effectiveFrom: '2026-02-01T02:00:00Z' });
    expect(after.code, after.msg).toBe(200);

    expect(await txRow(done.id)).toEqual(settled);
    expect(await db.select().from(billLine).where(eq(billLine.transactionId, done.id))).toEqual(lines);
    expect((await db.select().from(card).where(eq(card.id, done.cardId!)))[0]).toEqual(cardRow);
  });

  it("answers 404 for another provider's station or version and changes nothing", async () => {
    const other = await createOperator(db, {
      permissions: allPermissions.filter((x) => x.startsWith('finance:price:')),
      rolePaths: allMenuPaths,
    });
    const token = await s.login(other.user.username, other.user.password);
    const st = await newStation();
    const v = await add(admin, { stationId: st.id, ...fees, slots: allFlat });
    expect((await impact(token, { stationId: st.id, ...fees, slots: allFlat })).code).toBe(404);
    expect((await impact(token, { id: v.data.id, ...fees, slots: allFlat })).code).toBe(404);
    const noStation = await impact(admin, { ...fees, slots: allFlat }, 'zh');
    expect(noStation).toMatchObject({ code: 400, data: { field: 'stationId' } });
    expect(noStation.msg).toMatch(/场站/);
  });
});

describe('group prices', () => {
  it('adds a group price at a station, lists it as station × group, and refuses a group of another provider', async () => {
    const st = await newStation();
    const g = await newGroup();
    const r = await add(admin, { stationId: st.id, groupId: g.id, ...fees, slots: allFlat });
    expect(r.code, r.msg).toBe(200);
    expect(r.data.groupId).toBe(g.id);

    const gl = await groupList(admin, `&stationName=${st.name}`);
    expect(gl.code, gl.msg).toBe(200);
    const rows = gl.data;
    expect(rows).toMatchObject({
      total: 1,
      list: [{ stationId: st.id, groupId: g.id, groupName: g.name, currentId: r.data.id, versionCount: 1 }],
    });
    expect((await groupList(admin, `&groupName=${g.name}`)).data.total).toBe(1);
    // The station's own price is separate.
    expect((await list(admin, `&stationName=${st.name}`)).data.list[0]).toMatchObject({ currentId: null, versionCount: 0 });

    const detail = (await get(admin, st.id, g.id)).data;
    expect(detail).toMatchObject({ groupId: g.id, groupName: g.name, currentId: r.data.id });
    expect(detail.groups.find((x) => x.id === g.id)).toEqual({ id: g.id, name: g.name, hasPrice: true });

    const other = await createOperator(db);
    const foreign = await newGroup(other.providerId);
    const bad = await add(admin, { stationId: st.id, groupId: foreign.id, ...fees, slots: allFlat });
    expect(bad).toMatchObject({ code: 400, data: { field: 'groupId' } });
    expect(bad.msg).toBe(`User group "${foreign.name}" and station "${st.name}" belong to different providers`);
    expect((await get(admin, st.id, foreign.id)).code).toBe(404);
  });
});

describe('scope', () => {
  const financePermissions = allPermissions.filter((p) => p.startsWith('finance:price:'));

  it("answers 404 for another provider's stations and versions and lists only one's own", async () => {
    const a = await createOperator(db, { permissions: financePermissions, rolePaths: allMenuPaths });
    const b = await createOperator(db, { permissions: financePermissions, rolePaths: allMenuPaths });
    const ta = await s.login(a.user.username, a.user.password);
    const tb = await s.login(b.user.username, b.user.password);
    const st = await newStation(a.providerId);
    const v = await add(ta, { stationId: st.id, ...fees, slots: allFlat });
    expect(v.code, v.msg).toBe(200);
    const snapshot = await db.select().from(price).where(eq(price.stationId, st.id));

    expect((await get(tb, st.id)).code).toBe(404);
    expect((await add(tb, { stationId: st.id, ...fees, slots: allFlat })).code).toBe(404);
    expect((await edit(tb, { id: v.data.id, ...fees, slots: painted })).code).toBe(404);
    expect((await remove(tb, [v.data.id])).code).toBe(404);
    expect((await list(tb)).data.list.map((r) => r.stationId)).not.toContain(st.id);
    expect((await list(ta)).data.list.map((r) => r.stationId)).toEqual([st.id]);
    expect(await db.select().from(price).where(eq(price.stationId, st.id))).toEqual(snapshot);
  });

  it('shows a station-bound user only its stations', async () => {
    const op = await createOperator(db, { permissions: financePermissions, rolePaths: allMenuPaths });
    const mine = await newStation(op.providerId);
    const other = await newStation(op.providerId);
    const bound = await createUser(db, { providerId: op.providerId, roleId: op.role.id, stationIds: [mine.id] });
    const token = await s.login(bound.username, bound.password);
    expect((await list(token)).data).toMatchObject({ total: 1, list: [{ stationId: mine.id }] });
    expect((await get(token, other.id)).code).toBe(404);
    expect((await add(token, { stationId: other.id, ...fees, slots: allFlat })).code).toBe(404);
    expect((await add(token, { stationId: mine.id, ...fees, slots: allFlat })).code).toBe(200);
  });

  it('writes one system-log row per mutation', async () => {
    const st = await newStation();
    const before = (await db.select({ n: count() }).from(systemLog))[0]!.n;
    const v = await add(admin, { stationId: st.id, ...fees, slots: allFlat });
    await edit(admin, { id: v.data.id, ...fees, slots: painted });
    await remove(admin, [v.data.id]);
    expect((await db.select({ n: count() }).from(systemLog))[0]!.n - before).toBe(3);
    const rows = await db
      .select()
      .from(systemLog)
      .where(eq(systemLog.operand, `price:station:${st.id}`));
    expect(rows).toHaveLength(1);
  });
});

describe('helpers', () => {
  it('picks the version in force and the next one', () => {
    const at = (iso: string, id: number) => ({ id, effectiveFrom: new Date(iso) });
    const vs = [at('2026-01-01T00:00:00Z', 1), at('2026-02-01T00:00:00Z', 2), at('2026-03-01T00:00:00Z', 3)];
    const { current, next } = currentAndNext(vs, new Date('2026-02-10T00:00:00Z'));
    expect([current?.id, next?.id]).toEqual([2, 3]);
    expect(currentAndNext(vs, new Date('2025-12-31T00:00:00Z')).current).toBeUndefined();
  });

  it("formats an instant in the station's zone", () => {
    expect(stationTime(new Date('2026-02-01T02:00:00Z'), 'Asia/Shanghai')).toBe('2026-02-01 10:00');
    expect(stationTime(new Date('2026-07-01T12:30:00Z'), 'Europe/Berlin')).toBe('2026-07-01 14:30');
  });
});

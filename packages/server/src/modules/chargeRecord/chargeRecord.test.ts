import { api, MAX_PROCESS_SAMPLES, type ChargeRecordDetail, type ChargeRecordDto } from '@csms/contract';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import type { Db } from '../../db/client.js';
import {
  card,
  chargePoint,
  chargeUser,
  chargingTransaction,
  connector,
  ledger,
  meterValue,
  price,
  station,
  systemLog,
  systemUser,
} from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { keysetBatches } from '../../lib/export.js';
import { createLedger } from '../cards/ledger.js';
import { createBilling } from '../billing/settle.js';
import { createChargeRecordRepo } from './chargeRecord.repo.js';
import { exportColumnsFor } from './chargeRecord.routes.js';

let s: TestServer;
let db: Db;
let n = 0;
const uniq = (p: string) => `${p}${++n}${Math.random().toString(36).slice(2, 6)}`;

const PERMS = ['record:charge:list', 'record:charge:query', 'record:charge:export', 'record:charge:confirm'];

interface Site {
  providerId: number;
  stationId: number;
  otherStationId: number;
  pointId: number;
  serial: string;
  token: string;
}

// Valley before 08:00 Shanghai, peak 08:00–12:00, flat afterwards (as in the settlement tests).
const slots = Array.from({ length: 48 }, (_, i) => (i < 16 ? 'valley' : i < 24 ? 'peak' : 'flat')) as ('valley' | 'peak' | 'flat')[];
const fees = {
  sharpElec: 15000,
  sharpService: 5000,
  peakElec: 12345,
  peakService: 4000,
  flatElec: 8000,
  flatService: 3000,
  valleyElec: 3333,
  valleyService: 1000,
};

async function site(permissions = PERMS, withPrice = true): Promise<Site> {
  const op = await createOperator(db, { permissions, rolePaths: ['/historyRecord/chargeRecord'] });
  const mk = async (name: string, timeZone = 'Asia/Shanghai') =>
    (
      await db
        .insert(station)
        .values({
          providerId: op.providerId,
          name: uniq(name),
          country: 'CN',
          address: '1 Road',
          longitude: 121,
          latitude: 31,
          timeZone,
        })
        .returning()
    )[0]!.id;
  const stationId = await mk('st');
  // The other station keeps another zone: each record carries its own station's.
  const otherStationId = await mk('other', 'America/New_York');
  const serial = uniq('SN');
  const [cp] = await db
    .insert(chargePoint)
    .values({ providerId: op.providerId, stationId, serialNumber: serial, name: uniq('pt'), equipmentType: 'ac', ratedPowerW: 7000 })
    .returning();
  await db.insert(connector).values({ chargePointId: cp!.id, connectorNo: 1, standard: 'ac', type: 'Type2' });
  if (withPrice) {
    await db
      .insert(price)
      .values({ providerId: op.providerId, stationId, effectiveFrom: new Date('2026-01-01T00:00:00Z'), slots, ...fees });
  }
  return {
    providerId: op.providerId,
    stationId,
    otherStationId,
    pointId: cp!.id,
    serial,
    token: await s.login(op.user.username, op.user.password),
  };
}

async function cardOf(x: Site, balanceCents = 10_000) {
  const [u] = await db
    .insert(chargeUser)
    .values({ providerId: x.providerId, account: uniq('acct'), userType: 'card' })
    .returning();
  const [c] = await db
    .insert(card)
    .values({
      providerId: x.providerId,
      cardNumber: uniq('NO'),
      physicalId: uniq('UID').slice(0, 20),
      chargeUserId: u!.id,
      balanceCents,
      expireAt: new Date('2030-01-01'),
    })
    .returning();
  return { card: c!, user: u! };
}

/** 07:30–08:30 Shanghai on 2 March 2026, 7 kWh at a constant rate, samples every 10 minutes. */
async function session(x: Site, v: Partial<typeof chargingTransaction.$inferInsert> = {}) {
  // Starts a few seconds apart (a connector runs one session at a time); samples on the ten minutes,
  // so the 00:00Z (08:00 local) tier boundary falls on a sample whatever the start.
  const base = (v.startedAt as Date | undefined) ?? new Date('2026-03-01T23:30:00Z');
  const start = new Date(base.getTime() + (n++ % 50) * 1000);
  const jitter = start.getTime() - base.getTime();
  const [t] = await db
    .insert(chargingTransaction)
    .values({
      providerId: x.providerId,
      stationId: x.stationId,
      chargePointId: x.pointId,
      connectorNo: 1,
      idTag: 'TAG',
      startType: 'card',
      authStatus: 'Accepted',
      meterStartWh: 1000,
      meterStopWh: 8000,
      stoppedAt: new Date(base.getTime() + 3_600_000),
      energyWh: 7000,
      stopReason: 'EVDisconnected',
      ...v,
      startedAt: start,
    })
    .returning();
  await db.insert(meterValue).values(
    [1, 2, 3, 4, 5].map((k) => ({
      chargePointId: x.pointId,
      connectorNo: 1,
      transactionId: t!.id,
      sampledAt: new Date(base.getTime() + k * 600_000),
      energyWh: Math.round(1000 + (7000 * k) / 6),
      powerW: 7000,
      currentImportA: 30 + k,
      currentOfferedA: 32,
      voltageV: 230,
      soc: 40 + k * 5,
      temperatureC: 35 + k / 2,
    })),
  );
  return { ...t!, durationSec: 3600 - jitter / 1000 };
}

const list = (x: Site, q: Record<string, string | number> = {}) =>
  s.call<{ list: ChargeRecordDto[]; total: number }>(
    'GET',
    `${api.chargeRecord.list.path}?${new URLSearchParams({ limit: '50', ...q } as never)}`,
    {
      token: x.token,
    },
  );
const asc = (xs: (number | undefined)[]) => [...xs].sort((p, q) => p! - q!);
const ids = async (x: Site, q: Record<string, string | number> = {}) => {
  const r = await list(x, q);
  expect(r.code).toBe(200);
  return r.data.list.map((row) => row.id).sort((a, b) => a - b);
};

async function exportCsv(token: string, body: Record<string, unknown>, lang: 'zh' | 'en' = 'en') {
  const res = await fetch(`${s.url}/prod-api${api.chargeRecord.export.path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-language': lang },
    body: JSON.stringify({ format: 'csv', ...body }),
  });
  return { type: res.headers.get('content-type') ?? '', text: await res.text() };
}

let billing: ReturnType<typeof createBilling>;

beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
  billing = createBilling({ db, ledger: createLedger({ db }) });
});
afterAll(() => s.close());

describe('charging records: search', () => {
  let a: Site;
  const t: Record<string, number> = {};
  const names: Record<string, string> = {};

  beforeAll(async () => {
    a = await site();
    const c1 = await cardOf(a);
    const c2 = await cardOf(a);
    const first = await session(a, { cardId: c1.card.id, idTag: c1.card.physicalId });
    t.card = first.id;
    t.cardDuration = first.durationSec;
    t.remote = (
      await session(a, {
        chargeUserId: c2.user.id,
        startType: 'remote',
        stopReason: 'Remote',
        startedAt: new Date('2026-03-05T02:00:00Z'),
      })
    ).id;
    t.local = (await session(a, { cardId: c2.card.id, stopReason: null, startedAt: new Date('2026-03-10T02:00:00Z') })).id;
    t.invalid = (
      await session(a, { cardId: c1.card.id, valid: false, invalidReason: 'meterJump', startedAt: new Date('2026-03-12T02:00:00Z') })
    ).id;
    t.confirmed = (
      await session(a, { cardId: c1.card.id, valid: false, invalidReason: 'meterReset', confirmedAt: new Date(), confirmedBy: 1 })
    ).id;
    t.running = (await session(a, { cardId: c1.card.id, stoppedAt: null, meterStopWh: null })).id;
    t.other = (
      await session({ ...a, stationId: a.otherStationId }, { cardId: c1.card.id, startedAt: new Date('2026-04-01T00:00:00Z') })
    ).id;
    // The card of c2 stopped a session c1 started.
    await db.update(chargingTransaction).set({ stopIdTag: c2.card.physicalId }).where(eq(chargingTransaction.id, t.card!));
    names.c1Number = c1.card.cardNumber;
    names.c1Account = c1.user.account;
    names.c2Account = c2.user.account;
  });

  it('lists finished sessions only, newest first, with the joined names and the station’s time zone', async () => {
    const r = await list(a);
    expect(r.code).toBe(200);
    const all = [t.card, t.remote, t.local, t.invalid, t.confirmed, t.other];
    expect(r.data.total).toBe(all.length);
    expect(r.data.list.map((x) => x.id)).not.toContain(t.running);
    const starts = r.data.list.map((x) => x.startTime);
    expect([...starts].sort().reverse()).toEqual(starts);
    const row = r.data.list.find((x) => x.id === t.card)!;
    expect(row).toMatchObject({
      serialNumber: a.serial,
      connectorNo: 1,
      account: names.c1Account,
      cardNumber: names.c1Number,
      startType: 'card',
      energyWh: 7000,
      durationSec: t.cardDuration,
      validity: 'valid',
      stopAccount: names.c2Account,
      stationTimeZone: 'Asia/Shanghai',
    });
    expect(r.data.list.find((x) => x.id === t.other)).toMatchObject({ stationId: a.otherStationId, stationTimeZone: 'America/New_York' });
    // Remote start: the account comes from the charge user, no card.
    expect(r.data.list.find((x) => x.id === t.remote)).toMatchObject({ account: names.c2Account, cardNumber: null, startType: 'remote' });
  });

  it('filters by time range, station, point, account, card, start type, stop reason and validity', async () => {
    expect(await ids(a, { startTime: '2026-03-04T00:00:00Z', endTime: '2026-03-11T00:00:00Z' })).toEqual(asc([t.remote, t.local]));
    expect(await ids(a, { stationId: a.otherStationId })).toEqual([t.other]);
    expect(await ids(a, { pointId: a.pointId, startTime: '2026-03-20T00:00:00Z' })).toEqual([t.other]);
    expect(await ids(a, { serialNumber: a.serial.slice(2) })).toHaveLength(6);
    expect(await ids(a, { account: names.c2Account! })).toEqual(asc([t.remote, t.local]));
    expect(await ids(a, { cardNumber: names.c1Number! })).toEqual(asc([t.card, t.invalid, t.confirmed, t.other]));
    expect(await ids(a, { startType: 'remote' })).toEqual([t.remote]);
    expect(await ids(a, { stopReason: 'Remote' })).toEqual([t.remote]);
    // OCPP 1.6 leaves out the reason when it is Local.
    expect(await ids(a, { stopReason: 'Local' })).toEqual([t.local]);
    expect(await ids(a, { validity: 'invalid' })).toEqual([t.invalid]);
    expect(await ids(a, { validity: 'confirmed' })).toEqual([t.confirmed]);
    expect(await ids(a, { validity: 'valid' })).toEqual(asc([t.card, t.remote, t.local, t.other]));
    expect(await ids(a, { id: t.remote! })).toEqual([t.remote]);
  });

  it('refuses a bad filter naming the field in both languages', async () => {
    const en = await list(a, { validity: 'maybe' });
    expect(en.code).toBe(400);
    expect(en.msg).toContain('Validity');
    const zh = await s.call('GET', `${api.chargeRecord.list.path}?startType=x`, { token: a.token, lang: 'zh' });
    expect(zh.code).toBe(400);
    expect(zh.msg).toContain('启动方式');
  });

  it('hides other providers and other stations of station-bound users', async () => {
    const b = await site();
    expect((await list(b)).data.total).toBe(0);
    const r = await s.call('GET', `${api.chargeRecord.get.path}?id=${t.card}`, { token: b.token });
    expect(r.code).toBe(404);
    const bound = await createOperator(db, { providerId: a.providerId, permissions: PERMS });
    await db
      .update(systemUser)
      .set({ stationIds: [a.otherStationId] })
      .where(eq(systemUser.id, bound.user.id));
    const token = await s.login(bound.user.username, bound.user.password);
    expect(await ids({ ...a, token })).toEqual([t.other]);
    expect((await s.call('GET', `${api.chargeRecord.get.path}?id=${t.card}`, { token })).code).toBe(404);
    expect((await s.call('POST', api.chargeRecord.processData.path, { token, body: { transactionId: t.card } })).code).toBe(404);
  });
});

describe('charging records: detail, process data, confirmation', () => {
  it('shows a billed record with its lines, money in cents and its station', async () => {
    const a = await site();
    const c = await cardOf(a);
    const tx = await session(a, { cardId: c.card.id, idTag: c.card.physicalId });
    expect(await billing.settle(tx.id)).toMatchObject({ kind: 'billed', totalCents: 724 });
    const r = await s.call<ChargeRecordDetail>('GET', `${api.chargeRecord.get.path}?id=${tx.id}`, { token: a.token });
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({
      id: tx.id,
      elecFeeCents: 549,
      serviceFeeCents: 175,
      reserveFeeCents: 0,
      totalCents: 724,
      paidFrom: 'card',
      stationAddress: '1 Road',
      stationTimeZone: 'Asia/Shanghai',
    });
    expect(r.data.lines.map((l) => [l.tier, l.kind, l.energyWh, l.unitPrice, l.amountCents]).sort()).toEqual([
      ['peak', 'elec', 3500, 12345, 432],
      ['peak', 'service', 3500, 4000, 140],
      ['valley', 'elec', 3500, 3333, 117],
      ['valley', 'service', 3500, 1000, 35],
    ]);
    expect(r.data.lines[0]!.effectiveFrom).toBe('2026-01-01T00:00:00.000Z');
  });

  it('returns the process data in time order, thinned evenly for long sessions', async () => {
    const a = await site();
    const tx = await session(a);
    const r = await s.call<{ samples: { at: string; soc: number; temperatureC: number; currentOfferedA: number }[]; thinned: boolean }>(
      'POST',
      api.chargeRecord.processData.path,
      { token: a.token, body: { transactionId: tx.id } },
    );
    expect(r.code).toBe(200);
    expect(r.data.thinned).toBe(false);
    expect(r.data.samples.map((x) => x.soc)).toEqual([45, 50, 55, 60, 65]);
    expect(r.data.samples[0]).toMatchObject({ temperatureC: 35.5, currentOfferedA: 32 });

    const long = await session(a, { startedAt: new Date('2026-05-01T00:00:00Z') });
    const total = MAX_PROCESS_SAMPLES * 2 + 7;
    await db.insert(meterValue).values(
      Array.from({ length: total }, (_, k) => ({
        chargePointId: a.pointId,
        connectorNo: 1,
        transactionId: long.id,
        sampledAt: new Date(Date.parse('2026-04-30T23:00:00Z') + (k + 1) * 1000),
        energyWh: 1000 + k,
      })),
    );
    const t2 = await s.call<{ samples: { at: string; energyWh: number }[]; thinned: boolean }>('POST', api.chargeRecord.processData.path, {
      token: a.token,
      body: { transactionId: long.id },
    });
    expect(t2.data.thinned).toBe(true);
    expect(t2.data.samples.length).toBeLessThanOrEqual(MAX_PROCESS_SAMPLES + 1);
    expect(t2.data.samples.length).toBeGreaterThan(MAX_PROCESS_SAMPLES / 2);
    const times = t2.data.samples.map((x) => x.at);
    expect([...times].sort()).toEqual(times);
    expect(times[0]).toBe('2026-04-30T23:00:01.000Z');
    // The session's last sample is kept.
    const kept = await db.select({ at: meterValue.sampledAt }).from(meterValue).where(eq(meterValue.transactionId, long.id));
    expect(times.at(-1)).toBe(new Date(Math.max(...kept.map((k) => k.at.getTime()))).toISOString());
  });

  it('confirms an invalid record once: billed once through the ledger, one system-log row per call', async () => {
    const a = await site();
    const c = await cardOf(a, 10_000);
    const tx = await session(a, { cardId: c.card.id, valid: false, invalidReason: 'meterJump' });
    expect(await billing.settle(tx.id)).toEqual({ kind: 'skipped', reason: 'invalid' });

    const logs = async () =>
      (await db.select().from(systemLog).where(eq(systemLog.operation, 'confirm'))).filter((l) => l.operand === `chargeRecord:${tx.id}`);
    const r = await s.call<ChargeRecordDetail>('POST', api.chargeRecord.confirm.path, { token: a.token, body: { id: tx.id } });
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ validity: 'confirmed', totalCents: 724, paidFrom: 'card', invalidReason: 'meterJump' });
    expect(r.data.confirmedByName).toBeTruthy();
    expect(r.data.lines).toHaveLength(4);
    expect(await logs()).toHaveLength(1);

    const again = await s.call('POST', api.chargeRecord.confirm.path, { token: a.token, body: { id: tx.id }, lang: 'zh' });
    expect(again.code).toBe(409);
    expect(again.msg).toContain('已被确认');
    expect(await logs()).toHaveLength(2);
    const charges = await db
      .select()
      .from(ledger)
      .where(and(eq(ledger.cardId, c.card.id), eq(ledger.tradeType, 'charge')));
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ amountCents: -724, transactionRef: String(tx.id) });
    const [bal] = await db.select({ b: card.balanceCents }).from(card).where(eq(card.id, c.card.id));
    expect(bal!.b).toBe(10_000 - 724);
  });

  it('refuses to confirm a valid or running record, another provider’s, or without the permission', async () => {
    const a = await site();
    const valid = await session(a);
    const running = await session(a, { valid: false, stoppedAt: null, meterStopWh: null });
    const r1 = await s.call('POST', api.chargeRecord.confirm.path, { token: a.token, body: { id: valid.id } });
    expect(r1.code).toBe(409);
    expect(r1.msg).toContain('valid');
    const r2 = await s.call('POST', api.chargeRecord.confirm.path, { token: a.token, body: { id: running.id } });
    expect(r2.code).toBe(409);
    const invalid = await session(a, { valid: false, invalidReason: 'meterJump' });
    const b = await site();
    expect((await s.call('POST', api.chargeRecord.confirm.path, { token: b.token, body: { id: invalid.id } })).code).toBe(404);
    const viewer = await site(['record:charge:list', 'record:charge:query']);
    expect((await s.call('POST', api.chargeRecord.confirm.path, { token: viewer.token, body: { id: invalid.id } })).code).toBe(403);
    const [row] = await db.select().from(chargingTransaction).where(eq(chargingTransaction.id, invalid.id));
    expect(row).toMatchObject({ confirmedAt: null, billedAt: null });
  });

  it('warns (601) when a confirmed record still cannot be billed', async () => {
    const a = await site(PERMS, false);
    const c = await cardOf(a);
    const tx = await session(a, { cardId: c.card.id, valid: false, invalidReason: 'meterBelowStart' });
    const en = await s.call<ChargeRecordDetail>('POST', api.chargeRecord.confirm.path, { token: a.token, body: { id: tx.id } });
    expect(en.code).toBe(601);
    expect(en.msg).toBe('The record is confirmed but still cannot be billed: No price applies at the station');
    expect(en.data).toMatchObject({ validity: 'confirmed', billingNote: 'noPrice', totalCents: null });
  });
});

describe('charging records: export', () => {
  it('streams the configured columns with money in $ and energy in kWh, in the caller’s language', async () => {
    const a = await site();
    const c = await cardOf(a);
    const tx = await session(a, { cardId: c.card.id });
    await billing.settle(tx.id);
    const en = await exportCsv(a.token, {});
    expect(en.type).toContain('text/csv');
    const [head, row] = en.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(head!.split(',').slice(0, 3)).toEqual(['Transaction ID', 'Station', 'Serial number']);
    expect(head).toContain('Cost ($)');
    expect(head).toContain('Energy (kWh)');
    const cells = row!.split(',');
    const col = (name: string) => cells[head!.split(',').indexOf(name)];
    expect(col('Transaction ID')).toBe(String(tx.id));
    expect(col('Energy (kWh)')).toBe('7');
    expect(col('Cost ($)')).toBe('7.24');
    expect(col('Elec fee ($)')).toBe('5.49');
    expect(col('Duration')).toBe(
      `0:${String(Math.floor(tx.durationSec / 60)).padStart(2, '0')}:${String(tx.durationSec % 60).padStart(2, '0')}`,
    );
    expect(col('Validity')).toBe('Valid');
    expect(col('Start type')).toBe('Card swipe');

    const zh = await exportCsv(a.token, {}, 'zh');
    expect(zh.text).toContain('费用（元）');
    expect(zh.text).toContain('有效');

    // The export configuration picks and orders the columns.
    const admin = await s.login();
    const saved = await s.call('POST', api.exportConfig.save.path, {
      token: admin,
      body: { exportSource: 'chargeRecord', exportItemList: ['totalCents', 'id'] },
    });
    expect(saved.code).toBe(200);
    const adminExport = await exportCsv(admin, { id: tx.id });
    expect(
      adminExport.text
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n'),
    ).toEqual(['Cost ($),Transaction ID', `7.24,${tx.id}`]);
  });

  it('shows a record closed late and its bill adjustment in the exported sheet, in both languages', async () => {
    const a = await site();
    const c = await cardOf(a);
    const lateStopAt = new Date('2026-03-02T02:00:00Z');
    const down = await session(a, { cardId: c.card.id, totalCents: 300, lateStopAt, adjustmentCents: -150 });
    const up = await session(a, { cardId: c.card.id, totalCents: 300, lateStopAt, adjustmentCents: 450 });
    const onTime = await session(a, { cardId: c.card.id, totalCents: 300 });

    const sheet = async (lang: 'en' | 'zh') => {
      const res = await fetch(`${s.url}/prod-api${api.chargeRecord.export.path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json', 'x-language': lang },
        body: JSON.stringify({ format: 'xlsx' }),
      });
      expect(res.headers.get('content-type')).toContain('spreadsheetml');
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
      const rows: unknown[][] = [];
      wb.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      const [head, ...body] = rows as [string[], ...unknown[][]];
      return { head, byId: new Map(body.map((r) => [Number(r[head.indexOf(lang === 'en' ? 'Transaction ID' : '交易编号')]), r])) };
    };

    const en = await sheet('en');
    const late = en.head.indexOf('Closed late at');
    const adjustment = en.head.indexOf('Bill adjustment ($)');
    expect(late).toBeGreaterThan(-1);
    expect(adjustment).toBeGreaterThan(-1);
    expect(en.byId.get(down.id)![late]).toBe(lateStopAt.toISOString());
    expect(en.byId.get(down.id)![adjustment]).toBe(-1.5);
    expect(en.byId.get(up.id)![adjustment]).toBe(4.5);
    // The settled cost stays beside its correction.
    expect(en.byId.get(up.id)![en.head.indexOf('Cost ($)')]).toBe(3);
    expect(en.byId.get(onTime.id)![late] ?? null).toBeNull();
    expect(en.byId.get(onTime.id)![adjustment] ?? null).toBeNull();

    const zh = await sheet('zh');
    expect(zh.head).toContain('补报结束时间');
    expect(zh.byId.get(down.id)![zh.head.indexOf('账单调整（元）')]).toBe(-1.5);

    // In CSV a negative adjustment is a number, not a neutralised formula.
    const csv = await exportCsv(a.token, { id: down.id });
    const [head, row] = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(row!.split(',')[head!.split(',').indexOf('Bill adjustment ($)')]).toBe('-1.5');
  });

  it('reads for the export the fields its columns show, with the values the list shows', async () => {
    const a = await site();
    const c = await cardOf(a);
    const stopper = await cardOf(a);
    const billed = await session(a, { cardId: c.card.id, idTag: c.card.physicalId, stopIdTag: stopper.card.physicalId });
    await billing.settle(billed.id);
    await session(a, { startType: 'remote', idTag: 'REMOTE', chargeUserId: c.user.id });
    await session(a, { cardId: c.card.id, valid: false, invalidReason: 'meterJump' });
    await session(a, { cardId: c.card.id, valid: false, invalidReason: 'meterReset', confirmedAt: new Date(), confirmedBy: 1 });
    await session(a, { stopReason: null, stoppedAt: new Date('2026-03-01T23:29:00Z'), energyWh: 0 });
    await session(a, { stoppedAt: null }); // running: in neither

    const repo = createChargeRecordRepo({ db });
    const principal = { providerIds: [a.providerId], stationIds: null } as Principal;
    const rows = [];
    // Pages of 2, so the keyset goes over page boundaries.
    for await (const page of keysetBatches((after, size) => repo.page(principal, {}, after, size), 2)) rows.push(...page);

    const keys = exportColumnsFor('en').map((col) => col.key);
    expect(Object.keys(rows[0]!).sort()).toEqual([...keys].sort());
    const shown = (await list(a)).data.list.sort((p, q) => p.id - q.id);
    expect(rows).toHaveLength(5);
    expect(rows).toEqual(shown.map((d) => Object.fromEntries(keys.map((k) => [k, d[k as keyof ChargeRecordDto]]))));
    expect(rows.find((r) => r.id === billed.id)).toMatchObject({
      account: c.user.account,
      stopAccount: stopper.user.account,
      totalCents: 724,
    });
  });

  it('asks for a shorter time range above CSMS_EXPORT_MAX_ROWS, in both languages', async () => {
    const a = await site();
    await session(a);
    await session(a, { startedAt: new Date('2026-03-20T00:00:00Z') });
    const max = s.config.exportMaxRows;
    s.config.exportMaxRows = 1;
    try {
      const en = await s.call('POST', api.chargeRecord.export.path, { token: a.token, body: { format: 'csv' } });
      expect(en.code).toBe(409);
      expect(en.msg).toBe('Too many rows to export (2, limit 1); please choose a shorter time period');
      const zh = await s.call('POST', api.chargeRecord.export.path, { token: a.token, body: { format: 'csv' }, lang: 'zh' });
      expect(zh.code).toBe(409);
      expect(zh.msg).toBe('导出数据过多（2 条，上限 1 条），请选择较短的时间段后再导出');
      // A shorter range fits.
      const ok = await exportCsv(a.token, { startTime: '2026-03-15T00:00:00Z' });
      expect(ok.type).toContain('text/csv');
      expect(ok.text.trim().split('\r\n')).toHaveLength(2);
    } finally {
      s.config.exportMaxRows = max;
    }
  });
});

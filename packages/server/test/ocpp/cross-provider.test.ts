import { api, type ChargeRecordDetail, type ChargeRecordDto } from '@csms/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.js';
import { card, chargeUser, chargingTransaction, ledger, price } from '../../src/db/schema.js';
import { createOperator } from '../fixtures.js';
import { startServer, type TestServer } from '../harness.js';
import { createPoint, eventually, iso, TestCharger } from './support.js';

/**
 * Issue 12 item 2: a session whose idTag was not Accepted for the charger's provider is billed to
 * nobody and attached to no card or charge user (another provider's or its own): it is kept (energy
 * was delivered), recorded as unauthorised, and what the charger's operator sees of the idTag is the
 * idTag itself.
 */

let s: TestServer;
let db: Db;
let n = 0;
const uniq = (p: string) => `${p}${++n}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
const PERMS = ['record:charge:list', 'record:charge:query', 'record:charge:export', 'monitor:charging:list'];
const slots = Array.from({ length: 48 }, () => 'flat' as const);

interface Tenant {
  providerId: number;
  token: string;
}

async function tenant(): Promise<Tenant> {
  const op = await createOperator(db, { permissions: PERMS, rolePaths: ['/historyRecord/chargeRecord', '/realTimeMonitor'] });
  return { providerId: op.providerId, token: await s.login(op.user.username, op.user.password) };
}

async function cardOf(t: Tenant, v: Partial<typeof card.$inferInsert> = {}, userStatus = 1) {
  const [u] = await db
    .insert(chargeUser)
    .values({ providerId: t.providerId, account: uniq('acct'), userType: 'card', status: userStatus })
    .returning();
  const [c] = await db
    .insert(card)
    .values({
      providerId: t.providerId,
      cardNumber: uniq('NO'),
      physicalId: uniq('UID').slice(0, 20),
      chargeUserId: u!.id,
      balanceCents: 10_000,
      expireAt: new Date(Date.now() + 365 * 86_400_000),
      ...v,
    })
    .returning();
  return { card: c!, user: u! };
}

const txRow = async (id: number) => (await db.select().from(chargingTransaction).where(eq(chargingTransaction.id, id)))[0]!;
const ledgerOf = (cardId: number) => db.select().from(ledger).where(eq(ledger.cardId, cardId));
const balanceOf = async (cardId: number) => (await db.select().from(card).where(eq(card.id, cardId)))[0]!.balanceCents;

let a: Tenant;
let b: Tenant;
let charger: TestCharger;
let minutesAgo = 600;

/** A one-hour, 5 kWh session on B's charger with `idTag`, stopped with the same tag; resolves once billing has looked at it. */
async function charge(idTag: string, whileRunning?: (transactionId: number) => Promise<void>) {
  const startedAt = new Date(Date.now() - (minutesAgo -= 70) * 60_000);
  const start = await charger.ok<{ transactionId: number; idTagInfo: { status: string } }>('StartTransaction', {
    connectorId: 1,
    idTag,
    meterStart: 1000,
    timestamp: iso(startedAt),
  });
  await charger.ok('MeterValues', {
    connectorId: 1,
    transactionId: start.transactionId,
    meterValue: [{ timestamp: iso(new Date(startedAt.getTime() + 30 * 60_000)), sampledValue: [{ value: '3500' }] }],
  });
  await whileRunning?.(start.transactionId);
  await charger.ok('StopTransaction', {
    transactionId: start.transactionId,
    meterStop: 6000,
    timestamp: iso(new Date(startedAt.getTime() + 60 * 60_000)),
    idTag,
  });
  const row = await eventually(async () => {
    const r = await txRow(start.transactionId);
    return r.billedAt || r.billingNote ? r : null;
  });
  return { status: start.idTagInfo.status, row };
}

const record = async (t: Tenant, id: number, lang: 'en' | 'zh' = 'en') => {
  const r = await s.call<{ list: ChargeRecordDto[] }>('GET', `${api.chargeRecord.list.path}?limit=10&id=${id}`, { token: t.token, lang });
  expect(r.code).toBe(200);
  return r.data.list[0]!;
};

async function exportCsv(t: Tenant, id: number, lang: 'en' | 'zh') {
  const res = await fetch(`${s.url}/prod-api${api.chargeRecord.export.path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json', 'x-language': lang },
    body: JSON.stringify({ format: 'csv', id }),
  });
  return res.text();
}

/** What B's operator sees of an unauthorised session: the raw idTag and the flag, nothing of a card or account. */
async function expectUnauthorised(id: number, idTag: string, reason: string, hidden: string[]) {
  const row = await txRow(id);
  expect(row).toMatchObject({ cardId: null, chargeUserId: null, billedAt: null, totalCents: null, billingNote: 'unauthorized' });
  const listed = await record(b, id);
  expect(listed).toMatchObject({ idTag, cardNumber: null, account: null, authorization: 'unauthorized', authReason: reason });
  const detail = await s.call<ChargeRecordDetail>('GET', `${api.chargeRecord.get.path}?id=${id}`, { token: b.token });
  expect(detail.data).toMatchObject({ idTag, cardNumber: null, account: null, authorization: 'unauthorized', lines: [] });
  for (const lang of ['en', 'zh'] as const) {
    const csv = await exportCsv(b, id, lang);
    expect(csv).toContain(idTag);
    expect(csv).toContain(lang === 'en' ? 'Unauthorized' : '未授权');
    for (const h of hidden) expect(csv).not.toContain(h);
  }
}

beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
  a = await tenant();
  b = await tenant();
  const p = await createPoint(db, { providerId: b.providerId, connectors: 1 });
  await db.insert(price).values({
    providerId: b.providerId,
    stationId: p.stationId,
    effectiveFrom: new Date('2020-01-01T00:00:00Z'),
    slots,
    sharpElec: 10_000,
    sharpService: 0,
    peakElec: 10_000,
    peakService: 0,
    flatElec: 10_000,
    flatService: 0,
    valleyElec: 10_000,
    valleyService: 0,
  });
  charger = await TestCharger.connect(s.url, p.serialNumber, { key: p.key });
});
afterAll(async () => {
  await charger.close();
  await s.close();
});

describe("a charger never bills another provider's card", () => {
  it("A's card at B's charger: Invalid, no ledger row of A, B sees the raw idTag only, flagged unauthorised", async () => {
    const { card: cardA, user: userA } = await cardOf(a);
    expect(await charger.ok('Authorize', { idTag: cardA.physicalId })).toEqual({ idTagInfo: { status: 'Invalid' } });
    const { status, row } = await charge(cardA.physicalId, async (id) => {
      // While it runs, the monitor shows B nothing of A either.
      const live = await s.call<{ list: { transactionId: number; idTag: string; account: string | null; cardNumber: string | null }[] }>(
        'GET',
        `${api.monitor.charging.path}?limit=10`,
        { token: b.token },
      );
      expect(live.data.list.find((x) => x.transactionId === id)).toMatchObject({
        idTag: cardA.physicalId,
        account: null,
        cardNumber: null,
      });
    });
    expect(status).toBe('Invalid');
    expect(row.energyWh).toBe(5000);
    expect(await ledgerOf(cardA.id)).toEqual([]);
    expect(await balanceOf(cardA.id)).toBe(10_000);
    await expectUnauthorised(row.id, cardA.physicalId, 'otherProvider', [cardA.cardNumber, userA.account]);
    // A's operator does not see B's record at all.
    expect(
      (await s.call<{ list: unknown[] }>('GET', `${api.chargeRecord.list.path}?limit=10&id=${row.id}`, { token: a.token })).data.list,
    ).toEqual([]);
  });

  it("an idTag that is the account of another provider's charge user is attached to nobody", async () => {
    const { user: userA } = await cardOf(a);
    const { status, row } = await charge(userA.account.slice(0, 20));
    expect(status).toBe('Invalid');
    await expectUnauthorised(row.id, userA.account.slice(0, 20), 'unknown', []);
  });

  it("B's own refused cards (lost, expired, disabled user) are treated the same: unauthorised, no ledger row", async () => {
    const lost = await cardOf(b, { status: 'lost' });
    const expired = await cardOf(b, { expireAt: new Date(Date.now() - 86_400_000) });
    const disabled = await cardOf(b, {}, 0);
    for (const [c, status, reason] of [
      [lost, 'Blocked', 'lost'],
      [expired, 'Expired', 'expired'],
      [disabled, 'Blocked', 'userDisabled'],
    ] as const) {
      const done = await charge(c.card.physicalId);
      expect(done.status).toBe(status);
      expect(await ledgerOf(c.card.id)).toEqual([]);
      expect(await balanceOf(c.card.id)).toBe(10_000);
      await expectUnauthorised(done.row.id, c.card.physicalId, reason, [c.card.cardNumber, c.user.account]);
    }
  });

  it("B's valid card is billed from its balance and shown with its card and account", async () => {
    const good = await cardOf(b);
    const { status, row } = await charge(good.card.physicalId);
    expect(status).toBe('Accepted');
    expect(row).toMatchObject({ cardId: good.card.id, chargeUserId: good.user.id, totalCents: 500, paidFrom: 'card' });
    expect((await ledgerOf(good.card.id)).map((l) => l.amountCents)).toEqual([-500]);
    expect(await record(b, row.id)).toMatchObject({
      cardNumber: good.card.cardNumber,
      account: good.user.account,
      authorization: 'authorized',
      authReason: 'accepted',
    });
  });

  it('names the flag in both languages', async () => {
    for (const [lang, words] of [
      ['en', ['Authorized', 'Unauthorized']],
      ['zh', ['已授权', '未授权']],
    ] as const) {
      const r = await s.call<{ dictValue: string; dictLabel: string }[]>('GET', '/system/dict/data/type/chargeAuthorization', {
        token: b.token,
        lang,
      });
      expect(r.data.map((d) => [d.dictValue, d.dictLabel])).toEqual([
        ['authorized', words[0]],
        ['unauthorized', words[1]],
      ]);
    }
    const zh = await s.call<{ list: ChargeRecordDto[] }>('GET', `${api.chargeRecord.list.path}?limit=10&authorization=unauthorized`, {
      token: b.token,
      lang: 'zh',
    });
    expect(zh.data.list.length).toBe(5);
    expect(zh.data.list.every((r) => r.authorization === 'unauthorized')).toBe(true);
  });
});

import { api, type ChargeUserDto, type MemberDto, type MemberLevelDto } from '@csms/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import type { Db } from '../../db/client.js';
import { billLine, chargingTransaction, ledger, memberStatus } from '../../db/schema.js';
import { createBilling, type Billing } from '../billing/settle.js';
import { createLedger } from '../cards/ledger.js';
import { createDiscounts } from './discounts.js';
import { createMembership, type Membership } from './membership.js';
import { pricedSite } from './ops-fixtures.js';

let s: TestServer;
let db: Db;
let billing: Billing;
let membership: Membership;
beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
  membership = createMembership({ db });
  billing = createBilling({ db, ledger: createLedger({ db }), hooks: createDiscounts({ membership }) });
});
afterAll(() => s.close());

const PERMS = [
  ...['list', 'query', 'add', 'edit', 'remove', 'export'].map((a) => `operate:memberLevel:${a}`),
  ...['list', 'query', 'override', 'recompute', 'export'].map((a) => `operate:member:${a}`),
  'user:chargeUser:list',
];
const DAY = 86_400_000;
/**
 * The UTC day `n` days before today: a session on it (07:30–08:30 Shanghai, ending the next UTC day
 * at 00:30) is over by now when n ≥ 2, and inside the rolling 12 months whenever the suite runs.
 */
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);

async function site() {
  const op = await createOperator(db, { permissions: PERMS, rolePaths: ['/operateManagement', '/operateManagement/membershipManage'] });
  const token = await s.login(op.user.username, op.user.password);
  const addLevel = async (b: Record<string, unknown>) => {
    const r = await s.call<MemberLevelDto>('POST', api.memberLevel.add.path, {
      token,
      body: { providerId: op.providerId, basis: 'spend', validityDays: 30, ...b },
    });
    expect(r.code, r.msg).toBe(200);
    return r.data;
  };
  return { op, token, addLevel, ...(await pricedSite(db, op.providerId)) };
}
const discountLines = (transactionId: number) =>
  db
    .select()
    .from(billLine)
    .where(and(eq(billLine.transactionId, transactionId), isNull(billLine.priceId)));

describe('membership levels', () => {
  it('reach a level by spend at settlement, discount the service fee as a bill line of their own, and fall after their validity', async () => {
    const x = await site();
    const silver = await x.addLevel({ name: 'Silver', sortOrder: 1, threshold: 500, discountPercent: 10 });
    const gold = await x.addLevel({ name: 'Gold', sortOrder: 2, threshold: 1400, discountPercent: 20 });
    const { card, user } = await x.newCard(100_000);

    // No level yet: the whole bill (549 electricity + 175 service).
    const t1 = await x.session(card.id, daysAgo(4));
    expect(await billing.settle(t1.id)).toMatchObject({ kind: 'billed', totalCents: 724 });
    expect(await discountLines(t1.id)).toEqual([]);
    // Settled 724 ≥ 500: silver, recomputed in the settlement.
    const m1 = await s.call<MemberDto>('GET', `${api.member.get.path}?id=${user.id}`, { token: x.token });
    expect(m1.data).toMatchObject({ levelName: 'Silver', spendCents: 724, energyWh: 7000 });

    // Silver: 10% of 175 = 17.5 → 18 off, half up.
    const t2 = await x.session(card.id, daysAgo(3));
    expect(await billing.settle(t2.id)).toMatchObject({ kind: 'billed', totalCents: 706 });
    expect((await discountLines(t2.id)).map((l) => [l.kind, l.refId, l.label, l.amountCents])).toEqual([
      ['member', silver.id, 'Silver', -18],
    ]);
    const [row] = await db.select().from(chargingTransaction).where(eq(chargingTransaction.id, t2.id));
    expect(row).toMatchObject({ elecFeeCents: 549, serviceFeeCents: 175, totalCents: 706 });
    const [charge] = await db
      .select()
      .from(ledger)
      .where(and(eq(ledger.cardId, card.id), eq(ledger.transactionRef, String(t2.id))));
    expect(charge!.amountCents).toBe(-706);

    // 724 + 706 = 1430 ≥ 1400: gold, 20% of 175 = 35 off.
    const t3 = await x.session(card.id, daysAgo(2));
    expect(await billing.settle(t3.id)).toMatchObject({ kind: 'billed', totalCents: 689 });
    expect((await discountLines(t3.id)).map((l) => [l.kind, l.refId, l.amountCents])).toEqual([['member', gold.id, -35]]);
    // Settled again (a resent Stop): nothing new.
    expect(await billing.settle(t3.id)).toEqual({ kind: 'skipped', reason: 'alreadyBilled' });
    expect(await discountLines(t3.id)).toHaveLength(1);

    // The charge user list shows the level.
    const users = await s.call<{ list: ChargeUserDto[] }>('GET', `${api.chargeUser.list.path}?page=1&limit=10&providerId=${x.providerId}`, {
      token: x.token,
    });
    expect(users.data.list.find((u) => u.id === user.id)?.memberLevelName).toBe('Gold');

    // Gold's threshold rises beyond reach: gold holds while valid (30 days), then falls to silver.
    const edit = await s.call('POST', api.memberLevel.edit.path, {
      token: x.token,
      body: { id: gold.id, name: 'Gold', sortOrder: 2, basis: 'spend', threshold: 1_000_000, discountPercent: 20, validityDays: 30 },
    });
    expect(edit.code, edit.msg).toBe(200);
    const now = Date.now();
    await membership.recompute(db, [user.id], new Date(now + DAY));
    expect((await db.select().from(memberStatus).where(eq(memberStatus.chargeUserId, user.id)))[0]!.levelId).toBe(gold.id);
    await membership.recompute(db, [user.id], new Date(now + 40 * DAY));
    expect((await db.select().from(memberStatus).where(eq(memberStatus.chargeUserId, user.id)))[0]!.levelId).toBe(silver.id);
    // A year and more later nothing counts: no level.
    await membership.recompute(db, [user.id], new Date(now + 800 * DAY));
    expect((await db.select().from(memberStatus).where(eq(memberStatus.chargeUserId, user.id)))[0]!.levelId).toBeNull();
  });

  it('an override sets the level with a reason until a date; ending it brings the computed level back', async () => {
    const x = await site();
    const vip = await x.addLevel({ name: 'VIP', sortOrder: 5, threshold: 99_999_999, discountPercent: 50 });
    const { card, user } = await x.newCard(100_000);
    const until = new Date(Date.now() + 10 * DAY).toISOString();
    const o = await s.call<MemberDto>('POST', api.member.override.path, {
      token: x.token,
      body: { id: user.id, overrideLevelId: vip.id, overrideReason: 'Fleet contract', overrideUntil: until },
    });
    expect(o.code, o.msg).toBe(200);
    expect(o.data).toMatchObject({ levelName: 'VIP', overrideLevelName: 'VIP', overrideReason: 'Fleet contract', computedLevelName: null });
    // 50% of 175 = 87.5 → 88.
    const t = await x.session(card.id, '2026-04-01');
    expect(await billing.settle(t.id)).toMatchObject({ kind: 'billed', totalCents: 724 - 88 });

    const c = await s.call<MemberDto>('POST', api.member.clearOverride.path, { token: x.token, body: { id: user.id } });
    expect(c.data).toMatchObject({ levelName: null, overrideLevelName: null });

    // A past end, or a level of another provider, is refused naming the field, and changes nothing.
    const past = await s.call('POST', api.member.override.path, {
      token: x.token,
      lang: 'en',
      body: { id: user.id, overrideLevelId: vip.id, overrideReason: 'x', overrideUntil: '2020-01-01T00:00:00Z' },
    });
    expect(past).toMatchObject({ code: 400, data: { field: 'overrideUntil' } });
    const other = await site();
    const foreign = await other.addLevel({ name: 'Other', sortOrder: 1, threshold: 0, discountPercent: 5 });
    const bad = await s.call('POST', api.member.override.path, {
      token: x.token,
      body: { id: user.id, overrideLevelId: foreign.id, overrideReason: 'x', overrideUntil: until },
    });
    expect(bad).toMatchObject({ code: 400, data: { field: 'overrideLevelId' } });
    expect((await s.call<MemberDto>('GET', `${api.member.get.path}?id=${user.id}`, { token: x.token })).data.overrideLevelName).toBeNull();
  });

  it('refuses a second level of the same name or order, and removing a level someone holds', async () => {
    const x = await site();
    const a = await x.addLevel({ name: 'Bronze', sortOrder: 1, threshold: 0, discountPercent: 1 });
    const dup = await s.call('POST', api.memberLevel.add.path, {
      token: x.token,
      lang: 'en',
      body: { providerId: x.providerId, name: 'bronze', sortOrder: 2, basis: 'energy', threshold: 0, discountPercent: 1, validityDays: 1 },
    });
    expect(dup).toMatchObject({ code: 409, data: { field: 'name' } });
    const order = await s.call('POST', api.memberLevel.add.path, {
      token: x.token,
      body: { providerId: x.providerId, name: 'Iron', sortOrder: 1, basis: 'energy', threshold: 0, discountPercent: 1, validityDays: 1 },
    });
    expect(order).toMatchObject({ code: 409, data: { field: 'sortOrder' } });
    // Threshold 0: every user of the provider holds it after a recompute.
    const { user } = await x.newCard(0);
    const r = await s.call<{ users: number }>('POST', api.member.recompute.path, { token: x.token, body: {} });
    expect(r.data.users).toBeGreaterThanOrEqual(1);
    expect((await s.call<MemberDto>('GET', `${api.member.get.path}?id=${user.id}`, { token: x.token })).data.levelName).toBe('Bronze');
    const rm = await s.call('POST', api.memberLevel.remove.path, { token: x.token, body: { ids: [a.id] } });
    expect(rm.code).toBe(409);
  });
});

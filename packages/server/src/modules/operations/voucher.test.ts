import { api, type VoucherDto, type VoucherTemplateDto } from '@csms/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createUser } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import type { Db } from '../../db/client.js';
import { billLine, chargeUser, chargingTransaction, ledger, userGroup, voucher, voucherTemplate } from '../../db/schema.js';
import { createBilling, type Billing } from '../billing/settle.js';
import { createLedger } from '../cards/ledger.js';
import { createDiscounts } from './discounts.js';
import { createMembership } from './membership.js';
import { pricedSite, uniq } from './ops-fixtures.js';

let s: TestServer;
let db: Db;
let billing: Billing;
/** A second node's billing on the same database (its own ledger and hooks). */
let other: Billing;
beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
  const make = () => createBilling({ db, ledger: createLedger({ db }), hooks: createDiscounts({ membership: createMembership({ db }) }) });
  billing = make();
  other = make();
});
afterAll(() => s.close());

const PERMS = [
  ...['list', 'query', 'add', 'edit', 'remove', 'export'].map((a) => `operate:voucherTemplate:${a}`),
  ...['list', 'query', 'issue', 'revoke', 'choose', 'export'].map((a) => `operate:voucher:${a}`),
];

async function site() {
  const op = await createOperator(db, { permissions: PERMS, rolePaths: ['/operateManagement', '/operateManagement/voucherManage'] });
  const token = await s.login(op.user.username, op.user.password);
  const x = await pricedSite(db, op.providerId);
  const template = async (b: Record<string, unknown>) => {
    const r = await s.call<VoucherTemplateDto>('POST', api.voucherTemplate.add.path, {
      token,
      body: {
        providerId: op.providerId,
        name: uniq('V'),
        kind: 'amount',
        value: 50,
        minBillCents: 0,
        stationIds: [],
        validDays: null,
        // From before the sessions below (2026) to long after any run of the suite: unused means unused, not expired.
        validFrom: '2026-01-01T00:00:00Z',
        validTo: '2099-01-01T00:00:00Z',
        ...b,
      },
    });
    expect(r.code, r.msg).toBe(200);
    return r.data;
  };
  const issue = async (templateId: number, body: Record<string, unknown>) => {
    const r = await s.call<{ issued: number }>('POST', api.voucher.issue.path, { token, body: { templateId, ...body } });
    expect(r.code, r.msg).toBe(200);
    return r.data.issued;
  };
  const vouchersOf = (chargeUserId: number) => db.select().from(voucher).where(eq(voucher.chargeUserId, chargeUserId));
  return { op, token, template, issue, vouchersOf, ...x };
}
const discountLines = (transactionId: number) =>
  db
    .select()
    .from(billLine)
    .where(and(eq(billLine.transactionId, transactionId), isNull(billLine.priceId)));

describe('vouchers', () => {
  it('settlement uses the best applicable voucher once, as its own line, off the service fee and never below zero', async () => {
    const x = await site();
    const small = await x.template({ name: 'Half off', kind: 'percent', value: 50 }); // 88 of 175
    const big = await x.template({ name: 'Ten off', kind: 'amount', value: 1000 }); // capped at the 175 service fee
    const picky = await x.template({ name: 'Big bills', kind: 'amount', value: 5000, minBillCents: 100_000 });
    const elsewhere = await x.template({
      name: 'Elsewhere',
      kind: 'amount',
      value: 5000,
      stationIds: [(await pricedSite(db, x.providerId)).stationId],
    });
    const { card, user } = await x.newCard(10_000);
    for (const t of [small, big, picky, elsewhere]) expect(await x.issue(t.id, { chargeUserIds: [user.id] })).toBe(1);

    const t1 = await x.session(card.id, '2026-05-01');
    const r1 = await billing.settle(t1.id);
    // 549 electricity + 175 service − 175 (the amount voucher, capped at the service fee): the electricity stays.
    expect(r1).toMatchObject({ kind: 'billed' });
    const lines1 = await discountLines(t1.id);
    expect(lines1.map((l) => [l.kind, l.refId, l.label, l.amountCents])).toEqual([
      ['voucher', (await x.vouchersOf(user.id)).find((v) => v.templateId === big.id)!.id, 'Ten off', -175],
    ]);
    const [row] = await db.select().from(chargingTransaction).where(eq(chargingTransaction.id, t1.id));
    expect(row!.totalCents).toBe(row!.elecFeeCents);
    const [charge] = await db
      .select()
      .from(ledger)
      .where(and(eq(ledger.cardId, card.id), eq(ledger.transactionRef, String(t1.id))));
    expect(charge!.amountCents).toBe(-row!.totalCents!);

    // Used once: the voucher names the session; settling again adds nothing.
    const used = (await x.vouchersOf(user.id)).filter((v) => v.status === 'used');
    expect(used.map((v) => [v.templateId, v.transactionId, v.discountCents])).toEqual([[big.id, t1.id, 175]]);
    expect(await billing.settle(t1.id)).toEqual({ kind: 'skipped', reason: 'alreadyBilled' });
    expect(await discountLines(t1.id)).toHaveLength(1);

    // The next session gets the next best: half off.
    const t2 = await x.session(card.id, '2026-05-02');
    await billing.settle(t2.id);
    expect((await discountLines(t2.id)).map((l) => [l.label, l.amountCents])).toEqual([['Half off', -88]]);
    // Neither the picky one (minimum bill) nor the other station's is ever used here.
    const left = await s.call<{ list: VoucherDto[] }>(
      'GET',
      `${api.voucher.list.path}?page=1&limit=10&status=unused&account=${user.account}`,
      {
        token: x.token,
      },
    );
    expect(left.data.list.map((v) => v.name).sort()).toEqual(['Big bills', 'Elsewhere']);
  });

  it('issues to every member of a group, shows an unused voucher past its end as expired, and revokes only unused ones', async () => {
    const x = await site();
    const [g] = await db
      .insert(userGroup)
      .values({ providerId: x.providerId, name: uniq('g') })
      .returning();
    const a = await x.newCard(0, g!.id);
    const b = await x.newCard(0, g!.id);
    await x.newCard(0);
    const tpl = await x.template({ name: 'Welcome', validDays: null, validFrom: '2020-01-01T00:00:00Z', validTo: '2020-02-01T00:00:00Z' });
    expect(await x.issue(tpl.id, { groupId: g!.id })).toBe(2);
    const list = await s.call<{ list: VoucherDto[] }>('GET', `${api.voucher.list.path}?page=1&limit=10&templateId=${tpl.id}`, {
      token: x.token,
    });
    expect(list.data.list.map((v) => [v.account, v.status]).sort()).toEqual(
      [
        [a.user.account, 'expired'],
        [b.user.account, 'expired'],
      ].sort(),
    );
    const expired = await s.call('POST', api.voucher.revoke.path, {
      token: x.token,
      body: { id: list.data.list[0]!.id, revokeReason: 'x' },
    });
    expect(expired.code).toBe(409);

    const live = await x.template({ name: 'Live' });
    await x.issue(live.id, { chargeUserIds: [a.user.id] });
    const [v] = (await x.vouchersOf(a.user.id)).filter((r) => r.templateId === live.id);
    const revoked = await s.call<VoucherDto>('POST', api.voucher.revoke.path, {
      token: x.token,
      body: { id: v!.id, revokeReason: 'Issued by mistake' },
    });
    expect(revoked.data).toMatchObject({ status: 'revoked', revokeReason: 'Issued by mistake' });
    // A revoked voucher is never used.
    const t = await x.session(a.card.id, '2026-05-03');
    await billing.settle(t.id);
    expect(await discountLines(t.id)).toEqual([]);
  });

  it('refuses a percent over 100, validity without days or dates, and another provider’s stations, naming the field', async () => {
    const x = await site();
    const bad = async (b: Record<string, unknown>) =>
      s.call('POST', api.voucherTemplate.add.path, {
        token: x.token,
        lang: 'en',
        body: {
          providerId: x.providerId,
          name: uniq('V'),
          kind: 'amount',
          value: 50,
          minBillCents: 0,
          stationIds: [],
          validDays: 30,
          ...b,
        },
      });
    expect(await bad({ kind: 'percent', value: 120 })).toMatchObject({ code: 400, data: { field: 'value' } });
    expect(await bad({ validDays: null })).toMatchObject({ code: 400, data: { field: 'validDays' } });
    const foreign = await pricedSite(db);
    expect(await bad({ stationIds: [foreign.stationId] })).toMatchObject({ code: 400, data: { field: 'stationIds' } });
  });

  it('a user bound to stations makes, changes and issues only vouchers valid at those stations', async () => {
    const x = await site();
    const elsewhere = await pricedSite(db, x.op.providerId);
    const everywhere = await x.template({ stationIds: [] });
    const user = await createUser(db, { providerId: x.op.providerId, roleId: x.op.role.id, stationIds: [x.stationId] });
    const token = await s.login(user.username, user.password);
    const body = { providerId: x.op.providerId, name: uniq('V'), kind: 'amount', value: 50, minBillCents: 0, validDays: 30 };
    const add = (stationIds: number[], lang: 'en' | 'zh' = 'en') =>
      s.call('POST', api.voucherTemplate.add.path, { token, lang, body: { ...body, name: uniq('V'), stationIds } });
    expect(await add([])).toMatchObject({
      code: 400,
      msg: 'You are bound to stations: the vouchers must be valid only at your stations (none chosen means all stations)',
      data: { field: 'stationIds' },
    });
    expect(await add([x.stationId, elsewhere.stationId], 'zh')).toMatchObject({
      code: 400,
      msg: '您已绑定场站：代金券只能适用于您绑定的场站（不选即全部场站）',
      data: { field: 'stationIds' },
    });
    expect((await add([x.stationId])).code).toBe(200);
    // The colleague's template for every station: neither changed, removed nor issued by the bound user.
    const { user: holder } = await x.newCard(0);
    const calls = [
      [api.voucherTemplate.edit.path, { ...body, id: everywhere.id, providerId: undefined, stationIds: [x.stationId] }],
      [api.voucherTemplate.remove.path, { ids: [everywhere.id] }],
      [api.voucher.issue.path, { templateId: everywhere.id, chargeUserIds: [holder.id] }],
    ] as const;
    for (const [path, b] of calls) expect((await s.call('POST', path, { token, body: b })).code, path).toBe(403);
    expect(await x.vouchersOf(holder.id)).toEqual([]);
    const [kept] = await db.select().from(voucherTemplate).where(eq(voucherTemplate.id, everywhere.id));
    expect(kept!.stationIds).toEqual([]);
  });

  it('two nodes settling at once never use one voucher twice: two sessions of one user, and one session twice', async () => {
    const x = await site();
    const tpl = await x.template({ name: 'Once', value: 100 });
    const { card, user } = await x.newCard(10_000);
    await x.issue(tpl.id, { chargeUserIds: [user.id] });
    const t1 = await x.session(card.id, '2026-05-04');
    const t2 = await x.session(card.id, '2026-05-05');
    const results = await Promise.all([billing.settle(t1.id), other.settle(t2.id), other.settle(t1.id), billing.settle(t2.id)]);
    expect(results.filter((r) => r.kind === 'billed')).toHaveLength(2);
    const voucherLines = [...(await discountLines(t1.id)), ...(await discountLines(t2.id))].filter((l) => l.kind === 'voucher');
    expect(voucherLines).toHaveLength(1);
    const [v] = await x.vouchersOf(user.id);
    expect(v).toMatchObject({ status: 'used', discountCents: 100 });
    expect([t1.id, t2.id]).toContain(v!.transactionId);
    expect(voucherLines[0]!.transactionId).toBe(v!.transactionId);
    // The card paid each bill once, the voucher's session 1.00 less.
    const charges = await db
      .select()
      .from(ledger)
      .where(and(eq(ledger.cardId, card.id), eq(ledger.tradeType, 'charge')));
    expect(charges.map((c) => c.amountCents).sort((m, n) => m - n)).toEqual([-724, -624]);
    expect((await db.select({ b: chargeUser.mobileBalanceCents }).from(chargeUser).where(eq(chargeUser.id, user.id)))[0]!.b).toBe(0);
  });

  it('a voucher chosen for a session is the one it uses, once under two concurrent settlements; others leave it to that session', async () => {
    const x = await site();
    const big = await x.template({ name: 'Big', value: 150 });
    const small = await x.template({ name: 'Small', value: 40 });
    const { card, user } = await x.newCard(10_000);
    await x.issue(big.id, { chargeUserIds: [user.id] });
    await x.issue(small.id, { chargeUserIds: [user.id] });
    const held = await x.vouchersOf(user.id);
    const smallId = held.find((v) => v.templateId === small.id)!.id;
    const bigId = held.find((v) => v.templateId === big.id)!.id;
    const choose = (transactionId: number, voucherId: number | null, lang: 'en' | 'zh' = 'en') =>
      s.call<{ transactionId: number; voucherId: number | null }>('POST', api.voucher.choose.path, {
        token: x.token,
        lang,
        body: { transactionId, voucherId },
      });
    const t1 = await x.session(card.id, '2026-06-01');
    const t2 = await x.session(card.id, '2026-06-02');
    // Chosen for t1, then changed to the big one and back: one choice per session.
    expect((await choose(t1.id, bigId)).code).toBe(200);
    expect(await choose(t1.id, smallId)).toMatchObject({ code: 200, data: { transactionId: t1.id, voucherId: smallId } });
    // Another session settles first: the best one not chosen for t1 (the big one) is its.
    await billing.settle(t2.id);
    expect((await discountLines(t2.id)).map((l) => [l.refId, l.amountCents])).toEqual([[bigId, -150]]);
    // t1 settled by two nodes at once: the chosen (smaller) voucher, once.
    const results = await Promise.all([billing.settle(t1.id), other.settle(t1.id)]);
    expect(results.filter((r) => r.kind === 'billed')).toHaveLength(1);
    expect((await discountLines(t1.id)).map((l) => [l.kind, l.refId, l.amountCents])).toEqual([['voucher', smallId, -40]]);
    expect((await x.vouchersOf(user.id)).find((v) => v.id === smallId)).toMatchObject({ status: 'used', transactionId: t1.id });

    // Refused, naming the field, changing nothing: a settled session, a used voucher, another user's voucher.
    const t3 = await x.session(card.id, '2026-06-03');
    expect(await choose(t1.id, null)).toMatchObject({ code: 409, data: { field: 'transactionId' } });
    const used = await choose(t3.id, smallId, 'zh');
    expect(used).toMatchObject({ code: 400, data: { field: 'voucherId' } });
    expect(used.msg).toContain('已使用');
    const stranger = await x.newCard(0);
    await x.issue(small.id, { chargeUserIds: [stranger.user.id] });
    const [theirs] = await x.vouchersOf(stranger.user.id);
    expect(await choose(t3.id, theirs!.id)).toMatchObject({ code: 400, data: { field: 'voucherId' } });
    expect((await x.vouchersOf(stranger.user.id))[0]!.chosenFor).toBeNull();
  });
});

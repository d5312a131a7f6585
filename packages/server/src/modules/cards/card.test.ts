import { randomUUID } from 'node:crypto';
import type { CardDto, LedgerRow } from '@csms/contract';
import { count, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/harness.js';
import { card, ledger } from '../../db/schema.js';
import { createAuthorizationService, type AuthorizationResult } from './authorize.js';
import { cardsApi, DAY, future, ok, twoProviders, uniq, type CardsApi, type Operator } from './cards.fixtures.js';

let s: TestServer, a: Operator, b: Operator, A: CardsApi, B: CardsApi;
beforeAll(async () => {
  ({ s, a, b, A, B } = await twoProviders());
});
afterAll(() => s.close());

type Page<T> = { list: T[]; total: number };
const uid = () =>
  uniq('')
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, '')
    .padStart(8, '0')
    .slice(0, 20);

describe('RFID cards', () => {
  it('issues a card with its prepaid amount as the first ledger row, and shows it in the detail', async () => {
    const owner = await A.addUser({ providerId: a.providerId });
    // An OCPP IdToken as issued: trimmed, case kept.
    const physicalId = `nl-${uid().slice(0, 12)}-x`;
    const c = await A.issue({
      providerId: a.providerId,
      chargeUserId: owner.id,
      physicalId: ` ${physicalId} `,
      prepaidCents: 10_000,
      thirdPartyTxnId: 'alipay-77',
    });
    expect(c).toMatchObject({
      physicalId,
      chargeUserId: owner.id,
      account: owner.account,
      balanceCents: 10_000,
      state: 'valid',
      expiredBy: null,
      email: 'driver@example.test',
      providerId: a.providerId,
    });
    const detail = await A.card(c.id);
    expect(detail.ledger).toEqual([
      expect.objectContaining({
        tradeType: 'recharge',
        accountKind: 'card',
        cardId: c.id,
        cardNumber: c.cardNumber,
        account: owner.account,
        amountCents: 10_000,
        balanceBeforeCents: 0,
        balanceAfterCents: 10_000,
        source: 'console',
        thirdPartyTxnId: 'alipay-77',
        operatorName: expect.any(String),
      }),
    ]);
    // The owner's card balance is the sum of its cards.
    await A.issue({ providerId: a.providerId, chargeUserId: owner.id, prepaidCents: 250 });
    expect(await A.user(owner.id)).toMatchObject({ cardCount: 2, cardBalanceCents: 10_250 });
    // No prepaid amount, no ledger row.
    const bare = await A.issue({ providerId: a.providerId });
    expect((await A.card(bare.id)).ledger).toEqual([]);
  });

  it('keeps card numbers unique per provider and physical ids unique everywhere, regardless of case', async () => {
    const c = await A.issue({ providerId: a.providerId });
    expect(await A.post('/web/card/add', { ...base(a.providerId), cardNumber: c.cardNumber })).toEqual({
      code: 409,
      msg: `Card number "${c.cardNumber}" already exists for this provider`,
      data: { field: 'cardNumber' },
    });
    // The same printed number in another provider is another card.
    expect((await B.post('/web/card/add', { ...base(b.providerId), cardNumber: c.cardNumber })).code).toBe(200);
    const r = await B.post('/web/card/add', { ...base(b.providerId), physicalId: c.physicalId.toLowerCase() }, 'zh');
    expect(r).toEqual({ code: 409, msg: `物理卡号“${c.physicalId.toLowerCase()}”已被其他卡使用`, data: { field: 'physicalId' } });
  });

  it('validates the issue form in both languages and changes nothing', async () => {
    const before = (await s.database.db.select({ n: count() }).from(card))[0]!.n;
    const cases: [Record<string, unknown>, string, string, string][] = [
      [{ cardNumber: '' }, 'cardNumber', 'Card number is required', '请输入卡号'],
      [{ physicalId: 'X'.repeat(21) }, 'physicalId', 'Physical card ID must be at most 20 characters', '物理卡号长度不能超过 20 个字符'],
      [
        { physicalId: '卡-0001' },
        'physicalId',
        'Physical card ID must be 1 to 20 printable ASCII characters (letters, digits, spaces and symbols such as - _ .)',
        '物理卡号须为 1–20 个可打印的 ASCII 字符（字母、数字、空格及 - _ . 等符号）',
      ],
      [
        { expireTime: new Date(Date.now() - DAY).toISOString() },
        'expireTime',
        'Valid until must be later than now',
        '有效期至必须晚于当前时间',
      ],
      [{ expireTime: 'tomorrow' }, 'expireTime', 'Valid until is not in the right format', '有效期至格式不正确'],
      [{ prepaidCents: -1 }, 'prepaidCents', 'Prepaid amount must be at least 0', '预充金额不能小于 0'],
      [{ prepaidCents: undefined }, 'prepaidCents', 'Prepaid amount is required', '请输入预充金额'],
      [{ email: undefined }, 'email', 'Email is required', '请输入邮箱'],
    ];
    for (const [patch, field, en, zh] of cases) {
      const body = { ...base(a.providerId), ...patch };
      expect(await A.post('/web/card/add', body, 'en'), field).toEqual({ code: 400, msg: en, data: { field } });
      expect(await A.post('/web/card/add', body, 'zh'), field).toEqual({ code: 400, msg: zh, data: { field } });
    }
    expect((await s.database.db.select({ n: count() }).from(card))[0]!.n).toBe(before);
  });

  it("refuses another provider's provider, owner and card with 404, and an owner of another provider as a mismatch", async () => {
    const userA = await A.addUser({ providerId: a.providerId });
    const cardA = await A.issue({ providerId: a.providerId, prepaidCents: 500 });
    expect((await B.post('/web/card/add', base(a.providerId))).code).toBe(404);
    expect((await B.post('/web/card/add', { ...base(b.providerId), chargeUserId: userA.id })).code).toBe(404);
    for (const [path, body] of [
      ['/web/card/edit', { id: cardA.id, expireTime: future(), email: 'x@y.test' }],
      ['/web/card/reportLoss', { id: cardA.id }],
      ['/web/card/cancelLoss', { id: cardA.id }],
      ['/web/card/expire', { id: cardA.id }],
      ['/web/card/recharge', { id: cardA.id, amountCents: 100 }],
      ['/web/card/refund', { id: cardA.id, amountCents: 100 }],
    ] as const) {
      expect((await B.post(path, body)).code, path).toBe(404);
    }
    expect((await B.get(`/web/card/get?id=${cardA.id}`)).code).toBe(404);
    expect(await A.card(cardA.id)).toMatchObject({ state: 'valid', balanceCents: 500 });
    const admin = cardsApi(s, await s.login());
    const rootUser = await admin.addUser({ providerId: 1 });
    expect(
      await admin.post('/web/card/edit', { id: cardA.id, expireTime: future(), email: 'x@y.test', chargeUserId: rootUser.id }),
    ).toEqual({
      code: 400,
      msg: "The chosen charge user does not belong to the card's provider",
      data: { field: 'chargeUserId' },
    });
  });

  it('walks the states of spec §4: lost, cancel loss, expired by mark or by date', async () => {
    const c = await A.issue({ providerId: a.providerId, prepaidCents: 1000 });
    expect(await ok(A.post<CardDto>('/web/card/reportLoss', { id: c.id }))).toMatchObject({ state: 'lost' });
    expect(await A.post('/web/card/reportLoss', { id: c.id })).toMatchObject({
      code: 409,
      msg: `Card "${c.cardNumber}" is Lost; this operation is not possible`,
    });
    expect((await A.post('/web/card/expire', { id: c.id })).code).toBe(409);
    expect(await A.post('/web/card/recharge', { id: c.id, amountCents: 100 }, 'zh')).toMatchObject({
      code: 409,
      msg: `卡“${c.cardNumber}”当前为“挂失”，不能充值`,
    });
    expect(await ok(A.post<CardDto>('/web/card/cancelLoss', { id: c.id }))).toMatchObject({ state: 'valid' });
    expect((await A.post('/web/card/cancelLoss', { id: c.id })).code).toBe(409);

    // Expired by date: shown so, and a new expiry in the future makes it valid again.
    const past = new Date(Date.now() - DAY);
    await s.database.db.update(card).set({ expireAt: past }).where(eq(card.id, c.id));
    expect(await A.card(c.id)).toMatchObject({ state: 'expired', expiredBy: 'date' });
    expect((await ok(A.get<Page<CardDto>>(`/web/card/list?page=1&limit=10&state=expired&cardNumber=${c.cardNumber}`))).total).toBe(1);
    expect((await ok(A.get<Page<CardDto>>(`/web/card/list?page=1&limit=10&state=valid&cardNumber=${c.cardNumber}`))).total).toBe(0);
    expect((await A.post('/web/card/recharge', { id: c.id, amountCents: 100 })).code).toBe(409);
    expect(await ok(A.post<CardDto>('/web/card/edit', { id: c.id, expireTime: future(30), email: 'new@example.test' }))).toMatchObject({
      state: 'valid',
      expiredBy: null,
      email: 'new@example.test',
    });

    // Expired by mark: a future expiry does not revive it.
    expect(await ok(A.post<CardDto>('/web/card/expire', { id: c.id }))).toMatchObject({ state: 'expired', expiredBy: 'operator' });
    expect(await ok(A.post<CardDto>('/web/card/edit', { id: c.id, expireTime: future(60), email: 'new@example.test' }))).toMatchObject({
      state: 'expired',
      expiredBy: 'operator',
    });
    expect((await A.post('/web/card/reportLoss', { id: c.id })).code).toBe(409);
    // What is left on it can still be refunded.
    expect(await ok(A.post<CardDto>('/web/card/refund', { id: c.id, amountCents: 1000 }))).toMatchObject({ balanceCents: 0 });
  });

  it('recharges and refunds through the ledger; a refund is entered positive, stored negative and never exceeds the balance', async () => {
    const c = await A.issue({ providerId: a.providerId, prepaidCents: 2000 });
    expect(await ok(A.post<CardDto>('/web/card/recharge', { id: c.id, amountCents: 3000, thirdPartyTxnId: 'wx-1' }))).toMatchObject({
      balanceCents: 5000,
    });
    expect(await A.post('/web/card/refund', { id: c.id, amountCents: 5001 })).toEqual({
      code: 409,
      msg: 'The refund cannot exceed the card balance of 50.00',
      data: { field: 'amountCents' },
    });
    expect(await A.post('/web/card/refund', { id: c.id, amountCents: -100 })).toMatchObject({ code: 400, data: { field: 'amountCents' } });
    expect(await A.post('/web/card/recharge', { id: c.id, amountCents: 0 })).toMatchObject({ code: 400, data: { field: 'amountCents' } });
    expect(await ok(A.post<CardDto>('/web/card/refund', { id: c.id, amountCents: 1500 }))).toMatchObject({ balanceCents: 3500 });
    const rows = (await A.card(c.id)).ledger;
    expect(rows.map((r) => [r.tradeType, r.amountCents, r.balanceBeforeCents, r.balanceAfterCents])).toEqual([
      ['refund', -1500, 5000, 3500],
      ['recharge', 3000, 2000, 5000],
      ['recharge', 2000, 0, 2000],
    ]);
    // Sent again with its request id (a retry after a lost answer): made once, the retry answered alike.
    const again = { id: c.id, amountCents: 3500, requestId: randomUUID() };
    for (const path of ['/web/card/refund', '/web/card/refund', '/web/card/recharge'] as const) {
      const body = path.endsWith('recharge') ? { ...again, requestId: randomUUID(), amountCents: 100 } : again;
      expect((await ok(A.post<CardDto>(path, body))).balanceCents, path).toBe(path.endsWith('recharge') ? 100 : 0);
    }
    expect((await A.card(c.id)).ledger.map((r) => r.amountCents)).toEqual([100, -3500, -1500, 3000, 2000]);
  });

  it('property: 50 concurrent recharges and refunds through the endpoints chain exactly and never overdraw', async () => {
    const c = await A.issue({ providerId: a.providerId, prepaidCents: 2500 });
    let seed = 99;
    const rand = (m: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % m;
    const ops = Array.from({ length: 50 }, () => ({ refund: rand(2) === 0, amountCents: 1 + rand(800) }));
    const replies = await Promise.all(
      ops.map((o) => A.post(`/web/card/${o.refund ? 'refund' : 'recharge'}`, { id: c.id, amountCents: o.amountCents })),
    );
    for (const r of replies) expect([200, 409]).toContain(r.code);
    const rows = await s.database.db.select().from(ledger).where(eq(ledger.cardId, c.id)).orderBy(ledger.id);
    expect(rows).toHaveLength(1 + replies.filter((r) => r.code === 200).length);
    for (let i = 0; i < rows.length; i++) {
      expect(rows[i]!.balanceBeforeCents + rows[i]!.amountCents).toBe(rows[i]!.balanceAfterCents);
      expect(rows[i]!.balanceAfterCents).toBeGreaterThanOrEqual(0);
      if (i > 0) expect(rows[i]!.balanceBeforeCents).toBe(rows[i - 1]!.balanceAfterCents);
    }
    expect((await A.card(c.id)).balanceCents).toBe(rows.reduce((sum, r) => sum + r.amountCents, 0));
  });

  it('searches by number, physical id, account and state', async () => {
    const owner = await A.addUser({ providerId: a.providerId, account: uniq('Searcher') });
    const c = await A.issue({ providerId: a.providerId, chargeUserId: owner.id });
    const lost = await A.issue({ providerId: a.providerId, chargeUserId: owner.id });
    await ok(A.post('/web/card/reportLoss', { id: lost.id }));
    const q = (qs: string) => ok(A.get<Page<CardDto>>(`/web/card/list?page=1&limit=50&${qs}`));
    expect((await q(`cardNumber=${c.cardNumber}`)).list.map((x) => x.id)).toEqual([c.id]);
    expect((await q(`physicalId=${c.physicalId.slice(-6).toLowerCase()}`)).list.map((x) => x.id)).toContain(c.id);
    expect((await q(`account=${owner.account}`)).list.map((x) => x.id).sort()).toEqual([c.id, lost.id].sort());
    expect((await q(`account=${owner.account}&state=lost`)).list.map((x) => x.id)).toEqual([lost.id]);
    expect((await q(`account=${owner.account}&state=valid`)).list.map((x) => x.id)).toEqual([c.id]);
    expect((await ok(B.get<Page<CardDto>>(`/web/card/list?page=1&limit=50&account=${owner.account}`))).total).toBe(0);
  });

  it('answers authorization for the card in each state after operations through the endpoints', async () => {
    const auth = createAuthorizationService({ db: s.database.db, minBalanceCents: 100 });
    const withoutOwner = ({ owner: _owner, ...decision }: AuthorizationResult) => decision;
    const ctx = (o: { usedWh?: number; active?: boolean } = {}) => ({
      now: new Date(),
      hasActiveTransaction: () => o.active ?? false,
      usedWhThisMonth: () => o.usedWh ?? 0,
    });
    const group = await A.addGroup({ providerId: a.providerId, monthlyLimitWh: 20_000 });
    const owner = await A.addUser({ providerId: a.providerId });
    const c = await A.issue({ providerId: a.providerId, chargeUserId: owner.id, prepaidCents: 0 });
    const tag = c.physicalId.toLowerCase();

    expect(withoutOwner(await auth.authorize(tag, ctx()))).toEqual({ status: 'Blocked', reason: 'insufficientBalance' });
    await ok(A.post('/web/card/recharge', { id: c.id, amountCents: 5000 }));
    expect(withoutOwner(await auth.authorize(tag, ctx()))).toEqual({
      status: 'Accepted',
      reason: 'accepted',
      expiryDate: c.expireTime,
      parentIdTag: owner.account,
    });
    expect(withoutOwner(await auth.authorize(tag, ctx({ active: true })))).toEqual({ status: 'ConcurrentTx', reason: 'concurrentTx' });

    await ok(A.post('/web/userGroup/addMembers', { id: group.id, chargeUserIds: [owner.id] }));
    expect(await auth.authorize(tag, ctx({ usedWh: 19_999 }))).toMatchObject({ status: 'Accepted' });
    expect(withoutOwner(await auth.authorize(tag, ctx({ usedWh: 20_000 })))).toEqual({ status: 'Blocked', reason: 'groupLimit' });

    await ok(A.post('/web/card/reportLoss', { id: c.id }));
    expect(withoutOwner(await auth.authorize(tag, ctx()))).toEqual({ status: 'Blocked', reason: 'lost' });
    await ok(A.post('/web/card/cancelLoss', { id: c.id }));
    expect(await auth.authorize(tag, ctx())).toMatchObject({ status: 'Accepted' });

    await ok(A.post('/web/chargeUser/status', { id: owner.id, status: 0 }));
    expect(withoutOwner(await auth.authorize(tag, ctx()))).toEqual({ status: 'Blocked', reason: 'userDisabled' });
    await ok(A.post('/web/chargeUser/status', { id: owner.id, status: 1 }));

    await ok(A.post('/web/card/refund', { id: c.id, amountCents: 4950 }));
    expect(withoutOwner(await auth.authorize(tag, ctx()))).toEqual({ status: 'Blocked', reason: 'insufficientBalance' });
    await ok(A.post('/web/card/recharge', { id: c.id, amountCents: 1000 }));

    await s.database.db
      .update(card)
      .set({ expireAt: new Date(Date.now() - 1000) })
      .where(eq(card.id, c.id));
    expect(withoutOwner(await auth.authorize(tag, ctx()))).toEqual({ status: 'Expired', reason: 'expired' });
    const renewed = await ok(
      A.post<CardDto>('/web/card/edit', { id: c.id, expireTime: future(10), email: 'd@example.test', chargeUserId: owner.id }),
    );
    expect(await auth.authorize(tag, ctx())).toMatchObject({ status: 'Accepted', expiryDate: renewed.expireTime });
    expect(renewed.masterPass).toBe(false);
    // Made a master pass through the form: the master pass group instead of the account, and no start; an
    // edit that does not send the flag leaves it.
    const pass = await ok(
      A.post<CardDto>('/web/card/edit', { id: c.id, expireTime: renewed.expireTime, email: 'd@example.test', masterPass: true }),
    );
    expect(pass.masterPass).toBe(true);
    expect(await auth.authorize(tag, ctx({ active: true }))).toMatchObject({ status: 'Accepted', parentIdTag: 'MasterPass' });
    expect(withoutOwner(await auth.authorize(tag, { ...ctx(), start: true }))).toEqual({ status: 'Invalid', reason: 'masterPass' });
    await ok(A.post('/web/card/edit', { id: c.id, expireTime: renewed.expireTime, email: 'd@example.test', chargeUserId: owner.id }));
    expect((await ok(A.get<CardDto>(`/web/card/get?id=${c.id}`))).masterPass).toBe(true);
    await ok(
      A.post('/web/card/edit', {
        id: c.id,
        expireTime: renewed.expireTime,
        email: 'd@example.test',
        chargeUserId: owner.id,
        masterPass: false,
      }),
    );

    await ok(A.post('/web/card/expire', { id: c.id }));
    expect(withoutOwner(await auth.authorize(tag, ctx()))).toEqual({ status: 'Expired', reason: 'expiredByOperator' });
    expect(withoutOwner(await auth.authorize('FFFFFFFFFFFFFFFF', ctx()))).toEqual({ status: 'Invalid', reason: 'unknown' });
  });

  it('exports cards with state and balance in the caller language', async () => {
    const c = await A.issue({ providerId: a.providerId, prepaidCents: 1999 });
    await ok(A.post('/web/card/reportLoss', { id: c.id }));
    const res = await fetch(`${s.url}/prod-api/web/card/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json', 'x-language': 'en' },
      body: JSON.stringify({ cardNumber: c.cardNumber, format: 'xlsx' }),
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).values).toEqual(expect.arrayContaining(['Card number', 'Physical card ID', 'Balance', 'Card state']));
    expect(ws.getRow(2).values).toEqual(expect.arrayContaining([c.cardNumber, 19.99, 'Lost']));
    expect(ws.rowCount).toBe(2);
  });
});

describe('recharge records', () => {
  it('lists recharges and refunds with account, card and operator; filters; charges only when asked', async () => {
    const owner = await A.addUser({ providerId: a.providerId, account: uniq('Payer') });
    const c = await A.issue({ providerId: a.providerId, chargeUserId: owner.id, prepaidCents: 800 });
    await ok(A.post('/web/card/refund', { id: c.id, amountCents: 300, thirdPartyTxnId: 'ref-1' }));
    await ok(A.post('/web/chargeUser/recharge', { id: owner.id, amountCents: 700 }));
    await s.database.db.insert(ledger).values({
      providerId: a.providerId,
      accountKind: 'card',
      cardId: c.id,
      tradeType: 'charge',
      amountCents: -100,
      balanceBeforeCents: 500,
      balanceAfterCents: 400,
      source: 'ocpp',
      transactionRef: '42',
    });
    const q = (qs: string) => ok(A.get<Page<LedgerRow>>(`/web/rechargeRecord/list?page=1&limit=50&${qs}`));
    const mine = await q(`account=${owner.account}`);
    expect(mine.list.map((r) => [r.tradeType, r.accountKind, r.amountCents, r.cardNumber])).toEqual([
      ['recharge', 'mobile', 700, null],
      ['refund', 'card', -300, c.cardNumber],
      ['recharge', 'card', 800, c.cardNumber],
    ]);
    expect(mine.list[1]).toMatchObject({
      balanceBeforeCents: 800,
      balanceAfterCents: 500,
      thirdPartyTxnId: 'ref-1',
      source: 'console',
      account: owner.account,
    });
    expect(mine.list.every((r) => r.operatorName !== null)).toBe(true);
    expect((await q(`account=${owner.account}&tradeType=refund`)).list.map((r) => r.amountCents)).toEqual([-300]);
    expect((await q(`account=${owner.account}&tradeType=charge`)).list.map((r) => r.transactionRef)).toEqual(['42']);
    expect((await q(`cardNumber=${c.cardNumber}&accountKind=card`)).total).toBe(2);
    const future1 = new Date(Date.now() + DAY).toISOString();
    expect((await q(`account=${owner.account}&startTime=${future1}`)).total).toBe(0);
    expect((await q(`account=${owner.account}&endTime=${future1}`)).total).toBe(3);

    const one = mine.list[0]!;
    expect(await ok(A.get(`/web/rechargeRecord/get?id=${one.id}`))).toEqual(one);
    expect((await B.get(`/web/rechargeRecord/get?id=${one.id}`)).code).toBe(404);
    expect((await ok(B.get<Page<LedgerRow>>(`/web/rechargeRecord/list?page=1&limit=50&account=${owner.account}`))).total).toBe(0);

    const res = await fetch(`${s.url}/prod-api/web/rechargeRecord/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json', 'x-language': 'zh' },
      body: JSON.stringify({ account: owner.account, format: 'csv' }),
    });
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toContain('交易类型');
    expect(lines[2]).toContain('退款');
    expect(lines[2]).toContain('-3');
  });
});

function base(providerId: number) {
  return {
    cardNumber: uniq('NO'),
    physicalId: uid(),
    providerId,
    expireTime: future(),
    prepaidCents: 0,
    email: 'driver@example.test',
  };
}

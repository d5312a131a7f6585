import { randomUUID } from 'node:crypto';
import type { ChargeUserDto } from '@csms/contract';
import { count, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/harness.js';
import { chargeUser, ledger, systemLog } from '../../db/schema.js';
import { cardsApi, ok, operator, twoProviders, uniq, type CardsApi, type Operator } from './cards.fixtures.js';

let s: TestServer, a: Operator, b: Operator, A: CardsApi, B: CardsApi;
beforeAll(async () => {
  ({ s, a, b, A, B } = await twoProviders());
});
afterAll(() => s.close());

type Page = { list: ChargeUserDto[]; total: number };

describe('charge users', () => {
  it('adds, lists with filters, gets and edits', async () => {
    const group = await A.addGroup({ providerId: a.providerId, monthlyLimitWh: 100_000 });
    const account = uniq('Alice');
    const u = await ok(
      A.post<ChargeUserDto>('/web/chargeUser/add', {
        account: ` ${account} `,
        phone: '13900001111',
        email: 'alice@example.test',
        userType: 'phone',
        providerId: a.providerId,
        groupId: group.id,
        memberLevel: 2,
      }),
    );
    expect(u).toMatchObject({
      account,
      phone: '13900001111',
      userType: 'phone',
      status: 1,
      groupId: group.id,
      groupName: group.name,
      memberLevel: 2,
      providerId: a.providerId,
      cardCount: 0,
      cardBalanceCents: 0,
      mobileBalanceCents: 0,
    });
    expect(Date.parse(u.registerTime)).toBeGreaterThan(Date.now() - 60_000);
    await A.addUser({ providerId: a.providerId, userType: 'card' });

    const page = await ok(A.get<Page>(`/web/chargeUser/list?page=1&limit=10&account=${account.slice(0, 6).toLowerCase()}`));
    expect(page).toMatchObject({ total: 1, list: [{ id: u.id }] });
    expect((await ok(A.get<Page>(`/web/chargeUser/list?page=1&limit=10&groupId=${group.id}`))).total).toBe(1);
    expect((await ok(A.get<Page>('/web/chargeUser/list?page=1&limit=10&userType=card'))).list.every((x) => x.userType === 'card')).toBe(
      true,
    );
    // A percent sign is a character to look for, not a wildcard.
    expect((await ok(A.get<Page>('/web/chargeUser/list?page=1&limit=10&account=%25'))).total).toBe(0);

    const edited = await ok(
      A.post<ChargeUserDto>('/web/chargeUser/edit', { id: u.id, account: `${account}x`, userType: 'card', phone: '', groupId: null }),
    );
    expect(edited).toMatchObject({ account: `${account}x`, phone: null, userType: 'card', groupId: null, memberLevel: 2 });
    expect(await A.user(u.id)).toEqual(edited);
  });

  it('keeps accounts unique regardless of case, across providers, with 409 naming the field', async () => {
    const u = await A.addUser({ providerId: a.providerId, account: uniq('Bob') });
    const r = await B.post('/web/chargeUser/add', { account: u.account.toUpperCase(), userType: 'card', providerId: b.providerId });
    expect(r).toEqual({ code: 409, msg: `Account "${u.account.toUpperCase()}" already exists`, data: { field: 'account' } });
    expect((await B.post('/web/chargeUser/add', { account: u.account, userType: 'card', providerId: b.providerId }, 'zh')).msg).toBe(
      `用户账号“${u.account}”已存在`,
    );
    const other = await A.addUser({ providerId: a.providerId });
    expect((await A.post('/web/chargeUser/edit', { id: other.id, account: u.account, userType: 'card' })).code).toBe(409);
  });

  it('validates input in both languages and changes nothing', async () => {
    const before = (await s.database.db.select({ n: count() }).from(chargeUser))[0]!.n;
    const cases: [Record<string, unknown>, string, string, string][] = [
      [{ userType: 'card', providerId: a.providerId }, 'account', 'Account is required', '请输入用户账号'],
      [
        { account: 'x'.repeat(21), userType: 'card', providerId: a.providerId },
        'account',
        'Account must be at most 20 characters',
        '用户账号长度不能超过 20 个字符',
      ],
      [
        { account: 'has space', userType: 'card', providerId: a.providerId },
        'account',
        'Account is not in the right format',
        '用户账号格式不正确',
      ],
      [{ account: uniq('p'), userType: 'phone', providerId: a.providerId }, 'phone', 'Mobile phone is required', '请输入手机号码'],
      [
        { account: uniq('p'), userType: 'robot', providerId: a.providerId },
        'userType',
        'User type must be one of the offered values',
        '用户类型的取值无效',
      ],
      [
        { account: uniq('p'), userType: 'card', providerId: a.providerId, email: 'nope' },
        'email',
        'Email is not a valid email address',
        '邮箱不是有效的邮箱地址',
      ],
    ];
    for (const [body, field, en, zh] of cases) {
      expect(await A.post('/web/chargeUser/add', body, 'en')).toEqual({ code: 400, msg: en, data: { field } });
      expect(await A.post('/web/chargeUser/add', body, 'zh')).toEqual({ code: 400, msg: zh, data: { field } });
    }
    expect((await s.database.db.select({ n: count() }).from(chargeUser))[0]!.n).toBe(before);
  });

  it("refuses another provider's provider, group and user with 404", async () => {
    const groupA = await A.addGroup({ providerId: a.providerId });
    const userA = await A.addUser({ providerId: a.providerId });
    expect((await B.post('/web/chargeUser/add', { account: uniq('x'), userType: 'card', providerId: a.providerId })).code).toBe(404);
    expect(
      (await B.post('/web/chargeUser/add', { account: uniq('x'), userType: 'card', providerId: b.providerId, groupId: groupA.id })).code,
    ).toBe(404);
    for (const [path, body] of [
      ['/web/chargeUser/edit', { id: userA.id, account: uniq('y'), userType: 'card' }],
      ['/web/chargeUser/status', { id: userA.id, status: 0 }],
      ['/web/chargeUser/recharge', { id: userA.id, amountCents: 100 }],
      ['/web/chargeUser/refund', { id: userA.id, amountCents: 100 }],
      ['/web/chargeUser/remove', { ids: [userA.id] }],
    ] as const) {
      expect((await B.post(path, body)).code, path).toBe(404);
    }
    expect((await B.get(`/web/chargeUser/get?id=${userA.id}`)).code).toBe(404);
    expect(await A.user(userA.id)).toMatchObject({ status: 1, mobileBalanceCents: 0 });
    // A group of the admin's provider is visible to the admin but not the user's: refused as a mismatch.
    const admin = cardsApi(s, await s.login());
    const rootGroup = await admin.addGroup({ providerId: 1 });
    expect(
      await admin.post('/web/chargeUser/edit', { id: userA.id, account: userA.account, userType: 'card', groupId: rootGroup.id }),
    ).toEqual({
      code: 400,
      msg: "The chosen group does not belong to the user's provider",
      data: { field: 'groupId' },
    });
  });

  it('enables and disables', async () => {
    const u = await A.addUser({ providerId: a.providerId });
    expect(await ok(A.post<ChargeUserDto>('/web/chargeUser/status', { id: u.id, status: 0 }))).toMatchObject({ status: 0 });
    expect((await ok(A.get<Page>('/web/chargeUser/list?page=1&limit=300&status=0'))).list.map((x) => x.id)).toContain(u.id);
    expect(await ok(A.post<ChargeUserDto>('/web/chargeUser/status', { id: u.id, status: 1 }))).toMatchObject({ status: 1 });
  });

  it('recharges and refunds the mobile account through the ledger; a refund never exceeds the balance', async () => {
    const u = await A.addUser({ providerId: a.providerId, userType: 'phone', phone: '13700000000' });
    expect(
      await ok(A.post<ChargeUserDto>('/web/chargeUser/recharge', { id: u.id, amountCents: 5000, thirdPartyTxnId: 'wx-9' })),
    ).toMatchObject({
      mobileBalanceCents: 5000,
    });
    expect(await A.post('/web/chargeUser/refund', { id: u.id, amountCents: 5001 })).toEqual({
      code: 409,
      msg: 'The refund cannot exceed the mobile balance of 50.00',
      data: { field: 'amountCents' },
    });
    expect(await ok(A.post<ChargeUserDto>('/web/chargeUser/refund', { id: u.id, amountCents: 1200 }))).toMatchObject({
      mobileBalanceCents: 3800,
    });
    expect((await A.post('/web/chargeUser/refund', { id: u.id, amountCents: -5 })).code).toBe(400);
    expect((await A.post('/web/chargeUser/recharge', { id: u.id, amountCents: 1.5 })).code).toBe(400);
    const rows = await s.database.db.select().from(ledger).where(eq(ledger.chargeUserId, u.id)).orderBy(ledger.id);
    expect(
      rows.map((r) => [r.accountKind, r.tradeType, r.amountCents, r.balanceBeforeCents, r.balanceAfterCents, r.operatorUserId, r.source]),
    ).toEqual([
      ['mobile', 'recharge', 5000, 0, 5000, a.userId, 'console'],
      ['mobile', 'refund', -1200, 5000, 3800, a.userId, 'console'],
    ]);
    expect(rows[0]!.thirdPartyTxnId).toBe('wx-9');
  });

  it('makes a recharge or refund sent again with its request id once, answering the retry as the first', async () => {
    const u = await A.addUser({ providerId: a.providerId, userType: 'phone', phone: '13700000001' });
    const recharge = { id: u.id, amountCents: 5000, requestId: randomUUID() };
    const first = await Promise.all([1, 2, 3].map(() => ok(A.post<ChargeUserDto>('/web/chargeUser/recharge', recharge))));
    expect(first.map((d) => d.mobileBalanceCents)).toEqual([5000, 5000, 5000]);
    // A refund of everything, sent twice: the second finds the balance spent, and is answered as done rather than refused.
    const refund = { id: u.id, amountCents: 5000, requestId: randomUUID() };
    expect((await ok(A.post<ChargeUserDto>('/web/chargeUser/refund', refund))).mobileBalanceCents).toBe(0);
    expect((await ok(A.post<ChargeUserDto>('/web/chargeUser/refund', refund))).mobileBalanceCents).toBe(0);
    // The same amount again as a new request is a new recharge.
    expect((await ok(A.post<ChargeUserDto>('/web/chargeUser/recharge', { ...recharge, requestId: randomUUID() }))).mobileBalanceCents).toBe(
      5000,
    );
    const rows = await s.database.db.select().from(ledger).where(eq(ledger.chargeUserId, u.id)).orderBy(ledger.id);
    expect(rows.map((r) => [r.tradeType, r.amountCents])).toEqual([
      ['recharge', 5000],
      ['refund', -5000],
      ['recharge', 5000],
    ]);
    expect((await A.post('/web/chargeUser/recharge', { ...recharge, requestId: 'not-a-uuid' })).code).toBe(400);
  });

  it('property: 50 concurrent recharges and refunds through the endpoints chain exactly and never overdraw', async () => {
    const u = await A.addUser({ providerId: a.providerId });
    await ok(A.post('/web/chargeUser/recharge', { id: u.id, amountCents: 3000 }));
    let seed = 7;
    const rand = (m: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % m;
    const ops = Array.from({ length: 50 }, () => ({ refund: rand(2) === 0, amountCents: 1 + rand(900) }));
    const replies = await Promise.all(
      ops.map((o) => A.post(o.refund ? '/web/chargeUser/refund' : '/web/chargeUser/recharge', { id: u.id, amountCents: o.amountCents })),
    );
    for (const r of replies) expect([200, 409]).toContain(r.code);
    const rows = await s.database.db.select().from(ledger).where(eq(ledger.chargeUserId, u.id)).orderBy(ledger.id);
    expect(rows).toHaveLength(1 + replies.filter((r) => r.code === 200).length);
    for (let i = 0; i < rows.length; i++) {
      expect(rows[i]!.balanceBeforeCents + rows[i]!.amountCents).toBe(rows[i]!.balanceAfterCents);
      expect(rows[i]!.balanceAfterCents).toBeGreaterThanOrEqual(0);
      if (i > 0) expect(rows[i]!.balanceBeforeCents).toBe(rows[i - 1]!.balanceAfterCents);
    }
    const sum = rows.reduce((acc, r) => acc + r.amountCents, 0);
    expect((await A.user(u.id)).mobileBalanceCents).toBe(sum);
  });

  it('will not remove a user that cards refer to; removes one that nothing refers to', async () => {
    const busy = await A.addUser({ providerId: a.providerId });
    await A.issue({ providerId: a.providerId, chargeUserId: busy.id });
    expect(await A.post('/web/chargeUser/remove', { ids: [busy.id] })).toMatchObject({ code: 409 });
    const free = await A.addUser({ providerId: a.providerId });
    expect(await ok(A.post('/web/chargeUser/remove', { ids: [free.id] }))).toEqual({ removed: 1 });
    expect((await A.get(`/web/chargeUser/get?id=${free.id}`)).code).toBe(404);
  });

  it('offers options in scope only, by account or phone', async () => {
    const u = await A.addUser({ providerId: a.providerId, account: uniq('Opt'), phone: '13612345678' });
    const mine = await ok(A.get<{ id: number }[]>(`/web/chargeUser/options?keyword=${u.account}`));
    expect(mine.map((o) => o.id)).toEqual([u.id]);
    expect((await ok(A.get<{ id: number }[]>('/web/chargeUser/options?keyword=3612345678'))).map((o) => o.id)).toContain(u.id);
    expect(await ok(B.get<unknown[]>(`/web/chargeUser/options?keyword=${u.account}`))).toEqual([]);
  });

  it('counts new members today and this month in the caller scope and time zone', async () => {
    const c = await operator(s);
    const C = cardsApi(s, c.token);
    await C.addUser({ providerId: c.providerId });
    await C.addUser({ providerId: c.providerId });
    expect(await ok(C.get('/web/chargeUser/newMembers?tz=Asia/Shanghai'))).toEqual({ today: 2, month: 2 });
    expect(await ok(C.get('/web/chargeUser/newMembers'))).toEqual({ today: 2, month: 2 });
    expect(await C.get('/web/chargeUser/newMembers?tz=Mars/Olympus')).toMatchObject({ code: 400, data: { field: 'tz' } });
    // A registration of last month counts for neither.
    const [old] = await s.database.db
      .insert(chargeUser)
      .values({ providerId: c.providerId, account: uniq('old'), userType: 'card', createdAt: new Date(Date.now() - 40 * 86_400_000) })
      .returning();
    expect(old).toBeDefined();
    expect(await ok(C.get('/web/chargeUser/newMembers?tz=UTC'))).toEqual({ today: 2, month: 2 });
    // The widget drills into the list of those registered since the browser's midnight (an instant), or by days.
    const midnight = new Date(Date.now() - 86_400_000).toISOString();
    expect((await ok(C.get<Page>(`/web/chargeUser/list?page=1&limit=10&startTime=${midnight}`))).total).toBe(2);
    // Days of CSMS_TIME_ZONE (the default, Asia/Shanghai).
    const oldDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(old!.createdAt);
    const byDay = await ok(C.get<Page>(`/web/chargeUser/list?page=1&limit=10&startTime=${oldDay}&endTime=${oldDay}`));
    expect(byDay.list.map((u) => u.id)).toEqual([old!.id]);
  });

  it('exports in the caller language with amounts in currency units', async () => {
    const u = await A.addUser({ providerId: a.providerId, account: uniq('Exp') });
    await ok(A.post('/web/chargeUser/recharge', { id: u.id, amountCents: 1234 }));
    const res = await fetch(`${s.url}/prod-api/web/chargeUser/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json', 'x-language': 'zh' },
      body: JSON.stringify({ account: u.account, format: 'xlsx' }),
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const ws = wb.worksheets[0]!;
    const header = ws.getRow(1).values as unknown[];
    expect(header).toContain('用户账号');
    expect(header).toContain('账户余额');
    const row = ws.getRow(2).values as unknown[];
    expect(row).toContain(u.account);
    expect(row).toContain(12.34);
    expect(row).toContain('刷卡用户');
  });

  it('logs each mutation once', async () => {
    const account = uniq('Logged');
    await A.addUser({ providerId: a.providerId, account });
    const rows = await s.database.db
      .select()
      .from(systemLog)
      .where(eq(systemLog.operand, `chargeUser:${account}`));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ operation: 'add', result: 200, userId: a.userId });
  });
});

import { api, type ActivityDto, type LedgerRow } from '@csms/contract';
import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import { eventually } from '../../../test/ocpp/support.js';
import type { Db } from '../../db/client.js';
import { chargeUser, userGroup, voucher, voucherTemplate } from '../../db/schema.js';
import { createActivityGrants, type ActivityGrants } from './activity-grant.js';
import { pricedSite, uniq } from './ops-fixtures.js';

let s: TestServer;
let db: Db;
let grants: ActivityGrants;
beforeAll(async () => {
  // The grant jobs run from the queue: poll it often.
  s = await startServer({ jobPollSeconds: 0.5 });
  db = s.database.db;
  grants = createActivityGrants({ db, jobs: s.app.jobs, uow: { afterCommit: (f) => f() }, log: { info: () => {}, error: () => {} } });
});
afterAll(() => s.close());

/** The jobs a start-up's `resume` queues, per activity. */
async function resumed() {
  const sent: { id: number }[] = [];
  const probe = createActivityGrants({
    db,
    jobs: { send: async (_q, data) => void sent.push(data as { id: number }) },
    uow: { afterCommit: (f) => f() },
    log: { info: () => {}, error: () => {} },
  });
  await probe.resume();
  return (id: number) => sent.filter((d) => d.id === id).length;
}

const PERMS = [
  ...['list', 'query', 'add', 'edit', 'activate', 'end'].map((a) => `operate:activity:${a}`),
  'user:card:recharge',
  'user:chargeUser:add',
  'user:chargeUser:recharge',
  'finance:recharge:list',
];
const PAST = '2026-01-01T00:00:00Z';
const FUTURE = '2099-01-01T00:00:00Z';

async function site() {
  const op = await createOperator(db, { permissions: PERMS, rolePaths: ['/operateManagement', '/operateManagement/activityManage'] });
  const token = await s.login(op.user.username, op.user.password);
  const x = await pricedSite(db, op.providerId);
  const add = (b: Record<string, unknown>, lang: 'en' | 'zh' = 'en') =>
    s.call<ActivityDto>('POST', api.activity.add.path, {
      token,
      lang,
      body: { providerId: op.providerId, name: uniq('A'), startTime: PAST, endTime: FUTURE, ...b },
    });
  const started = async (b: Record<string, unknown>) => {
    const r = await add(b);
    expect(r.code, r.msg).toBe(200);
    const on = await s.call<ActivityDto>('POST', api.activity.activate.path, { token, body: { id: r.data.id } });
    expect(on.code, on.msg).toBe(200);
    return on.data;
  };
  const group = async () =>
    (
      await db
        .insert(userGroup)
        .values({ providerId: op.providerId, name: uniq('g') })
        .returning()
    )[0]!;
  const call = <T>(path: string, body: Record<string, unknown>) => s.call<T>('POST', path, { token, body });
  return { op, token, add, started, group, call, ...x };
}

describe('recharge bonus activities', () => {
  it('credit the best bonus a recharge reaches as a ledger row of its own, once, in scope, only while active', async () => {
    const x = await site();
    const g = await x.group();
    const member = await x.newCard(0, g.id);
    const outsider = await x.newCard(0);
    const draft = await x.add({ type: 'rechargeBonus', minRechargeCents: 100_00, bonusCents: 10_00, groupIds: [g.id] });
    const recharge = async (cardId: number, amountCents: number) => {
      const r = await x.call<{ balanceCents: number }>(api.card.recharge.path, { id: cardId, amountCents });
      expect(r.code, r.msg).toBe(200);
      return r.data.balanceCents;
    };
    // A draft gives nothing.
    expect(await recharge(member.card.id, 100_00)).toBe(100_00);
    await x.call(api.activity.activate.path, { id: draft.data.id });
    // A bigger bonus for bigger recharges: the best one the recharge reaches applies, once.
    await x.started({ type: 'rechargeBonus', minRechargeCents: 500_00, bonusCents: 80_00, groupIds: [] });

    expect(await recharge(member.card.id, 99_99)).toBe(199_99);
    expect(await recharge(member.card.id, 100_00)).toBe(309_99);
    expect(await recharge(member.card.id, 500_00)).toBe(889_99);
    // Out of the first one's groups: only the second applies to it.
    expect(await recharge(outsider.card.id, 200_00)).toBe(200_00);
    // A mobile account earns it alike.
    const mobile = await x.call<{ mobileBalanceCents: number }>(api.chargeUser.recharge.path, { id: member.user.id, amountCents: 150_00 });
    expect(mobile.data.mobileBalanceCents).toBe(160_00);

    // The recharge records show each bonus beside its recharge, balances chained.
    const records = await s.call<{ list: LedgerRow[] }>(
      'GET',
      `${api.rechargeRecord.list.path}?page=1&limit=20&account=${member.user.account}`,
      { token: x.token },
    );
    expect(records.code, records.msg).toBe(200);
    expect(records.data.list.map((r) => [r.accountKind, r.tradeType, r.amountCents, r.balanceAfterCents, r.source]).reverse()).toEqual([
      ['card', 'recharge', 100_00, 100_00, 'console'],
      ['card', 'recharge', 99_99, 199_99, 'console'],
      ['card', 'recharge', 100_00, 299_99, 'console'],
      ['card', 'bonus', 10_00, 309_99, 'activity'],
      ['card', 'recharge', 500_00, 809_99, 'console'],
      ['card', 'bonus', 80_00, 889_99, 'activity'],
      ['mobile', 'recharge', 150_00, 150_00, 'console'],
      ['mobile', 'bonus', 10_00, 160_00, 'activity'],
    ]);
    const got = await s.call<ActivityDto>('GET', `${api.activity.get.path}?id=${draft.data.id}`, { token: x.token });
    expect(got.data).toMatchObject({
      type: 'rechargeBonus',
      minRechargeCents: 100_00,
      bonusCents: 10_00,
      sessionCount: 2,
      discountCents: 20_00,
    });

    // Ended: no more bonus.
    await x.call(api.activity.end.path, { id: draft.data.id });
    expect(await recharge(member.card.id, 100_00)).toBe(989_99);
  });

  it('refuses a recharge bonus without its terms, naming the field in the caller’s language', async () => {
    const x = await site();
    const en = await x.add({ type: 'rechargeBonus', minRechargeCents: 100_00 });
    expect(en).toMatchObject({ code: 400, data: { field: 'bonusCents' } });
    expect(en.msg).toContain('Bonus');
    const zh = await x.add({ type: 'rechargeBonus', bonusCents: 100 }, 'zh');
    expect(zh).toMatchObject({ code: 400, data: { field: 'minRechargeCents' } });
    expect(zh.msg).toContain('充值满');
  });
});

describe('voucher grant activities', () => {
  async function template(providerId: number) {
    const [t] = await db
      .insert(voucherTemplate)
      .values({ providerId, name: uniq('T'), kind: 'amount', value: 300, validDays: 30 })
      .returning();
    return t!;
  }
  const grantedBy = (activityId: number) =>
    db
      .select({ userId: voucher.chargeUserId, templateId: voucher.templateId, validUntil: voucher.validUntil })
      .from(voucher)
      .where(eq(voucher.activityId, activityId));

  it('issue one voucher to each member of its groups at the start, through the job queue, once per user', async () => {
    const x = await site();
    const t = await template(x.providerId);
    const g = await x.group();
    const a = await x.newCard(0, g.id);
    const b = await x.newCard(0, g.id);
    await x.newCard(0);
    const act = await x.started({ type: 'voucherGrant', templateId: t.id, grantTo: 'groups', groupIds: [g.id] });
    const got = await eventually(async () => {
      const rows = await grantedBy(act.id);
      return rows.length === 2 && rows;
    });
    expect(got.map((r) => r.userId).sort()).toEqual([a.user.id, b.user.id].sort());
    expect(got.every((r) => r.templateId === t.id)).toBe(true);
    // A rerun, a retry or two nodes at once add nothing.
    expect((await Promise.all([grants.run(act.id), grants.run(act.id)])).reduce((m, n) => m + n, 0)).toBe(0);
    expect(await grantedBy(act.id)).toHaveLength(2);
    // A restart does not run it again: its groups' later members get none.
    expect((await resumed())(act.id)).toBe(0);
    expect((await s.call<ActivityDto>('GET', `${api.activity.get.path}?id=${act.id}`, { token: x.token })).data.sessionCount).toBe(2);
  });

  it('issue one to each user registered while it is active, and none before its start or after its end', async () => {
    const x = await site();
    const t = await template(x.providerId);
    const before = await x.newCard(0);
    const act = await x.started({ type: 'voucherGrant', templateId: t.id, grantTo: 'newUsers' });
    const register = async () => {
      const r = await x.call<{ id: number }>(api.chargeUser.add.path, { account: uniq('new'), userType: 'card', providerId: x.providerId });
      expect(r.code, r.msg).toBe(200);
      return r.data.id;
    };
    const fresh = await register();
    await eventually(async () => (await grantedBy(act.id)).some((r) => r.userId === fresh));
    // A registration whose job was lost is served by any later sweep (start-up, the end); once.
    const [lost] = await db
      .insert(chargeUser)
      .values({ providerId: x.providerId, account: uniq('lost'), userType: 'card' })
      .returning();
    expect(await grants.run(act.id)).toBe(1);
    expect(await grants.run(act.id)).toBe(0);
    // A restart queues its start, its end and a sweep now.
    expect((await resumed())(act.id)).toBe(3);

    await x.call(api.activity.end.path, { id: act.id });
    await register();
    expect(await grants.run(act.id)).toBe(0);
    expect((await grantedBy(act.id)).map((r) => r.userId).sort()).toEqual([fresh, lost!.id].sort());
    expect(
      await db
        .select()
        .from(voucher)
        .where(and(eq(voucher.chargeUserId, before.user.id), isNotNull(voucher.activityId))),
    ).toEqual([]);
  });

  it('refuses another provider’s template and a group grant without groups, naming the field', async () => {
    const x = await site();
    const foreign = await template((await pricedSite(db)).providerId);
    expect(await x.add({ type: 'voucherGrant', templateId: foreign.id, grantTo: 'newUsers' })).toMatchObject({
      code: 400,
      data: { field: 'templateId' },
    });
    const own = await template(x.providerId);
    expect(await x.add({ type: 'voucherGrant', templateId: own.id, grantTo: 'groups' })).toMatchObject({
      code: 400,
      data: { field: 'groupIds' },
    });
  });
});

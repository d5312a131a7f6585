import { api, type ActivityDto, type LedgerRow } from '@csms/contract';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createUser } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import type { Db } from '../../db/client.js';
import { billLine, chargingTransaction, memberLevel, memberStatus, voucher, voucherTemplate } from '../../db/schema.js';
import { createBilling, type Billing } from '../billing/settle.js';
import { createLedger } from '../cards/ledger.js';
import { energyInHours } from './activity-discount.js';
import { createDiscounts } from './discounts.js';
import { createMembership } from './membership.js';
import { pricedSite, uniq } from './ops-fixtures.js';

let s: TestServer;
let db: Db;
let billing: Billing;
beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
  billing = createBilling({ db, ledger: createLedger({ db }), hooks: createDiscounts({ membership: createMembership({ db }) }) });
});
afterAll(() => s.close());

const PERMS = [
  ...['list', 'query', 'add', 'edit', 'remove', 'export', 'activate', 'end'].map((a) => `operate:activity:${a}`),
  'finance:recharge:list',
];

async function site() {
  const op = await createOperator(db, { permissions: PERMS, rolePaths: ['/operateManagement', '/operateManagement/activityManage'] });
  const token = await s.login(op.user.username, op.user.password);
  const x = await pricedSite(db, op.providerId);
  const add = async (b: Record<string, unknown>) => {
    const r = await s.call<ActivityDto>('POST', api.activity.add.path, {
      token,
      body: {
        providerId: op.providerId,
        name: uniq('A'),
        type: 'serviceDiscount',
        // From before the sessions below (2026) to long after any run of the suite.
        startTime: '2026-01-01T00:00:00Z',
        endTime: '2099-01-01T00:00:00Z',
        discountKind: 'percent',
        discountValue: 20,
        ...b,
      },
    });
    expect(r.code, r.msg).toBe(200);
    return r.data;
  };
  const act = (path: string, id: number) => s.call<ActivityDto>('POST', path, { token, body: { id } });
  return { op, token, add, act, ...x };
}
const discountLines = (transactionId: number) =>
  db
    .select()
    .from(billLine)
    .where(and(eq(billLine.transactionId, transactionId), isNull(billLine.priceId)))
    .orderBy(asc(billLine.id));

describe('activities', () => {
  it('bills the member discount, then the best activity, then one voucher, each a line of its own, to the cent', async () => {
    const x = await site();
    const draft = await x.add({ name: 'Spring offer' });
    // A draft gives nothing.
    const { card, user } = await x.newCard(10_000);
    const t0 = await x.session(card.id, '2026-03-01');
    await billing.settle(t0.id);
    expect(await discountLines(t0.id)).toEqual([]);

    expect((await x.act(api.activity.activate.path, draft.id)).data.status).toBe('active');
    // An active activity's terms cannot change.
    const edit = await s.call('POST', api.activity.edit.path, {
      token: x.token,
      body: {
        id: draft.id,
        name: 'x',
        type: 'serviceDiscount',
        startTime: '2026-01-01T00:00:00Z',
        endTime: '2027-01-01T00:00:00Z',
        discountKind: 'percent',
        discountValue: 90,
      },
    });
    expect(edit.code).toBe(409);
    // A smaller one beside it: the best one applies.
    await x.act(api.activity.activate.path, (await x.add({ name: 'Small', discountValue: 5 })).id);

    const [lv] = await db
      .insert(memberLevel)
      .values({ providerId: x.providerId, name: 'Gold', sortOrder: 1, basis: 'spend', threshold: 0, discountPercent: 10, validityDays: 30 })
      .returning();
    await db
      .insert(memberStatus)
      .values({ chargeUserId: user.id, providerId: x.providerId, levelId: lv!.id, validUntil: new Date('2030-01-01') });
    const [tpl] = await db
      .insert(voucherTemplate)
      .values({ providerId: x.providerId, name: 'Fifty', kind: 'amount', value: 50, validDays: 30 })
      .returning();
    await db.insert(voucher).values({
      providerId: x.providerId,
      templateId: tpl!.id,
      chargeUserId: user.id,
      name: 'Fifty',
      kind: 'amount',
      value: 50,
      minBillCents: 0,
      stationIds: [],
      validFrom: new Date('2026-01-01'),
      validUntil: new Date('2027-01-01'),
    });

    const t = await x.session(card.id, '2026-03-02');
    // 549 + 175; member 10% of 175 = 18 (17.5 half up); activity 20% of 157 = 31 (31.4); voucher 50.
    expect(await billing.settle(t.id)).toMatchObject({ kind: 'billed', totalCents: 724 - 18 - 31 - 50 });
    expect((await discountLines(t.id)).map((l) => [l.kind, l.label, l.amountCents])).toEqual([
      ['member', 'Gold', -18],
      ['activity', 'Spring offer', -31],
      ['voucher', 'Fifty', -50],
    ]);
    // The recharge records show the session's charge with the discounts its bill carried.
    const records = await s.call<{ list: LedgerRow[] }>(
      'GET',
      `${api.rechargeRecord.list.path}?page=1&limit=10&tradeType=charge&account=${user.account}`,
      { token: x.token },
    );
    expect(records.code, records.msg).toBe(200);
    expect(records.data.list.map((r) => [r.transactionRef, r.amountCents, r.discountCents]).sort()).toEqual(
      [
        [String(t0.id), -724, null],
        [String(t.id), -625, -99],
      ].sort(),
    );
    const got = await s.call<ActivityDto>('GET', `${api.activity.get.path}?id=${draft.id}`, { token: x.token });
    expect(got.data).toMatchObject({ sessionCount: 1, discountCents: -31 });
  });

  it('a discount in chosen hours counts the energy charged in those local hours: per kWh over it, percent by its share', async () => {
    const x = await site();
    // 07:30–08:30 Shanghai, 7 kWh evenly: 3.5 kWh in hour 7. 0.10 per kWh → 0.35.
    await x.act(
      api.activity.activate.path,
      (await x.add({ name: 'Early bird', discountKind: 'perKwh', discountValue: 1000, hours: [7] })).id,
    );
    const { card } = await x.newCard(10_000);
    const t = await x.session(card.id, '2026-03-03');
    await billing.settle(t.id);
    expect((await discountLines(t.id)).map((l) => [l.kind, l.energyWh, l.unitPrice, l.amountCents])).toEqual([
      ['activity', 3500, 1000, -35],
    ]);
    // Percent in those hours: of the service fee left, the share of the energy charged in them. 175 × 3.5/7 = 87.5 → 88;
    // 20% of 88 = 17.6 → 18. The session's other hour gets nothing from it.
    const percent = await site();
    await percent.act(
      api.activity.activate.path,
      (await percent.add({ name: 'Morning', discountKind: 'percent', discountValue: 20, hours: [7] })).id,
    );
    const other = await percent.newCard(10_000);
    const tp = await percent.session(other.card.id, '2026-03-03');
    expect(await billing.settle(tp.id)).toMatchObject({ kind: 'billed', totalCents: 724 - 18 });
    expect((await discountLines(tp.id)).map((l) => [l.kind, l.energyWh, l.unitPrice, l.amountCents])).toEqual([['activity', 3500, 0, -18]]);
    expect(
      energyInHours(
        [
          { at: new Date('2026-03-03T23:00:00Z'), wh: 0 },
          { at: new Date('2026-03-04T01:00:00Z'), wh: 2000 },
        ],
        [8],
        'Asia/Shanghai',
      ),
    ).toBe(1000);
  });

  it('a user bound to stations makes and runs only discounts at those stations', async () => {
    const x = await site();
    const elsewhere = await pricedSite(db, x.op.providerId);
    const everywhere = await x.add({ stationIds: [] });
    const user = await createUser(db, { providerId: x.op.providerId, roleId: x.op.role.id, stationIds: [x.stationId] });
    const token = await s.login(user.username, user.password);
    const body = {
      providerId: x.op.providerId,
      type: 'serviceDiscount',
      startTime: '2026-01-01T00:00:00Z',
      endTime: '2099-01-01T00:00:00Z',
      discountKind: 'percent',
      discountValue: 100,
    };
    const add = (stationIds: number[], lang: 'en' | 'zh' = 'en') =>
      s.call<ActivityDto>('POST', api.activity.add.path, { token, lang, body: { ...body, name: uniq('A'), stationIds } });
    expect(await add([])).toMatchObject({
      code: 400,
      msg: 'You are bound to stations: the discount must apply only at your stations (none chosen means all stations)',
      data: { field: 'stationIds' },
    });
    expect(await add([elsewhere.stationId], 'zh')).toMatchObject({
      code: 400,
      msg: '您已绑定场站：优惠只能适用于您绑定的场站（不选即全部场站）',
      data: { field: 'stationIds' },
    });
    const own = await add([x.stationId]);
    expect(own.code, own.msg).toBe(200);
    expect((await s.call('POST', api.activity.activate.path, { token, body: { id: own.data.id } })).code).toBe(200);
    // The colleague's activity for every station: not changed, started, ended nor removed by the bound user.
    for (const [path, b] of [
      [api.activity.edit.path, { ...body, id: everywhere.id, providerId: undefined, name: 'x', stationIds: [x.stationId] }],
      [api.activity.activate.path, { id: everywhere.id }],
      [api.activity.remove.path, { ids: [everywhere.id] }],
    ] as const)
      expect((await s.call('POST', path, { token, body: b })).code, path).toBe(403);
    expect((await x.act(api.activity.activate.path, everywhere.id)).code).toBe(200);
    expect((await s.call('POST', api.activity.end.path, { token, body: { id: everywhere.id } })).code).toBe(403);
    const after = await s.call<ActivityDto>('GET', `${api.activity.get.path}?id=${everywhere.id}`, { token: x.token });
    expect(after.data).toMatchObject({ status: 'active', stationIds: [] });
  });

  it('ending an activity stops its discount for sessions that end afterwards, and not before', async () => {
    const x = await site();
    const a = await x.add({ name: 'Short' });
    await x.act(api.activity.activate.path, a.id);
    const { card } = await x.newCard(10_000);
    const before = await x.session(card.id, '2026-03-04');
    const ended = await x.act(api.activity.end.path, a.id);
    expect(ended.data.status).toBe('ended');
    // Ended before this session's end (it ends in the future, the day after tomorrow or later): no discount.
    const after = await x.session(card.id, new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10));
    await billing.settle(after.id);
    expect(await discountLines(after.id)).toEqual([]);
    // A session that ended before the activity did, settled later, keeps it.
    await billing.settle(before.id);
    expect((await discountLines(before.id)).map((l) => [l.kind, l.amountCents])).toEqual([['activity', -35]]);
    // Ended once.
    expect((await x.act(api.activity.end.path, a.id)).code).toBe(409);
    const [row] = await db.select().from(chargingTransaction).where(eq(chargingTransaction.id, before.id));
    expect(row!.totalCents).toBe(724 - 35);
  });
});

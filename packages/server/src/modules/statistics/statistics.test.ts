import {
  api,
  dayAndMonthStart,
  type AssetCounts,
  type RevenueTrend,
  type StationBoard,
  type TodayStats,
  type TrendPeriod,
} from '@csms/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createUser, repoCaller as principal } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import type { Db } from '../../db/client.js';
import {
  chargePoint,
  chargeUser,
  chargingTransaction,
  connector,
  pointOnlineSpan,
  settlementDay,
  startMonth,
  station,
} from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { createOperationStatsRepo } from './operation.repo.js';
import { createStatisticsRepo } from './statistics.repo.js';

let s: TestServer;
let db: Db;
let n = 0;
const uniq = (p: string) => `${p}${++n}${Math.random().toString(36).slice(2, 6)}`;

async function site(providerId: number, connectors: number, online = true) {
  const [st] = await db
    .insert(station)
    .values({ providerId, name: uniq('st'), country: 'CN', address: 'x', longitude: 121, latitude: 31, timeZone: 'Asia/Shanghai' })
    .returning();
  const [cp] = await db
    .insert(chargePoint)
    .values({ providerId, stationId: st!.id, serialNumber: uniq('SN'), name: 'p', equipmentType: 'ac', ratedPowerW: 7000 })
    .returning();
  for (let k = 1; k <= connectors; k++)
    await db.insert(connector).values({ chargePointId: cp!.id, connectorNo: k, standard: 'ac', type: 'Type2' });
  // Online since before the days these tests look at, unless a test says otherwise.
  if (online) await db.insert(pointOnlineSpan).values({ chargePointId: cp!.id, startedAt: new Date('2026-01-01T00:00:00Z') });
  return { providerId, stationId: st!.id, pointId: cp!.id };
}

type Site = Awaited<ReturnType<typeof site>>;

async function tx(x: Site, startedAt: string, stoppedAt: string | null, energyWh: number, totalCents: number | null, connectorNo = 1) {
  const [row] = await db
    .insert(chargingTransaction)
    .values({
      providerId: x.providerId,
      stationId: x.stationId,
      chargePointId: x.pointId,
      connectorNo,
      idTag: 'T',
      startType: 'card',
      authStatus: 'Accepted',
      meterStartWh: 0,
      startedAt: new Date(startedAt),
      stoppedAt: stoppedAt ? new Date(stoppedAt) : null,
      meterStopWh: stoppedAt ? energyWh : null,
      energyWh,
      totalCents,
      billedAt: totalCents === null ? null : new Date(stoppedAt ?? startedAt),
    })
    .returning({ id: chargingTransaction.id });
  return row!.id;
}

beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
});

/** The trend as the dashboard reads it (from the day totals, cut in `tz`), which must equal the records added up. */
async function trendOf(p: Principal, period: TrendPeriod, now: Date, tz: string): Promise<RevenueTrend> {
  const repo = createStatisticsRepo({ db });
  await repo.ensureDayTotals(tz);
  const fromTotals = await repo.revenueTrend(p, period, now, tz);
  expect(fromTotals).toEqual(await repo.revenueTrendFromRecords(p, period, now, tz));
  return fromTotals;
}
afterAll(() => s.close());

/** A provider's start months, cell by cell, and the same counted from its finished records in `tz`: they must be equal. */
async function startCells(providerId: number, tz: string) {
  const rows = async (q: ReturnType<typeof sql>) => ((await db.execute(q)) as unknown as { rows: unknown[] }).rows;
  const held = await rows(sql`
    select ${startMonth.stationId} as station, to_char(${startMonth.month}, 'YYYY-MM') as month, (c.k - 1)::int as k, c.n
    from ${startMonth} cross join unnest(${startMonth.startsByWeekHour}) with ordinality c(n, k)
    where ${startMonth.providerId} = ${providerId} and c.n <> 0 order by 1, 2, 3`);
  const counted = await rows(sql`
    select station_id as station, to_char(l.at, 'YYYY-MM') as month, ((extract(isodow from l.at) - 1) * 24 + extract(hour from l.at))::int as k,
           count(*)::int as n
    from ${chargingTransaction} cross join lateral (select started_at at time zone ${tz}::text as at) l
    where provider_id = ${providerId} and stopped_at is not null group by 1, 2, 3 order by 1, 2, 3`);
  return { held, counted };
}

describe('dashboard statistics (hand-computed)', () => {
  // 12:00 in Shanghai on Monday 2 March 2026; local midnight is 2026-03-01T16:00Z.
  const now = new Date('2026-03-02T04:00:00Z');
  const tz = 'Asia/Shanghai';
  let a: Site;
  let a2: Site;

  beforeAll(async () => {
    const op = await createOperator(db);
    a = await site(op.providerId, 2);
    a2 = await site(op.providerId, 2);
    await tx(a, '2026-03-01T23:30:00Z', '2026-03-02T00:30:00Z', 7000, 724); // today 07:30–08:30, billed
    await tx(a, '2026-03-02T02:00:00Z', null, 2500, null, 2); // today 10:00, still charging
    await tx(a2, '2026-03-02T01:00:00Z', '2026-03-02T01:30:00Z', 3000, null); // today, not billed (invalid)
    await tx(a2, '2026-03-01T15:00:00Z', '2026-03-01T17:00:00Z', 10000, 1500, 2); // yesterday 23:00 → today 01:00
    await tx(a, '2026-01-15T02:00:00Z', '2026-01-15T03:00:00Z', 4000, 999);
    await tx(a, '2024-01-01T02:00:00Z', '2024-01-01T03:00:00Z', 5000, 5000); // outside every window
    // Another provider's session today counts for nobody here.
    const other = await createOperator(db);
    await tx(await site(other.providerId, 1), '2026-03-02T01:00:00Z', '2026-03-02T02:00:00Z', 9000, 800);
  });

  it("counts today's sessions by their local start day, and utilisation since local midnight", async () => {
    const stats = await createStatisticsRepo({ db }).today(principal(a.providerId), now, tz);
    // 7000 + 2500 (so far) + 3000 Wh; only the first is billed.
    // Busy connector time: 3600 + 7200 (10:00 → now) + 1800 + 3600 (the overnight one's part after midnight) = 16200 s
    // out of 4 connectors online × 12 h = 172800 s.
    expect(stats).toEqual({
      date: '2026-03-02',
      timeZone: tz,
      chargeCount: 3,
      energyWh: 12500,
      incomeCents: 724,
      utilisation: 16200 / 172800,
      connectorCount: 4,
      chargingSeconds: 16200,
      onlineSeconds: 172800,
    });
  });

  it('divides by the connector time online only: a point offline for part of the day', async () => {
    const op = await createOperator(db);
    const x = await site(op.providerId, 2, false);
    // Online from yesterday until 10:00 local, then again from 11:00: 10 h + 1 h of 2 connectors.
    await db.insert(pointOnlineSpan).values([
      { chargePointId: x.pointId, startedAt: new Date('2026-03-01T10:00:00Z'), endedAt: new Date('2026-03-02T02:00:00Z') },
      { chargePointId: x.pointId, startedAt: new Date('2026-03-02T03:00:00Z') },
    ]);
    await tx(x, '2026-03-02T01:00:00Z', '2026-03-02T01:30:00Z', 1000, 100);
    const stats = await createStatisticsRepo({ db }).today(principal(op.providerId), now, tz);
    expect(stats).toMatchObject({ chargingSeconds: 1800, onlineSeconds: 2 * 11 * 3600, utilisation: 1800 / (2 * 11 * 3600) });
  });

  it('opens a span when a point comes online and closes it when it goes offline, whichever path marks it', async () => {
    const op = await createOperator(db);
    const x = await site(op.providerId, 1, false);
    const connectedAt = new Date(Date.now() - 60_000);
    await db.update(chargePoint).set({ online: true, connectedAt }).where(eq(chargePoint.id, x.pointId));
    // Marked online again (another node's connect): still the one span.
    await db.update(chargePoint).set({ online: true }).where(eq(chargePoint.id, x.pointId));
    let spans = await db.select().from(pointOnlineSpan).where(eq(pointOnlineSpan.chargePointId, x.pointId));
    expect(spans).toEqual([expect.objectContaining({ startedAt: connectedAt, endedAt: null })]);
    await db.update(chargePoint).set({ online: false }).where(eq(chargePoint.id, x.pointId));
    spans = await db.select().from(pointOnlineSpan).where(eq(pointOnlineSpan.chargePointId, x.pointId));
    expect(spans).toHaveLength(1);
    expect(spans[0]!.endedAt!.getTime()).toBeGreaterThanOrEqual(connectedAt.getTime());
  });

  it('narrows to the bound stations of a station-bound user', async () => {
    const stats = await createStatisticsRepo({ db }).today(principal(a.providerId, [a2.stationId]), now, tz);
    expect(stats).toMatchObject({
      chargeCount: 1,
      energyWh: 3000,
      incomeCents: 0,
      connectorCount: 2,
      chargingSeconds: 1800 + 3600,
      onlineSeconds: 2 * 12 * 3600,
    });
  });

  it('buckets billed income by local day, Monday week and month, oldest first, with empty buckets', async () => {
    const p = principal(a.providerId);
    const days = await trendOf(p, 'day', now, tz);
    expect(days.points).toHaveLength(15);
    expect(days.points[0]!.start).toBe('2026-02-16');
    expect(days.points.at(-2)).toEqual({ start: '2026-03-01', incomeCents: 1500, energyWh: 10000, chargeCount: 1 });
    expect(days.points.at(-1)).toEqual({ start: '2026-03-02', incomeCents: 724, energyWh: 12500, chargeCount: 3 });
    expect(days.points.slice(0, -2).every((x) => x.incomeCents === 0 && x.chargeCount === 0)).toBe(true);

    const weeks = await trendOf(p, 'week', now, tz);
    expect(weeks.points).toHaveLength(12);
    expect(weeks.points[0]!.start).toBe('2025-12-15');
    expect(weeks.points.at(-1)).toEqual({ start: '2026-03-02', incomeCents: 724, energyWh: 12500, chargeCount: 3 });
    expect(weeks.points.at(-2)).toEqual({ start: '2026-02-23', incomeCents: 1500, energyWh: 10000, chargeCount: 1 });
    expect(weeks.points.find((x) => x.start === '2026-01-12')).toEqual({
      start: '2026-01-12',
      incomeCents: 999,
      energyWh: 4000,
      chargeCount: 1,
    });

    const months = await trendOf(p, 'month', now, tz);
    expect(months.points.map((x) => x.start)).toEqual([
      '2025-04-01',
      '2025-05-01',
      '2025-06-01',
      '2025-07-01',
      '2025-08-01',
      '2025-09-01',
      '2025-10-01',
      '2025-11-01',
      '2025-12-01',
      '2026-01-01',
      '2026-02-01',
      '2026-03-01',
    ]);
    expect(months.points.at(-1)).toEqual({ start: '2026-03-01', incomeCents: 2224, energyWh: 22500, chargeCount: 4 });
    expect(months.points.at(-3)).toEqual({ start: '2026-01-01', incomeCents: 999, energyWh: 4000, chargeCount: 1 });
    expect(months.points.reduce((sum, x) => sum + x.incomeCents, 0)).toBe(724 + 1500 + 999);
  });

  it('counts the corrections late Stops made to settled bills as income, as the ledger does', async () => {
    const op = await createOperator(db);
    const x = await site(op.providerId, 1);
    await tx(x, '2026-03-02T01:00:00Z', '2026-03-02T02:00:00Z', 5000, 300);
    await tx(x, '2026-03-02T03:00:00Z', '2026-03-02T04:00:00Z', 1000, 200);
    // Settled at 3.00, then corrected by 4.50 more; the second settled at 2.00, then 0.50 given back.
    await db
      .update(chargingTransaction)
      .set({ adjustmentCents: 450 })
      .where(and(eq(chargingTransaction.stationId, x.stationId), eq(chargingTransaction.totalCents, 300)));
    await db
      .update(chargingTransaction)
      .set({ adjustmentCents: -50 })
      .where(and(eq(chargingTransaction.stationId, x.stationId), eq(chargingTransaction.totalCents, 200)));
    const days = await trendOf(principal(op.providerId), 'day', new Date('2026-03-02T10:00:00Z'), 'UTC');
    expect(days.points.at(-1)).toMatchObject({ start: '2026-03-02', incomeCents: 300 + 450 + 200 - 50 });
    expect(await createStatisticsRepo({ db }).today(principal(op.providerId), new Date('2026-03-02T10:00:00Z'), 'UTC')).toMatchObject({
      incomeCents: 900,
    });
  });

  it('follows the local clock across a daylight-saving change', async () => {
    const op = await createOperator(db);
    const x = await site(op.providerId, 1);
    // Berlin moves to CEST on 29 March 2026: 00:30 local is 23:30Z the day before in CET, 22:30Z in CEST.
    await tx(x, '2026-03-28T23:30:00Z', '2026-03-29T00:00:00Z', 1000, 100);
    await tx(x, '2026-03-29T22:30:00Z', '2026-03-29T23:00:00Z', 2000, 200);
    const days = await trendOf(principal(op.providerId), 'day', new Date('2026-03-30T10:00:00Z'), 'Europe/Berlin');
    expect(days.points).toHaveLength(15);
    expect(days.points.at(-1)).toMatchObject({ start: '2026-03-30', incomeCents: 200 });
    expect(days.points.at(-2)).toMatchObject({ start: '2026-03-29', incomeCents: 100 });
    expect(days.points[0]!.start).toBe('2026-03-16');
  });
});

describe('day totals', () => {
  it('stay equal to the records through every kind of write (start, stop, settle, correct, move, delete)', async () => {
    const op = await createOperator(db);
    const [x, y] = [await site(op.providerId, 2), await site(op.providerId, 1)];
    const p = principal(op.providerId);
    const tz = 'Asia/Shanghai';
    const now = new Date('2026-05-20T04:00:00Z');
    // A fixed pseudo-random walk over the writes the server makes, checked as it goes.
    let seed = 11;
    const rnd = (k: number) => (seed = (seed * 48271) % 2147483647) % k; // Park–Miller: exact in doubles
    // Starts over the last 45 days: the day trend's 15 days, and a whole month (April) for the point month totals.
    const at = () => new Date(now.getTime() - rnd(45 * 24 * 3600) * 1000 - 1000);
    const ids: number[] = [];
    const pick = () => ids[rnd(ids.length)]!;
    const set = (id: number, v: Partial<typeof chargingTransaction.$inferInsert>) =>
      db.update(chargingTransaction).set(v).where(eq(chargingTransaction.id, id));
    await createStatisticsRepo({ db }).ensureDayTotals(tz);
    for (let i = 0; i < 80; i++) {
      const site = rnd(2) ? x : y;
      const kind = ids.length < 3 ? rnd(2) : rnd(8);
      if (kind === 0) ids.push(await tx(site, at().toISOString(), null, rnd(5000), null, 1 + rnd(2)));
      else if (kind === 1) {
        const start = at();
        ids.push(
          await tx(site, start.toISOString(), new Date(start.getTime() + 3600_000).toISOString(), rnd(9000), rnd(3) ? null : rnd(900)),
        );
      } else if (kind === 2)
        await set(pick(), { stoppedAt: now, energyWh: rnd(20000) }); // a Stop (or a late one)
      else if (kind === 3)
        await set(pick(), { totalCents: rnd(1500), billedAt: now }); // settled
      else if (kind === 4)
        await set(pick(), { adjustmentCents: rnd(400) - 200, energyWh: rnd(20000) }); // a late Stop's correction
      else if (kind === 5) await set(pick(), { startedAt: at(), stationId: site.stationId, chargePointId: site.pointId });
      else if (kind === 6) await set(pick(), { stoppedAt: null, billedAt: null });
      else await db.delete(chargingTransaction).where(eq(chargingTransaction.id, ids.splice(rnd(ids.length), 1)[0]!));
      if (i % 10 === 9) await trendOf(p, 'day', now, tz);
    }
    await trendOf(p, 'day', now, tz);
    const months = await trendOf(p, 'month', now, tz);
    expect(months.points.reduce((sum, d) => sum + d.chargeCount, 0)).toBe(ids.length);
    // The operation statistics' connector time and start hours, and the settled bills per settlement day, likewise.
    const ops = createOperationStatsRepo({ db, defaultZone: tz });
    // No whole month (records only), a whole month, and whole months with days before or after them (from the
    // records, or from their month's totals less the days left out).
    for (const [startDate, endDate] of [
      ['2026-05-01', '2026-05-20'],
      ['2026-04-01', '2026-04-30'],
      ['2026-04-01', '2026-05-20'],
      ['2026-04-09', '2026-05-31'],
      ['2026-04-09', '2026-05-20'],
      ['2026-03-28', '2026-05-06'],
      ['2026-04-03', '2026-05-27'],
    ]) {
      const period = { period: 'custom', startDate, endDate } as const;
      expect(await ops.report(p, period, now)).toEqual(await ops.reportFromRecords(p, period, now));
    }
    const settled = (await db.execute(sql`
      select coalesce(sum(${settlementDay.billCount}), 0)::int as n, coalesce(sum(${settlementDay.incomeCents}), 0)::int as cents,
             coalesce(sum(${settlementDay.adjustmentCents}), 0)::int as adj
      from ${settlementDay} where ${settlementDay.providerId} = ${op.providerId}`)) as unknown as { rows: unknown[] };
    const records = (await db.execute(sql`
      select count(*)::int as n, coalesce(sum(coalesce(total_cents, 0) + coalesce(adjustment_cents, 0)), 0)::int as cents,
             coalesce(sum(adjustment_cents), 0)::int as adj
      from ${chargingTransaction} where provider_id = ${op.providerId} and billed_at is not null`)) as unknown as { rows: unknown[] };
    expect(settled.rows).toEqual(records.rows);
    // The heat map's start months, every cell of every month (not only the months of the periods above).
    const cells = await startCells(op.providerId, tz);
    expect(cells.held.length).toBeGreaterThan(0);
    expect(cells.held).toEqual(cells.counted);
  });

  it('are rebuilt once when the time zone changes, and then follow it', async () => {
    const repo = createStatisticsRepo({ db });
    const op = await createOperator(db);
    const x = await site(op.providerId, 1);
    // 23:30 UTC on 1 May is 07:30 on 2 May in Shanghai.
    await tx(x, '2026-05-01T23:30:00Z', '2026-05-02T00:30:00Z', 1000, 100);
    const now = new Date('2026-05-03T12:00:00Z');
    expect(await repo.ensureDayTotals('UTC')).toBe(true);
    expect(await repo.ensureDayTotals('UTC')).toBe(false);
    await tx(x, '2026-05-02T23:30:00Z', '2026-05-03T00:30:00Z', 2000, 200);
    const utc = await trendOf(principal(op.providerId), 'day', now, 'UTC');
    expect(utc.points.slice(-3).map((d) => d.incomeCents)).toEqual([100, 200, 0]);
    expect(await repo.ensureDayTotals('Asia/Shanghai')).toBe(true);
    const shanghai = await trendOf(principal(op.providerId), 'day', now, 'Asia/Shanghai');
    expect(shanghai.points.slice(-3).map((d) => d.incomeCents)).toEqual([0, 100, 200]);
  });

  it("move the operation statistics' month totals to the new zone's months (a start on the last evening of April in UTC)", async () => {
    const repo = createStatisticsRepo({ db });
    const op = await createOperator(db);
    const x = await site(op.providerId, 1);
    const p = principal(op.providerId);
    const now = new Date('2026-05-03T12:00:00Z');
    // Thursday 30 April 20:00 in UTC is Friday 1 May 04:00 in Shanghai.
    await tx(x, '2026-04-30T20:00:00Z', '2026-04-30T21:00:00Z', 3000, null);
    const report = async (tz: string, month: string) => {
      const ops = createOperationStatsRepo({ db, defaultZone: tz });
      const period = { period: 'month', date: month } as const;
      const r = await ops.report(p, period, now);
      expect(r).toEqual(await ops.reportFromRecords(p, period, now));
      return r;
    };
    for (const tz of ['UTC', 'Asia/Shanghai']) {
      await repo.ensureDayTotals(tz);
      // And one written while the totals are cut in this zone (the trigger, not the rebuild): 2 May 10:00 UTC, 18:00 in Shanghai.
      if (tz === 'UTC') await tx(x, '2026-05-02T10:00:00Z', '2026-05-02T10:30:00Z', 1000, null);
      const cells = await startCells(op.providerId, tz);
      expect(cells.held).toEqual(cells.counted);
      const april = await report(tz, '2026-04-15');
      const may = await report(tz, '2026-05-15');
      if (tz === 'UTC') {
        expect(april.heatmap[3]![20]).toBe(1);
        expect(may.heatmap[5]![10]).toBe(1);
        expect(april.topPoints[0]).toMatchObject({ chargeCount: 1, energyWh: 3000 });
      } else {
        expect(april.totals.chargeCount).toBe(0);
        expect(may.heatmap[4]![4]).toBe(1);
        expect(may.heatmap[5]![18]).toBe(1);
        expect(may.topPoints[0]).toMatchObject({ chargeCount: 2, energyWh: 4000 });
      }
    }
  });
});

describe('statistics over HTTP', () => {
  it('answers any signed-in user over its own scope, in CSMS_TIME_ZONE', async () => {
    await createStatisticsRepo({ db }).ensureDayTotals(s.config.timeZone);
    const a = await createOperator(db);
    const b = await createOperator(db);
    const x = await site(a.providerId, 3);
    // Two minutes ago: inside the 12-month window whatever the time of day.
    const start = new Date(Date.now() - 120_000);
    await tx(x, start.toISOString(), new Date(start.getTime() + 60_000).toISOString(), 1234, 567);
    const tokenA = await s.login(a.user.username, a.user.password);
    const tokenB = await s.login(b.user.username, b.user.password);

    const trendA = await s.call<RevenueTrend>('GET', `${api.statistics.revenueTrend.path}?period=month`, { token: tokenA });
    expect(trendA.code).toBe(200);
    expect(trendA.data.timeZone).toBe(s.config.timeZone);
    expect(trendA.data.points.reduce((sum, p) => sum + p.incomeCents, 0)).toBe(567);
    const trendB = await s.call<RevenueTrend>('GET', `${api.statistics.revenueTrend.path}?period=month`, { token: tokenB });
    expect(trendB.data.points.reduce((sum, p) => sum + p.incomeCents, 0)).toBe(0);

    const todayB = await s.call<TodayStats>('GET', api.statistics.today.path, { token: tokenB });
    expect(todayB.data).toMatchObject({ chargeCount: 0, energyWh: 0, incomeCents: 0, utilisation: 0, connectorCount: 0 });
    const todayA = await s.call<TodayStats>('GET', api.statistics.today.path, { token: tokenA });
    expect(todayA.data.connectorCount).toBe(3);

    // Assets: the provider's station, its AC point with three connectors; the other provider's are not counted.
    const assetsA = await s.call<AssetCounts>('GET', api.statistics.assets.path, { token: tokenA });
    expect(assetsA.data).toMatchObject({ stations: 1, points: 1, acPoints: 1, dcPoints: 0, acdcPoints: 0, connectors: 3 });
    await db.insert(chargeUser).values({ providerId: a.providerId, account: uniq('u'), userType: 'card' });
    expect((await s.call<AssetCounts>('GET', api.statistics.assets.path, { token: tokenA })).data.chargeUsers).toBe(
      assetsA.data.chargeUsers + 1,
    );
    expect((await s.call<AssetCounts>('GET', api.statistics.assets.path, { token: tokenB })).data).toMatchObject({
      stations: 0,
      points: 0,
      connectors: 0,
      chargeUsers: 0,
    });

    const bad = await s.call('GET', `${api.statistics.revenueTrend.path}?period=year`, { token: tokenA, lang: 'zh' });
    expect(bad.code).toBe(400);
    expect(bad.msg).toContain('统计周期');
  });
});

describe("the large screen's station board", () => {
  it("gives each station of the caller's scope its place, connectors by status, power drawn now and today's figures", async () => {
    const op = await createOperator(db);
    const x = await site(op.providerId, 3);
    const idle = await site(op.providerId, 1);
    await db.update(chargePoint).set({ online: true }).where(eq(chargePoint.id, x.pointId));
    await db
      .update(connector)
      .set({ status: 'Charging' })
      .where(and(eq(connector.chargePointId, x.pointId), eq(connector.connectorNo, 1)));
    await db
      .update(connector)
      .set({ status: 'Faulted' })
      .where(and(eq(connector.chargePointId, x.pointId), eq(connector.connectorNo, 2)));
    await db
      .update(connector)
      .set({ status: 'Available' })
      .where(and(eq(connector.chargePointId, x.pointId), eq(connector.connectorNo, 3)));
    // Seconds ago, all of them today (the board cuts days in the server's zone): in the first 20 s after its midnight,
    // the same order in the milliseconds since it.
    const now = Date.now();
    const midnight = dayAndMonthStart(new Date(now), s.config.timeZone).day.getTime();
    const secondsAgo = (n: number) => new Date(Math.max(now - n * 1000, midnight + (25 - n) * 10)).toISOString();
    // Running: 7.2 kW drawn now; finished today and billed 5.00; a running one without a sample yet draws nothing.
    const running = await tx(x, secondsAgo(20), null, 300, null);
    await db.update(chargingTransaction).set({ lastPowerW: 7200 }).where(eq(chargingTransaction.id, running));
    await tx(x, secondsAgo(10), null, 0, null, 3);
    await tx(x, secondsAgo(15), secondsAgo(12), 4000, 500, 2);
    // Another provider's station is nobody's business here.
    const other = await createOperator(db);
    await site(other.providerId, 1);

    const token = await s.login(op.user.username, op.user.password);
    const r = await s.call<StationBoard>('GET', api.statistics.stationBoard.path, { token });
    expect(r.code).toBe(200);
    expect(r.data.timeZone).toBe(s.config.timeZone);
    expect(r.data.truncated).toBe(false);
    expect(r.data.stations.map((b) => b.stationId).sort()).toEqual([x.stationId, idle.stationId].sort());
    expect(r.data.stations.find((b) => b.stationId === x.stationId)).toEqual({
      stationId: x.stationId,
      stationName: expect.any(String),
      longitude: 121,
      latitude: 31,
      connectors: 3,
      available: 1,
      charging: 1,
      faulted: 1,
      offline: 0,
      unavailable: 0,
      powerW: 7200,
      chargeCount: 3,
      energyWh: 4300,
      incomeCents: 500,
    });
    // The idle station's point never came online: its connector counts as offline.
    expect(r.data.stations.find((b) => b.stationId === idle.stationId)).toMatchObject({
      offline: 1,
      powerW: 0,
      chargeCount: 0,
      incomeCents: 0,
    });

    // A station-bound user sees only the bound station.
    const bound = await createUser(db, { providerId: op.providerId, roleId: op.role.id, stationIds: [idle.stationId] });
    const narrowed = await s.call<StationBoard>('GET', api.statistics.stationBoard.path, {
      token: await s.login(bound.username, bound.password),
    });
    expect(narrowed.data.stations.map((b) => b.stationId)).toEqual([idle.stationId]);
  });
});

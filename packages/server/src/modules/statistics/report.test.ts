import { api, type ActivityDto, type FinancialStats, type OperationStats } from '@csms/contract';
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, repoCaller as principal } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import type { Db } from '../../db/client.js';
import {
  alarm,
  billLine,
  card,
  chargePoint,
  chargeUser,
  chargingTransaction,
  connector,
  invoice,
  pointMonth,
  pointOnlineLatest,
  pointOnlineSpan,
  startMonth,
  station,
} from '../../db/schema.js';
import { createBilling } from '../billing/settle.js';
import { createLedger } from '../cards/ledger.js';
import { createDiscounts } from '../operations/discounts.js';
import { createMembership } from '../operations/membership.js';
import { pricedSite, uniq } from '../operations/ops-fixtures.js';
import { monthPlan, onlineSeconds, ts, writeMark } from './operation.points.js';
import { createOperationStatsRepo } from './operation.repo.js';
import { periodDays, wholeMonths } from './period.js';

let s: TestServer;
let db: Db;
beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
});
afterAll(() => s.close());

const TZ = 'Asia/Shanghai';

async function site(providerId: number, name: string, connectors: number) {
  const [st] = await db
    .insert(station)
    .values({ providerId, name, country: 'CN', address: 'x', longitude: 121, latitude: 31, timeZone: TZ })
    .returning();
  const [cp] = await db
    .insert(chargePoint)
    .values({ providerId, stationId: st!.id, serialNumber: uniq('SN'), name: `${name}-p`, equipmentType: 'ac', ratedPowerW: 7000 })
    .returning();
  for (let k = 1; k <= connectors; k++)
    await db.insert(connector).values({ chargePointId: cp!.id, connectorNo: k, standard: 'ac', type: 'Type2' });
  return { providerId, stationId: st!.id, pointId: cp!.id };
}
type Site = Awaited<ReturnType<typeof site>>;

async function session(x: Site, startedAt: string, stoppedAt: string, energyWh: number, connectorNo = 1) {
  await db.insert(chargingTransaction).values({
    providerId: x.providerId,
    stationId: x.stationId,
    chargePointId: x.pointId,
    connectorNo,
    idTag: 'T',
    startType: 'card',
    authStatus: 'Accepted',
    meterStartWh: 0,
    startedAt: new Date(startedAt),
    stoppedAt: new Date(stoppedAt),
    meterStopWh: energyWh,
    energyWh,
  });
}

describe('periods', () => {
  it('cuts a day, its Monday-to-Sunday week, its month, or the custom range', () => {
    expect(periodDays({ period: 'day' }, '2026-03-04')).toEqual({ startDate: '2026-03-04', endDate: '2026-03-04' });
    expect(periodDays({ period: 'week', date: '2026-03-01' }, 'x')).toEqual({ startDate: '2026-02-23', endDate: '2026-03-01' });
    expect(periodDays({ period: 'month', date: '2024-02-10' }, 'x')).toEqual({ startDate: '2024-02-01', endDate: '2024-02-29' });
    expect(periodDays({ period: 'custom', startDate: '2026-01-30', endDate: '2026-02-02' }, 'x')).toEqual({
      startDate: '2026-01-30',
      endDate: '2026-02-02',
    });
  });

  it('finds the whole months inside a range (the point month totals cover them; the records the days around)', () => {
    expect(wholeMonths('2026-03-01', '2026-03-31')).toEqual({ from: '2026-03-01', to: '2026-04-01' });
    expect(wholeMonths('2025-11-25', '2026-11-25')).toEqual({ from: '2025-12-01', to: '2026-11-01' });
    expect(wholeMonths('2024-01-31', '2024-02-29')).toEqual({ from: '2024-02-01', to: '2024-03-01' });
    expect(wholeMonths('2026-12-01', '2026-12-31')).toEqual({ from: '2026-12-01', to: '2027-01-01' });
    expect(wholeMonths('2026-03-02', '2026-03-31')).toBeNull();
    expect(wholeMonths('2026-03-01', '2026-03-30')).toBeNull();
    expect(wholeMonths('2026-03-15', '2026-04-14')).toBeNull();
  });

  it('takes a month the period covers in part from its records, or from its totals less the part left out when that is shorter', () => {
    const at = (d: string) => new Date(`${d}T00:00:00Z`);
    const month = (m: string, next: string) => ({ month: `${m}-01`, a: at(`${m}-01`), b: at(`${next}-01`) });
    const months = [month('2026-02', '2026-03'), month('2026-03', '2026-04'), month('2026-04', '2026-05')];
    // 5 February to now on 25 April: February's first four days and the rest of April are left out of their totals.
    expect(monthPlan(at('2026-02-05'), at('2026-04-25'), months)).toEqual({
      totals: ['2026-02-01', '2026-03-01', '2026-04-01'],
      added: [],
      taken: [
        [at('2026-02-01'), at('2026-02-05')],
        [at('2026-04-25'), at('2026-05-01')],
      ],
    });
    // 20 February to 10 April: the days of February and April from the records.
    expect(monthPlan(at('2026-02-20'), at('2026-04-11'), months)).toEqual({
      totals: ['2026-03-01'],
      added: [
        [at('2026-02-20'), at('2026-03-01')],
        [at('2026-04-01'), at('2026-04-11')],
      ],
      taken: [],
    });
    // Within one month: the records of the days, or the month less both ends; nothing after now.
    expect(monthPlan(at('2026-03-10'), at('2026-03-12'), months)).toEqual({
      totals: [],
      added: [[at('2026-03-10'), at('2026-03-12')]],
      taken: [],
    });
    expect(monthPlan(at('2026-03-02'), at('2026-03-30'), months).taken).toEqual([
      [at('2026-03-01'), at('2026-03-02')],
      [at('2026-03-30'), at('2026-04-01')],
    ]);
    expect(monthPlan(at('2026-03-01'), at('2026-03-01'), months)).toEqual({ totals: [], added: [], taken: [] });
  });
});

describe('operation statistics (hand-computed)', () => {
  // Sunday 1 and Monday 2 March 2026 in Shanghai; the clock is past them, so both days count whole.
  const now = new Date('2026-03-10T00:00:00Z');
  const period = { period: 'custom', startDate: '2026-03-01', endDate: '2026-03-02' } as const;
  let op: Awaited<ReturnType<typeof createOperator>>;
  let a: Site;
  let b: Site;
  let token: string;

  beforeAll(async () => {
    op = await createOperator(db, {
      permissions: ['operate:operateStatistics:list', 'operate:operateStatistics:export'],
      rolePaths: ['/operateManagement', '/operateManagement/operateStatistics'],
    });
    token = await s.login(op.user.username, op.user.password);
    a = await site(op.providerId, 'Alpha', 2);
    b = await site(op.providerId, 'Bravo', 1);
    await session(a, '2026-03-01T01:00:00Z', '2026-03-01T02:00:00Z', 5000); // Sun 09:00, 1 h
    await session(a, '2026-03-02T02:30:00Z', '2026-03-02T03:00:00Z', 2000, 2); // Mon 10:30, 30 min
    await session(b, '2026-03-01T16:30:00Z', '2026-03-01T17:30:00Z', 3000); // Mon 00:30, 1 h
    await session(b, '2026-02-28T15:00:00Z', '2026-02-28T16:00:00Z', 9999); // Sat 23:00: the day before
    // Connection history: Alpha's point online through both days; Bravo's from Monday 00:00 (its span still open),
    // and a span of Bravo's that ended before the period counts nothing.
    await db.insert(pointOnlineSpan).values([
      { chargePointId: a.pointId, startedAt: new Date('2026-02-27T00:00:00Z'), endedAt: new Date('2026-03-05T00:00:00Z') },
      { chargePointId: b.pointId, startedAt: new Date('2026-02-20T00:00:00Z'), endedAt: new Date('2026-02-28T12:00:00Z') },
      { chargePointId: b.pointId, startedAt: new Date('2026-03-01T16:00:00Z'), endedAt: null },
    ]);
    const fault = { providerId: op.providerId, stationId: a.stationId, chargePointId: a.pointId, connectorNo: 1, level: 'common' as const };
    await db.insert(alarm).values([
      { ...fault, status: 'Faulted', errorCode: 'GroundFailure', occurredAt: new Date('2026-03-01T05:00:00Z') },
      { ...fault, status: 'Faulted', errorCode: 'GroundFailure', occurredAt: new Date('2026-03-05T05:00:00Z') },
    ]);
    // Another provider's session in the same hours counts for nobody here.
    const other = await createOperator(db);
    await session(await site(other.providerId, 'Other', 1), '2026-03-01T01:00:00Z', '2026-03-01T02:00:00Z', 7000);
  });

  it('adds up sessions, energy, time, utilisation, faults and the heat map of the scope, the day totals equal to the records', async () => {
    const repo = createOperationStatsRepo({ db, defaultZone: TZ });
    const r = await repo.report(principal(op.providerId), period, now);
    expect(r).toEqual(await repo.reportFromRecords(principal(op.providerId), period, now));
    const online = 2 * 2 * 86_400 + 86_400; // Alpha's 2 connectors over both days, Bravo's one over Monday
    expect(r.totals).toEqual({
      chargeCount: 3,
      energyWh: 10_000,
      chargingSeconds: 9000,
      onlineSeconds: online,
      idleSeconds: online - 9000,
      utilisation: 9000 / online,
      averageSeconds: 3000,
      averageEnergyWh: 3333,
      faultCount: 1,
      faultyPoints: 1,
      pointCount: 2,
      connectorCount: 3,
      faultRate: 0.5,
    });
    expect(r.series).toEqual([
      { date: '2026-03-01', chargeCount: 1, energyWh: 5000, chargingSeconds: 3600 },
      { date: '2026-03-02', chargeCount: 2, energyWh: 5000, chargingSeconds: 5400 },
    ]);
    const starts = r.heatmap.flatMap((row, d) => row.flatMap((n, h) => (n ? [[d, h, n]] : [])));
    expect(starts).toEqual([
      [0, 0, 1], // Monday 00:30
      [0, 10, 1], // Monday 10:30
      [6, 9, 1], // Sunday 09:00
    ]);
    expect(r.rowKind).toBe('station');
    expect(r.rows.map((x) => [x.name, x.chargeCount, x.energyWh, x.faultCount])).toEqual([
      ['Alpha', 2, 7000, 1],
      ['Bravo', 1, 3000, 0],
    ]);
    expect(r.rows.map((x) => [x.name, x.onlineSeconds, x.utilisation])).toEqual([
      ['Alpha', 2 * 2 * 86_400, 5400 / (2 * 2 * 86_400)],
      ['Bravo', 86_400, 3600 / 86_400],
    ]);
    expect(r.topStations.map((x) => x.name)).toEqual(['Alpha', 'Bravo']);
    expect(r.bottomStations.map((x) => x.name)).toEqual(['Bravo', 'Alpha']);
    expect(r.topPoints.map((x) => [x.name, x.stationName, x.onlineSeconds])).toEqual([
      ['Alpha-p', 'Alpha', 2 * 2 * 86_400],
      ['Bravo-p', 'Bravo', 86_400],
    ]);
  });

  it("narrows to a station (its points) or a point, in the station's zone", async () => {
    const repo = createOperationStatsRepo({ db, defaultZone: 'UTC' });
    const one = await repo.report(principal(op.providerId), { ...period, stationId: b.stationId }, now);
    expect(one.timeZone).toBe(TZ);
    expect(one.rowKind).toBe('point');
    expect(one.rows.map((x) => [x.name, x.chargeCount])).toEqual([['Bravo-p', 1]]);
    expect(one.totals).toMatchObject({ chargeCount: 1, energyWh: 3000, connectorCount: 1, onlineSeconds: 86_400 });
    const point = await repo.report(principal(op.providerId), { ...period, pointId: a.pointId }, now);
    expect(point.totals).toMatchObject({ chargeCount: 2, energyWh: 7000, chargingSeconds: 5400, faultCount: 1, faultRate: 1 });
  });

  it("answers over HTTP within the caller's provider only, refuses a bad range naming the field, and exports the table", async () => {
    const q = `period=custom&startDate=2026-03-01&endDate=2026-03-02`;
    const mine = await s.call<OperationStats>('GET', `${api.operateStatistics.get.path}?${q}`, { token });
    expect(mine.code, mine.msg).toBe(200);
    expect(mine.data.totals.chargeCount).toBe(3);
    // A super provider's user with no filter at all sees every provider's stations.
    const admin = await s.login();
    const everyone = await s.call<OperationStats>('GET', `${api.operateStatistics.get.path}?${q}`, { token: admin });
    expect(everyone.code, everyone.msg).toBe(200);
    expect(everyone.data.totals.chargeCount).toBeGreaterThanOrEqual(4);
    for (const groupBy of ['provider', 'station']) {
      const money = await s.call<FinancialStats>('GET', `${api.financialStatistics.get.path}?${q}&groupBy=${groupBy}`, { token: admin });
      expect(money.code, money.msg).toBe(200);
    }
    const [foreign] = await db.select({ id: station.id }).from(station).where(eq(station.name, 'Other'));
    const other = await s.call('GET', `${api.operateStatistics.get.path}?${q}&stationId=${foreign!.id}`, { token });
    expect(other.code).toBe(404);
    for (const [lang, word] of [
      ['en', 'End date'],
      ['zh', '结束日期'],
    ] as const) {
      const bad = await s.call<unknown>('GET', `${api.operateStatistics.get.path}?period=custom&startDate=2026-03-01`, { token, lang });
      expect(bad.code).toBe(400);
      expect(bad.msg).toContain(word);
    }
    const tooLong = await s.call('GET', `${api.operateStatistics.get.path}?period=custom&startDate=2025-01-01&endDate=2026-03-01`, {
      token,
    });
    expect(tooLong.code).toBe(400);

    const res = await fetch(`${s.url}/prod-api${api.operateStatistics.export.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-language': 'en' },
      body: JSON.stringify({ ...period, format: 'csv' }),
    });
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toContain('Energy (kWh)');
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 4))).toEqual([
      ['Alpha', 'Alpha', '2', '7'],
      ['Bravo', 'Bravo', '1', '3'],
    ]);
  });
});

describe('operation statistics of many points (ranked in the database)', () => {
  it('rank the points as the records do: energy, then sessions, then the lower id; points without sessions; faults', async () => {
    const op = await createOperator(db);
    const a = await site(op.providerId, 'Rank A', 1);
    const b = await site(op.providerId, 'Rank B', 2);
    // 14 points on two stations: a's and b's, and 12 more with one to three connectors, one without a name.
    const p: Site[] = [a, b];
    for (let i = 2; i < 14; i++) {
      const at = i % 2 ? b : a;
      const [cp] = await db
        .insert(chargePoint)
        .values({
          providerId: op.providerId,
          stationId: at.stationId,
          serialNumber: uniq('SN'),
          name: i === 3 ? '' : `Rank-${i}`,
          equipmentType: 'ac',
          ratedPowerW: 7000,
        })
        .returning();
      for (let k = 1; k <= 1 + (i % 3); k++)
        await db.insert(connector).values({ chargePointId: cp!.id, connectorNo: k, standard: 'ac', type: 'Type2' });
      p.push({ ...at, pointId: cp!.id });
    }
    // Shanghai is UTC+8. March 2026 is the whole month of the custom period; the days of February and April around it.
    await session(p[0]!, '2026-03-05T02:00:00Z', '2026-03-05T03:00:00Z', 5000);
    await session(p[0]!, '2026-03-20T10:00:00Z', '2026-03-20T10:30:00Z', 1000);
    await session(p[1]!, '2026-03-07T02:00:00Z', '2026-03-07T05:00:00Z', 6000); // as much energy as p0, fewer sessions
    await session(p[2]!, '2026-02-25T02:00:00Z', '2026-02-25T03:00:00Z', 3000); // p0's energy and sessions: by id, after p0
    await session(p[2]!, '2026-04-05T02:00:00Z', '2026-04-05T03:00:00Z', 3000);
    await session(p[3]!, '2026-03-10T02:00:00Z', '2026-03-10T04:00:00Z', 9000); // no name: its serial number
    await session(p[5]!, '2026-04-09T02:00:00Z', '2026-04-09T02:20:00Z', 1000);
    await session(p[6]!, '2026-03-31T15:30:00Z', '2026-03-31T16:30:00Z', 500); // 1 April 00:30 local
    await session(p[7]!, '2026-02-28T15:00:00Z', '2026-02-28T15:30:00Z', 700); // 28 February 23:00 local
    await session(p[8]!, '2026-01-10T02:00:00Z', '2026-01-10T03:00:00Z', 4000); // before every period here
    await session(p[10]!, '2026-02-02T02:00:00Z', '2026-02-02T03:00:00Z', 800); // in February's days left out of the periods
    await session(p[11]!, '2026-04-26T02:00:00Z', '2026-04-26T03:00:00Z', 900); // in April's days left out of a period
    await session(p[9]!, '2026-03-12T02:00:00Z', '2026-03-12T02:05:00Z', 0); // a session without energy
    // Still charging since 30 March.
    await db.insert(chargingTransaction).values({
      providerId: op.providerId,
      stationId: p[4]!.stationId,
      chargePointId: p[4]!.pointId,
      connectorNo: 1,
      idTag: 'T',
      startType: 'card',
      authStatus: 'Accepted',
      meterStartWh: 0,
      startedAt: new Date('2026-03-30T02:00:00Z'),
      energyWh: 2000,
    });
    const fault = (x: Site, occurredAt: string) => ({
      providerId: op.providerId,
      stationId: x.stationId,
      chargePointId: x.pointId,
      connectorNo: 1,
      level: 'common' as const,
      status: 'Faulted',
      errorCode: 'GroundFailure',
      occurredAt: new Date(occurredAt),
    });
    await db
      .insert(alarm)
      .values([
        fault(p[0]!, '2026-03-02T00:00:00Z'),
        fault(p[0]!, '2026-04-12T00:00:00Z'),
        fault(p[9]!, '2026-03-03T00:00:00Z'),
        fault(p[3]!, '2026-01-03T00:00:00Z'),
      ]);
    // The month totals hold this provider's March (the report reads them, not only the records).
    const held = async (table: typeof pointMonth | typeof startMonth) =>
      (
        await db
          .select()
          .from(table)
          .where(and(eq(table.providerId, op.providerId), eq(table.month, '2026-03-01')))
      ).length;
    expect(await held(pointMonth)).toBeGreaterThan(0);
    expect(await held(startMonth)).toBeGreaterThan(0);

    const repo = createOperationStatsRepo({ db, defaultZone: TZ });
    const now = new Date('2026-04-28T00:00:00Z');
    const custom = { period: 'custom', startDate: '2026-02-20', endDate: '2026-04-10' } as const;
    const r = await repo.report(principal(op.providerId), custom, now);
    const ids = (rows: { id: number }[]) => rows.map((x) => p.findIndex((y) => y.pointId === x.id));
    expect(ids(r.topPoints)).toEqual([3, 0, 2, 1, 4]);
    expect(ids(r.bottomPoints)).toEqual([13, 12, 11, 10, 8]);
    const [serial] = await db.select({ v: chargePoint.serialNumber }).from(chargePoint).where(eq(chargePoint.id, p[3]!.pointId));
    expect(r.topPoints[0]!.name).toBe(serial!.v);
    expect(r.topPoints[1]).toMatchObject({ chargeCount: 2, energyWh: 6000, faultCount: 1, connectorCount: 1, faultRate: 1 });
    expect(r.totals).toMatchObject({ pointCount: 14, faultCount: 2, faultyPoints: 2 });
    // Every figure as the records give it, for whole months with days around them, one month, the month now, a day;
    // for the provider, for a user bound to both stations, and for one station (its points' rows).
    for (const period of [
      custom,
      { period: 'month', date: '2026-03-15' },
      { period: 'month', date: '2026-04-28' },
      { period: 'day', date: '2026-03-31' },
    ] as const) {
      for (const [who, filter] of [
        [principal(op.providerId), {}],
        [principal(op.providerId, [a.stationId, b.stationId]), {}],
        [principal(op.providerId), { stationId: b.stationId }],
      ] as const) {
        expect(await repo.report(who, { ...period, ...filter }, now)).toEqual(
          await repo.reportFromRecords(who, { ...period, ...filter }, now),
        );
      }
    }
    // Periods whose first and last months hold more days than they leave out: those months' totals less the days left
    // out (1–4 February, 25–30 April; 30–31 March), and the month of now less the rest of it.
    for (const period of [
      { period: 'custom', startDate: '2026-02-05', endDate: '2026-04-24' },
      { period: 'custom', startDate: '2026-02-03', endDate: '2026-03-29' },
      { period: 'month', date: '2026-04-01' },
    ] as const) {
      const r = await repo.report(principal(op.providerId), period, now);
      expect(r).toEqual(await repo.reportFromRecords(principal(op.providerId), period, now));
      expect(r.totals.chargeCount).toBeGreaterThan(0);
    }
  });
});

describe('financial statistics reconcile with the bills and the ledger', () => {
  it('income is the bills of the records settled in the period; balances at its end are the ledger', async () => {
    const op = await createOperator(db, {
      permissions: ['finance:financialStatistics:list', 'operate:activity:add', 'operate:activity:activate'],
      rolePaths: [
        '/financialManagement',
        '/financialManagement/financialStatistics',
        '/operateManagement',
        '/operateManagement/activityManage',
      ],
    });
    const token = await s.login(op.user.username, op.user.password);
    // An activity of the operations: 20 % off the service fee, a discount line on each bill.
    const added = await s.call<ActivityDto>('POST', api.activity.add.path, {
      token,
      body: {
        providerId: op.providerId,
        name: uniq('A'),
        type: 'serviceDiscount',
        startTime: '2026-01-01T00:00:00Z',
        endTime: '2027-06-01T00:00:00Z',
        discountKind: 'percent',
        discountValue: 20,
      },
    });
    expect(added.code, added.msg).toBe(200);
    expect((await s.call('POST', api.activity.activate.path, { token, body: { id: added.data.id } })).code).toBe(200);
    const x = await pricedSite(db, op.providerId);
    const ledger = createLedger({ db });
    const billing = createBilling({ db, ledger, hooks: createDiscounts({ membership: createMembership({ db }) }) });
    // Accounts funded through the ledger only, so that their balances are the ledger's.
    const funded = async (cents: number) => {
      const c = await x.newCard(0);
      await ledger.post({ account: { kind: 'card', cardId: c.card.id }, tradeType: 'recharge', amountCents: cents, source: 'console' });
      return c;
    };
    const c1 = await funded(10_000);
    const c2 = await funded(5_000);
    await ledger.post({ account: { kind: 'card', cardId: c2.card.id }, tradeType: 'refund', amountCents: -1_000, source: 'console' });
    await ledger.post({
      account: { kind: 'mobile', chargeUserId: c1.user.id },
      tradeType: 'transfer',
      amountCents: 2_500,
      source: 'transfer',
    });
    const ids: number[] = [];
    for (const [c, day] of [
      [c1, '2026-03-01'],
      [c1, '2026-03-02'],
      [c2, '2026-03-03'],
    ] as const) {
      const t = await x.session(c.card.id, day);
      expect((await billing.settle(t.id)).kind).toBe('billed');
      ids.push(t.id);
    }
    // The last one was settled yesterday: it belongs to yesterday's period, not today's.
    await db
      .update(chargingTransaction)
      .set({ billedAt: sql`${chargingTransaction.billedAt} - interval '1 day'` })
      .where(eq(chargingTransaction.id, ids[2]!));
    await db.insert(invoice).values({
      providerId: op.providerId,
      chargeUserId: c1.user.id,
      amountCents: 700,
      principalType: 'person',
      name: 'n',
      recipientName: 'r',
      mobile: '13800000000',
      email: 'a@b.cn',
      notifyType: 'mail',
      status: 'issued',
      finishedAt: new Date(),
    });

    const get = async (query: string) => {
      const r = await s.call<FinancialStats>('GET', `${api.financialStatistics.get.path}?${query}`, { token });
      expect(r.code, r.msg).toBe(200);
      return r.data;
    };
    const today = await get('period=day');
    // The sum of the bills of the records settled today, from the records themselves.
    const [bills] = await db
      .select({
        n: sql<number>`count(*)::int`,
        elec: sql<number>`sum(${chargingTransaction.elecFeeCents})::int`,
        service: sql<number>`sum(${chargingTransaction.serviceFeeCents})::int`,
        income: sql<number>`sum(${chargingTransaction.totalCents} + coalesce(${chargingTransaction.adjustmentCents}, 0))::int`,
      })
      .from(chargingTransaction)
      .where(
        and(
          eq(chargingTransaction.providerId, op.providerId),
          isNotNull(chargingTransaction.billedAt),
          sql`(${chargingTransaction.billedAt} at time zone ${TZ})::date = ${today.startDate}::date`,
        ),
      );
    expect(bills!.n).toBe(2);
    const [lines] = await db
      .select({ v: sql<number>`sum(${billLine.amountCents})::int` })
      .from(billLine)
      .where(and(isNull(billLine.priceId), sql`${billLine.transactionId} in (${ids[0]!}, ${ids[1]!})`));
    expect(lines!.v).toBeLessThan(0);
    expect(today.totals).toMatchObject({
      billCount: bills!.n,
      elecFeeCents: bills!.elec,
      serviceFeeCents: bills!.service,
      discountCents: lines!.v,
      incomeCents: bills!.income,
      rechargeCents: 15_000,
      refundCents: -1_000,
      transferCents: 2_500,
      invoicedCents: 700,
    });
    expect(today.totals.incomeCents).toBe(
      today.totals.elecFeeCents + today.totals.serviceFeeCents + today.totals.reserveFeeCents + today.totals.discountCents,
    );
    // Balances at the period's end: what the cards and mobile accounts hold now, every change being in the ledger.
    const [cards] = await db
      .select({ v: sql<number>`coalesce(sum(${card.balanceCents}), 0)::int` })
      .from(card)
      .where(eq(card.providerId, op.providerId));
    const [mobiles] = await db
      .select({ v: sql<number>`coalesce(sum(${chargeUser.mobileBalanceCents}), 0)::int` })
      .from(chargeUser)
      .where(eq(chargeUser.providerId, op.providerId));
    expect(today.totals.outstandingCents).toBe(cards!.v + mobiles!.v);
    const [charged] = await db
      .select({ v: sql<number>`sum(${chargingTransaction.totalCents})::int` })
      .from(chargingTransaction)
      .where(eq(chargingTransaction.providerId, op.providerId));
    expect(today.totals.outstandingCents).toBe(15_000 - 1_000 + 2_500 - charged!.v);

    const [yesterday] = await db
      .select({ d: sql<string>`to_char((now() at time zone ${TZ})::date - 1, 'YYYY-MM-DD')` })
      .from(card)
      .limit(1);
    const before = await get(`period=day&date=${yesterday!.d}`);
    const [last] = await db
      .select({ v: chargingTransaction.totalCents })
      .from(chargingTransaction)
      .where(eq(chargingTransaction.id, ids[2]!));
    expect(before.totals).toMatchObject({ billCount: 1, incomeCents: last!.v, rechargeCents: 0 });
    const byStation = await get(`period=day&groupBy=station&stationId=${x.stationId}`);
    expect(byStation.rows.map((r) => [r.id, r.incomeCents, r.rechargeCents])).toEqual([[x.stationId, bills!.income, null]]);
    // Nothing of another provider: its provider id is not visible (404), and its bills are not in these sums.
    const stranger = await createOperator(db);
    expect((await s.call('GET', `${api.financialStatistics.get.path}?providerId=${stranger.providerId}`, { token })).code).toBe(404);
    const unsettled = await db
      .select({ id: chargingTransaction.id })
      .from(chargingTransaction)
      .where(and(eq(chargingTransaction.providerId, op.providerId), isNull(chargingTransaction.billedAt)));
    expect(unsettled).toEqual([]);
  });
});

describe('online time from the connection history', () => {
  it("is each point's spans' overlap with the period times its connectors, from its latest span's row or a lookup, whatever the instants", async () => {
    const op = await createOperator(db);
    const H = 3_600_000;
    const t0 = Date.parse('2026-03-01T00:00:00Z');
    const at = (h: number) => new Date(t0 + h * H);
    // Three points: spans of their own (the last still open for one, closed for another), and one never online.
    const points = [await site(op.providerId, 'On', 2), await site(op.providerId, 'Off', 1), await site(op.providerId, 'Never', 3)];
    const spans: [number, number, number | null][] = [
      [0, 0, 5],
      [0, 8, 20],
      [0, 30, null],
      [1, 2, 3],
      [1, 10, 26],
    ];
    // Inserted in time order, each closed before its point's next opens, as a point connects and disconnects.
    for (const [k, a, b] of spans) {
      const [row] = await db
        .insert(pointOnlineSpan)
        .values({ chargePointId: points[k]!.pointId, startedAt: at(a), endedAt: null })
        .returning();
      if (b !== null)
        await db
          .update(pointOnlineSpan)
          .set({ endedAt: at(b) })
          .where(eq(pointOnlineSpan.id, row!.id));
    }
    // An earlier span written again (its end) does not replace the latest.
    await db
      .update(pointOnlineSpan)
      .set({ endedAt: at(5) })
      .where(and(eq(pointOnlineSpan.chargePointId, points[0]!.pointId), eq(pointOnlineSpan.startedAt, at(0))));
    // Each point's latest span, kept by the trigger.
    const latest = await db
      .select()
      .from(pointOnlineLatest)
      .where(
        inArray(
          pointOnlineLatest.chargePointId,
          points.map((x) => x.pointId),
        ),
      );
    expect(latest.map((r) => [r.chargePointId, r.startedAt.getTime(), r.endedAt?.getTime() ?? null])).toEqual([
      [points[0]!.pointId, at(30).getTime(), null],
      [points[1]!.pointId, at(10).getTime(), at(26).getTime()],
    ]);

    const connectors = [2, 1, 3];
    const expected = (k: number, a: number, b: number) =>
      spans.filter(([p]) => p === k).reduce((n, [, s, e]) => n + Math.max(0, Math.min(e ?? Infinity, b) - Math.max(s, a)) * 3600, 0) *
      connectors[k]!;
    const ids = points.map((x) => x.pointId);
    const secondsOf = async (of: number[], a: number, b: number, marked = false) => {
      const result = await db.execute(onlineSeconds(chargePoint.id, inArray(chargePoint.id, of), ts(at(a)), ts(at(b)), marked));
      const got = new Map(
        (result as unknown as { rows: { key: number; secs: number }[] }).rows.map((r) => [Number(r.key), Number(r.secs)]),
      );
      return of.map((id) => got.get(id));
    };
    // Windows before, across and after the latest spans: both ways of reading an instant.
    for (const [a, b] of [
      [-5, 1],
      [1, 9],
      [4, 12],
      [12, 28],
      [21, 31],
      [27, 40],
      [31, 45],
      [-10, 100],
    ] as const) {
      // Looked up, then from the start's mark (every point's seconds there, kept once).
      expect(await secondsOf(ids, a, b), `[${a}, ${b})`).toEqual(ids.map((_, k) => expected(k, a, b)));
      await db.execute(writeMark(ts(at(a))));
      expect(await secondsOf(ids, a, b, true), `[${a}, ${b}) marked`).toEqual(ids.map((_, k) => expected(k, a, b)));
    }
    // A point added after a mark was kept is looked up.
    const late = await site(op.providerId, 'Late', 1);
    await db.insert(pointOnlineSpan).values({ chargePointId: late.pointId, startedAt: at(0), endedAt: at(50) });
    expect(await secondsOf([late.pointId, ids[0]!], 4, 12, true)).toEqual([8 * 3600, expected(0, 4, 12)]);
  });
});

import { api, wallClock, type PointState, type ReservationDto, type TimedChargeDto, type TimedChargeRunDto } from '@csms/contract';
import { createChargePoint, type ChargePoint } from '@csms/simulator';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ipcWorkers, startServer, type TestServer } from '../harness.js';
import {
  card,
  chargePoint,
  chargeUser,
  chargingTransaction,
  connector,
  ledger,
  price,
  reservation,
  timedCharge,
  timedChargeRun,
} from '../../src/db/schema.js';
import { createPoint, eventually } from '../ocpp/support.js';

let n = 0;
const uniq = (p: string) => `${p}${++n}${Math.random().toString(36).slice(2, 6)}`;

/*
 * Timed charging and reservations (issue 15 items 3 and 4) against simulated chargers over real
 * sockets, with the durable job queue doing the timing: the queue is polled every half second here.
 * Runs on PGlite and, with DATABASE_URL, on PostgreSQL.
 */

type Reply<T> = { code: number; msg: string; data: T };

let s: TestServer;
let admin: string;
const sims: ChargePoint[] = [];

// The workers of one machine: a second node (the crash test's) reaches the chargers held by this one.
const worker = ipcWorkers();

beforeAll(async () => {
  s = await startServer({ jobPollSeconds: 0.5, nodeId: 'node-a' }, undefined, { cluster: worker('node-a') });
  admin = await s.login();
});
afterAll(async () => {
  await Promise.all(sims.map((x) => x.stop()));
  await s.close();
});

const post = <T>(ep: { path: string }, body: unknown, lang: 'en' | 'zh' = 'en') =>
  s.call<T>('POST', ep.path, { token: admin, body, lang }) as Promise<Reply<T>>;
const get = <T>(path: string) => s.call<T>('GET', path, { token: admin }) as Promise<Reply<T>>;

/** A two-connector charger, connected and booted, with the RemoteStartTransaction requests it receives; a price whose reservation fee is $2.50. */
async function charger(online = true, ocppVersion: '1.6' | '2.0.1' = '1.6') {
  const db = s.database.db;
  const p = await createPoint(db, { connectors: 2, ratedPowerW: 22_000 });
  await db.insert(price).values({
    providerId: 1,
    stationId: p.stationId,
    effectiveFrom: new Date(0),
    sharpElec: 10_000,
    sharpService: 0,
    peakElec: 10_000,
    peakService: 0,
    flatElec: 10_000,
    flatService: 0,
    valleyElec: 10_000,
    valleyService: 0,
    reserveFeeCents: 250,
    slots: Array.from({ length: 48 }, () => 'flat' as const),
  });
  const starts: { connectorId?: number; idTag: string }[] = [];
  if (!online) return { sim: undefined, serialNumber: p.serialNumber, stationId: p.stationId, pointId: p.point.id, starts };
  const sim = createChargePoint({
    ocppVersion,
    url: `${s.url.replace(/^http/, 'ws')}/ocpp`,
    serialNumber: p.serialNumber,
    key: p.key!,
    connectors: 2,
    powerW: 22_000,
    meterValueSampleInterval: 0,
    clockAlignedDataInterval: 0,
  });
  sim.on('traffic', (e) => {
    if (e.type === 'callReceived' && e.action === 'RemoteStartTransaction') starts.push(e.payload as { idTag: string });
  });
  sims.push(sim);
  sim.start();
  await sim.ready();
  return { sim, serialNumber: p.serialNumber, stationId: p.stationId, pointId: p.point.id, starts };
}

/** A charge user of provider 1 with a valid card holding $100. */
async function driver(withCard = true) {
  const db = s.database.db;
  const [u] = await db
    .insert(chargeUser)
    .values({ providerId: 1, account: uniq('drv'), userType: 'card' })
    .returning();
  if (!withCard) return { userId: u!.id, account: u!.account, cardId: 0, tag: '' };
  const tag = uniq('T').slice(0, 20).toUpperCase();
  const [c] = await db
    .insert(card)
    .values({
      providerId: 1,
      cardNumber: tag,
      physicalId: tag,
      chargeUserId: u!.id,
      balanceCents: 10_000,
      expireAt: new Date(Date.now() + 365 * 86_400_000),
    })
    .returning();
  return { userId: u!.id, account: u!.account, cardId: c!.id, tag };
}

const balance = async (cardId: number) =>
  (await s.database.db.select({ b: card.balanceCents }).from(card).where(eq(card.id, cardId)))[0]!.b;

describe('timed charging', () => {
  /** A timed charge over today and tomorrow starting in an hour on the station's clock. */
  async function added(serialNumber: string, userId: number, connectors = [1]) {
    const inAnHour = wallClock(new Date(Date.now() + 3_600_000), 'Asia/Shanghai');
    const today = wallClock(new Date(), 'Asia/Shanghai').slice(0, 10);
    const r = await post<TimedChargeDto>(api.timedCharge.add, {
      serialNumber,
      connectors,
      chargeUserId: userId,
      validFrom: today,
      validTo: inAnHour.slice(0, 10) > today ? inAnHour.slice(0, 10) : today,
      startTime: inAnHour.slice(11, 16),
    });
    expect(r.code, r.msg).toBe(200);
    return r.data;
  }

  /** Makes a timed charge's queued start due now, the way the queue would find it at its time. */
  async function due(id: number) {
    const at = new Date(Date.now() - 1_000);
    await s.database.db.update(timedCharge).set({ nextRunAt: at }).where(eq(timedCharge.id, id));
    await s.app.jobs.send('timedCharge', { id, at: at.toISOString() }, { key: `${id}@${at.getTime()}` });
    return at;
  }

  const runs = async (id: number) => (await get<TimedChargeRunDto[]>(`${api.timedCharge.runs.path}?id=${id}`)).data;

  it('stores a timed charge with its next start on the station’s clock, and refuses what cannot run, naming the field', async () => {
    const c = await charger(false);
    const d = await driver();
    const t = await added(c.serialNumber, d.userId);
    expect(t.status).toBe('waiting');
    expect(t.timeZone).toBe('Asia/Shanghai');
    expect(wallClock(t.nextRunTime!, 'Asia/Shanghai').slice(11, 16)).toBe(t.startTime);

    const base = { serialNumber: c.serialNumber, connectors: [1], chargeUserId: d.userId, startTime: '08:00' };
    const order = await post(api.timedCharge.add, { ...base, validFrom: '2031-05-02', validTo: '2031-05-01' }, 'zh');
    expect((order.data as { field?: string } | null)?.field).toBe('validTo');
    expect(order.msg).toContain('有效期结束');
    const connectorMissing = await post(api.timedCharge.add, { ...base, connectors: [3], validFrom: '2031-05-01', validTo: '2031-05-02' });
    expect((connectorMissing.data as { field?: string } | null)?.field).toBe('connectors');
    expect(connectorMissing.msg).toContain('has no connector 3');
    const past = await post(api.timedCharge.add, { ...base, validFrom: '2020-01-01', validTo: '2020-01-02' });
    expect((past.data as { field?: string } | null)?.field).toBe('validTo');
    expect(past.msg).toContain('No start time is left');

    // Cancelled: no start is queued any more, and it cannot be edited.
    const cancelled = await post<{ cancelled: number }>(api.timedCharge.cancel, { ids: [t.id] });
    expect(cancelled.data.cancelled).toBe(1);
    const after = await get<TimedChargeDto>(`${api.timedCharge.get.path}?id=${t.id}`);
    expect(after.data).toMatchObject({ status: 'cancelled', nextRunTime: null });
    const edit = await post(api.timedCharge.edit, { ...base, id: t.id, validFrom: '2031-05-01', validTo: '2031-05-02' });
    expect(edit.code).not.toBe(200);
    expect((edit.data as { field?: string } | null)?.field).toBe('id');
  });

  it('starts the charge at its time with the user’s card, and queues the next day', async () => {
    const c = await charger();
    const d = await driver();
    const t = await added(c.serialNumber, d.userId);
    const at = await due(t.id);
    const ran = await eventually(async () => ((await runs(t.id)).length === 1 ? runs(t.id) : undefined), 20_000);
    expect(ran[0]).toMatchObject({ connectorNo: 1, status: 'started', reason: null, chargerStatus: 'Accepted', cardNumber: d.tag });
    expect(c.starts).toEqual([{ connectorId: 1, idTag: d.tag }]);
    // The charger started the session with the card.
    const tx = await eventually(async () => {
      const [row] = await s.database.db
        .select()
        .from(chargingTransaction)
        .where(and(eq(chargingTransaction.cardId, d.cardId), eq(chargingTransaction.startType, 'remote')));
      return row;
    });
    expect(tx.connectorNo).toBe(1);
    const now = (await get<TimedChargeDto>(`${api.timedCharge.get.path}?id=${t.id}`)).data;
    expect(now.status === 'started' || now.status === 'finished').toBe(true);
    expect(now.lastRunDay).toBe(wallClock(at, 'Asia/Shanghai').slice(0, 10));
    // The next start is on a later day of the station's calendar (the test ran the day's start at
    // `at`, not at its start time, so how far off it is depends on the hour the suite runs).
    if (now.nextRunTime) expect(wallClock(now.nextRunTime, 'Asia/Shanghai').slice(0, 10) > now.lastRunDay!).toBe(true);

    // The same start again (a retry, a second node) starts nothing twice.
    await s.app.timed.run(t.id, at);
    expect(c.starts).toHaveLength(1);
  });

  it('lists a start still waiting for the charger only once it is answered, and one left waiting past 10 minutes as interrupted', async () => {
    const c = await charger(false);
    const d = await driver();
    const t = await added(c.serialNumber, d.userId, [1, 2]);
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
    // Claimed for connector 1 a minute ago (the charger has not answered yet); connector 2 eleven minutes ago (a crash).
    await s.database.db.insert(timedChargeRun).values([
      { timedChargeId: t.id, day: '2026-01-01', connectorNo: 1, status: 'running', runAt: minutesAgo(1) },
      { timedChargeId: t.id, day: '2026-01-01', connectorNo: 2, status: 'running', runAt: minutesAgo(11) },
    ]);
    expect((await runs(t.id)).map((r) => [r.connectorNo, r.status, r.reason])).toEqual([[2, 'failed', 'error']]);
  });

  it('marks a day failed with the reason and tells the creator by system message', async () => {
    const c = await charger(false);
    const d = await driver();
    const t = await added(c.serialNumber, d.userId, [1, 2]);
    await due(t.id);
    const ran = await eventually(async () => ((await runs(t.id)).length === 2 ? runs(t.id) : undefined), 20_000);
    expect(ran.map((r) => [r.connectorNo, r.status, r.reason])).toEqual([
      [1, 'failed', 'offline'],
      [2, 'failed', 'offline'],
    ]);
    const row = (await get<TimedChargeDto>(`${api.timedCharge.get.path}?id=${t.id}`)).data;
    expect(row).toMatchObject({ lastReason: 'offline' });
    const messages = (await s.database.db.execute(sql`select m.title, m.content from message m
      join message_recipient r on r.message_id = m.id where r.user_id = 1 and m.content like ${`%${c.serialNumber}%`}`)) as unknown as {
      rows: { title: string; content: string }[];
    };
    expect(messages.rows).toHaveLength(1);
    expect(messages.rows[0]!.title).toBe('A timed charge did not start');
    expect(messages.rows[0]!.content).toContain('The point is offline');

    // A user without a valid card: the day fails with that reason.
    const online = await charger();
    const noCard = await driver(false);
    const t2 = await added(online.serialNumber, noCard.userId);
    await due(t2.id);
    const r2 = await eventually(async () => ((await runs(t2.id)).length === 1 ? runs(t2.id) : undefined), 20_000);
    expect(r2[0]).toMatchObject({ status: 'failed', reason: 'noCard' });
    expect(online.starts).toHaveLength(0);

    // A point moved to another station since the timed charge was made: not started, with that reason.
    const moving = await charger();
    const elsewhere = await charger(false);
    const t3 = await added(moving.serialNumber, d.userId);
    await s.database.db.update(chargePoint).set({ stationId: elsewhere.stationId }).where(eq(chargePoint.id, moving.pointId));
    await due(t3.id);
    const r3 = await eventually(async () => ((await runs(t3.id)).length === 1 ? runs(t3.id) : undefined), 20_000);
    expect(r3[0]).toMatchObject({ status: 'failed', reason: 'moved' });
    expect(moving.starts).toHaveLength(0);
  });

  it('runs a start a crash left unqueued once another node comes up, and once only with two nodes', async () => {
    const c = await charger();
    const d = await driver();
    const t = await added(c.serialNumber, d.userId);
    // Due, but not in the queue (the node died between its change and the queueing).
    await s.database.db
      .update(timedCharge)
      .set({ nextRunAt: new Date(Date.now() - 1_000) })
      .where(eq(timedCharge.id, t.id));
    // Either node may claim the start; the one that does reaches the charger on the other.
    const second = await startServer({ jobPollSeconds: 0.5, nodeId: 'node-b' }, s, { cluster: worker('node-b') });
    try {
      await eventually(async () => (await runs(t.id)).some((r) => r.status === 'started'), 20_000);
      const rows = await s.database.db.select().from(timedChargeRun).where(eq(timedChargeRun.timedChargeId, t.id));
      expect(rows).toHaveLength(1);
      expect(c.starts).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});

describe('reservations', () => {
  const reserve = (serialNumber: string, userId: number, v: Record<string, unknown> = {}, lang: 'en' | 'zh' = 'en') =>
    post<ReservationDto>(
      api.reservation.add,
      { serialNumber, connectorNo: 1, chargeUserId: userId, expiryTime: new Date(Date.now() + 3_600_000).toISOString(), ...v },
      lang,
    );
  const connectorStatus = async (pointId: number, no: number) =>
    (
      await s.database.db
        .select({ status: connector.status })
        .from(connector)
        .where(and(eq(connector.chargePointId, pointId), eq(connector.connectorNo, no)))
    )[0]?.status;

  it.each(['1.6', '2.0.1'] as const)(
    'reserves a connector of an OCPP %s charger for the user’s card; a session by that card uses it and pays the reservation fee with its bill',
    async (version) => {
      const c = await charger(true, version);
      const d = await driver();
      const r = await reserve(c.serialNumber, d.userId);
      expect(r.code, r.msg).toBe(200);
      expect(r.data).toMatchObject({ status: 'reserved', connectorNo: 1, cardNumber: d.tag, feeCents: null });
      await eventually(async () => (await connectorStatus(c.pointId, 1)) === 'Reserved');
      // Monitoring shows whose reservation holds the connector.
      const points = await get<{ list: PointState[] }>(`${api.monitor.points.path}?page=1&limit=10&serialNumber=${c.serialNumber}`);
      expect(points.data.list[0]!.connectors.find((x) => x.connectorNo === 1)!.reservation).toMatchObject({
        id: r.data.id,
        chargeUserAccount: d.account,
      });

      // Only the reserving card may start there.
      const other = await driver();
      c.sim!.plugIn(1);
      await expect(c.sim!.startCharging(1, other.tag)).rejects.toThrow('reserved for another idTag');
      const started = await c.sim!.startCharging(1, d.tag);
      expect(started.accepted).toBe(true);
      const used = await eventually(async () => {
        const x = (await get<ReservationDto>(`${api.reservation.get.path}?id=${r.data.id}`)).data;
        return x.status === 'used' ? x : undefined;
      });
      // A 2.0.1 charger numbers its transactions itself (the row keeps it as ocpp_tx_id).
      if (version === '1.6') expect(used.transactionId).toBe(started.transactionId);
      const [session] = await s.database.db.select().from(chargingTransaction).where(eq(chargingTransaction.id, used.transactionId!));
      expect(session).toMatchObject({ chargePointId: c.pointId, connectorNo: 1, idTag: d.tag, reservationId: r.data.id });

      const before = await balance(d.cardId);
      await c.sim!.stopCharging(1);
      const billed = await eventually(async () => {
        const [t] = await s.database.db.select().from(chargingTransaction).where(eq(chargingTransaction.id, used.transactionId!));
        return t?.billedAt ? t : undefined;
      });
      expect(billed.reserveFeeCents).toBe(250);
      expect(billed.totalCents).toBe((billed.elecFeeCents ?? 0) + (billed.serviceFeeCents ?? 0) + 250);
      expect(await balance(d.cardId)).toBe(before - billed.totalCents!);
      const after = (await get<ReservationDto>(`${api.reservation.get.path}?id=${r.data.id}`)).data;
      expect(after.feeCents).toBe(250);
    },
  );

  it('keeps a refusal as the status, cancels without a fee, and refuses what cannot be reserved, naming the field', async () => {
    const c = await charger();
    const d = await driver();
    // Connector 2 is charging: the charger answers Occupied.
    const busy = await driver();
    c.sim!.plugIn(2);
    expect((await c.sim!.startCharging(2, busy.tag)).accepted).toBe(true);
    const occupied = await reserve(c.serialNumber, d.userId, { connectorNo: 2 });
    expect(occupied.code, occupied.msg).toBe(200);
    expect(occupied.data).toMatchObject({ status: 'occupied', chargerStatus: 'Occupied' });

    const r = await reserve(c.serialNumber, d.userId);
    const cancelled = await post<ReservationDto>(api.reservation.cancel, { id: r.data.id });
    expect(cancelled.code, cancelled.msg).toBe(200);
    expect(cancelled.data).toMatchObject({ status: 'cancelled', feeCents: null });
    await eventually(async () => (await connectorStatus(c.pointId, 1)) === 'Available');
    const again = await post(api.reservation.cancel, { id: r.data.id }, 'zh');
    expect(again.code).not.toBe(200);
    expect(again.msg).toContain('已取消');

    const past = await reserve(c.serialNumber, d.userId, { expiryTime: new Date(Date.now() - 60_000).toISOString() }, 'zh');
    expect((past.data as { field?: string } | null)?.field).toBe('expiryTime');
    expect(past.msg).toBe('到期时间须晚于现在');
    const far = await reserve(c.serialNumber, d.userId, { expiryTime: new Date(Date.now() + 100 * 3_600_000).toISOString() });
    expect((far.data as { field?: string } | null)?.field).toBe('expiryTime');
    const noCard = await driver(false);
    const without = await reserve(c.serialNumber, noCard.userId);
    expect((without.data as { field?: string } | null)?.field).toBe('chargeUserId');
    expect(without.msg).toContain('has no valid card');
    // A master pass cannot start a session, so it holds no reservation either.
    const master = await driver();
    await s.database.db.update(card).set({ masterPass: true }).where(eq(card.id, master.cardId));
    const byMaster = await reserve(c.serialNumber, master.userId);
    expect((byMaster.data as { field?: string } | null)?.field).toBe('chargeUserId');
    const offline = await charger(false);
    const off = await reserve(offline.serialNumber, d.userId);
    expect(off.code).not.toBe(200);
    expect(off.msg).toContain('is offline');
    // Nothing was stored for the refused requests.
    const count = await s.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(reservation)
      .where(eq(reservation.chargeUserId, d.userId));
    expect(count[0]!.n).toBe(2);
  });

  it('reserves any connector (0): the reserving card may start on any of them, and that start uses it', async () => {
    const c = await charger();
    const d = await driver();
    const r = await reserve(c.serialNumber, d.userId, { connectorNo: 0 });
    expect(r.data).toMatchObject({ status: 'reserved', connectorNo: 0 });
    c.sim!.plugIn(2);
    const started = await c.sim!.startCharging(2, d.tag);
    expect(started.accepted).toBe(true);
    const used = await eventually(async () => {
      const x = (await get<ReservationDto>(`${api.reservation.get.path}?id=${r.data.id}`)).data;
      return x.status === 'used' ? x : undefined;
    });
    expect(used.transactionId).toBe(started.transactionId);
  });

  it('keeps a point that holds a reservation at its station until the reservation ends', async () => {
    const c = await charger();
    const d = await driver();
    const elsewhere = await createPoint(s.database.db, {});
    const r = await reserve(c.serialNumber, d.userId);
    expect(r.data.status).toBe('reserved');
    const move = (lang: 'en' | 'zh' = 'en') => post(api.point.move, { id: c.pointId, stationId: elsewhere.stationId }, lang);
    const refused = await move('zh');
    expect(refused.code).not.toBe(200);
    expect(refused.data).toEqual({ field: 'stationId' });
    expect(refused.msg).toContain(`充电桩“${c.serialNumber}”有 1 个预约尚未结束`);
    const [still] = await s.database.db.select({ stationId: chargePoint.stationId }).from(chargePoint).where(eq(chargePoint.id, c.pointId));
    expect(still!.stationId).toBe(c.stationId);
    expect((await post(api.reservation.cancel, { id: r.data.id })).code).toBe(200);
    const moved = await move();
    expect(moved.code, moved.msg).toBe(200);
  });

  it('expires at its time and charges the fee once through the ledger', async () => {
    const c = await charger();
    const d = await driver();
    const before = await balance(d.cardId);
    const r = await reserve(c.serialNumber, d.userId, { expiryTime: new Date(Date.now() + 1_500).toISOString() });
    expect(r.data.status).toBe('reserved');
    const expired = await eventually(async () => {
      const x = (await get<ReservationDto>(`${api.reservation.get.path}?id=${r.data.id}`)).data;
      return x.status === 'expired' ? x : undefined;
    }, 20_000);
    expect(expired.feeCents).toBe(250);
    expect(await balance(d.cardId)).toBe(before - 250);
    const rows = await s.database.db
      .select()
      .from(ledger)
      .where(eq(ledger.transactionRef, `reservation:${r.data.id}`));
    expect(rows.map((x) => [x.tradeType, x.amountCents])).toEqual([['charge', -250]]);
  });
});

import { dayAndMonthStart } from '@csms/contract';
import { asc, count, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.js';
import { billLine, card, chargeUser, chargingTransaction, ledger, meterValue, price, userGroup } from '../../src/db/schema.js';
import type { ConsoleEvent } from '../../src/lib/events.js';
import { startServer, type TestServer } from '../harness.js';
import { createPoint, eventually, iso, TestCharger } from './support.js';

let s: TestServer;
let db: Db;
const events: ConsoleEvent[] = [];
const stopped: number[] = [];
beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
  s.app.events.subscribe({ userId: 0, canSee: () => true, send: (e) => events.push(e) });
  s.app.ocpp.onTransactionStopped((id) => void stopped.push(id));
});
afterAll(() => s.close());

let n = 0;
const uid = () => `UID${++n}${Math.random().toString(36).slice(2, 6)}`.toUpperCase().slice(0, 20);
const MIN = 60_000;
const at = (base: number, minutes: number) => new Date(base + minutes * MIN).toISOString();

async function newCard(v: Partial<typeof card.$inferInsert> = {}) {
  const [c] = await db
    .insert(card)
    .values({
      providerId: 1,
      cardNumber: uid(),
      physicalId: uid(),
      balanceCents: 10_000,
      expireAt: new Date(Date.now() + 86_400_000 * 365),
      ...v,
    })
    .returning();
  return c!;
}

async function connect(opts: Parameters<typeof createPoint>[1] = {}) {
  const p = await createPoint(db, opts);
  const c = await TestCharger.connect(s.url, p.serialNumber, { key: p.key });
  return { ...p, c };
}

/** What the OCPP side writes (billing settles the row afterwards, on its own). */
const ocppFields = (t: typeof chargingTransaction.$inferSelect) => {
  const {
    id,
    meterStartWh,
    startedAt,
    meterStopWh,
    stoppedAt,
    stopReason,
    stopIdTag,
    energyWh,
    lastMeterWh,
    lastSampleAt,
    valid,
    invalidReason,
    late,
  } = t;
  return {
    id,
    meterStartWh,
    startedAt,
    meterStopWh,
    stoppedAt,
    stopReason,
    stopIdTag,
    energyWh,
    lastMeterWh,
    lastSampleAt,
    valid,
    invalidReason,
    late,
  };
};
/** A session on connector 1 started at `t0` with one register sample: the one the charger then loses. */
async function sampledSession(c: TestCharger, idTag: string, t0: number, meterStart: number, sample: { minute: number; wh: number }) {
  const started = await c.ok<{ transactionId: number }>('StartTransaction', { connectorId: 1, idTag, meterStart, timestamp: at(t0, 0) });
  await c.ok('MeterValues', {
    connectorId: 1,
    transactionId: started.transactionId,
    meterValue: [{ timestamp: at(t0, sample.minute), sampledValue: [{ value: String(sample.wh) }] }],
  });
  return started;
}

const txRow = async (id: number) => (await db.select().from(chargingTransaction).where(eq(chargingTransaction.id, id)))[0]!;

describe('authorization and transactions', () => {
  it('answers swipes from memory, and a change an operator makes in the console counts at the next swipe', async () => {
    const { c } = await connect();
    const good = await newCard();
    expect(await c.ok('Authorize', { idTag: good.physicalId })).toMatchObject({ idTagInfo: { status: 'Accepted' } });
    // Changed behind the server's back (SQL): the cached card still answers (DESIGN.md §6: no read on the hot path).
    await db.update(card).set({ status: 'lost' }).where(eq(card.id, good.id));
    expect(await c.ok('Authorize', { idTag: good.physicalId })).toMatchObject({ idTagInfo: { status: 'Accepted' } });
    await db.update(card).set({ status: 'valid' }).where(eq(card.id, good.id));
    // Reported lost in the console: refused at once.
    const token = await s.login();
    expect(await s.call('POST', '/web/card/reportLoss', { token, body: { id: good.id } })).toMatchObject({ code: 200 });
    expect(await c.ok('Authorize', { idTag: good.physicalId })).toEqual({ idTagInfo: { status: 'Blocked' } });
  });

  it("keeps each refusal's reason beside the reply in the OCPP log (the status alone does not say why)", async () => {
    const { c, serialNumber } = await connect();
    const lost = await newCard({ status: 'lost' });
    const broke = await newCard({ balanceCents: 0 });
    const good = await newCard();
    for (const idTag of [lost.physicalId, broke.physicalId, 'NOSUCHCARD', good.physicalId]) await c.ok('Authorize', { idTag });
    const refused = await c.ok<{ transactionId: number }>('StartTransaction', {
      connectorId: 1,
      idTag: lost.physicalId,
      meterStart: 0,
      timestamp: iso(),
    });
    await s.app.ocpp.flush();
    const token = await s.login();
    const log = await s.call<{ list: { action: string; reason: string | null }[] }>(
      'GET',
      `/web/ocppLog/list?serialNumber=${serialNumber}&limit=50&page=1`,
      {
        token,
      },
    );
    const reasons = log.data.list
      .filter((r) => r.action === 'Authorize' || r.action === 'StartTransaction')
      .reverse()
      .map((r) => `${r.action}:${r.reason}`);
    expect(reasons).toEqual([
      'Authorize:lost',
      'Authorize:insufficientBalance',
      'Authorize:unknown',
      'Authorize:null',
      'StartTransaction:lost',
    ]);
    await c.ok('StopTransaction', { transactionId: refused.transactionId, meterStop: 0, timestamp: iso() });
  });

  it('authorizes cards, refuses a second session of the same idTag, and stores each start with its decision', async () => {
    const { c, point } = await connect();
    const owner = (
      await db
        .insert(chargeUser)
        .values({ providerId: 1, account: `acct${uid()}`, userType: 'card' })
        .returning()
    )[0]!;
    const good = await newCard({ chargeUserId: owner.id });
    expect(await c.ok('Authorize', { idTag: good.physicalId })).toEqual({
      idTagInfo: { status: 'Accepted', expiryDate: good.expireAt.toISOString(), parentIdTag: owner.account },
    });
    expect(await c.ok('Authorize', { idTag: 'NOSUCHCARD' })).toEqual({ idTagInfo: { status: 'Invalid' } });

    const start = { connectorId: 1, idTag: good.physicalId.toLowerCase(), meterStart: 1000, timestamp: iso() };
    const first = await c.ok<{ transactionId: number; idTagInfo: { status: string } }>('StartTransaction', start);
    expect(first.idTagInfo.status).toBe('Accepted');
    const row = await txRow(first.transactionId);
    expect(row).toMatchObject({
      chargePointId: point.id,
      stationId: point.stationId,
      providerId: 1,
      connectorNo: 1,
      cardId: good.id,
      chargeUserId: owner.id,
      startType: 'card',
      authStatus: 'Accepted',
      authReason: 'accepted',
      meterStartWh: 1000,
      late: false,
    });
    expect(events.some((e) => e.type === 'transaction.started' && e.payload.transactionId === first.transactionId)).toBe(true);

    // Repeated: the same transaction, still one row.
    const again = await c.ok<{ transactionId: number }>('StartTransaction', start);
    expect(again.transactionId).toBe(first.transactionId);
    const rows = await db.select({ n: count() }).from(chargingTransaction).where(eq(chargingTransaction.chargePointId, point.id));
    expect(rows[0]!.n).toBe(1);

    // The card is busy now.
    expect(await c.ok('Authorize', { idTag: good.physicalId })).toMatchObject({ idTagInfo: { status: 'ConcurrentTx' } });
    const second = await c.ok<{ idTagInfo: { status: string }; transactionId: number }>('StartTransaction', { ...start, connectorId: 2 });
    expect(second.idTagInfo.status).toBe('ConcurrentTx');
    expect(await txRow(second.transactionId)).toMatchObject({ authStatus: 'ConcurrentTx', authReason: 'concurrentTx' });

    // A refused idTag still gets a transactionId, and the refusal is stored.
    const unknown = await c.ok<{ idTagInfo: { status: string }; transactionId: number }>('StartTransaction', {
      connectorId: 2,
      idTag: 'NOSUCHCARD',
      meterStart: 0,
      timestamp: iso(new Date(Date.now() + 1000)),
    });
    expect(unknown.idTagInfo.status).toBe('Invalid');
    expect(await txRow(unknown.transactionId)).toMatchObject({ authStatus: 'Invalid', authReason: 'unknown', cardId: null });

    await c.ok('StopTransaction', { transactionId: first.transactionId, meterStop: 1500, timestamp: iso() });
    expect(await c.ok('Authorize', { idTag: good.physicalId })).toMatchObject({ idTagInfo: { status: 'Accepted' } });
    await c.close();
  });

  it("decides a start on the card's cached row and checks it in the start's own statement; a stop answers from the card its statement read", async () => {
    const { c } = await connect();
    const good = await newCard();
    const start = (connectorId: number) =>
      c.ok<{ transactionId: number; idTagInfo: { status: string } }>('StartTransaction', {
        connectorId,
        idTag: good.physicalId,
        meterStart: 0,
        timestamp: iso(),
      });
    const first = await start(1);
    expect(first.idTagInfo.status).toBe('Accepted');
    await c.ok('StopTransaction', { transactionId: first.transactionId, meterStop: 100, timestamp: iso() });
    // The session ended, so its card's balance moves: the cached row is now only the next start's guess, which still holds.
    const second = await start(1);
    expect(second.idTagInfo.status).toBe('Accepted');
    expect(await txRow(second.transactionId)).toMatchObject({ authStatus: 'Accepted', cardId: good.id });

    // Changed behind the server's back (SQL) while the session runs: the Stop's answer reads the card with the Stop's own write.
    await db.update(card).set({ status: 'lost' }).where(eq(card.id, good.id));
    expect(
      await c.ok('StopTransaction', { transactionId: second.transactionId, idTag: good.physicalId, meterStop: 200, timestamp: iso() }),
    ).toEqual({ idTagInfo: { status: 'Blocked' } });
    expect(await txRow(second.transactionId)).toMatchObject({ meterStopWh: 200, stopIdTag: good.physicalId });

    // The card found again, but with nothing left: the guess (valid, 10,000) fails the start's check, and the start is
    // decided again on the card as the statement read it: refused, attached to nobody.
    await db.update(card).set({ status: 'valid', balanceCents: 0 }).where(eq(card.id, good.id));
    const third = await start(2);
    expect(third.idTagInfo.status).toBe('Blocked');
    expect(await txRow(third.transactionId)).toMatchObject({ authStatus: 'Blocked', authReason: 'insufficientBalance', cardId: null });
    // What the check read is what the cache holds now.
    expect(await c.ok('Authorize', { idTag: good.physicalId })).toEqual({ idTagInfo: { status: 'Blocked' } });
    await c.ok('StopTransaction', { transactionId: third.transactionId, meterStop: 0, timestamp: iso() });
    await c.close();
  });

  it('ends a session the charger lost when a new one starts on its connector: flagged, unbilled, the card free again', async () => {
    const { c } = await connect();
    const tag = (await newCard()).physicalId;
    const t0 = Date.now() - 60 * MIN;
    const first = await sampledSession(c, tag, t0, 5_000, { minute: 20, wh: 7_000 });
    // Another connector's session is not touched.
    const other = await c.ok<{ transactionId: number }>('StartTransaction', {
      connectorId: 2,
      idTag: (await newCard()).physicalId,
      meterStart: 0,
      timestamp: at(t0, 1),
    });
    // The charger lost power and forgot the session; the driver swipes the same card again.
    const second = await c.ok<{ transactionId: number; idTagInfo: { status: string } }>('StartTransaction', {
      connectorId: 1,
      idTag: tag,
      meterStart: 7_100,
      timestamp: at(t0, 40),
    });
    expect(second.idTagInfo.status).toBe('Accepted');
    expect(second.transactionId).not.toBe(first.transactionId);
    const old = await txRow(first.transactionId);
    expect(old).toMatchObject({
      meterStopWh: 7_000,
      energyWh: 2_000,
      stopReason: 'Other',
      valid: false,
      invalidReason: 'notStopped',
      billedAt: null,
    });
    expect(old.stoppedAt!.toISOString()).toBe(at(t0, 20));
    expect(
      events.some(
        (e) => e.type === 'transaction.stopped' && (e.payload as { transactionId: number }).transactionId === first.transactionId,
      ),
    ).toBe(true);
    expect((await txRow(other.transactionId)).stoppedAt).toBeNull();
    // A repeat of the new start changes nothing; its Stop closes it normally.
    expect(await c.ok('StartTransaction', { connectorId: 1, idTag: tag, meterStart: 7_100, timestamp: at(t0, 40) })).toMatchObject({
      transactionId: second.transactionId,
    });
    await c.ok('StopTransaction', { transactionId: second.transactionId, meterStop: 8_000, timestamp: at(t0, 50) });
    expect(await txRow(second.transactionId)).toMatchObject({ valid: true, energyWh: 900, stopReason: 'Local' });
  });

  it("applies a lost session's Stop that arrives after the next Start: the real end replaces the guess, and it is billable", async () => {
    const { c } = await connect();
    const tag = (await newCard()).physicalId;
    const t0 = Date.now() - 60 * MIN;
    const first = await sampledSession(c, tag, t0, 1_000, { minute: 10, wh: 2_000 });
    const second = await c.ok<{ transactionId: number }>('StartTransaction', {
      connectorId: 1,
      idTag: tag,
      meterStart: 3_000,
      timestamp: at(t0, 30),
    });
    expect(await txRow(first.transactionId)).toMatchObject({ invalidReason: 'notStopped', energyWh: 1_000 });
    const settledBefore = stopped.filter((id) => id === first.transactionId).length;

    // The charger sends the first session's Stop out of order, with a sample the console never saw.
    await c.ok('StopTransaction', {
      transactionId: first.transactionId,
      meterStop: 2_900,
      timestamp: at(t0, 25),
      reason: 'PowerLoss',
      transactionData: [{ timestamp: at(t0, 20), sampledValue: [{ value: '2500' }] }],
    });
    const fixed = await txRow(first.transactionId);
    expect(fixed).toMatchObject({
      meterStopWh: 2_900,
      energyWh: 1_900,
      stopReason: 'PowerLoss',
      valid: true,
      invalidReason: null,
      late: true,
    });
    expect(fixed.stoppedAt!.toISOString()).toBe(at(t0, 25));
    expect(stopped.filter((id) => id === first.transactionId).length).toBe(settledBefore + 1);
    const [samples] = await db.select({ n: count() }).from(meterValue).where(eq(meterValue.transactionId, first.transactionId));
    expect(samples?.n).toBe(2);

    // A repeat changes nothing, and the running session is untouched.
    await c.ok('StopTransaction', { transactionId: first.transactionId, meterStop: 9_999, timestamp: at(t0, 26) });
    expect(await txRow(first.transactionId)).toMatchObject({ meterStopWh: 2_900, energyWh: 1_900 });
    expect((await txRow(second.transactionId)).stoppedAt).toBeNull();
    await c.close();
  });

  it('stores meter values in our units and keeps the live columns, then stops once with energy = stop − start', async () => {
    const { c, point } = await connect();
    const tag = (await newCard()).physicalId;
    const t0 = Date.now() - 30 * MIN;
    const { transactionId } = await c.ok<{ transactionId: number }>('StartTransaction', {
      connectorId: 1,
      idTag: tag,
      meterStart: 10_000,
      timestamp: at(t0, 0),
    });
    await c.ok('MeterValues', {
      connectorId: 1,
      transactionId,
      meterValue: [
        {
          timestamp: at(t0, 10),
          sampledValue: [
            { value: '12.5', measurand: 'Energy.Active.Import.Register', unit: 'kWh', context: 'Sample.Periodic' },
            { value: '7.2', measurand: 'Power.Active.Import', unit: 'kW' },
            { value: '31.5', measurand: 'Current.Import', unit: 'A' },
            { value: '32', measurand: 'Current.Offered', unit: 'A' },
            { value: '230', measurand: 'Voltage', unit: 'V', phase: 'L1-N' },
            { value: '232', measurand: 'Voltage', unit: 'V', phase: 'L2-N' },
            { value: '55', measurand: 'SoC', unit: 'Percent', location: 'EV' },
            { value: '313.15', measurand: 'Temperature', unit: 'K', location: 'Outlet' },
          ],
        },
        { timestamp: at(t0, 5), sampledValue: [{ value: '11000' }] },
      ],
    });
    const samples = await db
      .select()
      .from(meterValue)
      .where(eq(meterValue.transactionId, transactionId))
      .orderBy(asc(meterValue.sampledAt));
    expect(samples).toHaveLength(2);
    expect(samples[0]).toMatchObject({ energyWh: 11_000, chargePointId: point.id, connectorNo: 1 });
    expect(samples[1]).toMatchObject({
      energyWh: 12_500,
      powerW: 7200,
      currentImportA: 31.5,
      currentOfferedA: 32,
      voltageV: 231,
      soc: 55,
      temperatureC: 40,
    });
    expect((samples[1]!.raw as unknown[]).length).toBe(8);
    expect(await txRow(transactionId)).toMatchObject({ lastMeterWh: 12_500, lastPowerW: 7200, lastSoc: 55, energyWh: 2500, valid: true });
    expect(events.filter((e) => e.type === 'transaction.meter' && e.payload.transactionId === transactionId).at(-1)?.payload).toMatchObject(
      {
        energyWh: 2500,
        powerW: 7200,
        soc: 55,
      },
    );

    const stop = {
      transactionId,
      meterStop: 15_000,
      timestamp: at(t0, 20),
      idTag: tag,
      reason: 'EVDisconnected',
      transactionData: [{ timestamp: at(t0, 15), sampledValue: [{ value: '14000', context: 'Sample.Clock' }] }],
    };
    const reply = await c.ok('StopTransaction', stop);
    expect(reply).toMatchObject({ idTagInfo: { status: 'Accepted' } });
    const done = await txRow(transactionId);
    // Its timestamps predate the connection, so it counts as sent late.
    expect(done).toMatchObject({
      meterStopWh: 15_000,
      energyWh: 5000,
      stopReason: 'EVDisconnected',
      stopIdTag: tag,
      valid: true,
      late: true,
    });
    expect(done.stoppedAt?.toISOString()).toBe(stop.timestamp);
    const after = await db.select({ n: count() }).from(meterValue).where(eq(meterValue.transactionId, transactionId));
    expect(after[0]!.n).toBe(3);

    // The same Stop again: the same answer, nothing changes, no second event.
    expect(await c.ok('StopTransaction', stop)).toEqual(reply);
    expect(ocppFields(await txRow(transactionId))).toEqual(ocppFields(done));
    expect((await db.select({ n: count() }).from(meterValue).where(eq(meterValue.transactionId, transactionId)))[0]!.n).toBe(3);
    expect(events.filter((e) => e.type === 'transaction.stopped' && e.payload.transactionId === transactionId)).toHaveLength(1);
    await eventually(async () => stopped.includes(transactionId));
    expect(stopped.filter((id) => id === transactionId)).toHaveLength(1);

    // An unknown transaction is answered, and nothing is created.
    const before = (await db.select({ n: count() }).from(chargingTransaction))[0]!.n;
    expect(await c.ok('StopTransaction', { transactionId: 999_999, meterStop: 1, timestamp: iso(), idTag: tag })).toMatchObject({
      idTagInfo: { status: 'Accepted' },
    });
    expect((await db.select({ n: count() }).from(chargingTransaction))[0]!.n).toBe(before);
    await c.close();
  });

  it('accepts a start and a stop sent late, after the charger reconnected', async () => {
    const { c, serialNumber, key } = await connect();
    const tag = (await newCard()).physicalId;
    const { transactionId } = await c.ok<{ transactionId: number }>('StartTransaction', {
      connectorId: 1,
      idTag: tag,
      meterStart: 0,
      timestamp: iso(),
    });
    expect(await txRow(transactionId)).toMatchObject({ late: false });
    await c.close();
    // Offline: the charger stopped meanwhile and queued the Stop, and started another session.
    const stoppedAt = iso();
    const startedAt = iso(new Date(Date.now() + 1));
    await new Promise((r) => setTimeout(r, 20));
    const c2 = await TestCharger.connect(s.url, serialNumber, { key });
    const queued = await c2.ok<{ transactionId: number }>('StartTransaction', {
      connectorId: 2,
      idTag: (await newCard()).physicalId,
      meterStart: 0,
      timestamp: startedAt,
    });
    expect(await txRow(queued.transactionId)).toMatchObject({ late: true });
    await c2.ok('StopTransaction', { transactionId, meterStop: 500, timestamp: stoppedAt });
    expect(await txRow(transactionId)).toMatchObject({ energyWh: 500, late: true, valid: true, meterStopWh: 500 });
    await c2.close();
  });

  it('flags meter data that goes below the start, resets or jumps, and never counts negative or lifetime energy', async () => {
    const { c } = await connect({ ratedPowerW: 60_000 });
    const t0 = Date.now() - 120 * MIN;
    const start = async (connectorId: number, meterStart: number, minute: number) =>
      (
        await c.ok<{ transactionId: number }>('StartTransaction', {
          connectorId,
          idTag: (await newCard()).physicalId,
          meterStart,
          timestamp: at(t0, minute),
        })
      ).transactionId;
    const meter = (transactionId: number, connectorId: number, minute: number, wh: number) =>
      c.ok('MeterValues', {
        connectorId,
        transactionId,
        meterValue: [{ timestamp: at(t0, minute), sampledValue: [{ value: String(wh) }] }],
      });

    const below = await start(1, 5000, 0);
    await c.ok('StopTransaction', { transactionId: below, meterStop: 4000, timestamp: at(t0, 10) });
    expect(await txRow(below)).toMatchObject({ valid: false, invalidReason: 'meterBelowStart', energyWh: 0 });

    const reset = await start(2, 1000, 1);
    await meter(reset, 2, 11, 5000);
    await meter(reset, 2, 21, 3000);
    expect(await txRow(reset)).toMatchObject({ valid: false, invalidReason: 'meterReset', energyWh: 4000 });
    await meter(reset, 2, 31, 3500);
    await c.ok('StopTransaction', { transactionId: reset, meterStop: 3600, timestamp: at(t0, 41) });
    expect(await txRow(reset)).toMatchObject({ valid: false, invalidReason: 'meterReset', energyWh: 4600 });

    // A lifetime register where the start said 0: 1,500 kWh in a minute from a 60 kW point.
    const jump = await start(3, 0, 2);
    await meter(jump, 3, 3, 1_500_000);
    await c.ok('StopTransaction', { transactionId: jump, meterStop: 1_500_400, timestamp: at(t0, 10) });
    expect(await txRow(jump)).toMatchObject({ valid: false, invalidReason: 'meterJump', energyWh: 400 });
    await c.close();
  });

  it('applies the group monthly limit with energy drawn this month', async () => {
    const { c } = await connect({ ratedPowerW: 350_000 });
    const [group] = await db
      .insert(userGroup)
      .values({ providerId: 1, name: `g${uid()}`, monthlyLimitWh: 3000 })
      .returning();
    const [user] = await db
      .insert(chargeUser)
      .values({ providerId: 1, account: `u${uid()}`, userType: 'card', groupId: group!.id })
      .returning();
    const tag = (await newCard({ chargeUserId: user!.id })).physicalId;
    // Within this month at the station (Asia/Shanghai): two minutes ago, or since the month began when
    // that was less than two minutes ago; the session then ends halfway to now.
    const now = Date.now();
    const t0 = Math.max(now - 2 * MIN, dayAndMonthStart(new Date(now), 'Asia/Shanghai').month.getTime());
    expect(await c.ok('Authorize', { idTag: tag })).toMatchObject({ idTagInfo: { status: 'Accepted' } });
    const { transactionId } = await c.ok<{ transactionId: number }>('StartTransaction', {
      connectorId: 1,
      idTag: tag,
      meterStart: 0,
      timestamp: at(t0, 0),
    });
    await c.ok('StopTransaction', { transactionId, meterStop: 3200, timestamp: at(t0, (now - t0) / 2 / MIN) });
    expect(await c.ok('Authorize', { idTag: tag })).toMatchObject({ idTagInfo: { status: 'Blocked' } });
    await c.close();
  });
});

/** 1.00 + 0.50 per kWh at every hour (150 cents per kWh) at a station. */
const flatPrice = (stationId: number) =>
  db.insert(price).values({
    providerId: 1,
    stationId,
    effectiveFrom: new Date('2020-01-01T00:00:00Z'),
    slots: Array.from({ length: 48 }, () => 'flat' as const),
    ...{ sharpElec: 0, sharpService: 0, peakElec: 0, peakService: 0, valleyElec: 0, valleyService: 0 },
    flatElec: 10_000,
    flatService: 5_000,
  });

describe('billing with the Stop', () => {
  it('bills a session in its Stop’s commit; a Stop whose settlement fails is kept and answered, and billed once after the reply', async () => {
    const { c, stationId } = await connect({ connectors: 1 });
    await flatPrice(stationId);
    const good = await newCard();
    const session = (t0: number, meterStop: number) => async () => {
      const { transactionId } = await c.ok<{ transactionId: number }>('StartTransaction', {
        connectorId: 1,
        idTag: good.physicalId,
        meterStart: 0,
        timestamp: at(t0, 0),
      });
      return { transactionId, stop: () => c.ok('StopTransaction', { transactionId, meterStop, timestamp: at(t0, 30) }) };
    };
    const charges = async () =>
      (await db.select().from(ledger).where(eq(ledger.cardId, good.id)).orderBy(asc(ledger.id))).map((r) => [
        r.transactionRef,
        r.amountCents,
      ]);

    // The bill is in the Stop's commit: there when the answer is.
    const first = await session(Date.now() - 120 * MIN, 2_000)();
    await first.stop();
    expect(await txRow(first.transactionId)).toMatchObject({ meterStopWh: 2_000, totalCents: 300 });

    // The database refuses the second session's first bill line once (a sequence, which a rollback does not undo).
    const second = await session(Date.now() - 60 * MIN, 4_000)();
    const id = second.transactionId;
    await db.execute(
      sql.raw(`create sequence refuse_bill_${id};
      create function refuse_bill_${id}() returns trigger language plpgsql as $$
        begin if nextval('refuse_bill_${id}') = 1 then raise exception 'bill line refused (test)'; end if; return new; end $$;
      create trigger refuse_bill_${id} before insert on bill_line for each row when (new.transaction_id = ${id})
        execute function refuse_bill_${id}()`),
    );
    // Answered, and the Stop stored though its settlement failed.
    await second.stop();
    expect(await txRow(id)).toMatchObject({ meterStopWh: 4_000, energyWh: 4_000, stopReason: 'Local' });
    const billed = await eventually(async () => ((await txRow(id)).billedAt ? txRow(id) : undefined));
    expect(billed).toMatchObject({ totalCents: 600 });
    expect(await charges()).toEqual([
      [String(first.transactionId), -300],
      [String(id), -600],
    ]);
    const lines = await db.select().from(billLine).where(eq(billLine.transactionId, id));
    expect(lines.reduce((n, l) => n + l.amountCents, 0)).toBe(600);
    expect((await db.select().from(card).where(eq(card.id, good.id)))[0]!.balanceCents).toBe(10_000 - 900);
    await db.execute(sql.raw(`drop trigger refuse_bill_${id} on bill_line`));
    await c.close();
  });

  it('bills a Stop in one database transaction of ten statements when the card is a charge user’s (discounts read in one)', async () => {
    const { c, stationId } = await connect({ connectors: 1 });
    await flatPrice(stationId);
    const [user] = await db.insert(chargeUser).values({ providerId: 1, account: uid(), userType: 'card' }).returning();
    const owned = await newCard({ chargeUserId: user!.id });
    const t0 = Date.now() - 60 * MIN;
    const { transactionId } = await c.ok<{ transactionId: number }>('StartTransaction', {
      connectorId: 1,
      idTag: owned.physicalId,
      meterStart: 0,
      timestamp: at(t0, 0),
    });
    // Every statement any connection sends while the Stop is handled, with its connection: the OCPP log's own
    // flush may run on another one meanwhile.
    const sent: { connection: unknown; text: string }[] = [];
    const query = (pg as unknown as { Query: { prototype: { submit(...a: unknown[]): unknown; text: string } } }).Query.prototype;
    const submit = query.submit;
    query.submit = function (this: { text: string }, ...a: unknown[]) {
      sent.push({ connection: a[0], text: this.text });
      return submit.apply(this, a);
    };
    try {
      await c.ok('StopTransaction', { transactionId, meterStop: 2_000, timestamp: at(t0, 30), idTag: owned.physicalId });
    } finally {
      query.submit = submit;
    }
    expect(await txRow(transactionId)).toMatchObject({ totalCents: 300 });
    // begin, the Stop, the session's lock, its samples with the prices, the discounts' context, the ledger's two, the
    // bill lines with the fees, the membership's recompute (nothing to compute: no level), commit.
    const stop = sent.find((q) => q.text === 'begin')?.connection;
    const texts = sent.filter((q) => q.connection === stop).map((q) => q.text);
    const own = texts.slice(texts.indexOf('begin'), texts.indexOf('commit') + 1);
    expect(own.length, own.map((t) => t.slice(0, 80)).join('\n')).toBe(10);
    await c.close();
  });
});

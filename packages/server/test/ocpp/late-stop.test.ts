import { api, type ChargeRecordDetail, type ChargeRecordDto } from '@csms/contract';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.js';
import { billLine, card, chargingTransaction, ledger, price } from '../../src/db/schema.js';
import { createBilling } from '../../src/modules/billing/settle.js';
import { createLedger } from '../../src/modules/cards/ledger.js';
import { startServer, type TestServer } from '../harness.js';
import { createPoint, eventually, TestCharger } from './support.js';

/*
 * Late stops: the StopTransaction of a session the server had already closed as `notStopped` (its
 * charger started the next one first) is applied, over real sockets, and a bill already settled on the
 * guessed end is corrected by an adjustment row in the ledger, never by editing the settled rows.
 */

let s: TestServer;
let db: Db;
let admin: string;
beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
  admin = await s.login();
});
afterAll(() => s.close());

const MIN = 60_000;
const at = (base: number, minutes: number) => new Date(base + minutes * MIN).toISOString();
let n = 0;

/** A point on a station of its own with one flat price: 1.00 + 0.50 per kWh, so 150 cents per kWh. */
async function site() {
  const p = await createPoint(db, { providerId: 1, connectors: 1 });
  await db.insert(price).values({
    providerId: 1,
    stationId: p.stationId,
    effectiveFrom: new Date('2020-01-01T00:00:00Z'),
    slots: Array.from({ length: 48 }, () => 'flat' as const),
    sharpElec: 0,
    sharpService: 0,
    peakElec: 0,
    peakService: 0,
    flatElec: 10_000,
    flatService: 5_000,
    valleyElec: 0,
    valleyService: 0,
  });
  const [c] = await db
    .insert(card)
    .values({
      providerId: 1,
      cardNumber: `LATE-${++n}`,
      physicalId: `late-${n}-${Math.random().toString(36).slice(2, 6)}`,
      balanceCents: 10_000,
      expireAt: new Date(Date.now() + 365 * 86_400_000),
    })
    .returning();
  const charger = await TestCharger.connect(s.url, p.serialNumber, { key: p.key });
  return { ...p, card: c!, charger };
}

/**
 * Session 1 from meter 1,000 with a sample at 3,000 (10 min), then the charger loses it and starts
 * session 2 at 30 min: session 1 is closed as `notStopped` at its last sample (2 kWh).
 */
async function lostSession(c: TestCharger, idTag: string, t0: number) {
  const first = await c.ok<{ transactionId: number }>('StartTransaction', {
    connectorId: 1,
    idTag,
    meterStart: 1_000,
    timestamp: at(t0, 0),
  });
  await c.ok('MeterValues', {
    connectorId: 1,
    transactionId: first.transactionId,
    meterValue: [{ timestamp: at(t0, 10), sampledValue: [{ value: '3000' }] }],
  });
  const second = await c.ok<{ transactionId: number }>('StartTransaction', {
    connectorId: 1,
    idTag,
    meterStart: 6_000,
    timestamp: at(t0, 30),
  });
  return { first: first.transactionId, second: second.transactionId };
}

const txRow = async (id: number) => (await db.select().from(chargingTransaction).where(eq(chargingTransaction.id, id)))[0]!;
const ledgerOf = (cardId: number) => db.select().from(ledger).where(eq(ledger.cardId, cardId)).orderBy(asc(ledger.id));
const linesOf = (id: number) => db.select().from(billLine).where(eq(billLine.transactionId, id)).orderBy(asc(billLine.id));
const sum = (rows: { amountCents: number }[]) => rows.reduce((t, r) => t + r.amountCents, 0);
const detail = async (id: number) =>
  (await s.call<ChargeRecordDetail>('GET', `${api.chargeRecord.get.path}?id=${id}`, { token: admin })).data;

describe('a Stop that arrives after its session was closed as notStopped', () => {
  it('corrects a settled bill with one adjustment row in the ledger, and the record shows it was closed late', async () => {
    const { card: c, charger } = await site();
    const t0 = Date.now() - 120 * MIN;
    const { first, second } = await lostSession(charger, c.physicalId, t0);
    expect(await txRow(first)).toMatchObject({ invalidReason: 'notStopped', energyWh: 2_000, meterStopWh: 3_000 });

    // The operator confirms the guess: billed for 2 kWh.
    const confirmed = await s.call<ChargeRecordDetail>('POST', api.chargeRecord.confirm.path, { token: admin, body: { id: first } });
    expect(confirmed).toMatchObject({ code: 200, data: { totalCents: 300, validity: 'confirmed' } });
    const [charge] = await ledgerOf(c.id);
    expect(charge).toMatchObject({ tradeType: 'charge', amountCents: -300, balanceBeforeCents: 10_000, balanceAfterCents: 9_700 });
    const settledLines = await linesOf(first);
    expect(sum(settledLines)).toBe(300);

    // Then the charger's own Stop for it: answered, and its real end applied.
    const stop = await charger.call('StopTransaction', {
      transactionId: first,
      meterStop: 6_000,
      timestamp: at(t0, 25),
      reason: 'EVDisconnected',
      transactionData: [{ timestamp: at(t0, 20), sampledValue: [{ value: '5000' }] }],
    });
    expect(stop[0]).toBe(3);
    const adjustment = await eventually(async () => (await ledgerOf(c.id)).find((r) => r.tradeType === 'adjustment'));
    const fixed = await txRow(first);
    expect(fixed).toMatchObject({
      meterStopWh: 6_000,
      energyWh: 5_000,
      stopReason: 'EVDisconnected',
      valid: true,
      invalidReason: null,
      // The settled bill stands; the correction is beside it.
      totalCents: 300,
      adjustmentCents: 450,
    });
    expect(fixed.stoppedAt!.toISOString()).toBe(at(t0, 25));
    expect(fixed.lateStopAt).toBeInstanceOf(Date);

    // The ledger: the settled charge untouched, one adjustment of 3 kWh more, chained on it.
    expect(await ledgerOf(c.id)).toEqual([charge, adjustment]);
    expect(adjustment).toMatchObject({
      amountCents: -450,
      balanceBeforeCents: 9_700,
      balanceAfterCents: 9_250,
      source: 'ocpp',
      transactionRef: String(first),
    });
    expect((await db.select({ b: card.balanceCents }).from(card).where(eq(card.id, c.id)))[0]!.b).toBe(9_250);
    // The bill lines: the settled ones as they were, and adjustment lines for the difference.
    const lines = await linesOf(first);
    expect(lines.filter((l) => !l.adjustment)).toEqual(settledLines);
    expect(sum(lines.filter((l) => l.adjustment))).toBe(450);

    // The console: closed late in the list and the detail, with the adjustment.
    const record = await detail(first);
    expect(record).toMatchObject({
      totalCents: 300,
      adjustmentCents: 450,
      validity: 'valid',
      endTime: at(t0, 25),
      stopReason: 'EVDisconnected',
    });
    expect(record.lateStopAt).toEqual(fixed.lateStopAt!.toISOString());
    expect(record.lines.filter((l) => l.adjustment).reduce((t, l) => t + l.amountCents, 0)).toBe(450);
    const list = await s.call<{ list: ChargeRecordDto[] }>('GET', `${api.chargeRecord.list.path}?page=1&limit=10&id=${first}`, {
      token: admin,
    });
    expect(list.data.list).toEqual([expect.objectContaining({ id: first, lateStopAt: record.lateStopAt, adjustmentCents: 450 })]);

    // A repeat is answered and changes nothing; the running session is untouched.
    expect((await charger.call('StopTransaction', { transactionId: first, meterStop: 9_999, timestamp: at(t0, 26) }))[0]).toBe(3);
    expect(await txRow(first)).toEqual(fixed);
    expect(await ledgerOf(c.id)).toEqual([charge, adjustment]);
    expect((await txRow(second)).stoppedAt).toBeNull();
    await charger.close();
  });

  it('bills a session not yet settled once, for its real end, and shows it was closed late with no adjustment', async () => {
    const { card: c, charger } = await site();
    const t0 = Date.now() - 120 * MIN;
    const { first } = await lostSession(charger, c.physicalId, t0);
    await charger.ok('StopTransaction', { transactionId: first, meterStop: 4_000, timestamp: at(t0, 25), reason: 'PowerLoss' });
    const billed = await eventually(async () => {
      const r = await txRow(first);
      return r.billedAt ? r : undefined;
    }, 400);
    expect(billed).toMatchObject({ energyWh: 3_000, totalCents: 450, adjustmentCents: null, valid: true, invalidReason: null });
    expect(billed.lateStopAt).toBeInstanceOf(Date);
    expect((await ledgerOf(c.id)).map((r) => [r.tradeType, r.amountCents])).toEqual([['charge', -450]]);
    expect(await detail(first)).toMatchObject({ lateStopAt: billed.lateStopAt!.toISOString(), adjustmentCents: null, totalCents: 450 });
    await charger.close();
  });

  it('posts an adjustment left pending by a crash at start-up, once, and a lower real bill credits the account', async () => {
    const { card: c, charger } = await site();
    const t0 = Date.now() - 120 * MIN;
    const { first } = await lostSession(charger, c.physicalId, t0);
    expect((await s.call('POST', api.chargeRecord.confirm.path, { token: admin, body: { id: first } })).code).toBe(200);
    await charger.close();
    // As a late Stop leaves it when the node dies before billing runs: its end applied, the adjustment due.
    // Here the real end is below the guess (the guessed sample was above it), so the bill goes down.
    await db
      .update(chargingTransaction)
      .set({ meterStopWh: 2_000, energyWh: 1_000, lateStopAt: new Date(), adjustmentDue: true, valid: true, invalidReason: null })
      .where(eq(chargingTransaction.id, first));
    const billing = createBilling({ db, ledger: createLedger({ db }) });
    await billing.settlePending();
    await billing.settlePending();
    expect(await txRow(first)).toMatchObject({ totalCents: 300, adjustmentCents: -150 });
    expect((await ledgerOf(c.id)).map((r) => [r.tradeType, r.amountCents, r.balanceAfterCents])).toEqual([
      ['charge', -300, 9_700],
      ['adjustment', 150, 9_850],
    ]);
    const adjustments = await db
      .select()
      .from(billLine)
      .where(and(eq(billLine.transactionId, first), eq(billLine.adjustment, true)));
    expect(sum(adjustments)).toBe(-150);
  });
});

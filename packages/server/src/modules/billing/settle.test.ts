import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProvider } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import type { Db } from '../../db/client.js';
import {
  billLine,
  card,
  chargePoint,
  chargeUser,
  chargingTransaction,
  ledger,
  meterValue,
  price,
  station,
  userGroup,
} from '../../db/schema.js';
import { createLedger } from '../cards/ledger.js';
import { createBilling, type Billing } from './settle.js';
import type { Tier } from './tariff.js';

let s: TestServer;
let db: Db;
let billing: Billing;
let providerId: number;
let stationId: number;
let pointId: number;

let n = 0;
const uniq = (p: string) => `${p}${++n}${Math.random().toString(36).slice(2, 6)}`;

// Shanghai: valley before 08:00 local, peak 08:00–12:00, flat afterwards.
const slots: Tier[] = Array.from({ length: 48 }, (_, i) => (i < 16 ? 'valley' : i < 24 ? 'peak' : 'flat'));
const prices = {
  sharpElec: 15000,
  sharpService: 5000,
  peakElec: 12345,
  peakService: 4000,
  flatElec: 8000,
  flatService: 3000,
  valleyElec: 3333,
  valleyService: 1000,
};

beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
  billing = createBilling({ db, ledger: createLedger({ db }) });
  providerId = (await createProvider(db)).id;
  const [st] = await db
    .insert(station)
    .values({ providerId, name: uniq('st'), country: 'CN', address: 'x', longitude: 121.47, latitude: 31.23, timeZone: 'Asia/Shanghai' })
    .returning();
  stationId = st!.id;
  const [cp] = await db
    .insert(chargePoint)
    .values({ providerId, stationId, serialNumber: uniq('SN'), name: 'p', equipmentType: 'ac', ratedPowerW: 7000 })
    .returning();
  pointId = cp!.id;
  await db.insert(price).values({ providerId, stationId, effectiveFrom: new Date('2026-01-01T00:00:00Z'), slots, ...prices });
});
afterAll(() => s.close());

async function newCard(balanceCents: number, groupId: number | null = null) {
  const [u] = await db
    .insert(chargeUser)
    .values({ providerId, account: uniq('acct'), userType: 'card', groupId })
    .returning();
  const [c] = await db
    .insert(card)
    .values({
      providerId,
      cardNumber: uniq('no'),
      physicalId: uniq('UID').slice(0, 20),
      chargeUserId: u!.id,
      balanceCents,
      expireAt: new Date('2030-01-01'),
    })
    .returning();
  return c!;
}

/** 07:30–08:30 Shanghai, 7 kWh at a constant rate, with samples every 10 minutes. */
async function session(cardId: number, v: Partial<typeof chargingTransaction.$inferInsert> = {}) {
  const start = new Date('2026-03-01T23:30:00Z');
  const [t] = await db
    .insert(chargingTransaction)
    .values({
      providerId,
      stationId,
      chargePointId: pointId,
      connectorNo: 1,
      idTag: 'X',
      cardId,
      startType: 'card',
      authStatus: 'Accepted',
      meterStartWh: 1000,
      startedAt: new Date(start.getTime() + n * 1000),
      meterStopWh: 8000,
      stoppedAt: new Date('2026-03-02T00:30:00Z'),
      energyWh: 7000,
      ...v,
    })
    .returning();
  await db.insert(meterValue).values(
    [1, 2, 3, 4, 5].map((k) => ({
      chargePointId: pointId,
      connectorNo: 1,
      transactionId: t!.id,
      sampledAt: new Date(start.getTime() + k * 600_000),
      energyWh: Math.round(1000 + (7000 * k) / 6),
    })),
  );
  return t!;
}

const balance = async (cardId: number) => (await db.select({ b: card.balanceCents }).from(card).where(eq(card.id, cardId)))[0]!.b;

describe('settlement', () => {
  it('bills a session across a tier boundary once, into the card balance through the ledger', async () => {
    const c = await newCard(10_000);
    const t = await session(c.id);
    expect(await billing.settle(t.id)).toEqual({ kind: 'billed', totalCents: 724, replayed: false });
    expect(await balance(c.id)).toBe(10_000 - 724);
    const lines = await db.select().from(billLine).where(eq(billLine.transactionId, t.id));
    expect(lines.map((l) => [l.tier, l.kind, l.energyWh, l.amountCents]).sort()).toEqual([
      ['peak', 'elec', 3500, 432],
      ['peak', 'service', 3500, 140],
      ['valley', 'elec', 3500, 117],
      ['valley', 'service', 3500, 35],
    ]);
    const [row] = await db.select().from(chargingTransaction).where(eq(chargingTransaction.id, t.id));
    expect(row).toMatchObject({ elecFeeCents: 549, serviceFeeCents: 175, totalCents: 724, paidFrom: 'card' });

    // A resent StopTransaction, a restart sweep, or both at once: still charged once.
    const again = await Promise.all([billing.settle(t.id), billing.settle(t.id), billing.settlePending()]);
    expect(again[0]).toEqual({ kind: 'skipped', reason: 'alreadyBilled' });
    const charges = await db
      .select()
      .from(ledger)
      .where(and(eq(ledger.cardId, c.id), eq(ledger.tradeType, 'charge')));
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({
      amountCents: -724,
      balanceBeforeCents: 10_000,
      balanceAfterCents: 9276,
      transactionRef: String(t.id),
    });
  });

  it("settles within the caller's transaction: the bill commits with the caller's write, or goes with its rollback", async () => {
    const c = await newCard(10_000);
    const t = await session(c.id, { stoppedAt: null, meterStopWh: null });
    const stop = (tx: Parameters<Parameters<Db['transaction']>[0]>[0]) =>
      tx
        .update(chargingTransaction)
        .set({ stoppedAt: new Date('2026-03-02T00:30:00Z'), meterStopWh: 8000 })
        .where(eq(chargingTransaction.id, t.id));
    // The caller fails after the settlement: neither its write nor the bill stays.
    await expect(
      db.transaction(async (tx) => {
        await stop(tx);
        expect(await billing.settleIn(tx, t.id)).toEqual({ kind: 'billed', totalCents: 724, replayed: false });
        throw new Error('the caller fails');
      }),
    ).rejects.toThrow('the caller fails');
    const [untouched] = await db.select().from(chargingTransaction).where(eq(chargingTransaction.id, t.id));
    expect(untouched).toMatchObject({ stoppedAt: null, billedAt: null, totalCents: null });
    expect(await db.select().from(billLine).where(eq(billLine.transactionId, t.id))).toHaveLength(0);
    expect(await balance(c.id)).toBe(10_000);

    await db.transaction(async (tx) => {
      await stop(tx);
      expect(await billing.settleIn(tx, t.id)).toEqual({ kind: 'billed', totalCents: 724, replayed: false });
    });
    expect(await balance(c.id)).toBe(10_000 - 724);
    expect((await db.select().from(chargingTransaction).where(eq(chargingTransaction.id, t.id)))[0]).toMatchObject({
      meterStopWh: 8000,
      totalCents: 724,
    });
  });

  it('settles concurrently started settlements of one session exactly once', async () => {
    const c = await newCard(500);
    const t = await session(c.id);
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => billing.settle(t.id)));
    expect(outcomes.filter((o) => o.kind === 'billed')).toHaveLength(1);
    // The balance may go into a small debt (DESIGN.md §9).
    expect(await balance(c.id)).toBe(500 - 724);
  });

  it('keeps an invalid record unbilled until an operator confirms it', async () => {
    const c = await newCard(10_000);
    const t = await session(c.id, { valid: false, invalidReason: 'meterBelowStart' });
    expect(await billing.settle(t.id)).toEqual({ kind: 'skipped', reason: 'invalid' });
    expect(await balance(c.id)).toBe(10_000);
    await db.update(chargingTransaction).set({ confirmedAt: new Date(), confirmedBy: 1 }).where(eq(chargingTransaction.id, t.id));
    expect(await billing.settle(t.id)).toMatchObject({ kind: 'billed', totalCents: 724 });
  });

  it('bills a confirmed record with a meter jump for the energy it recorded, not the jump', async () => {
    const c = await newCard(10_000);
    const t = await session(c.id, { valid: false, invalidReason: 'meterJump', meterStopWh: 68_000, confirmedAt: new Date() });
    // The register jumps by 60 kWh between two samples 10 minutes apart (a 7 kW point): that increment is not energy.
    const samples = await db.select().from(meterValue).where(eq(meterValue.transactionId, t.id));
    for (const m of samples.filter((x) => x.sampledAt.getTime() >= Date.parse('2026-03-02T00:10:00Z'))) {
      await db
        .update(meterValue)
        .set({ energyWh: m.energyWh! + 60_000 })
        .where(eq(meterValue.id, m.id));
    }
    expect(await billing.settle(t.id)).toMatchObject({ kind: 'billed' });
    const lines = await db.select().from(billLine).where(eq(billLine.transactionId, t.id));
    expect(lines.filter((l) => l.kind === 'elec').reduce((sum, l) => sum + l.energyWh, 0)).toBe(7000 - Math.round(7000 / 6));
  });

  it('uses the group electricity price for members, the station price for others', async () => {
    const [g] = await db
      .insert(userGroup)
      .values({ providerId, name: uniq('g') })
      .returning();
    await db.insert(price).values({
      providerId,
      stationId,
      groupId: g!.id,
      effectiveFrom: new Date('2026-01-01T00:00:00Z'),
      slots: Array.from({ length: 48 }, () => 'flat' as const),
      ...prices,
      flatElec: 10000,
      flatService: 0,
    });
    const member = await newCard(10_000, g!.id);
    const t = await session(member.id);
    expect(await billing.settle(t.id)).toMatchObject({ kind: 'billed', totalCents: 700 });
  });

  it('prices with the version in force at the start and each one taken effect before the stop; a group price later than the start leaves the station price', async () => {
    // A station of its own: versions before, during and after the session (23:30–00:30 UTC), all hours flat.
    const [st] = await db
      .insert(station)
      .values({ providerId, name: uniq('st'), country: 'CN', address: 'x', longitude: 121.47, latitude: 31.23, timeZone: 'Asia/Shanghai' })
      .returning();
    const [cp] = await db
      .insert(chargePoint)
      .values({ providerId, stationId: st!.id, serialNumber: uniq('SN'), name: 'p', equipmentType: 'ac', ratedPowerW: 7000 })
      .returning();
    const flat = Array.from({ length: 48 }, () => 'flat' as const);
    const version = async (from: string, flatElec: number, groupId: number | null = null) =>
      (
        await db
          .insert(price)
          .values({
            providerId,
            stationId: st!.id,
            groupId,
            effectiveFrom: new Date(from),
            slots: flat,
            ...prices,
            flatElec,
            flatService: 0,
          })
          .returning()
      )[0]!;
    await version('2026-01-01T00:00:00Z', 10_000);
    const atStart = await version('2026-02-01T00:00:00Z', 20_000);
    const during = await version('2026-03-02T00:00:00Z', 40_000);
    await version('2026-03-02T01:00:00Z', 80_000);
    const [g] = await db
      .insert(userGroup)
      .values({ providerId, name: uniq('g') })
      .returning();
    await version('2026-03-02T00:10:00Z', 1, g!.id);
    const member = await newCard(10_000, g!.id);
    const t = await session(member.id, { stationId: st!.id, chargePointId: cp!.id });
    // 3.5 kWh before midnight at 2.00, 3.5 kWh after at 4.00.
    expect(await billing.settle(t.id)).toMatchObject({ kind: 'billed', totalCents: 700 + 1400 });
    const lines = await db.select().from(billLine).where(eq(billLine.transactionId, t.id));
    expect(
      lines
        .filter((l) => l.kind === 'elec')
        .map((l) => [l.priceId, l.energyWh, l.amountCents])
        .sort((a, b) => a[0]! - b[0]!),
    ).toEqual([
      [atStart.id, 3500, 700],
      [during.id, 3500, 1400],
    ]);
    expect(await balance(member.id)).toBe(10_000 - 2100);
  });

  it('records why a session before any price cannot be billed, and charges nothing', async () => {
    const c = await newCard(10_000);
    const t = await session(c.id, { startedAt: new Date('2025-06-01T00:00:00Z'), stoppedAt: new Date('2025-06-01T01:00:00Z') });
    expect(await billing.settle(t.id)).toEqual({ kind: 'unbillable', reason: 'noPrice' });
    const [row] = await db.select().from(chargingTransaction).where(eq(chargingTransaction.id, t.id));
    expect(row).toMatchObject({ billedAt: null, billingNote: 'noPrice' });
    expect(await balance(c.id)).toBe(10_000);
  });

  it('leaves a running session alone', async () => {
    const c = await newCard(10_000);
    const t = await session(c.id, { stoppedAt: null, meterStopWh: null });
    expect(await billing.settle(t.id)).toEqual({ kind: 'skipped', reason: 'running' });
  });
});

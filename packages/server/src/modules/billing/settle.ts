import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { billLine, card, chargePoint, chargeUser, chargingTransaction, meterValue, price, station } from '../../db/schema.js';
import { advance, type MeterState } from '../../ocpp/meter.js';
import type { Ledger } from '../cards/ledger.js';
import { computeBill, TariffError, type MeterSample, type PriceVersion, type Tier } from './tariff.js';

export type PriceRow = typeof price.$inferSelect;

export function toVersion(p: PriceRow): PriceVersion {
  return {
    id: p.id,
    effectiveFrom: p.effectiveFrom,
    elec: { sharp: p.sharpElec, peak: p.peakElec, flat: p.flatElec, valley: p.valleyElec },
    service: { sharp: p.sharpService, peak: p.peakService, flat: p.flatService, valley: p.valleyService },
    slots: p.slots as Tier[],
  };
}

/**
 * The register readings as the bill sees them: cumulative energy counting only the plausible
 * increments (the OCPP endpoint's meter sanity rules, DESIGN.md §6), so a confirmed record with a
 * meter jump or reset is billed for the energy it recorded, never for the jump.
 */
export function plausibleSeries(readings: MeterSample[], ratedPowerW: number): MeterSample[] {
  const first = readings[0];
  if (!first) return [];
  const state: MeterState = {
    meterStartWh: first.wh,
    lastMeterWh: first.wh,
    lastSampleAt: first.at.getTime(),
    energyWh: 0,
    valid: true,
    invalidReason: null,
  };
  const out: MeterSample[] = [{ at: first.at, wh: 0 }];
  readings.slice(1).forEach((r, i) => {
    advance(state, r.wh, r.at.getTime(), ratedPowerW, i === readings.length - 2);
    out.push({ at: r.at, wh: state.energyWh });
  });
  return out;
}

export type SettleOutcome =
  | { kind: 'billed'; totalCents: number; replayed: boolean }
  | { kind: 'skipped'; reason: 'notFound' | 'running' | 'alreadyBilled' | 'invalid' }
  | { kind: 'unbillable'; reason: 'noPrice' | 'noAccount' | 'badSamples' };

/**
 * Settles finished charging sessions exactly once (DESIGN.md §3, §9): prices the meter data with
 * the station's time-of-use versions (or the charge user's group price at that station), writes
 * the bill lines and charges the card's balance, or the charge user's mobile balance when no card
 * started it, through the ledger.
 *
 * Exactly once: the transaction row is locked and `billed_at` checked inside the same database
 * transaction that writes the lines and the ledger row; the ledger's per-transaction charge
 * reference and the bill lines' unique index back that up. Called after a StopTransaction is
 * committed and answered, and for every stopped and unbilled session at start-up, so a crash
 * between the two loses nothing. Invalid records (meter sanity, DESIGN.md §6) wait for an
 * operator's confirmation.
 */
export function createBilling({ db, ledger }: { db: Db; ledger: Ledger }) {
  /**
   * Versions that may apply to a session: the last one in force at its start and any later ones
   * until its end. Locked for share, so a concurrent in-place edit of an unused version waits
   * until this bill is written (and then finds it used).
   */
  async function versionsFor(tx: Tx, stationId: number, groupId: number | null, from: Date, to: Date): Promise<PriceRow[]> {
    const scope = and(eq(price.stationId, stationId), groupId === null ? isNull(price.groupId) : eq(price.groupId, groupId));
    const [atStart] = await tx
      .select()
      .from(price)
      .where(and(scope, lte(price.effectiveFrom, from)))
      .orderBy(desc(price.effectiveFrom), desc(price.id))
      .limit(1)
      .for('share');
    const later = await tx
      .select()
      .from(price)
      .where(and(scope, gt(price.effectiveFrom, from), lte(price.effectiveFrom, to)))
      .orderBy(asc(price.effectiveFrom), asc(price.id))
      .for('share');
    return atStart ? [atStart, ...later] : later;
  }

  /** Everything happens in one database transaction with the session's row locked. */
  const settle = (transactionId: number): Promise<SettleOutcome> =>
    db.transaction(async (tx): Promise<SettleOutcome> => {
      const [t] = await tx.select().from(chargingTransaction).where(eq(chargingTransaction.id, transactionId)).for('update');
      if (!t) return { kind: 'skipped', reason: 'notFound' };
      if (!t.stoppedAt || t.meterStopWh === null) return { kind: 'skipped', reason: 'running' };
      if (t.billedAt) return { kind: 'skipped', reason: 'alreadyBilled' };
      if (!t.valid && !t.confirmedAt) return { kind: 'skipped', reason: 'invalid' };
      const stoppedAt = t.stoppedAt;

      // Who pays, and which group price applies.
      let chargeUserId = t.chargeUserId;
      if (t.cardId !== null) {
        const [c] = await tx.select({ chargeUserId: card.chargeUserId }).from(card).where(eq(card.id, t.cardId));
        chargeUserId = c?.chargeUserId ?? chargeUserId;
      }
      const [user] =
        chargeUserId === null
          ? []
          : await tx.select({ groupId: chargeUser.groupId }).from(chargeUser).where(eq(chargeUser.id, chargeUserId));
      const [st] = await tx.select({ timeZone: station.timeZone }).from(station).where(eq(station.id, t.stationId));

      // A group price overrides the station's for members, when it was in force at the start.
      let rows: PriceRow[] = [];
      if (user?.groupId) rows = await versionsFor(tx, t.stationId, user.groupId, t.startedAt, stoppedAt);
      if (rows.length === 0 || rows[0]!.effectiveFrom > t.startedAt)
        rows = await versionsFor(tx, t.stationId, null, t.startedAt, stoppedAt);

      const meter = await tx
        .select({ at: meterValue.sampledAt, wh: meterValue.energyWh })
        .from(meterValue)
        .where(and(eq(meterValue.transactionId, t.id), isNotNull(meterValue.energyWh)))
        .orderBy(asc(meterValue.sampledAt));
      const [cp] = await tx.select({ ratedPowerW: chargePoint.ratedPowerW }).from(chargePoint).where(eq(chargePoint.id, t.chargePointId));
      const samples = plausibleSeries(
        [
          { at: t.startedAt, wh: t.meterStartWh },
          ...meter.filter((m) => m.at > t.startedAt && m.at < stoppedAt).map((m) => ({ at: m.at, wh: m.wh! })),
          { at: stoppedAt, wh: t.meterStopWh },
        ],
        cp?.ratedPowerW ?? 0,
      );

      const unbillable = async (reason: 'noPrice' | 'noAccount' | 'badSamples'): Promise<SettleOutcome> => {
        await tx.update(chargingTransaction).set({ billingNote: reason }).where(eq(chargingTransaction.id, t.id));
        return { kind: 'unbillable', reason };
      };

      let bill;
      try {
        bill = computeBill({ samples, versions: rows.map(toVersion), timeZone: st?.timeZone ?? 'UTC' });
      } catch (e) {
        if (e instanceof TariffError) return unbillable(e.reason);
        throw e;
      }
      const account =
        t.cardId !== null
          ? ({ kind: 'card', cardId: t.cardId } as const)
          : chargeUserId !== null
            ? ({ kind: 'mobile', chargeUserId } as const)
            : null;
      if (!account && bill.totalCents > 0) return unbillable('noAccount');

      if (bill.lines.length) await tx.insert(billLine).values(bill.lines.map((l) => ({ ...l, transactionId: t.id })));
      let replayed = false;
      if (account && bill.totalCents > 0) {
        const entry = await ledger.post(
          { account, tradeType: 'charge', amountCents: -bill.totalCents, source: 'ocpp', transactionRef: String(t.id) },
          tx,
        );
        replayed = entry.replayed;
      }
      await tx
        .update(chargingTransaction)
        .set({
          elecFeeCents: bill.elecFeeCents,
          serviceFeeCents: bill.serviceFeeCents,
          reserveFeeCents: 0,
          totalCents: bill.totalCents,
          billedAt: new Date(),
          paidFrom: account && bill.totalCents > 0 ? account.kind : null,
          billingNote: null,
        })
        .where(eq(chargingTransaction.id, t.id));
      return { kind: 'billed', totalCents: bill.totalCents, replayed };
    });

  return {
    settle,
    /** Settles every stopped, unbilled, billable session (start-up and after a price is added). */
    async settlePending(limit = 1000): Promise<number> {
      const pending = await db
        .select({ id: chargingTransaction.id })
        .from(chargingTransaction)
        .where(
          and(
            isNotNull(chargingTransaction.stoppedAt),
            isNull(chargingTransaction.billedAt),
            or(eq(chargingTransaction.valid, true), isNotNull(chargingTransaction.confirmedAt)),
          ),
        )
        .orderBy(asc(chargingTransaction.id))
        .limit(limit);
      let billed = 0;
      for (const { id } of pending) if ((await settle(id)).kind === 'billed') billed++;
      return billed;
    },
    /** The bill lines of some transactions (record detail, print). */
    lines(transactionIds: number[]) {
      if (transactionIds.length === 0) return Promise.resolve([]);
      return db.select().from(billLine).where(inArray(billLine.transactionId, transactionIds)).orderBy(asc(billLine.id));
    },
  };
}

export type Billing = ReturnType<typeof createBilling>;

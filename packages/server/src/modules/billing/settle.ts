import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { billLine, card, chargePoint, chargeUser, chargingTransaction, meterValue, price, station } from '../../db/schema.js';
import { advance, type MeterState } from '../../ocpp/meter.js';
import type { Ledger, LedgerAccount } from '../cards/ledger.js';
import { computeBill, TariffError, type Bill, type MeterSample, type PriceVersion, type Tier } from './tariff.js';

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

/** The fields of a session that pricing reads; a running one passes its last sample as its stop. */
export type Quotable = Pick<
  typeof chargingTransaction.$inferSelect,
  'id' | 'stationId' | 'chargePointId' | 'cardId' | 'chargeUserId' | 'startedAt' | 'meterStartWh'
> & { stoppedAt: Date; meterStopWh: number };

/** The versions of a price (station, or station × group) that may apply between two instants, oldest first. */
export type VersionLoader = (stationId: number, groupId: number | null, from: Date, to: Date) => Promise<PriceRow[]>;

export type Quote =
  { kind: 'bill'; bill: Bill; account: LedgerAccount | null } | { kind: 'unbillable'; reason: 'noPrice' | 'noAccount' | 'badSamples' };

/**
 * The same choice as `versionsFor` over versions held in memory: the last one in force at `from`
 * and every later one until `to`.
 */
export function versionsInForce(all: readonly PriceRow[], from: Date, to: Date): PriceRow[] {
  let atStart: PriceRow | undefined;
  const later: PriceRow[] = [];
  for (const v of all) {
    const at = v.effectiveFrom.getTime();
    if (at <= from.getTime()) {
      if (!atStart || at > atStart.effectiveFrom.getTime() || (at === atStart.effectiveFrom.getTime() && v.id > atStart.id)) atStart = v;
    } else if (at <= to.getTime()) later.push(v);
  }
  later.sort((a, b) => a.effectiveFrom.getTime() - b.effectiveFrom.getTime() || a.id - b.id);
  return atStart ? [atStart, ...later] : later;
}

export type SettleOutcome =
  | { kind: 'billed'; totalCents: number; replayed: boolean }
  /** A settled bill corrected after a late Stop, by `adjustmentCents` (more to pay > 0). */
  | { kind: 'adjusted'; adjustmentCents: number }
  | { kind: 'skipped'; reason: 'notFound' | 'running' | 'alreadyBilled' | 'invalid' }
  | { kind: 'unbillable'; reason: 'noPrice' | 'noAccount' | 'badSamples' | 'unauthorized' };

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

  type Session = typeof chargingTransaction.$inferSelect;
  type Priced = { kind: 'bill'; bill: Bill; account: LedgerAccount | null } | { kind: 'unbillable'; reason: 'noPrice' | 'badSamples' };

  /**
   * Prices one finished session (or a running one as if it stopped at `t.stoppedAt`) with the
   * versions `load` gives, and names the account that pays it (none for a session of no card or
   * user). Shared by settlement, late-Stop adjustments and the price impact preview, so that all
   * of them price exactly alike.
   */
  async function priceOf(tx: Tx | Db, t: Quotable, load: VersionLoader): Promise<Priced> {
    const stoppedAt = t.stoppedAt;
    // Who pays, and which group price applies.
    let chargeUserId = t.chargeUserId;
    if (t.cardId !== null) {
      const [c] = await tx.select({ chargeUserId: card.chargeUserId }).from(card).where(eq(card.id, t.cardId));
      chargeUserId = c?.chargeUserId ?? chargeUserId;
    }
    const [user] =
      chargeUserId === null ? [] : await tx.select({ groupId: chargeUser.groupId }).from(chargeUser).where(eq(chargeUser.id, chargeUserId));
    const [st] = await tx.select({ timeZone: station.timeZone }).from(station).where(eq(station.id, t.stationId));

    // A group price overrides the station's for members, when it was in force at the start.
    let rows: PriceRow[] = [];
    if (user?.groupId) rows = await load(t.stationId, user.groupId, t.startedAt, stoppedAt);
    if (rows.length === 0 || rows[0]!.effectiveFrom > t.startedAt) rows = await load(t.stationId, null, t.startedAt, stoppedAt);

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
    const account: LedgerAccount | null =
      t.cardId !== null ? { kind: 'card', cardId: t.cardId } : chargeUserId !== null ? { kind: 'mobile', chargeUserId } : null;
    try {
      return { kind: 'bill', bill: computeBill({ samples, versions: rows.map(toVersion), timeZone: st?.timeZone ?? 'UTC' }), account };
    } catch (e) {
      if (e instanceof TariffError) return { kind: 'unbillable', reason: e.reason };
      throw e;
    }
  }

  /** A session's bill as settlement charges it: none when there is money to pay and nobody to pay it. */
  async function quote(tx: Tx | Db, t: Quotable, load: VersionLoader): Promise<Quote> {
    const priced = await priceOf(tx, t, load);
    if (priced.kind === 'bill' && !priced.account && priced.bill.totalCents > 0) return { kind: 'unbillable', reason: 'noAccount' };
    return priced;
  }

  /**
   * A settled session whose charger later sent its real end (a late Stop, DESIGN.md §6): prices it again
   * and books the difference as adjustment bill lines and one adjustment ledger row. The settled lines,
   * the settled charge and the record's settled fees are never edited.
   */
  async function adjust(tx: Tx, t: Session, stoppedAt: Date, meterStopWh: number): Promise<SettleOutcome> {
    const priced = await priceOf(tx, { ...t, stoppedAt, meterStopWh }, (...a) => versionsFor(tx, ...a));
    if (priced.kind === 'unbillable') return priced;
    const { bill, account } = priced;
    const settled = await tx
      .select()
      .from(billLine)
      .where(and(eq(billLine.transactionId, t.id), eq(billLine.adjustment, false)));
    const key = (l: { priceId: number; tier: string; kind: string }) => `${l.priceId}|${l.tier}|${l.kind}`;
    const before = new Map(settled.map((l) => [key(l), l]));
    const after = new Map(bill.lines.map((l) => [key(l), l]));
    const deltas = [...new Set([...before.keys(), ...after.keys()])]
      .map((k) => {
        const was = before.get(k);
        const now = after.get(k);
        const line = (now ?? was)!;
        return {
          transactionId: t.id,
          priceId: line.priceId,
          tier: line.tier,
          kind: line.kind,
          unitPrice: line.unitPrice,
          energyWh: (now?.energyWh ?? 0) - Number(was?.energyWh ?? 0),
          amountCents: (now?.amountCents ?? 0) - (was?.amountCents ?? 0),
          adjustment: true,
        };
      })
      .filter((l) => l.energyWh !== 0 || l.amountCents !== 0);
    const adjustmentCents = bill.totalCents - (t.totalCents ?? 0);
    if (deltas.length) await tx.insert(billLine).values(deltas);
    const posted = account !== null && adjustmentCents !== 0;
    if (posted) {
      await ledger.post(
        { account, tradeType: 'adjustment', amountCents: -adjustmentCents, source: 'ocpp', transactionRef: String(t.id) },
        tx,
      );
    }
    await tx
      .update(chargingTransaction)
      .set({ adjustmentCents, ...(posted && t.paidFrom === null ? { paidFrom: account.kind } : {}) })
      .where(eq(chargingTransaction.id, t.id));
    return { kind: 'adjusted', adjustmentCents };
  }

  /** Everything happens in one database transaction with the session's row locked. */
  const settle = (transactionId: number): Promise<SettleOutcome> =>
    db.transaction(async (tx): Promise<SettleOutcome> => {
      const [t] = await tx.select().from(chargingTransaction).where(eq(chargingTransaction.id, transactionId)).for('update');
      if (!t) return { kind: 'skipped', reason: 'notFound' };
      if (!t.stoppedAt || t.meterStopWh === null) return { kind: 'skipped', reason: 'running' };
      if (t.billedAt) {
        if (t.adjustmentDue && t.adjustmentCents === null) return adjust(tx, t, t.stoppedAt, t.meterStopWh);
        return { kind: 'skipped', reason: 'alreadyBilled' };
      }
      if (!t.valid && !t.confirmedAt) return { kind: 'skipped', reason: 'invalid' };

      // Started with an idTag that was not Accepted for the charger's provider: billed to nobody, whatever
      // the row names (rows written before this rule may still name the card the refused idTag belonged to).
      if (t.authStatus !== 'Accepted') {
        await tx.update(chargingTransaction).set({ billingNote: 'unauthorized' }).where(eq(chargingTransaction.id, t.id));
        return { kind: 'unbillable', reason: 'unauthorized' };
      }
      const q = await quote(tx, { ...t, stoppedAt: t.stoppedAt, meterStopWh: t.meterStopWh }, (...a) => versionsFor(tx, ...a));
      if (q.kind === 'unbillable') {
        await tx.update(chargingTransaction).set({ billingNote: q.reason }).where(eq(chargingTransaction.id, t.id));
        return { kind: 'unbillable', reason: q.reason };
      }
      const { bill, account } = q;

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
    /** Prices a session without writing anything (the price impact preview). */
    quote: (t: Quotable, load: VersionLoader) => quote(db, t, load),
    /**
     * Settles every stopped, unbilled, billable session, and corrects every settled one a late Stop left
     * waiting for its adjustment (start-up, so a crash between a Stop and its billing loses nothing; and
     * after a price is added).
     */
    async settlePending(limit = 1000): Promise<number> {
      const pending = await db
        .select({ id: chargingTransaction.id })
        .from(chargingTransaction)
        .where(
          or(
            and(
              isNotNull(chargingTransaction.stoppedAt),
              isNull(chargingTransaction.billedAt),
              // An unauthorised one only until it carries its note: it is never billed.
              or(eq(chargingTransaction.authStatus, 'Accepted'), isNull(chargingTransaction.billingNote)),
              or(eq(chargingTransaction.valid, true), isNotNull(chargingTransaction.confirmedAt)),
            ),
            and(
              isNotNull(chargingTransaction.billedAt),
              eq(chargingTransaction.adjustmentDue, true),
              isNull(chargingTransaction.adjustmentCents),
            ),
          ),
        )
        .orderBy(asc(chargingTransaction.id))
        .limit(limit);
      let billed = 0;
      for (const { id } of pending) if (['billed', 'adjusted'].includes((await settle(id)).kind)) billed++;
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

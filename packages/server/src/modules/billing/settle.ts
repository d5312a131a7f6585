import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { prebuilt } from '../../db/prebuilt.js';
import { billLine, card, chargePoint, chargeUser, chargingTransaction, meterValue, price, reservation, station } from '../../db/schema.js';
import { advance, type MeterState } from '../../ocpp/meter.js';
import { insertJsonSql } from '../../ocpp/writer.js';
import type { Ledger, LedgerAccount } from '../cards/ledger.js';
import { computeBill, TariffError, type Bill, type MeterSample, type PriceVersion, type Tier } from './tariff.js';
import { jsonCell } from '../../db/json-cell.js';

export type PriceRow = typeof price.$inferSelect;

const BILL_LINE_COLUMNS = ['transaction_id', 'price_id', 'tier', 'kind', 'energy_wh', 'unit_price', 'amount_cents', 'ref_id', 'label'];

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
/** A discount of a session's bill (issue 19): its own bill line, amount ≤ 0. */
export interface DiscountLine {
  kind: 'member' | 'activity' | 'voucher';
  /** The member level, activity or voucher it came from. */
  refId: number;
  /** Its name when settled, as printed. */
  label: string;
  amountCents: number;
  energyWh: number;
  /** Per-kWh discounts: 1/10,000 of the currency per kWh; percent ones: 0. */
  unitPrice: number;
}

/** What a settled session's discounts are decided from. */
export interface DiscountInput {
  transactionId: number;
  chargeUserId: number;
  stationId: number;
  startedAt: Date;
  stoppedAt: Date;
  timeZone: string;
  bill: Bill;
  /** The plausible cumulative energy (Wh from the start) over time, as priced. */
  samples: MeterSample[];
}

/**
 * Operations' share of settlement (issue 19), inside its transaction: `discounts` decides and claims
 * (a voucher by a conditional update) the session's discounts; `settled` follows a billed session
 * (its user's member level).
 */
export interface BillingHooks {
  discounts(tx: Tx, input: DiscountInput): Promise<DiscountLine[]>;
  settled(tx: Tx, chargeUserId: number): Promise<void>;
}

export function createBilling({ db, ledger, hooks }: { db: Db; ledger: Ledger; hooks?: BillingHooks }) {
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

  /** The session's row locked, with what its bill needs that a price change does not move (built once: see `prebuilt`). */
  const lockSession = prebuilt(db, (d) =>
    d
      .select({
        t: chargingTransaction,
        cardUserId: card.chargeUserId,
        groupId: chargeUser.groupId,
        timeZone: station.timeZone,
        ratedPowerW: chargePoint.ratedPowerW,
        // The reservation this session used, when its fee is still to be charged (issue 15 item 4).
        reservationId: reservation.id,
      })
      .from(chargingTransaction)
      .leftJoin(reservation, and(eq(reservation.transactionId, chargingTransaction.id), isNull(reservation.feeCents)))
      .leftJoin(card, eq(card.id, chargingTransaction.cardId))
      .leftJoin(chargeUser, eq(chargeUser.id, sql`coalesce(${card.chargeUserId}, ${chargingTransaction.chargeUserId})`))
      .leftJoin(station, eq(station.id, chargingTransaction.stationId))
      .leftJoin(chargePoint, eq(chargePoint.id, chargingTransaction.chargePointId))
      .where(eq(chargingTransaction.id, sql.placeholder('id')))
      .for('update', { of: chargingTransaction }),
  );

  type Session = typeof chargingTransaction.$inferSelect;
  type Priced =
    | { kind: 'bill'; bill: Bill; account: LedgerAccount | null; samples?: MeterSample[] }
    | { kind: 'unbillable'; reason: 'noPrice' | 'badSamples' };

  /** What pricing reads besides the versions: who pays and their group, the station's zone, the point's power, the register readings. */
  interface Facts {
    chargeUserId: number | null;
    groupId: number | null;
    timeZone: string;
    ratedPowerW: number;
    meter: { at: Date; wh: number }[];
  }

  /** The facts of a session, one read each (the price impact preview and late-Stop adjustments). */
  async function factsOf(tx: Tx | Db, t: Quotable): Promise<Facts> {
    let chargeUserId = t.chargeUserId;
    if (t.cardId !== null) {
      const [c] = await tx.select({ chargeUserId: card.chargeUserId }).from(card).where(eq(card.id, t.cardId));
      chargeUserId = c?.chargeUserId ?? chargeUserId;
    }
    const [user] =
      chargeUserId === null ? [] : await tx.select({ groupId: chargeUser.groupId }).from(chargeUser).where(eq(chargeUser.id, chargeUserId));
    const [st] = await tx.select({ timeZone: station.timeZone }).from(station).where(eq(station.id, t.stationId));
    const meter = await tx
      .select({ at: meterValue.sampledAt, wh: meterValue.energyWh })
      .from(meterValue)
      .where(and(eq(meterValue.transactionId, t.id), isNotNull(meterValue.energyWh)))
      .orderBy(asc(meterValue.sampledAt));
    const [cp] = await tx.select({ ratedPowerW: chargePoint.ratedPowerW }).from(chargePoint).where(eq(chargePoint.id, t.chargePointId));
    return {
      chargeUserId,
      groupId: user?.groupId ?? null,
      timeZone: st?.timeZone ?? 'UTC',
      ratedPowerW: cp?.ratedPowerW ?? 0,
      meter: meter.map((m) => ({ at: m.at, wh: m.wh! })),
    };
  }

  /** A group price overrides the station's for members, when it was in force at the start. */
  async function versionsOf(t: Quotable, groupId: number | null, load: VersionLoader): Promise<PriceRow[]> {
    let rows: PriceRow[] = [];
    if (groupId) rows = await load(t.stationId, groupId, t.startedAt, t.stoppedAt);
    if (rows.length === 0 || rows[0]!.effectiveFrom > t.startedAt) rows = await load(t.stationId, null, t.startedAt, t.stoppedAt);
    return rows;
  }

  /**
   * Prices one finished session (or a running one as if it stopped at `t.stoppedAt`) with the
   * versions `rows`, and names the account that pays it (none for a session of no card or user).
   * Shared by settlement, late-Stop adjustments and the price impact preview, so that all of them
   * price exactly alike.
   */
  function billOf(t: Quotable, facts: Facts, rows: readonly PriceRow[]): Priced {
    const { chargeUserId } = facts;
    const samples = plausibleSeries(
      [
        { at: t.startedAt, wh: t.meterStartWh },
        ...facts.meter.filter((m) => m.at > t.startedAt && m.at < t.stoppedAt),
        { at: t.stoppedAt, wh: t.meterStopWh },
      ],
      facts.ratedPowerW,
    );
    const account: LedgerAccount | null =
      t.cardId !== null ? { kind: 'card', cardId: t.cardId } : chargeUserId !== null ? { kind: 'mobile', chargeUserId } : null;
    try {
      return { kind: 'bill', bill: computeBill({ samples, versions: rows.map(toVersion), timeZone: facts.timeZone }), account, samples };
    } catch (e) {
      if (e instanceof TariffError) return { kind: 'unbillable', reason: e.reason };
      throw e;
    }
  }

  async function priceOf(tx: Tx | Db, t: Quotable, load: VersionLoader): Promise<Priced> {
    const facts = await factsOf(tx, t);
    return billOf(t, facts, await versionsOf(t, facts.groupId, load));
  }

  /** A session's bill as settlement charges it: none when there is money to pay and nobody to pay it. */
  const chargeable = (priced: Priced): Quote =>
    priced.kind === 'bill' && !priced.account && priced.bill.totalCents > 0
      ? { kind: 'unbillable', reason: 'noAccount' }
      : priced.kind === 'bill'
        ? { kind: 'bill', bill: priced.bill, account: priced.account }
        : priced;

  async function quote(tx: Tx | Db, t: Quotable, load: VersionLoader): Promise<Quote> {
    return chargeable(await priceOf(tx, t, load));
  }

  /**
   * Settlement's reads after the lock, in one statement: the session's register readings, and the price
   * versions of its station and of its user's group there that may apply (`versionsFor`'s choice for
   * each, locked for share alike), which `versionsInForce` then picks from as `versionsFor` would.
   */
  async function meterAndVersions(
    tx: Tx,
    t: Quotable,
    groupId: number | null,
  ): Promise<{ meter: Facts['meter']; versions: VersionLoader }> {
    const from = t.startedAt.toISOString();
    const to = t.stoppedAt.toISOString();
    const scope = sql`station_id = ${t.stationId} and (group_id is null or group_id = ${groupId}::int)`;
    const res = (await tx.execute(sql`select m.meter, p.*
      from (select coalesce(json_agg(json_build_object('at', sampled_at, 'wh', energy_wh) order by sampled_at), '[]'::json) as meter
            from meter_value where transaction_id = ${t.id} and energy_wh is not null) m
      left join (
        select * from price where ${scope} and effective_from <= ${to}::timestamptz
          and (effective_from > ${from}::timestamptz or id in (
            select distinct on (group_id) id from price where ${scope} and effective_from <= ${from}::timestamptz
            order by group_id, effective_from desc, id desc))
        for share) p on true`)) as unknown as { rows: Record<string, unknown>[] };
    const first = res.rows[0]!;
    const raw = jsonCell<{ at: string; wh: number | string }[]>(first.meter);
    const all: PriceRow[] = res.rows
      .filter((r) => r.id !== null)
      .map((r) => ({
        id: Number(r.id),
        providerId: Number(r.provider_id),
        stationId: Number(r.station_id),
        groupId: r.group_id === null ? null : Number(r.group_id),
        effectiveFrom: new Date(r.effective_from as string | Date),
        sharpElec: Number(r.sharp_elec),
        sharpService: Number(r.sharp_service),
        peakElec: Number(r.peak_elec),
        peakService: Number(r.peak_service),
        flatElec: Number(r.flat_elec),
        flatService: Number(r.flat_service),
        valleyElec: Number(r.valley_elec),
        valleyService: Number(r.valley_service),
        reserveFeeCents: Number(r.reserve_fee_cents),
        slots: jsonCell<PriceRow['slots']>(r.slots),
        createdBy: r.created_by === null ? null : Number(r.created_by),
        createdAt: new Date(r.created_at as string | Date),
      }));
    return {
      meter: raw.map((m) => ({ at: new Date(m.at), wh: Number(m.wh) })),
      versions: async (_stationId, gid, f, tt) =>
        versionsInForce(
          all.filter((v) => v.groupId === gid),
          f,
          tt,
        ),
    };
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
    const key = (l: { priceId: number | null; tier: string | null; kind: string }) => `${l.priceId}|${l.tier}|${l.kind}`;
    // Discounts (member, activity, voucher) stay as settled: a late Stop re-prices the energy, not the discounts.
    const tariff = settled.filter((l) => l.priceId !== null);
    const discountCents = settled.filter((l) => l.priceId === null).reduce((n, l) => n + l.amountCents, 0);
    const before = new Map(tariff.map((l) => [key(l), l]));
    const after = new Map(bill.lines.map((l) => [key(l), l]));
    const deltas = [...new Set([...before.keys(), ...after.keys()])]
      .map((k) => {
        const was = before.get(k);
        const now = after.get(k);
        const line = (now ?? was)!;
        return {
          transactionId: t.id,
          priceId: line.priceId!,
          tier: line.tier!,
          kind: line.kind,
          unitPrice: line.unitPrice,
          energyWh: (now?.energyWh ?? 0) - Number(was?.energyWh ?? 0),
          amountCents: (now?.amountCents ?? 0) - (was?.amountCents ?? 0),
          adjustment: true,
        };
      })
      .filter((l) => l.energyWh !== 0 || l.amountCents !== 0);
    // The reservation fee was charged with the settled bill and does not change with the energy.
    const adjustmentCents = Math.max(0, bill.totalCents + discountCents) + (t.reserveFeeCents ?? 0) - (t.totalCents ?? 0);
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

  /**
   * Everything happens in one database transaction with the session's row locked: the lock with what
   * the bill needs that a price change does not move (one statement), the register readings with the
   * versions (one statement), the ledger's posting, and the bill lines with the session's fees (one
   * statement).
   */
  async function settleOn(tx: Tx, transactionId: number): Promise<SettleOutcome> {
    const [locked] = await lockSession(tx, { id: transactionId });
    if (!locked) return { kind: 'skipped', reason: 'notFound' };
    const { t } = locked;
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
    const session = { ...t, stoppedAt: t.stoppedAt, meterStopWh: t.meterStopWh };
    const read = await meterAndVersions(tx, session, locked.groupId);
    const facts: Facts = {
      chargeUserId: locked.cardUserId ?? t.chargeUserId,
      groupId: locked.groupId,
      timeZone: locked.timeZone ?? 'UTC',
      ratedPowerW: locked.ratedPowerW ?? 0,
      meter: read.meter,
    };
    const versions = await versionsOf(session, facts.groupId, read.versions);
    const priced = billOf(session, facts, versions);
    const q = chargeable(priced);
    if (q.kind === 'unbillable') {
      await tx.update(chargingTransaction).set({ billingNote: q.reason }).where(eq(chargingTransaction.id, t.id));
      return { kind: 'unbillable', reason: q.reason };
    }
    const { bill, account } = q;
    // A used reservation's fee: the price version in force at the start, charged with the bill, once.
    const reserveFeeCents = locked.reservationId !== null && account ? (versions[0]?.reserveFeeCents ?? 0) : 0;
    // Member, activity and voucher discounts (issue 19), each its own line; together never more than the bill.
    const payer = facts.chargeUserId;
    const discounts =
      hooks && account && payer !== null && bill.totalCents > 0
        ? await hooks.discounts(tx, {
            transactionId: t.id,
            chargeUserId: payer,
            stationId: t.stationId,
            startedAt: t.startedAt,
            stoppedAt: session.stoppedAt,
            timeZone: facts.timeZone,
            bill,
            samples: priced.kind === 'bill' ? (priced.samples ?? []) : [],
          })
        : [];
    const discountCents = discounts.reduce((n, d) => n + d.amountCents, 0);
    const totalCents = Math.max(0, bill.totalCents + discountCents) + reserveFeeCents;

    let replayed = false;
    if (account && totalCents > 0) {
      const entry = await ledger.post(
        { account, tradeType: 'charge', amountCents: -totalCents, source: 'ocpp', transactionRef: String(t.id) },
        tx,
      );
      replayed = entry.replayed;
    }
    // The lines, the reservation's fee and the session's fees in one statement, its text the same for every bill
    // (the lines as one JSON parameter; the fee's update finds no row without a reservation): drizzle's builders
    // took 0.5 ms to write it (measured in a loop, the machine busy with a test run).
    const lines = [
      ...bill.lines.map((l) => ({ ...l, refId: null, label: null })),
      ...discounts.map((d) => ({ ...d, priceId: null, tier: null })),
    ].map((l) => ({
      transaction_id: t.id,
      price_id: l.priceId,
      tier: l.tier,
      kind: l.kind,
      energy_wh: l.energyWh,
      unit_price: l.unitPrice,
      amount_cents: l.amountCents,
      ref_id: l.refId,
      label: l.label,
    }));
    await tx.execute(sql`with lines as (${insertJsonSql('bill_line', BILL_LINE_COLUMNS, lines)}), fee as (
        update reservation set fee_cents = ${reserveFeeCents}::int where id = ${locked.reservationId}::int
      )
      update charging_transaction set elec_fee_cents = ${bill.elecFeeCents}::int, service_fee_cents = ${bill.serviceFeeCents}::int,
        reserve_fee_cents = ${reserveFeeCents}::int, total_cents = ${totalCents}::int, billed_at = ${new Date().toISOString()}::timestamptz,
        paid_from = ${account && totalCents > 0 ? account.kind : null}::text, billing_note = null
      where id = ${t.id}::int`);
    if (hooks && payer !== null) await hooks.settled(tx, payer);
    return { kind: 'billed', totalCents, replayed };
  }

  const settle = (transactionId: number): Promise<SettleOutcome> => db.transaction((tx) => settleOn(tx, transactionId));

  return {
    settle,
    /**
     * Settles inside the caller's database transaction (a StopTransaction's). No savepoint of its own (two
     * statements of every Stop): when it throws, the caller's transaction cannot commit; the caller rolls it
     * back and writes its own part again without the settlement (`recordStop` in transactions.ts).
     */
    settleIn: settleOn,
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

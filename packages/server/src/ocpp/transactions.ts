import { dayAndMonthStart, MAX_CONNECTORS } from '@csms/contract';
import { and, eq, gte, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { prebuilt } from '../db/prebuilt.js';
import { chargingTransaction } from '../db/schema.js';
import { cardRowOf, type AuthorizationContext, type AuthorizationResult } from '../modules/cards/authorize.js';
import { emit, type OcppCore } from './core.js';
import { advance, readSample, type SampledValue } from './meter.js';
import { txFromRow, txJson, type PointState, type TxJson, type TxState } from './registry.js';
import { RpcError, type Payload } from './rpc.js';
import { refusing, type ChargerSession, type ActionHandler } from './session.js';
import { insertMeterRows } from './writer.js';
import { jsonCell } from '../db/json-cell.js';

/*
 * Authorize, StartTransaction, MeterValues, StopTransaction. Start, Stop and meter values are
 * committed before the handler returns, so before the CALLRESULT leaves (DESIGN.md §3).
 */

export interface MeterValueEntry {
  timestamp: string;
  sampledValue: SampledValue[];
}

export interface StartReq {
  connectorId: number;
  /** OCPP 2.0.1: the charger's transactionId, stored with the row (unique per point). */
  ocppTxId?: string;
  idTag: string;
  meterStart: number;
  reservationId?: number;
  timestamp: string;
}

export interface StopReq {
  transactionId: number;
  meterStop: number;
  timestamp: string;
  idTag?: string;
  reason?: string;
  transactionData?: MeterValueEntry[];
}

/** A session whose end a later Start guessed (`lateStop`), not yet given its real one. */
const guessedEnd = and(eq(chargingTransaction.invalidReason, 'notStopped'), isNull(chargingTransaction.lateStopAt))!;

/** What a StartTransaction supersedes: the sessions still open on its point and connector, started before it. */
type Superseding = { point: PointState; connectorNo: number; startedAt: Date };

/** How long an accepted RemoteStartTransaction makes the next matching start a remote one. */
const REMOTE_START_WINDOW_MS = 10 * 60_000;

/** OCPP idTagInfo from an authorization decision (parentIdTag only when it fits OCPP's 20 characters). */
function idTagInfo(r: AuthorizationResult): Payload {
  return {
    status: r.status,
    ...(r.expiryDate ? { expiryDate: r.expiryDate } : {}),
    ...(r.parentIdTag && r.parentIdTag.length <= 20 ? { parentIdTag: r.parentIdTag } : {}),
  };
}

/** A reply carrying a decision; a refusal's reason goes to the OCPP log beside it. */
const decided = (reply: Payload, r: AuthorizationResult): Payload => (r.status === 'Accepted' ? reply : refusing(reply, r.reason));

/** The charger's samples as meter_value rows, oldest first. */
function meterRows(point: PointState, connectorNo: number, transactionId: number | null, entries: readonly MeterValueEntry[]) {
  return entries
    .map((mv) => ({ sampledAt: new Date(mv.timestamp), sample: readSample(mv.sampledValue), raw: mv.sampledValue }))
    .sort((a, b) => a.sampledAt.getTime() - b.sampledAt.getTime())
    .map(({ sampledAt, sample, raw }) => ({ chargePointId: point.id, connectorNo, transactionId, sampledAt, ...sample, raw }));
}

type MeterRow = ReturnType<typeof meterRows>[number];

/** Accounts the register readings of `rows` on a copy of `tx` (committed first, then assigned). */
function accounted(tx: TxState, rows: readonly MeterRow[], ratedPowerW: number): TxState {
  const next = { ...tx };
  for (const r of rows) if (r.energyWh !== undefined) advance(next, r.energyWh, r.sampledAt.getTime(), ratedPowerW);
  return next;
}

/** Latest power and SoC among the rows, for the live columns and the event. */
function latest(rows: readonly MeterRow[]) {
  let powerW: number | undefined;
  let soc: number | undefined;
  for (const r of rows) {
    if (r.powerW !== undefined) powerW = r.powerW;
    if (r.soc !== undefined) soc = r.soc;
  }
  return { powerW, soc, at: rows.at(-1)?.sampledAt };
}

export function transactionHandlers(core: OcppCore): Record<string, ActionHandler> {
  return transactionKit(core).handlers;
}

/** The 1.6 handlers, and the pieces OCPP 2.0.1's TransactionEvent shares with them (v201.ts). */
export function transactionKit(core: OcppCore) {
  const { db, events, idTags } = core;

  /** Energy the charge user drew since the month began in the station's time zone (DESIGN.md §9). */
  async function usedWhThisMonth(chargeUserId: number, timeZone: string, now: Date): Promise<number> {
    const [r] = await db
      .select({ wh: sql<string>`coalesce(sum(${chargingTransaction.energyWh}), 0)` })
      .from(chargingTransaction)
      .where(
        and(eq(chargingTransaction.chargeUserId, chargeUserId), gte(chargingTransaction.startedAt, dayAndMonthStart(now, timeZone).month)),
      );
    return Number(r?.wh ?? 0);
  }

  /**
   * Whether the idTag really has an authorized session open, asked only when the index says so (a
   * refusal: rare). Counts can drift (a node that joined while a start was on its way counts it twice):
   * a refusal is never made on them alone, and a wrong entry is dropped. Sessions a Start is about to
   * supersede (`superseding`: open on its point and connector, started before it) do not count: the
   * driver of a session the charger lost usually swipes the same card again.
   */
  async function stillRunning(idTag: string, superseding?: Superseding): Promise<boolean> {
    const lost = superseding
      ? sql`${chargingTransaction.chargePointId} = ${superseding.point.id} and ${chargingTransaction.connectorNo} = ${superseding.connectorNo}
          and ${chargingTransaction.startedAt} < ${superseding.startedAt.toISOString()}::timestamptz`
      : sql`false`;
    const [row] = await db
      .select({ open: sql<number>`count(*)::int`, running: sql<number>`(count(*) filter (where not (${lost})))::int` })
      .from(chargingTransaction)
      .where(
        and(
          isNull(chargingTransaction.stoppedAt),
          eq(chargingTransaction.authStatus, 'Accepted'),
          eq(sql`lower(${chargingTransaction.idTag})`, idTag.toLowerCase()),
        ),
      );
    if (!row?.open) idTags.forget(idTag);
    return (row?.running ?? 0) > 0;
  }

  /**
   * The decision on an idTag at `point`. `exceptRunning`: a session of the idTag does not make it
   * ConcurrentTx (a Stop). `superseding`: the sessions a Start supersedes do not (see `stillRunning`), and
   * the decision may come from the cached card row, checked by the Start's statement (`checkedWrite`).
   * `cardAsRead`: the card's row as the caller's statement read it (a Stop's). `start` (implied by
   * `superseding`): the decision starts a session.
   */
  function authorize(
    idTag: string,
    point: PointState,
    opts: { exceptRunning?: boolean; superseding?: Superseding } & Pick<AuthorizationContext, 'cardAsRead' | 'start'> = {},
  ) {
    const now = new Date();
    return core.authorization.authorize(idTag, {
      now,
      hasActiveTransaction: async (tag) => !opts.exceptRunning && idTags.has(tag) && (await stillRunning(tag, opts.superseding)),
      usedWhThisMonth: (userId) => usedWhThisMonth(userId, point.timeZone, now),
      monthKey: () => dayAndMonthStart(now, point.timeZone).month.toISOString(),
      providerId: point.providerId,
      ...(opts.superseding ? { checkedWrite: true, start: true } : opts.start ? { start: true } : {}),
      ...(opts.cardAsRead ? { cardAsRead: opts.cardAsRead } : {}),
    });
  }

  /**
   * Who a start is for: the card (and its charge user) the decision Accepted, else nobody. A refused
   * idTag (another provider's card, an unknown tag, a lost, expired or blocked card of this provider) is
   * attached to no card and no charge user, so it is never billed to one and its operator sees the
   * idTag only: the session is kept (energy was delivered) and shown as unauthorised (README "Security").
   */
  function owner(auth: AuthorizationResult): { cardId: number | null; chargeUserId: number | null } {
    return auth.status === 'Accepted' && auth.owner ? auth.owner : { cardId: null, chargeUserId: null };
  }

  function takeRemoteStart(point: PointState, idTag: string, connectorNo: number, now: number): boolean {
    const list = point.remoteStarts;
    if (!list) return false;
    const i = list.findIndex(
      (r) =>
        now - r.at < REMOTE_START_WINDOW_MS &&
        r.idTag.toLowerCase() === idTag.toLowerCase() &&
        (r.connectorId === undefined || r.connectorId === connectorNo),
    );
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) delete point.remoteStarts;
    return i >= 0;
  }

  /** An open transaction of this point: from memory, else (started over a connection that was since replaced) from the database. */
  async function openTx(point: PointState, id: number): Promise<TxState | undefined> {
    const cached = point.transactions.get(id);
    if (cached) return cached;
    const [row] = await db
      .select({ t: sql<TxJson>`${txJson('charging_transaction')}` })
      .from(chargingTransaction)
      .where(and(eq(chargingTransaction.id, id), eq(chargingTransaction.chargePointId, point.id), isNull(chargingTransaction.stoppedAt)));
    if (!row) return undefined;
    const tx = txFromRow(typeof row.t === 'string' ? (JSON.parse(row.t) as TxJson) : row.t);
    point.transactions.set(tx.id, tx);
    return tx;
  }

  /**
   * A StartTransaction's one statement (one commit): it supersedes the older sessions still open on the
   * connector and inserts the new one, or, when the decision came from a cached card row, does both only
   * if the card is still as decided (`check`) and otherwise nothing, returning the card's row instead.
   *
   * One transaction per connector: an older one still open there will never see its Stop (the charger lost
   * it, e.g. on a power loss; a Stop it had queued would have come before this Start). It ends where its last
   * sample left it, flagged `notStopped`, and is billed only once an operator confirms it. That happens
   * whatever the new one's decision, and also when the Start is a repeat (the insert then finds its row).
   */
  async function startStatement(
    point: PointState,
    p: StartReq,
    startedAt: Date,
    auth: AuthorizationResult,
    remote: boolean,
    late: boolean,
  ) {
    const who = owner(auth);
    const check = auth.check;
    const at = startedAt.toISOString();
    const res = (await db.execute(sql`with ok as (select ${check ? check.holds : sql`true`} as ok),
      superseded as (
        update charging_transaction
        set stopped_at = greatest(coalesce(last_sample_at, started_at), started_at), meter_stop_wh = last_meter_wh,
            stop_reason = 'Other', valid = false, invalid_reason = coalesce(invalid_reason, 'notStopped')
        where charge_point_id = ${point.id} and connector_no = ${p.connectorId} and stopped_at is null
          and started_at < ${at}::timestamptz and (select ok from ok)
        returning id, id_tag, auth_status, energy_wh, stopped_at),
      inserted as (
        insert into charging_transaction (provider_id, station_id, charge_point_id, connector_no, id_tag, card_id, charge_user_id,
          start_type, auth_status, auth_reason, reservation_id, meter_start_wh, started_at, last_meter_wh, late, ocpp_tx_id)
        select ${point.providerId}::int, ${point.stationId}::int, ${point.id}::int, ${p.connectorId}::int, ${p.idTag}::text,
          ${who.cardId}::int, ${who.chargeUserId}::int, ${remote ? 'remote' : 'card'}::text, ${auth.status}::text, ${auth.reason}::text,
          ${p.reservationId ?? null}::int, ${p.meterStart}::bigint, ${at}::timestamptz, ${p.meterStart}::bigint, ${late}::boolean,
          ${p.ocppTxId ?? null}::text
        where (select ok from ok)
        on conflict do nothing
        returning id),
      -- The point's reservation this start uses (OCPP 1.6 §5.13): the one it names, else the reserving idTag's on
      -- this connector or on any (0). Marked used with the session, which its fee is then settled with.
      used as (
        update reservation set status = 'used', transaction_id = (select id from inserted), updated_at = now()
        where id = (select r.id from reservation r
          where r.charge_point_id = ${point.id} and r.status = 'reserved' and (select id from inserted) is not null
            and (r.id = ${p.reservationId ?? null}::int or (lower(r.id_tag) = lower(${p.idTag}::text) and r.connector_no in (0, ${p.connectorId}::int)))
          order by (r.id = ${p.reservationId ?? null}::int) desc nulls last, r.id limit 1)
        returning id)
      select (select id from inserted) as id, (select ok from ok) as ok,
        (select coalesce(json_agg(s), '[]') from superseded s) as superseded
        ${check ? sql`, ${check.row} as card` : sql``}`)) as unknown as {
      rows: { id: number | null; ok: boolean; superseded: unknown; card?: unknown }[];
    };
    const row = res.rows[0]!;
    const superseded = jsonCell<
      {
        id: number;
        id_tag: string;
        auth_status: string;
        energy_wh: number | string;
        stopped_at: string;
      }[]
    >(row.superseded);
    for (const old of superseded) {
      point.transactions.delete(old.id);
      if (old.auth_status === 'Accepted') idTags.remove(old.id_tag);
      emit(events, 'transaction.stopped', point, {
        transactionId: old.id,
        connectorNo: p.connectorId,
        energyWh: Number(old.energy_wh),
        stoppedAt: new Date(old.stopped_at).toISOString(),
        reason: 'Other',
      });
      core.transactionStopped(old.id, old.id_tag);
    }
    return { id: row.id, ok: row.ok, card: row.card };
  }

  /**
   * The Stop's update, built once per kind (see `prebuilt`: drizzle's builder took 157 µs a call, 7 % of the
   * main thread in the transaction benchmark's profile): `open` closes a running session (`stopped_at is
   * null`), `guessed` replaces the end a later Start guessed (`lateStop`), marks it closed late and decides
   * whether a settled bill needs its adjustment. `cardKey` (a lower-cased idTag, or null) returns that card's
   * row beside it, for the answer (`cardRowOf`). A sample's power and state of charge keep the last known
   * ones when the Stop has none (`coalesce`).
   */
  const stopWrites = {
    open: stopWrite('open'),
    guessed: stopWrite('guessed'),
  };
  function stopWrite(kind: 'open' | 'guessed') {
    return prebuilt(db, (d) => {
      const p = (name: string) => sql.placeholder(name);
      const t = chargingTransaction;
      return d
        .update(t)
        .set({
          meterStopWh: sql`${p('meterStop')}`,
          stoppedAt: sql`${p('stoppedAt')}`,
          stopReason: sql`${p('reason')}`,
          stopIdTag: sql`${p('idTag')}`,
          energyWh: sql`${p('energyWh')}`,
          lastMeterWh: sql`${p('meterStop')}`,
          lastSampleAt: sql`${p('stoppedAt')}`,
          lastPowerW: sql`coalesce(${p('powerW')}::int, ${t.lastPowerW})`,
          lastSoc: sql`coalesce(${p('soc')}::int, ${t.lastSoc})`,
          valid: sql`${p('valid')}`,
          invalidReason: sql`${p('invalidReason')}`,
          late: sql`${p('late')}`,
          ...(kind === 'guessed' ? { lateStopAt: sql`now()`, adjustmentDue: sql`${t.billedAt} is not null` } : {}),
        })
        .where(and(eq(t.id, sql`${p('id')}`), kind === 'open' ? isNull(t.stoppedAt) : guessedEnd))
        .returning({ id: t.id, card: sql<unknown>`${cardRowOf(p('cardKey'))}` });
    });
  }

  /**
   * Writes a Stop's end (and the samples it carries) onto `tx` (`kind`: see `stopWrites`); then tells the
   * console and billing. Returns whether it was written, with the row of the card `cardTag` names (for the
   * answer; null when none or not asked).
   */
  async function recordStop(
    point: PointState,
    tx: TxState,
    p: StopReq,
    late: boolean,
    kind: 'open' | 'guessed',
    cardTag?: string,
  ): Promise<{ card: unknown } | undefined> {
    const stoppedAt = new Date(p.timestamp);
    const rows = meterRows(point, tx.connectorNo, tx.id, p.transactionData ?? []);
    const next = accounted(tx, rows, point.ratedPowerW);
    advance(next, p.meterStop, stoppedAt.getTime(), point.ratedPowerW, true);
    const live = latest(rows);
    const write = async (q: Db | Tx): Promise<{ card: unknown } | undefined> => {
      const done = await stopWrites[kind](q, {
        id: tx.id,
        meterStop: p.meterStop,
        stoppedAt: stoppedAt.toISOString(),
        reason: p.reason ?? 'Local',
        idTag: p.idTag ?? null,
        energyWh: next.energyWh,
        powerW: live.powerW ?? null,
        soc: live.soc ?? null,
        valid: next.valid,
        invalidReason: next.invalidReason,
        late,
        cardKey: cardTag === undefined ? null : cardTag.toLowerCase(),
      });
      if (done.length === 0) return undefined;
      await insertMeterRows(q, rows);
      return { card: done[0]!.card };
    };
    // With billing at hand, the Stop, its samples and the bill are one database transaction (one commit).
    // Otherwise a Stop without samples is one statement (it commits on its own); with samples, one transaction.
    const alone = () => (rows.length === 0 ? write(db) : db.transaction(write));
    let settled = false;
    const { settleStop } = core;
    let failed: { err: unknown } | undefined;
    const stopped = settleStop
      ? await db
          .transaction(async (q) => {
            const done = await write(q);
            if (done) {
              await settleStop(q, tx.id).catch((err: unknown) => {
                failed = { err };
                throw err;
              });
              settled = true;
            }
            return done;
          })
          .catch(async (err: unknown) => {
            // The settlement failed, which leaves nothing of the transaction (no savepoint: two statements of every
            // Stop saved). The Stop is written again on its own; billing settles it after the reply.
            if (!failed) throw err;
            core.logger.warn(
              { err: failed.err, transactionId: tx.id },
              'billing: settlement with the Stop failed; retried after the reply',
            );
            return alone();
          })
      : await alone();
    if (!stopped) return undefined;
    emit(events, 'transaction.stopped', point, {
      transactionId: tx.id,
      connectorNo: tx.connectorNo,
      energyWh: next.energyWh,
      stoppedAt: stoppedAt.toISOString(),
      ...(p.reason ? { reason: p.reason } : {}),
    });
    core.transactionStopped(tx.id, tx.idTag, settled);
    return stopped;
  }

  /**
   * The Stop of a session a later Start superseded (`startStatement`): the charger broke OCPP's order, or came back from a long
   * offline period, and sent it after the next Start. Its real end (meter stop, time, reason, samples)
   * replaces the guessed one, the `notStopped` flag goes and the record is marked closed late. Not yet
   * billed: billing settles it for what the charger measured. Already billed (an operator confirmed the
   * guess): billing corrects the settled bill with an adjustment (`adjustment_due`, decided under the
   * row's lock, so a settlement running at the same moment is seen). Once only: a repeat finds no guess.
   */
  async function lateStop(point: PointState, p: StopReq): Promise<void> {
    const [row] = await db
      .select({ t: sql<TxJson>`${txJson('charging_transaction')}` })
      .from(chargingTransaction)
      .where(and(eq(chargingTransaction.id, p.transactionId), eq(chargingTransaction.chargePointId, point.id), guessedEnd));
    if (!row) return;
    const ended = txFromRow(typeof row.t === 'string' ? (JSON.parse(row.t) as TxJson) : row.t);
    // `notStopped` is only ever set on a session that had no other flag (coalesce), so it was valid until then.
    await recordStop(point, { ...ended, valid: true, invalidReason: null }, p, true, 'guessed');
  }

  function trackOpen(point: PointState, tx: TxState) {
    point.transactions.set(tx.id, tx);
    if (tx.accepted) idTags.add(tx.idTag);
  }

  /** Stores meter rows (committed before returning) and accounts them on the open transaction `tx`, if any. */
  async function recordMeter(point: PointState, tx: TxState | undefined, rows: MeterRow[]): Promise<void> {
    const next = tx ? accounted(tx, rows, point.ratedPowerW) : undefined;
    const live = latest(rows);

    await core.writer.write({
      meterRows: rows,
      ...(tx && next
        ? {
            tx: {
              id: tx.id,
              lastMeterWh: next.lastMeterWh,
              energyWh: next.energyWh,
              valid: next.valid,
              invalidReason: next.invalidReason,
              lastSampleAt: live.at,
              lastPowerW: live.powerW,
              lastSoc: live.soc,
            },
          }
        : {}),
    });

    if (tx && next) {
      Object.assign(tx, next);
      emit(events, 'transaction.meter', point, {
        transactionId: tx.id,
        connectorNo: tx.connectorNo,
        energyWh: tx.energyWh,
        ...(live.powerW !== undefined ? { powerW: live.powerW } : {}),
        ...(live.soc !== undefined ? { soc: live.soc } : {}),
        at: (live.at ?? new Date()).toISOString(),
      });
    }
  }

  /** A 2.0.1 session's end (TransactionEvent Ended): as a 1.6 StopTransaction on its open row. */
  async function stop(session: ChargerSession, point: PointState, tx: TxState, p: StopReq, offline: boolean): Promise<void> {
    const late = tx.late || offline || new Date(p.timestamp).getTime() < session.connectedAt;
    await recordStop(point, tx, p, late, 'open');
    point.transactions.delete(tx.id);
    if (tx.accepted) idTags.remove(tx.idTag);
  }

  /** A 2.0.1 session that started without an idToken (plugged in first) takes the one it was authorized with later. */
  async function authorizeLater(point: PointState, tx: TxState, idTag: string, auth: AuthorizationResult): Promise<void> {
    const who = owner(auth);
    await db
      .update(chargingTransaction)
      .set({ idTag, cardId: who.cardId, chargeUserId: who.chargeUserId, authStatus: auth.status, authReason: auth.reason })
      .where(and(eq(chargingTransaction.id, tx.id), eq(chargingTransaction.idTag, '')));
    tx.idTag = idTag;
    tx.authStatus = auth.status;
    tx.accepted = auth.status === 'Accepted';
    if (tx.accepted) idTags.add(idTag);
  }

  function emitStarted(point: PointState, tx: TxState): void {
    emit(events, 'transaction.started', point, {
      transactionId: tx.id,
      connectorNo: tx.connectorNo,
      startedAt: new Date(tx.startedAt).toISOString(),
    });
  }

  return {
    authorize,
    owner,
    stop,
    authorizeLater,
    emitStarted,
    meterRows,
    startStatement,
    recordStop,
    recordMeter,
    lateStop,
    trackOpen,
    openTx,
    handlers: {
      async Authorize(session: ChargerSession, payload: Payload) {
        const r = await authorize(String(payload.idTag), session.point);
        return decided({ idTagInfo: idTagInfo(r) }, r);
      },

      async StartTransaction(session: ChargerSession, payload) {
        const p = payload as unknown as StartReq;
        const point = session.point;
        if (p.connectorId < 1) throw new RpcError('PropertyConstraintViolation', 'connectorId must be 1 or more');
        if (p.connectorId > MAX_CONNECTORS)
          throw new RpcError('PropertyConstraintViolation', `connectorId must be at most ${MAX_CONNECTORS}`);
        const startedAt = new Date(p.timestamp);
        const startedMs = startedAt.getTime();

        // A repeat (same point, connector and start time) gets the same transaction.
        for (const tx of point.transactions.values()) {
          if (tx.connectorNo === p.connectorId && tx.startedAt === startedMs)
            return { transactionId: tx.id, idTagInfo: { status: tx.authStatus } };
        }
        // The sessions this Start supersedes do not count against its driver (see `stillRunning`).
        let auth = await authorize(p.idTag, point, { superseding: { point, connectorNo: p.connectorId, startedAt } });
        const late = startedMs < session.connectedAt;
        const remote = takeRemoteStart(point, p.idTag, p.connectorId, Date.now());
        let written = await startStatement(point, p, startedAt, auth, remote, late);
        if (auth.check) {
          if (written.ok) auth.check.seen(written.card);
          else {
            // The card changed since the cached row was read: decided again on the row as it was, and written unchecked.
            const { check: _check, ...again } = await auth.check.again(written.card);
            auth = again;
            written = await startStatement(point, p, startedAt, auth, remote, late);
          }
        }
        const row = written.id === null ? undefined : { id: Number(written.id) };

        if (!row) {
          // Repeated after a restart or a reconnect: answer what the first one was answered.
          const [first] = await db
            .select({ id: chargingTransaction.id, authStatus: chargingTransaction.authStatus })
            .from(chargingTransaction)
            .where(
              and(
                eq(chargingTransaction.chargePointId, point.id),
                eq(chargingTransaction.connectorNo, p.connectorId),
                eq(chargingTransaction.startedAt, startedAt),
              ),
            );
          if (!first) throw new RpcError('InternalError', 'the transaction could not be recorded');
          return { transactionId: first.id, idTagInfo: { status: first.authStatus } };
        }

        trackOpen(point, {
          id: row.id,
          connectorNo: p.connectorId,
          idTag: p.idTag,
          authStatus: auth.status,
          accepted: auth.status === 'Accepted',
          startedAt: startedMs,
          late,
          meterStartWh: p.meterStart,
          lastMeterWh: p.meterStart,
          lastSampleAt: startedMs,
          energyWh: 0,
          valid: true,
          invalidReason: null,
        });
        emit(events, 'transaction.started', point, {
          transactionId: row.id,
          connectorNo: p.connectorId,
          startedAt: startedAt.toISOString(),
        });
        return decided({ transactionId: row.id, idTagInfo: idTagInfo(auth) }, auth);
      },

      async MeterValues(session, payload) {
        const p = payload as unknown as { connectorId: number; transactionId?: number; meterValue: MeterValueEntry[] };
        const point = session.point;
        if (p.connectorId < 0) throw new RpcError('PropertyConstraintViolation', 'connectorId must be 0 (the point) or a connector number');
        const tx = p.transactionId === undefined ? undefined : await openTx(point, p.transactionId);
        let transactionId: number | null = tx?.id ?? null;
        if (p.transactionId !== undefined && !tx) {
          // Not running here (stopped already, or not this point's): samples are kept, attached only to this point's own.
          const [known] = await db
            .select({ id: chargingTransaction.id })
            .from(chargingTransaction)
            .where(and(eq(chargingTransaction.id, p.transactionId), eq(chargingTransaction.chargePointId, point.id)));
          transactionId = known?.id ?? null;
        }
        await recordMeter(point, tx, meterRows(point, p.connectorId, transactionId, p.meterValue));
        return {};
      },

      async StopTransaction(session, payload) {
        const p = payload as unknown as StopReq;
        const point = session.point;
        // idTagInfo reflects the card, not the session being stopped (it is ending): same answer on repeats.
        const reply = async (card?: { card: unknown }): Promise<Payload> => {
          if (p.idTag === undefined) return {};
          const decision = await authorize(p.idTag, point, { exceptRunning: true, ...(card ? { cardAsRead: { row: card.card } } : {}) });
          return decided({ idTagInfo: idTagInfo(decision) }, decision);
        };
        const tx = await openTx(point, p.transactionId);
        if (!tx) {
          // Not running on this point: a session we ended as `notStopped` (its Stop came after the next Start) takes
          // its real stop; a repeat, another point's or an unknown one changes nothing.
          const answer = await reply();
          await lateStop(point, p);
          return answer;
        }

        const late = tx.late || new Date(p.timestamp).getTime() < session.connectedAt;
        // The card's row comes with the Stop's own statement: the answer needs no read of its own.
        const written = await recordStop(point, tx, p, late, 'open', p.idTag);
        point.transactions.delete(tx.id);
        if (tx.accepted) idTags.remove(tx.idTag);
        return reply(written);
      },
    } satisfies Record<string, ActionHandler> as Record<string, ActionHandler>,
  };
}

export type TransactionKit = ReturnType<typeof transactionKit>;

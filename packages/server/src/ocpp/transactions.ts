import { dayAndMonthStart } from '@csms/contract';
import { and, eq, gte, isNull, sql, type SQL } from 'drizzle-orm';
import { chargingTransaction } from '../db/schema.js';
import type { AuthorizationResult } from '../modules/cards/authorize.js';
import { emit, type OcppCore } from './core.js';
import { advance, readSample, type SampledValue } from './meter.js';
import { txFromRow, txJson, type PointState, type TxJson, type TxState } from './registry.js';
import { RpcError, type Payload } from './rpc.js';
import { refusing, type ChargerSession, type ActionHandler } from './session.js';
import { insertMeterRows } from './writer.js';

/*
 * Authorize, StartTransaction, MeterValues, StopTransaction. Start, Stop and meter values are
 * committed before the handler returns, so before the CALLRESULT leaves (DESIGN.md §3).
 */

interface MeterValueEntry {
  timestamp: string;
  sampledValue: SampledValue[];
}

interface StartReq {
  connectorId: number;
  idTag: string;
  meterStart: number;
  reservationId?: number;
  timestamp: string;
}

interface StopReq {
  transactionId: number;
  meterStop: number;
  timestamp: string;
  idTag?: string;
  reason?: string;
  transactionData?: MeterValueEntry[];
}

/** What a late Stop adds to the row it closes (see `lateStop`). */
type LateStopFields = { lateStopAt?: Date; adjustmentDue?: SQL };

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
   * a refusal is never made on them alone, and a wrong entry is dropped.
   */
  async function stillRunning(idTag: string): Promise<boolean> {
    const [row] = await db
      .select({ id: chargingTransaction.id })
      .from(chargingTransaction)
      .where(
        and(
          isNull(chargingTransaction.stoppedAt),
          eq(chargingTransaction.authStatus, 'Accepted'),
          eq(sql`lower(${chargingTransaction.idTag})`, idTag.toLowerCase()),
        ),
      )
      .limit(1);
    if (!row) idTags.forget(idTag);
    return row !== undefined;
  }

  function authorize(idTag: string, point: PointState, exceptRunning = false) {
    const now = new Date();
    return core.authorization.authorize(idTag, {
      now,
      hasActiveTransaction: async (tag) => !exceptRunning && idTags.has(tag) && (await stillRunning(tag)),
      usedWhThisMonth: (userId) => usedWhThisMonth(userId, point.timeZone, now),
      monthKey: dayAndMonthStart(now, point.timeZone).month.toISOString(),
      providerId: point.providerId,
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
   * One transaction per connector: an older one still open there will never see its Stop (the charger lost
   * it, e.g. on a power loss; a Stop it had queued would have come before this Start). It ends where its last
   * sample left it, flagged `notStopped`, and is billed only once an operator confirms it.
   */
  async function supersedeOlder(point: PointState, connectorNo: number, startedAt: Date): Promise<void> {
    const res = (await db.execute(sql`update charging_transaction
        set stopped_at = greatest(coalesce(last_sample_at, started_at), started_at), meter_stop_wh = last_meter_wh,
            stop_reason = 'Other', valid = false, invalid_reason = coalesce(invalid_reason, 'notStopped')
        where charge_point_id = ${point.id} and connector_no = ${connectorNo} and stopped_at is null
          and started_at < ${startedAt.toISOString()}::timestamptz
        returning id, id_tag, auth_status, energy_wh, stopped_at`)) as unknown as {
      rows: { id: number; id_tag: string; auth_status: string; energy_wh: number | string; stopped_at: string | Date }[];
    };
    for (const old of res.rows) {
      point.transactions.delete(old.id);
      if (old.auth_status === 'Accepted') idTags.remove(old.id_tag);
      emit(events, 'transaction.stopped', point, {
        transactionId: old.id,
        connectorNo,
        energyWh: Number(old.energy_wh),
        stoppedAt: new Date(old.stopped_at).toISOString(),
        reason: 'Other',
      });
      core.transactionStopped(old.id, old.id_tag);
    }
  }

  /**
   * Writes a Stop's end (and the samples it carries) onto `tx` if `still` holds for its row, in one database
   * transaction; then tells the console and billing. Returns whether it was written.
   */
  async function recordStop(point: PointState, tx: TxState, p: StopReq, late: boolean, still: SQL, extra: LateStopFields = {}) {
    const stoppedAt = new Date(p.timestamp);
    const rows = meterRows(point, tx.connectorNo, tx.id, p.transactionData ?? []);
    const next = accounted(tx, rows, point.ratedPowerW);
    advance(next, p.meterStop, stoppedAt.getTime(), point.ratedPowerW, true);
    const live = latest(rows);
    const stopped = await db.transaction(async (q) => {
      const done = await q
        .update(chargingTransaction)
        .set({
          meterStopWh: p.meterStop,
          stoppedAt,
          stopReason: p.reason ?? 'Local',
          stopIdTag: p.idTag ?? null,
          energyWh: next.energyWh,
          lastMeterWh: p.meterStop,
          lastSampleAt: stoppedAt,
          ...(live.powerW !== undefined ? { lastPowerW: live.powerW } : {}),
          ...(live.soc !== undefined ? { lastSoc: live.soc } : {}),
          valid: next.valid,
          invalidReason: next.invalidReason,
          late,
          ...extra,
        })
        .where(and(eq(chargingTransaction.id, tx.id), still))
        .returning({ id: chargingTransaction.id });
      if (done.length === 0) return false;
      await insertMeterRows(q, rows);
      return true;
    });
    if (!stopped) return false;
    emit(events, 'transaction.stopped', point, {
      transactionId: tx.id,
      connectorNo: tx.connectorNo,
      energyWh: next.energyWh,
      stoppedAt: stoppedAt.toISOString(),
      ...(p.reason ? { reason: p.reason } : {}),
    });
    core.transactionStopped(tx.id, tx.idTag);
    return true;
  }

  /**
   * The Stop of a session `supersedeOlder` ended: the charger broke OCPP's order, or came back from a long
   * offline period, and sent it after the next Start. Its real end (meter stop, time, reason, samples)
   * replaces the guessed one, the `notStopped` flag goes and the record is marked closed late. Not yet
   * billed: billing settles it for what the charger measured. Already billed (an operator confirmed the
   * guess): billing corrects the settled bill with an adjustment (`adjustment_due`, decided under the
   * row's lock, so a settlement running at the same moment is seen). Once only: a repeat finds no guess.
   */
  async function lateStop(point: PointState, p: StopReq): Promise<void> {
    const guessed = and(eq(chargingTransaction.invalidReason, 'notStopped'), isNull(chargingTransaction.lateStopAt))!;
    const [row] = await db
      .select({ t: sql<TxJson>`${txJson('charging_transaction')}` })
      .from(chargingTransaction)
      .where(and(eq(chargingTransaction.id, p.transactionId), eq(chargingTransaction.chargePointId, point.id), guessed));
    if (!row) return;
    const ended = txFromRow(typeof row.t === 'string' ? (JSON.parse(row.t) as TxJson) : row.t);
    // `notStopped` is only ever set on a session that had no other flag (coalesce), so it was valid until then.
    await recordStop(point, { ...ended, valid: true, invalidReason: null }, p, true, guessed, {
      lateStopAt: new Date(),
      adjustmentDue: sql`${chargingTransaction.billedAt} is not null`,
    });
  }

  function trackOpen(point: PointState, tx: TxState) {
    point.transactions.set(tx.id, tx);
    if (tx.accepted) idTags.add(tx.idTag);
  }

  return {
    async Authorize(session, payload) {
      const r = await authorize(String(payload.idTag), session.point);
      return decided({ idTagInfo: idTagInfo(r) }, r);
    },

    async StartTransaction(session: ChargerSession, payload) {
      const p = payload as unknown as StartReq;
      const point = session.point;
      if (p.connectorId < 1) throw new RpcError('PropertyConstraintViolation', 'connectorId must be 1 or more');
      const startedAt = new Date(p.timestamp);
      const startedMs = startedAt.getTime();

      // A repeat (same point, connector and start time) gets the same transaction.
      for (const tx of point.transactions.values()) {
        if (tx.connectorNo === p.connectorId && tx.startedAt === startedMs)
          return { transactionId: tx.id, idTagInfo: { status: tx.authStatus } };
      }
      // Before the decision: the driver of a session the charger lost usually swipes the same card again.
      await supersedeOlder(point, p.connectorId, startedAt);
      const auth = await authorize(p.idTag, point);
      const who = owner(auth);
      const late = startedMs < session.connectedAt;
      const remote = takeRemoteStart(point, p.idTag, p.connectorId, Date.now());
      const [row] = await db
        .insert(chargingTransaction)
        .values({
          providerId: point.providerId,
          stationId: point.stationId,
          chargePointId: point.id,
          connectorNo: p.connectorId,
          idTag: p.idTag,
          cardId: who.cardId,
          chargeUserId: who.chargeUserId,
          startType: remote ? 'remote' : 'card',
          authStatus: auth.status,
          authReason: auth.reason,
          reservationId: p.reservationId ?? null,
          meterStartWh: p.meterStart,
          startedAt,
          lastMeterWh: p.meterStart,
          late,
        })
        .onConflictDoNothing()
        .returning({ id: chargingTransaction.id });

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
        idTag: p.idTag,
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
      const rows = meterRows(point, p.connectorId, transactionId, p.meterValue);
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
      return {};
    },

    async StopTransaction(session, payload) {
      const p = payload as unknown as StopReq;
      const point = session.point;
      // idTagInfo reflects the card, not the session being stopped (it is ending): same answer on repeats.
      const decision = p.idTag !== undefined ? await authorize(p.idTag, point, true) : undefined;
      const reply: Payload = decision ? decided({ idTagInfo: idTagInfo(decision) }, decision) : {};
      const tx = await openTx(point, p.transactionId);
      if (!tx) {
        // Not running on this point: a session we ended as `notStopped` (its Stop came after the next Start) takes
        // its real stop; a repeat, another point's or an unknown one changes nothing.
        await lateStop(point, p);
        return reply;
      }

      const late = tx.late || new Date(p.timestamp).getTime() < session.connectedAt;
      await recordStop(point, tx, p, late, isNull(chargingTransaction.stoppedAt));
      point.transactions.delete(tx.id);
      if (tx.accepted) idTags.remove(tx.idTag);
      return reply;
    },
  };
}

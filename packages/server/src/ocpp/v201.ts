import { MAX_CONNECTORS, stopReasons, type ChargingLimitSource, type ExternalSchedule } from '@csms/contract';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { chargingLimit, chargingTransaction, reservation, unplacedTransaction } from '../db/schema.js';
import { emit, type OcppCore } from './core.js';
import type { AuthorizationResult } from '../modules/cards/authorize.js';
import type { SampledValue } from './meter.js';
import type { PointState, TxState } from './registry.js';
import { RpcError, type Payload } from './rpc.js';
import { refusing, type ActionHandler, type ChargerSession } from './session.js';
import type { MeterValueEntry, StopReq, TransactionKit } from './transactions.js';
import { collectReport, groupIdToken } from './v201-commands.js';

/*
 * OCPP 2.0.1 charger-initiated messages on the same model as 1.6 (README "OCPP 2.0.1"). Most are
 * translated into the 1.6 handler's payload and answered by it, so both versions write the same rows;
 * TransactionEvent uses the 1.6 transaction pieces (`transactionKit`) directly. Payloads arrive checked
 * against OCA's 2.0.1 schemas.
 *
 * EVSE and connector: our connector number is the 2.0.1 EVSE id (evseId 0 is the point itself, as
 * 1.6's connector 0). A connector within an EVSE (`connectorId`) is not a connector of its own here:
 * an EVSE charges one vehicle at a time, so it is one connector of the point, whatever plug is used;
 * its status is the EVSE's plugs' statuses taken together (`evseStatus`).
 */

interface IdToken {
  idToken: string;
  type: string;
}

interface SampledValue201 {
  value: number;
  context?: string;
  measurand?: string;
  phase?: string;
  location?: string;
  signedMeterValue?: unknown;
  unitOfMeasure?: { unit?: string; multiplier?: number };
}

interface MeterValue201 {
  timestamp: string;
  sampledValue: SampledValue201[];
}

interface TransactionEventReq {
  eventType: 'Started' | 'Updated' | 'Ended';
  timestamp: string;
  triggerReason: string;
  seqNo: number;
  offline?: boolean;
  reservationId?: number;
  transactionInfo: {
    transactionId: string;
    chargingState?: string;
    stoppedReason?: string;
    remoteStartId?: number;
  };
  idToken?: IdToken;
  evse?: { id: number; connectorId?: number };
  meterValue?: MeterValue201[];
}

/** 2.0.1 sampled values as 1.6 ones (a number with a power-of-ten multiplier, as a string in the unit), for `readSample`. */
export function toSampledValues16(values: readonly SampledValue201[]): SampledValue[] {
  return values.map((v) => {
    const m = v.unitOfMeasure?.multiplier ?? 0;
    const value = m === 0 ? v.value : v.value * 10 ** m;
    return {
      value: String(value),
      ...(v.context !== undefined ? { context: v.context } : {}),
      ...(v.measurand !== undefined ? { measurand: v.measurand } : {}),
      ...(v.phase !== undefined ? { phase: v.phase } : {}),
      ...(v.location !== undefined ? { location: v.location } : {}),
      ...(v.unitOfMeasure?.unit !== undefined ? { unit: v.unitOfMeasure.unit } : {}),
    };
  });
}

export const toMeterValues16 = (mvs: readonly MeterValue201[] | undefined): MeterValueEntry[] =>
  (mvs ?? []).map((mv) => ({ timestamp: mv.timestamp, sampledValue: toSampledValues16(mv.sampledValue) }));

const ENERGY = 'Energy.Active.Import.Register';

/** The energy register in Wh among the samples: the one with `context` if there is one, else the first (undefined: none). */
export function registerWh(mvs: readonly MeterValueEntry[], context?: string): number | undefined {
  let first: number | undefined;
  for (const mv of mvs)
    for (const sv of mv.sampledValue) {
      if ((sv.measurand ?? ENERGY) !== ENERGY || sv.phase !== undefined) continue;
      const v = Number(sv.value) * (sv.unit === 'kWh' ? 1000 : 1);
      if (!Number.isFinite(v)) continue;
      if (context !== undefined && sv.context === context) return Math.round(v);
      first ??= Math.round(v);
    }
  return first;
}

/** A 2.0.1 stoppedReason in 1.6's vocabulary (the console's), when 1.6 has it; 2.0.1-only reasons are Other. */
const STOP_REASONS: Record<string, string> = {
  DeAuthorized: 'DeAuthorized',
  EmergencyStop: 'EmergencyStop',
  EVDisconnected: 'EVDisconnected',
  ImmediateReset: 'HardReset',
  Local: 'Local',
  PowerLoss: 'PowerLoss',
  Reboot: 'Reboot',
  Remote: 'Remote',
};

/** The record's stop reason: 1.6's word where 2.0.1 renamed one, else 2.0.1's own (MasterPass, GroundFault…), else Other. */
function stopReason(r = 'Local'): string {
  return STOP_REASONS[r] ?? ((stopReasons as readonly string[]).includes(r) ? r : 'Other');
}

/** A 2.0.1 charging state as the connector status 1.6 would have reported. */
const CHARGING_STATUS: Record<string, string> = {
  Charging: 'Charging',
  EVConnected: 'Preparing',
  SuspendedEV: 'SuspendedEV',
  SuspendedEVSE: 'SuspendedEVSE',
};

/**
 * A 2.0.1 FirmwareStatusNotification status as the 1.6 word the upgrades follow: the steps 1.6 has no
 * word for are the step they belong to, and a file whose signature or install check failed has failed.
 */
const FIRMWARE_STATUS: Record<string, string> = {
  DownloadScheduled: 'Downloading',
  DownloadPaused: 'Downloading',
  SignatureVerified: 'Downloaded',
  InvalidSignature: 'DownloadFailed',
  InstallScheduled: 'Installing',
  InstallRebooting: 'Installing',
  InstallVerificationFailed: 'InstallationFailed',
};

/**
 * An EVSE's status from its plugs' (2.0.1 ConnectorStatus by connectorId): the first of these that any
 * plug reports. A plug in use makes the EVSE Occupied, whatever its others say (a station reports them
 * Unavailable while one is in use); a faulted plug shows the EVSE Faulted (with its alarm) unless one is
 * in use; one reserved or free plug makes it Reserved or Available; Unavailable only when all are.
 */
const EVSE_STATUS_ORDER = ['Occupied', 'Faulted', 'Reserved', 'Available', 'Unavailable'];

export function evseStatus(plugs: ReadonlyMap<number, string>): string | undefined {
  const seen = new Set(plugs.values());
  return EVSE_STATUS_ORDER.find((s) => seen.has(s));
}

/** The last status of each plug of each EVSE, by connection (a station reports them all when it boots). */
const plugStatuses = new WeakMap<ChargerSession, Map<number, Map<number, string>>>();

function plugsOf(session: ChargerSession, evseId: number): Map<number, string> {
  let evses = plugStatuses.get(session);
  if (!evses) plugStatuses.set(session, (evses = new Map()));
  let plugs = evses.get(evseId);
  if (!plugs) evses.set(evseId, (plugs = new Map()));
  return plugs;
}

/** Connector statuses of a session under way (1.6's words), which its end turns to Finishing. */
const IN_SESSION = new Set(['Charging', 'SuspendedEV', 'SuspendedEVSE']);

/** A 2.0.1 LogStatusNotification status as the diagnostics status 1.6 reports. */
const LOG_STATUS: Record<string, string> = { Uploaded: 'Uploaded', UploadFailure: 'UploadFailed', Uploading: 'Uploading' };

/**
 * 2.0.1 idTokenInfo from a decision: the card's expiry is how long the charger may cache it, and its
 * charge user's account (1.6's parentIdTag) is the group its cards share (C09: a card of the group may
 * stop a session another one started).
 */
function idTokenInfo(r: Pick<AuthorizationResult, 'status' | 'expiryDate' | 'parentIdTag'>): Payload {
  const group = groupIdToken(r.parentIdTag);
  return { status: r.status, ...(r.expiryDate ? { cacheExpiryDateTime: r.expiryDate } : {}), ...(group ? { groupIdToken: group } : {}) };
}

const decided = (reply: Payload, r: AuthorizationResult): Payload => (r.status === 'Accepted' ? reply : refusing(reply, r.reason));

/** A session without an idToken yet (started on plug-in, authorized later): recorded as unauthorised until one comes. */
const NO_TOKEN: AuthorizationResult = { status: 'Invalid', reason: 'unknown' };

/** Transactions of a point whose EVSE is not known yet, held at most (the oldest is forgotten first). */
const MAX_UNPLACED = 16;

const sameToken = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function v201Handlers(
  core: OcppCore,
  v16: Readonly<Record<string, ActionHandler>>,
  kit: TransactionKit,
): Record<string, ActionHandler> {
  const { db } = core;
  const status16 = v16.StatusNotification!;

  /*
   * Transactions started before their EVSE was known: a driver who authorizes first at a station of
   * several EVSEs starts one (TxStartPoint Authorized) whose Started names no EVSE (E01.FR.17, OCTT
   * TC_E_04, TC_J_08). Our sessions belong to a connector, so the Started is held (`unplaced_transaction`,
   * committed before the answer: a restart or a reconnect to another node keeps it) and the session
   * recorded, from that Started (its time, idToken, reservation), at the first event that names the EVSE;
   * one that ends first (EVConnectionTimeOut, TC_E_39) never delivered energy and is only logged.
   */

  /** The held first event of the point's transaction, if any. */
  async function heldEvent(point: PointState, ocppTxId: string): Promise<TransactionEventReq | undefined> {
    const [row] = await db
      .select({ event: unplacedTransaction.event })
      .from(unplacedTransaction)
      .where(and(eq(unplacedTransaction.chargePointId, point.id), eq(unplacedTransaction.ocppTxId, ocppTxId)));
    return row?.event as unknown as TransactionEventReq | undefined;
  }

  const forget = (point: PointState, ocppTxId: string) =>
    db.delete(unplacedTransaction).where(and(eq(unplacedTransaction.chargePointId, point.id), eq(unplacedTransaction.ocppTxId, ocppTxId)));

  /** Sets a connector's status through the 1.6 StatusNotification (the same rows, alarms and events). */
  const setStatus = (session: ChargerSession, connectorId: number, status: string, receivedAt: number, at?: string, fault?: Payload) =>
    status16(session, { connectorId, status, errorCode: 'NoError', ...(at ? { timestamp: at } : {}), ...(fault ?? {}) }, receivedAt);

  function findOpen(point: PointState, ocppTxId: string): TxState | undefined {
    for (const tx of point.transactions.values()) if (tx.ocppTxId === ocppTxId) return tx;
    return undefined;
  }

  /** The row of the charger's transaction, open or not, read when it is not open in memory. */
  async function findRow(point: PointState, ocppTxId: string) {
    const [row] = await db
      .select({ id: chargingTransaction.id, stoppedAt: chargingTransaction.stoppedAt, authStatus: chargingTransaction.authStatus })
      .from(chargingTransaction)
      .where(and(eq(chargingTransaction.chargePointId, point.id), eq(chargingTransaction.ocppTxId, ocppTxId)));
    return row;
  }

  /**
   * An event of a transaction whose EVSE is not known yet: its first is held (with the idToken of a later
   * one when it had none), committed before the answer; an Ended forgets it. Answered with the idToken's
   * decision.
   */
  async function hold(point: PointState, p: TransactionEventReq): Promise<Payload> {
    const ocppTxId = p.transactionInfo.transactionId;
    if (p.eventType === 'Ended') await forget(point, ocppTxId);
    else {
      // A repeat changes nothing; a later event only brings the idToken the first lacked.
      const held = await db
        .insert(unplacedTransaction)
        .values({ chargePointId: point.id, ocppTxId, event: p as unknown as Record<string, unknown> })
        .onConflictDoUpdate({
          target: [unplacedTransaction.chargePointId, unplacedTransaction.ocppTxId],
          set: { event: sql`jsonb_set(${unplacedTransaction.event}, '{idToken}', excluded.event -> 'idToken')` },
          where: sql`${unplacedTransaction.event} -> 'idToken' is null and excluded.event ? 'idToken'`,
        })
        .returning({ new: sql<boolean>`xmax = 0` });
      if (held[0]?.new) {
        const kept = db
          .select({ id: unplacedTransaction.ocppTxId })
          .from(unplacedTransaction)
          .where(eq(unplacedTransaction.chargePointId, point.id))
          .orderBy(desc(unplacedTransaction.heldAt))
          .offset(MAX_UNPLACED);
        await db
          .delete(unplacedTransaction)
          .where(and(eq(unplacedTransaction.chargePointId, point.id), inArray(unplacedTransaction.ocppTxId, kept)));
      }
    }
    if (!p.idToken) return {};
    const r = await kit.authorize(p.idToken.idToken, point, { exceptRunning: p.eventType === 'Ended' });
    return decided({ idTokenInfo: idTokenInfo(r) }, r);
  }

  /**
   * Records the transaction's start (committed before the reply): at a Started event, or at the first
   * event we hear of when its Started never came. Idempotent: a repeat finds the row by its transactionId.
   */
  async function start(
    session: ChargerSession,
    p: TransactionEventReq,
    meter: MeterValueEntry[],
  ): Promise<{ tx: TxState; auth: AuthorizationResult | undefined }> {
    const point = session.point;
    const connectorId = p.evse?.id;
    if (connectorId === undefined || connectorId < 1)
      throw new RpcError('OccurenceConstraintViolation', 'evse (id 1 or more) is required in the first TransactionEvent of a transaction');
    if (connectorId > MAX_CONNECTORS) throw new RpcError('PropertyConstraintViolation', `evse id must be at most ${MAX_CONNECTORS}`);
    const startedAt = new Date(p.timestamp);
    const meterStart = registerWh(meter, 'Transaction.Begin') ?? 0;
    const idTag = p.idToken?.idToken ?? '';
    const superseding = { point, connectorNo: connectorId, startedAt };
    let auth = p.idToken ? await kit.authorize(idTag, point, { superseding }) : NO_TOKEN;
    const late = p.offline === true || startedAt.getTime() < session.connectedAt;
    const remote = p.triggerReason === 'RemoteStart' || p.transactionInfo.remoteStartId !== undefined;
    const req = {
      connectorId,
      idTag,
      meterStart,
      timestamp: p.timestamp,
      ocppTxId: p.transactionInfo.transactionId,
      ...(p.reservationId !== undefined ? { reservationId: p.reservationId } : {}),
    };
    let written = await kit.startStatement(point, req, startedAt, auth, remote, late);
    if (auth.check) {
      if (written.ok) auth.check.seen(written.card);
      else {
        const { check: _check, ...again } = await auth.check.again(written.card);
        auth = again;
        written = await kit.startStatement(point, req, startedAt, auth, remote, late);
      }
    }
    if (written.id === null) {
      // Repeated (after a reconnect or a restart): the row the first one wrote.
      const row = await findRow(point, p.transactionInfo.transactionId);
      const tx = row && row.stoppedAt === null ? await kit.openTx(point, row.id) : undefined;
      if (!tx) throw new RpcError('InternalError', 'the transaction could not be recorded');
      return { tx, auth: undefined };
    }
    const tx: TxState = {
      id: Number(written.id),
      connectorNo: connectorId,
      idTag,
      authStatus: auth.status,
      accepted: auth.status === 'Accepted',
      startedAt: startedAt.getTime(),
      late,
      meterStartWh: meterStart,
      lastMeterWh: meterStart,
      lastSampleAt: startedAt.getTime(),
      energyWh: 0,
      valid: true,
      invalidReason: null,
      ocppTxId: p.transactionInfo.transactionId,
    };
    kit.trackOpen(point, tx);
    kit.emitStarted(point, tx);
    return { tx, auth: p.idToken ? auth : undefined };
  }

  return {
    async BootNotification(session, payload, receivedAt) {
      const p = payload as {
        chargingStation: {
          model: string;
          vendorName: string;
          serialNumber?: string;
          firmwareVersion?: string;
          modem?: { iccid?: string; imsi?: string };
        };
      };
      const cs = p.chargingStation;
      const conf = await v16.BootNotification!(
        session,
        {
          // Our columns are 1.6's sizes: 2.0.1 allows a longer vendor name.
          chargePointVendor: cs.vendorName.slice(0, 20),
          chargePointModel: cs.model,
          ...(cs.serialNumber !== undefined ? { chargePointSerialNumber: cs.serialNumber } : {}),
          ...(cs.firmwareVersion !== undefined ? { firmwareVersion: cs.firmwareVersion } : {}),
          ...(cs.modem?.iccid !== undefined ? { iccid: cs.modem.iccid } : {}),
          ...(cs.modem?.imsi !== undefined ? { imsi: cs.modem.imsi } : {}),
        },
        receivedAt,
      );
      return { status: conf.status, currentTime: conf.currentTime, interval: conf.interval };
    },

    Heartbeat: v16.Heartbeat!,

    async StatusNotification(session, payload, receivedAt) {
      const p = payload as { timestamp: string; connectorStatus: string; evseId: number; connectorId: number };
      if (p.evseId < 0) throw new RpcError('PropertyConstraintViolation', 'evseId must be 0 (the point) or an EVSE id');
      if (p.evseId > MAX_CONNECTORS) throw new RpcError('PropertyConstraintViolation', `evseId must be at most ${MAX_CONNECTORS}`);
      const plugs = plugsOf(session, p.evseId);
      plugs.set(p.connectorId, p.connectorStatus);
      let status = evseStatus(plugs) ?? p.connectorStatus;
      if (status === 'Occupied') {
        // 1.6 tells a plugged-in vehicle from one charging, and one before its session from one after;
        // 2.0.1 says that in TransactionEvent.
        let charging = false;
        for (const tx of session.point.transactions.values()) if (tx.connectorNo === p.evseId) charging = true;
        const after = session.point.connectors.get(p.evseId)?.status === 'Finishing';
        status = charging ? 'Charging' : after ? 'Finishing' : 'Preparing';
      }
      const fault = status === 'Faulted' ? { errorCode: 'OtherError' } : undefined;
      await setStatus(session, p.evseId, status, receivedAt, p.timestamp, fault);
      return {};
    },

    async Authorize(session, payload) {
      const p = payload as { idToken: IdToken };
      const r = await kit.authorize(p.idToken.idToken, session.point);
      return decided({ idTokenInfo: idTokenInfo(r) }, r);
    },

    async TransactionEvent(session, payload, receivedAt) {
      const p = payload as unknown as TransactionEventReq;
      const point = session.point;
      const ocppTxId = p.transactionInfo.transactionId;
      const meter = toMeterValues16(p.meterValue);
      let tx = findOpen(point, ocppTxId);
      let auth: AuthorizationResult | undefined;
      if (!tx) {
        const row = await findRow(point, ocppTxId);
        if (row?.stoppedAt) {
          // Ended already (a repeat, or an event delivered after the Ended): changes nothing.
          return p.idToken ? { idTokenInfo: { status: row.authStatus } } : {};
        }
        tx = row ? await kit.openTx(point, row.id) : undefined;
        if (!tx) {
          if (p.evse === undefined) return hold(point, p);
          // A Started naming its EVSE is the first event of its transaction: nothing can be held for it.
          const first = p.eventType === 'Started' ? undefined : await heldEvent(point, ocppTxId);
          if (first) {
            // The session starts as its Started said (time, idToken, reservation, remote start), on the EVSE this
            // event names; its Transaction.Begin sample may come with either (TC_J_08: with the EVSE).
            const idToken = first.idToken ?? p.idToken;
            const reservationId = first.reservationId ?? p.reservationId;
            const remoteStartId = first.transactionInfo.remoteStartId ?? p.transactionInfo.remoteStartId;
            const begun: TransactionEventReq = {
              ...first,
              evse: p.evse,
              offline: first.offline === true || p.offline === true,
              ...(idToken ? { idToken } : {}),
              ...(reservationId !== undefined ? { reservationId } : {}),
              transactionInfo: { ...first.transactionInfo, ...(remoteStartId !== undefined ? { remoteStartId } : {}) },
              meterValue: [...(first.meterValue ?? []), ...(p.meterValue ?? [])],
            };
            ({ tx, auth } = await start(session, begun, toMeterValues16(begun.meterValue)));
            // Recorded: the held event is no longer needed (left behind by a crash here, it is never read
            // again, as the next event finds the session's row first; the point's newer holds push it out).
            await forget(point, ocppTxId);
            // The answer is about this event's idToken; another one than the Started's gets its own decision (below).
            if (p.idToken && idToken && !sameToken(p.idToken.idToken, idToken.idToken)) auth = undefined;
          } else ({ tx, auth } = await start(session, p, meter));
        }
      }
      if (!auth && p.idToken && p.eventType !== 'Ended' && !tx.accepted && tx.idTag === '') {
        // Authorized after it started (plugged in first): the session becomes the card's.
        auth = await kit.authorize(p.idToken.idToken, point, { exceptRunning: true, start: true });
        await kit.authorizeLater(point, tx, p.idToken.idToken, auth);
        // Authorized by a remote start (F01: the cable was plugged in first): a remote session, as a 1.6 start after RemoteStartTransaction.
        if (p.triggerReason === 'RemoteStart' || p.transactionInfo.remoteStartId !== undefined)
          await db.update(chargingTransaction).set({ startType: 'remote' }).where(eq(chargingTransaction.id, tx.id));
      }
      if (p.eventType === 'Ended') {
        const stop: StopReq = {
          transactionId: tx.id,
          meterStop: registerWh(meter, 'Transaction.End') ?? tx.lastMeterWh,
          timestamp: p.timestamp,
          ...(p.idToken && tx.idTag !== '' ? { idTag: p.idToken.idToken } : {}),
          reason: stopReason(p.transactionInfo.stoppedReason),
          transactionData: meter,
        };
        await kit.stop(session, point, tx, stop, p.offline === true);
        // The EVSE stays Occupied until the vehicle leaves (then Available): 1.6's Finishing, not Charging,
        // unless another session has started on it since (a late Ended).
        const connectorNo = tx.connectorNo;
        const known = point.connectors.get(connectorNo)?.status;
        const busy = [...point.transactions.values()].some((o) => o.connectorNo === connectorNo && o.id !== tx.id);
        if (!busy && known != null && IN_SESSION.has(known)) await setStatus(session, connectorNo, 'Finishing', receivedAt, p.timestamp);
        if (p.idToken && !auth) auth = await kit.authorize(p.idToken.idToken, point, { exceptRunning: true });
      } else {
        if (meter.length > 0 && p.eventType === 'Updated')
          await kit.recordMeter(point, tx, kit.meterRows(point, tx.connectorNo, tx.id, meter));
        const status = p.transactionInfo.chargingState ? CHARGING_STATUS[p.transactionInfo.chargingState] : undefined;
        const known = point.connectors.get(tx.connectorNo)?.status;
        if (status && known !== status) await setStatus(session, tx.connectorNo, status, receivedAt, p.timestamp);
      }
      if (!p.idToken) return {};
      if (auth) return decided({ idTokenInfo: idTokenInfo(auth) }, auth);
      if (!sameToken(p.idToken.idToken, tx.idTag)) {
        // Another card than the session's (one of its group stopping it, C09): the answer is that card's decision.
        const other = await kit.authorize(p.idToken.idToken, point, { exceptRunning: true });
        return decided({ idTokenInfo: idTokenInfo(other) }, other);
      }
      return { idTokenInfo: { status: tx.authStatus } };
    },

    async MeterValues(session, payload) {
      const p = payload as { evseId: number; meterValue: MeterValue201[] };
      const point = session.point;
      if (p.evseId < 0) throw new RpcError('PropertyConstraintViolation', 'evseId must be 0 (the point) or an EVSE id');
      if (p.evseId > MAX_CONNECTORS) throw new RpcError('PropertyConstraintViolation', `evseId must be at most ${MAX_CONNECTORS}`);
      // Outside a transaction in 2.0.1 (a transaction's samples come in its TransactionEvents): kept for the point.
      await kit.recordMeter(point, undefined, kit.meterRows(point, p.evseId, null, toMeterValues16(p.meterValue)));
      return {};
    },

    async NotifyEvent(session, payload, receivedAt) {
      const p = payload as {
        eventData: {
          trigger: string;
          actualValue: string;
          cleared?: boolean;
          techCode?: string;
          techInfo?: string;
          component: { name: string; evse?: { id: number } };
          variable: { name: string };
        }[];
      };
      // A component's Problem variable is the 2.0.1 fault report: true raises an alarm on its EVSE (or the point), false or cleared clears it.
      for (const e of p.eventData) {
        if (e.variable.name !== 'Problem') continue;
        const no = e.component.evse?.id ?? 0;
        const problem = e.actualValue.toLowerCase() === 'true' && e.cleared !== true;
        if (problem) {
          await setStatus(session, no, 'Faulted', receivedAt, undefined, {
            errorCode: 'OtherError',
            info: `${e.component.name}${e.techInfo ? `: ${e.techInfo}` : ''}`.slice(0, 50),
            ...(e.techCode ? { vendorErrorCode: e.techCode.slice(0, 50) } : {}),
          });
        } else if (session.point.alarms.has(no)) {
          const known = no === 0 ? undefined : session.point.connectors.get(no)?.status;
          await setStatus(session, no, known && known !== 'Faulted' ? known : 'Available', receivedAt);
        }
      }
      return {};
    },

    async FirmwareStatusNotification(session, payload, receivedAt) {
      const status = String(payload.status);
      return v16.FirmwareStatusNotification!(session, { status: FIRMWARE_STATUS[status] ?? status }, receivedAt);
    },

    async LogStatusNotification(session, payload, receivedAt) {
      const status = String(payload.status);
      return v16.DiagnosticsStatusNotification!(session, { status: LOG_STATUS[status] ?? status }, receivedAt);
    },

    async DataTransfer(session, payload, receivedAt) {
      const p = payload as { vendorId: string; messageId?: string; data?: unknown };
      const conf = await v16.DataTransfer!(
        session,
        {
          vendorId: p.vendorId,
          ...(p.messageId !== undefined ? { messageId: p.messageId } : {}),
          ...(p.data !== undefined ? { data: typeof p.data === 'string' ? p.data : JSON.stringify(p.data) } : {}),
        },
        receivedAt,
      );
      return conf;
    },

    // Kept in the OCPP log (every frame is), and answered.
    async SecurityEventNotification(session, payload) {
      // A station's security event (A04: tampering, a failed firmware signature, a reset…) is for its operators to
      // see: a row of the system log (mode ocpp) under the point's provider, besides the OCPP log.
      const p = payload as { type: string; timestamp: string; techInfo?: string };
      const point = session.point;
      await core.audit
        ?.write({
          ctx: { lang: 'en', ip: '', principal: null },
          operation: 'securityEvent',
          operand: `point:${point.serialNumber}`,
          // An OCPP CALL, not an HTTP request: its action stands in the method's place.
          method: 'OCPP',
          path: `/ocpp/${point.serialNumber}`.slice(0, 255),
          request: { type: p.type, timestamp: p.timestamp, ...(p.techInfo !== undefined ? { techInfo: p.techInfo } : {}) },
          result: 200,
          msg: `${p.type}${p.techInfo ? `: ${p.techInfo}` : ''}`.slice(0, 500),
          mode: 'ocpp',
          operator: { providerId: point.providerId },
        })
        .catch((err: unknown) => core.logger.warn({ err, serialNumber: point.serialNumber }, 'ocpp: security event not logged'));
      return {};
    },
    async NotifyChargingLimit(session, payload, receivedAt) {
      // An outside system (the site's energy manager, the grid operator) limits the charger or one EVSE (K12):
      // kept per EVSE and source until the next report or ClearedChargingLimit, for monitoring and the balancer.
      const p = payload as {
        chargingLimit: { chargingLimitSource: ChargingLimitSource; isGridCritical?: boolean };
        chargingSchedule?: ExternalSchedule[];
        evseId?: number;
      };
      const evseId = p.evseId ?? 0;
      if (evseId < 0) throw new RpcError('PropertyConstraintViolation', 'evseId must be 0 (the charger) or an EVSE id');
      const row = {
        chargePointId: session.point.id,
        evseId,
        source: p.chargingLimit.chargingLimitSource,
        gridCritical: p.chargingLimit.isGridCritical ?? false,
        schedules: p.chargingSchedule ?? null,
        reportedAt: new Date(receivedAt),
      };
      await db
        .insert(chargingLimit)
        .values(row)
        .onConflictDoUpdate({
          target: [chargingLimit.chargePointId, chargingLimit.evseId, chargingLimit.source],
          set: { gridCritical: row.gridCritical, schedules: row.schedules, reportedAt: row.reportedAt },
        });
      emit(core.events, 'point.chargingLimit', session.point, {
        evseId,
        source: row.source,
        cleared: false,
        at: row.reportedAt.toISOString(),
      });
      return {};
    },
    async ClearedChargingLimit(session, payload, receivedAt) {
      // Without an EVSE, every limit of that source on the charger ends.
      const p = payload as { chargingLimitSource: ChargingLimitSource; evseId?: number };
      await db
        .delete(chargingLimit)
        .where(
          and(
            eq(chargingLimit.chargePointId, session.point.id),
            eq(chargingLimit.source, p.chargingLimitSource),
            p.evseId === undefined ? undefined : eq(chargingLimit.evseId, p.evseId),
          ),
        );
      emit(core.events, 'point.chargingLimit', session.point, {
        evseId: p.evseId ?? 0,
        source: p.chargingLimitSource,
        cleared: true,
        at: new Date(receivedAt).toISOString(),
      });
      return {};
    },
    async NotifyReport(session, payload) {
      // The answer to a GetBaseReport the console asked for (its configuration): assembled by v201-commands.ts.
      collectReport(session, payload);
      return {};
    },
    async ReservationStatusUpdate(session, payload) {
      const p = payload as { reservationId: number; reservationUpdateStatus: 'Expired' | 'Removed' };
      // Removed: the charger dropped the reservation on its own (an EVSE taken out of service…), so it is
      // cancelled and costs nothing. Expired: the expiry job ends it at its time and charges the fee, as for 1.6.
      if (p.reservationUpdateStatus === 'Removed')
        await db
          .update(reservation)
          .set({ status: 'cancelled', chargerStatus: 'Removed', updatedAt: new Date() })
          .where(
            and(eq(reservation.id, p.reservationId), eq(reservation.chargePointId, session.point.id), eq(reservation.status, 'reserved')),
          );
      return {};
    },
  };
}

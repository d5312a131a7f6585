import { authorizeIdTag } from './authorization.js';
import { advance, sample, wholeWh } from './meter.js';
import { OcppError, OfflineError, type IdTagInfo, type Payload, type ReadingContext, type StopReason } from './ocpp.js';
import type { Task } from './scheduler.js';
import type { Connector, PointInternals, StartOptions, StartResult, StopResult, Transaction } from './types.js';

/**
 * Authorization, transactions and meter values of one point. Transaction messages (Start,
 * Stop, MeterValues of a transaction) go through a queue that survives disconnects: they keep
 * their original timestamps, are sent one at a time in order once the point is booted, and a
 * StartTransaction answered late gives the later messages of its transaction their real id.
 */

type TxAction = 'StartTransaction' | 'StopTransaction' | 'MeterValues';

interface TxMessage {
  action: TxAction;
  payload: Payload;
  tx?: Transaction;
  attempts: number;
  /** Called once: answered (true), or dropped / abandoned because the point went offline (false). */
  done?: (answered: boolean) => void;
}

type Engine = Pick<
  PointInternals,
  | 'config'
  | 'auth'
  | 'reservations'
  | 'smartCharging'
  | 'scheduler'
  | 'random'
  | 'connectors'
  | 'online'
  | 'registration'
  | 'now'
  | 'iso'
  | 'call'
  | 'notify'
  | 'refresh'
  | 'emit'
>;

export interface Transactions {
  authorize(idTag: string): Promise<IdTagInfo>;
  start(c: Connector, idTag: string, options?: StartOptions): Promise<StartResult>;
  stop(c: Connector, reason: StopReason): Promise<StopResult>;
  meterValues(c: Connector, context: ReadingContext): void;
  /** The point is booted and online: send what waits. */
  pump(): void;
  /** The socket closed: callers waiting for answers stop waiting. */
  abandonWaiters(): void;
  /** Queue empty? Resolves when it is. */
  drained(): Promise<void>;
  queued(): number;
  /** Messages of one transaction (by its CSMS number) waiting in the queue. */
  queuedOf(transactionId: number): number;
  rescheduleSampling(): void;
  rescheduleAligned(): void;
  /** Cancels every timer (point stopped). */
  halt(): void;
}

export function createTransactions(p: Engine, maxQueued: number, alignedWhenIdle: boolean): Transactions {
  const queue: TxMessage[] = [];
  let busy = false;
  let retryTask: Task | undefined;
  let alignedTask: Task | undefined;
  let localSeq = 0;
  let drainWaiters: (() => void)[] | undefined;

  const ready = () => p.online() && p.registration() === 'Accepted';

  const wait = (m: TxMessage) => (ready() ? new Promise<boolean>((resolve) => (m.done = resolve)) : Promise.resolve(false));
  const finish = (m: TxMessage, answered: boolean) => {
    const done = m.done;
    m.done = undefined;
    done?.(answered);
  };

  const enqueue = (m: TxMessage) => {
    if (queue.length >= maxQueued) {
      const i = queue.findIndex((q, idx) => q.action === 'MeterValues' && !(idx === 0 && busy));
      if (i >= 0) {
        finish(queue[i]!, false);
        queue.splice(i, 1);
        p.emit('warning', { message: 'offline queue full: dropped the oldest meter values' });
      }
    }
    queue.push(m);
    pump();
  };

  const answered = (m: TxMessage, res: Payload) => {
    const tx = m.tx;
    const info = res.idTagInfo as IdTagInfo | undefined;
    if (tx && info && p.config.bool('AuthorizationCacheEnabled')) p.auth.remember(tx.idTag, info);
    if (m.action === 'StartTransaction' && tx) {
      tx.transactionId = Number(res.transactionId);
      tx.idTagInfo = info;
      p.emit('transaction', { type: 'confirmed', connectorId: tx.connectorId, localId: tx.localId, transactionId: tx.transactionId });
      const c = p.connectors[tx.connectorId - 1];
      if (info && info.status !== 'Accepted' && c?.tx === tx && p.config.bool('StopTransactionOnInvalidId')) void stop(c, 'DeAuthorized');
    } else if (m.action === 'StopTransaction' && tx) {
      p.emit('transaction', { type: 'ended', connectorId: tx.connectorId, localId: tx.localId, transactionId: tx.transactionId });
    }
  };

  const drop = (m: TxMessage, reason: string) => {
    if (m.action === 'StartTransaction' && m.tx) {
      m.tx.dropped = true;
      p.emit('transaction', { type: 'dropped', connectorId: m.tx.connectorId, localId: m.tx.localId });
    }
    p.emit('warning', { message: `${m.action} dropped: ${reason}` });
    finish(m, false);
  };

  function pump() {
    if (busy || !ready()) return;
    const m = queue[0];
    if (!m) {
      const waiters = drainWaiters;
      drainWaiters = undefined;
      waiters?.forEach((w) => w());
      return;
    }
    let payload = m.payload;
    if (m.action !== 'StartTransaction' && m.tx) {
      if (m.tx.dropped || m.tx.transactionId === undefined) {
        queue.shift();
        drop(m, 'its transaction has no id');
        pump();
        return;
      }
      payload = { ...payload, transactionId: m.tx.transactionId };
    }
    busy = true;
    retryTask?.cancel();
    p.call(m.action, payload).then(
      (res) => {
        busy = false;
        queue.shift();
        answered(m, res);
        finish(m, true);
        pump();
      },
      (err: unknown) => {
        busy = false;
        if (err instanceof OfflineError) return; // sent again after the next boot
        m.attempts += 1;
        if (err instanceof OcppError && m.attempts >= p.config.int('TransactionMessageAttempts')) {
          queue.shift();
          drop(m, `${err.code} ${err.message}`);
          pump();
          return;
        }
        retryTask = p.scheduler.after(p.config.int('TransactionMessageRetryInterval') * 1000 * m.attempts, pump);
      },
    );
  }

  const authorizeOnly = (idTag: string) => authorizeIdTag({ config: p.config, auth: p.auth, now: p.now, ready, call: p.call }, idTag);

  /** Whether an accepted token is a master pass (2.0.1 C16): of the group AuthCtrlr.MasterPassGroupId names. */
  function masterPass(idTag: string, info: IdTagInfo): boolean {
    const group = p.config.get('MasterPassGroupId');
    return Boolean(group) && info.status === 'Accepted' && (info.parentIdTag ?? p.auth.parentOf(idTag)) === group;
  }

  /** A token presented at the reader: authorized; a master pass stops every transaction of the point (C16). */
  async function authorize(idTag: string): Promise<IdTagInfo> {
    const info = await authorizeOnly(idTag);
    if (masterPass(idTag, info)) await Promise.all(p.connectors.filter((c) => c.tx).map((c) => stop(c, 'MasterPass', idTag)));
    return info;
  }

  const readings = (c: Connector, key: string, context: ReadingContext) =>
    sample(c.spec, c.meter, p.config.list(key), context, p.iso(), p.random) as unknown as Payload;

  function schedulePeriodic(c: Connector) {
    c.sampleTask?.cancel();
    c.sampleTask = undefined;
    const intervalMs = p.config.int('MeterValueSampleInterval') * 1000;
    if (!c.tx || intervalMs <= 0) return;
    const at = Math.max((c.nextSampleAt ?? c.tx.startedAt) + intervalMs, p.now());
    c.nextSampleAt = at;
    c.sampleTask = p.scheduler.at(at, () => {
      c.sampleTask = undefined;
      meterValues(c, 'Sample.Periodic');
      schedulePeriodic(c);
    });
  }

  function meterValues(c: Connector, context: ReadingContext) {
    advance(c.meter, c.spec, p.now());
    const key = context === 'Sample.Clock' ? 'MeterValuesAlignedData' : 'MeterValuesSampledData';
    const payload = { connectorId: c.id, meterValue: [readings(c, key, context)] };
    if (c.tx) enqueue({ action: 'MeterValues', payload, tx: c.tx, attempts: 0 });
    else if (ready()) p.notify('MeterValues', payload);
    p.refresh(c.id); // a full battery suspends charging
  }

  function rescheduleAligned() {
    alignedTask?.cancel();
    alignedTask = undefined;
    const intervalMs = p.config.int('ClockAlignedDataInterval') * 1000;
    if (intervalMs <= 0) return;
    const at = (Math.floor(p.now() / intervalMs) + 1) * intervalMs;
    alignedTask = p.scheduler.at(at, () => {
      for (const c of p.connectors) if (c.tx || alignedWhenIdle) meterValues(c, 'Sample.Clock');
      rescheduleAligned();
    });
  }

  async function start(c: Connector, idTag: string, options: StartOptions = {}): Promise<StartResult> {
    c.plugged = true;
    c.finishing = false;
    p.refresh(c.id);
    const skipAuth = options.remote && !p.config.bool('AuthorizeRemoteTxRequests');
    const idTagInfo: IdTagInfo = skipAuth ? { status: 'Accepted' } : await authorize(idTag);
    if (idTagInfo.status !== 'Accepted') return { accepted: false, idTagInfo, connectorId: c.id };
    // A master pass starts nothing (it stopped what ran, above).
    if (masterPass(idTag, idTagInfo)) return { accepted: false, idTagInfo, connectorId: c.id };
    if (c.tx || c.fault) return { accepted: false, idTagInfo: { status: 'ConcurrentTx' }, connectorId: c.id };
    // A reservation with a parentIdTag admits the tags of that group: the parent comes from
    // Authorize, else from the local list or the cache (OCPP 1.6 §5.13).
    const claim = p.reservations.claim(c, idTag, idTagInfo.parentIdTag ?? p.auth.parentOf(idTag));
    if (!claim.allowed) throw new Error(`connector ${c.id} is reserved for another idTag`);
    const now = p.now();
    advance(c.meter, c.spec, now);
    c.meter.active = true;
    c.meter.soc = 10 + p.random() * 50;
    const tx: Transaction = {
      localId: ++localSeq,
      connectorId: c.id,
      idTag,
      startedAt: now,
      meterStartWh: wholeWh(c.meter),
      ...(claim.reservation ? { reservationId: claim.reservation.reservationId } : {}),
    };
    c.tx = tx;
    c.nextSampleAt = undefined;
    const m: TxMessage = {
      action: 'StartTransaction',
      payload: {
        connectorId: c.id,
        idTag,
        meterStart: tx.meterStartWh,
        timestamp: p.iso(now),
        ...(tx.reservationId !== undefined ? { reservationId: tx.reservationId } : {}),
      },
      tx,
      attempts: 0,
    };
    const answer = wait(m);
    p.emit('transaction', { type: 'started', connectorId: c.id, localId: tx.localId });
    enqueue(m);
    // Only now the status changes it leads to: the CSMS hears of the transaction before them.
    if (claim.reservation) p.reservations.use(claim.reservation);
    if (options.chargingProfile) p.smartCharging.install(c.id, options.chargingProfile);
    else p.smartCharging.apply(); // the point's limit is shared with one more EV
    advance(c.meter, c.spec, now); // sets the power the EV draws
    tx.begin = readings(c, 'StopTxnSampledData', 'Transaction.Begin');
    p.refresh(c.id);
    schedulePeriodic(c);
    if (!alignedTask) rescheduleAligned();
    await answer;
    return {
      accepted: true,
      idTagInfo: tx.idTagInfo ?? idTagInfo,
      connectorId: c.id,
      transactionId: tx.transactionId,
      localId: tx.localId,
    };
  }

  /** `by`: the token that stopped it, when not the one that started it (a master pass). */
  async function stop(c: Connector, reason: StopReason, by?: string): Promise<StopResult> {
    const tx = c.tx;
    if (!tx) throw new Error(`connector ${c.id} has no transaction`);
    const now = p.now();
    advance(c.meter, c.spec, now);
    const end = readings(c, 'StopTxnSampledData', 'Transaction.End');
    c.meter.active = false;
    c.meter.powerW = 0;
    c.sampleTask?.cancel();
    c.sampleTask = undefined;
    c.tx = undefined;
    c.finishing = c.plugged;
    tx.stoppedAt = now;
    tx.meterStopWh = wholeWh(c.meter);
    tx.stopReason = reason;
    if (c.scheduledOperative !== undefined) {
      c.operative = c.scheduledOperative;
      c.scheduledOperative = undefined;
    }
    const transactionData = tx.begin && (tx.begin.sampledValue as unknown[]).length > 0 ? [tx.begin, end] : undefined;
    const m: TxMessage = {
      action: 'StopTransaction',
      payload: {
        idTag: by ?? tx.idTag,
        meterStop: tx.meterStopWh,
        timestamp: p.iso(now),
        reason,
        ...(transactionData ? { transactionData } : {}),
      },
      tx,
      attempts: 0,
    };
    const answer = wait(m);
    p.emit('transaction', { type: 'stopped', connectorId: c.id, localId: tx.localId, transactionId: tx.transactionId, reason });
    enqueue(m);
    p.smartCharging.ended(tx);
    p.refresh(c.id);
    await answer;
    return { connectorId: c.id, transactionId: tx.transactionId, localId: tx.localId, meterStopWh: tx.meterStopWh, reason };
  }

  return {
    authorize,
    start,
    stop,
    meterValues,
    pump,
    abandonWaiters() {
      for (const m of queue) finish(m, false);
    },
    drained: () => (queue.length === 0 ? Promise.resolve() : new Promise((resolve) => (drainWaiters ??= []).push(resolve))),
    queued: () => queue.length,
    queuedOf: (transactionId) => queue.filter((m) => m.tx?.transactionId === transactionId).length,
    rescheduleSampling() {
      for (const c of p.connectors) {
        c.nextSampleAt = p.now();
        if (c.tx) schedulePeriodic(c);
      }
    },
    rescheduleAligned,
    halt() {
      retryTask?.cancel();
      alignedTask?.cancel();
      alignedTask = undefined;
      for (const c of p.connectors) c.sampleTask?.cancel();
    },
  };
}

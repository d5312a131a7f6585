import {
  pointStatusOf,
  type ConnectorState,
  type ConsoleEventPayloads,
  type LiveSession,
  type PointState,
  monitorApi,
} from '@csms/contract';
import { useQueryClient } from '@tanstack/react-query';
import { debounce } from 'lodash-es';
import { useEffect } from 'react';
import { STREAM_REOPENED, subscribe, type ServerEvent } from '../../shared/events';

/**
 * Live monitoring: the charger events of the stream (DESIGN.md §1) patch the lists on screen in
 * place (statuses, online flags, meter values), and aggregates (counts, stations, faults)
 * refetch once the burst is over. No polling: a reopened stream refetches everything, since
 * events may have been missed while it was down.
 */
type ListData<T> = { list: T[]; total: number };
type Event<T extends keyof ConsoleEventPayloads> = ConsoleEventPayloads[T] & ServerEvent;

const byNo = (a: ConnectorState, b: ConnectorState) => a.connectorNo - b.connectorNo;

function patchPoint(data: ListData<PointState> | undefined, id: number, fn: (p: PointState) => PointState) {
  if (!data || !data.list.some((p) => p.chargePointId === id)) return data;
  return { ...data, list: data.list.map((p) => (p.chargePointId === id ? fn(p) : p)) };
}

/** StatusNotification: connector 0 is the point itself; a connector not listed yet is added. */
export function applyPointStatus(data: ListData<PointState> | undefined, e: ConsoleEventPayloads['point.status']) {
  return patchPoint(data, e.chargePointId, (p) => {
    if (e.connectorNo === 0) return { ...p, ocppStatus: e.status, errorCode: e.errorCode, status: pointStatusOf(e.status, p.online) };
    const patch = (c: ConnectorState): ConnectorState => ({
      ...c,
      ocppStatus: e.status,
      status: pointStatusOf(e.status, p.online),
      errorCode: e.errorCode,
      info: e.info ?? null,
      statusAt: e.at,
    });
    const known = p.connectors.some((c) => c.connectorNo === e.connectorNo);
    const fresh: ConnectorState = {
      connectorNo: e.connectorNo,
      name: null,
      standard: null,
      type: null,
      status: 'unavailable',
      ocppStatus: null,
      errorCode: null,
      info: null,
      statusAt: null,
      transactionId: null,
    };
    const connectors = known
      ? p.connectors.map((c) => (c.connectorNo === e.connectorNo ? patch(c) : c))
      : [...p.connectors, patch(fresh)].sort(byNo);
    return { ...p, connectors };
  });
}

/** A socket opened or closed: every status of the point follows (offline overrides what the connectors said). */
export function applyPointOnline(data: ListData<PointState> | undefined, e: ConsoleEventPayloads['point.online']) {
  return patchPoint(data, e.chargePointId, (p) => ({
    ...p,
    online: e.online,
    status: pointStatusOf(p.ocppStatus, e.online),
    lastSeenAt: e.at,
    connectedAt: e.online ? e.at : p.connectedAt,
    connectors: p.connectors.map((c) => ({ ...c, status: pointStatusOf(c.ocppStatus, e.online) })),
  }));
}

/** The running transaction of a connector (null when it stopped). */
export function applyPointTransaction(
  data: ListData<PointState> | undefined,
  e: { chargePointId: number; connectorNo: number; transactionId: number },
  running: boolean,
) {
  return patchPoint(data, e.chargePointId, (p) => ({
    ...p,
    connectors: p.connectors.map((c) =>
      c.connectorNo !== e.connectorNo
        ? c
        : { ...c, transactionId: running ? e.transactionId : c.transactionId === e.transactionId ? null : c.transactionId },
    ),
  }));
}

export function applyMeter(data: ListData<LiveSession> | undefined, e: ConsoleEventPayloads['transaction.meter']) {
  if (!data || !data.list.some((s) => s.transactionId === e.transactionId)) return data;
  return {
    ...data,
    list: data.list.map((s) =>
      s.transactionId !== e.transactionId
        ? s
        : {
            ...s,
            energyWh: e.energyWh,
            lastSampleAt: e.at,
            ...(e.powerW !== undefined ? { powerW: e.powerW } : {}),
            ...(e.soc !== undefined ? { soc: e.soc } : {}),
          },
    ),
  };
}

export function removeSession(data: ListData<LiveSession> | undefined, transactionId: number) {
  if (!data || !data.list.some((s) => s.transactionId === transactionId)) return data;
  return { list: data.list.filter((s) => s.transactionId !== transactionId), total: Math.max(0, data.total - 1) };
}

const points = monitorApi.points.path;
const charging = monitorApi.charging.path;
/** Reads recomputed on the server rather than patched here. */
const aggregates = [monitorApi.counts.path, monitorApi.stations.path, monitorApi.faults.path];
/** Quiet time before aggregates refetch after a burst of events. */
const SETTLE_MS = 300;
/**
 * A busy network never falls quiet (thousands of chargers report a status every few hundred
 * milliseconds): however long the burst, the aggregates are read again at least this often.
 */
export const AGGREGATES_EVERY_MS = 2_000;

/** Keep the monitoring reads of the open screen live; mount once per screen or widget that shows them. */
export function useMonitorLive() {
  const qc = useQueryClient();
  useEffect(() => {
    const settle = debounce(() => aggregates.forEach((path) => void qc.invalidateQueries({ queryKey: [path] })), SETTLE_MS, {
      maxWait: AGGREGATES_EVERY_MS,
    });
    const patchPoints = (fn: (d: ListData<PointState> | undefined) => ListData<PointState> | undefined) =>
      qc.setQueriesData<ListData<PointState>>({ queryKey: [points] }, fn);
    const patchCharging = (fn: (d: ListData<LiveSession> | undefined) => ListData<LiveSession> | undefined) =>
      qc.setQueriesData<ListData<LiveSession>>({ queryKey: [charging] }, fn);
    const offs = [
      subscribe<Event<'point.status'>>('point.status', (e) => {
        patchPoints((d) => applyPointStatus(d, e));
        settle();
      }),
      subscribe<Event<'point.online'>>('point.online', (e) => {
        patchPoints((d) => applyPointOnline(d, e));
        patchCharging((d) =>
          d ? { ...d, list: d.list.map((s) => (s.chargePointId === e.chargePointId ? { ...s, online: e.online } : s)) } : d,
        );
        settle();
      }),
      subscribe<Event<'point.fault'>>('point.fault', settle),
      // A limit reported or cleared (rare): the points are read again.
      subscribe<Event<'point.chargingLimit'>>('point.chargingLimit', () => void qc.invalidateQueries({ queryKey: [points] })),
      subscribe<Event<'transaction.started'>>('transaction.started', (e) => {
        patchPoints((d) => applyPointTransaction(d, e, true));
        // A new session needs its station, card and account: the list is read again.
        void qc.invalidateQueries({ queryKey: [charging] });
      }),
      subscribe<Event<'transaction.meter'>>('transaction.meter', (e) => patchCharging((d) => applyMeter(d, e))),
      subscribe<Event<'transaction.stopped'>>('transaction.stopped', (e) => {
        patchPoints((d) => applyPointTransaction(d, e, false));
        patchCharging((d) => removeSession(d, e.transactionId));
      }),
      subscribe(STREAM_REOPENED, () =>
        [points, charging, ...aggregates].forEach((path) => void qc.invalidateQueries({ queryKey: [path] })),
      ),
    ];
    return () => {
      settle.cancel();
      offs.forEach((off) => off());
    };
  }, [qc]);
}

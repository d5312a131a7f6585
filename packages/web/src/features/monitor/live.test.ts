import type { LiveSession, PointState } from '@csms/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeEvents, STREAM_REOPENED, subscribe } from '../../shared/events';
import { FakeSource } from './fake-source';
import {
  AGGREGATES_EVERY_MS,
  applyMeter,
  applyPointOnline,
  applyPointStatus,
  applyPointTransaction,
  removeSession,
  useMonitorLive,
} from './live';

const base = { providerId: 1, stationId: 2, chargePointId: 7, serialNumber: 'CP-7' };
const point: PointState = {
  chargePointId: 7,
  serialNumber: 'CP-7',
  name: 'P7',
  providerId: 1,
  stationId: 2,
  stationName: 'S',
  online: true,
  enabled: true,
  status: 'available',
  ocppStatus: 'Available',
  errorCode: null,
  lastSeenAt: null,
  connectedAt: null,
  firmwareVersion: null,
  ocppVersion: '1.6',
  connectors: [
    {
      connectorNo: 1,
      name: null,
      standard: 'ac',
      type: 'Type2',
      status: 'available',
      ocppStatus: 'Available',
      errorCode: 'NoError',
      info: null,
      statusAt: null,
      transactionId: null,
    },
  ],
};
const other = { ...point, chargePointId: 8, serialNumber: 'CP-8' };
const list = { list: [point, other], total: 2 };

describe('patches of the point list', () => {
  it('applies a connector status in the spec’s words, and the point’s own on connector 0', () => {
    const next = applyPointStatus(list, { ...base, connectorNo: 1, status: 'Charging', errorCode: 'NoError', at: '2026-01-01T00:00:00Z' })!;
    expect(next.list[0]!.connectors[0]).toMatchObject({ status: 'charging', ocppStatus: 'Charging', statusAt: '2026-01-01T00:00:00Z' });
    expect(next.list[1]).toBe(other);
    const faulted = applyPointStatus(list, { ...base, connectorNo: 0, status: 'Faulted', errorCode: 'GroundFailure', at: 'x' })!;
    expect(faulted.list[0]).toMatchObject({ status: 'faulted', errorCode: 'GroundFailure' });
  });

  it('adds a connector the list did not know, in order', () => {
    const next = applyPointStatus(list, { ...base, connectorNo: 2, status: 'Unavailable', errorCode: 'NoError', at: 'x' })!;
    expect(next.list[0]!.connectors.map((c) => [c.connectorNo, c.status])).toEqual([
      [1, 'available'],
      [2, 'unavailable'],
    ]);
  });

  it('leaves data of other points untouched (same object)', () => {
    const data = { list: [other], total: 1 };
    expect(applyPointStatus(data, { ...base, connectorNo: 1, status: 'Charging', errorCode: 'NoError', at: 'x' })).toBe(data);
    expect(applyPointStatus(undefined, { ...base, connectorNo: 1, status: 'Charging', errorCode: 'NoError', at: 'x' })).toBeUndefined();
  });

  it('turns every status offline when the socket closes, and back when it opens', () => {
    const off = applyPointOnline(list, { ...base, online: false, at: 't1' })!;
    expect(off.list[0]).toMatchObject({ online: false, status: 'offline', lastSeenAt: 't1' });
    expect(off.list[0]!.connectors[0]!.status).toBe('offline');
    const on = applyPointOnline(off, { ...base, online: true, at: 't2' })!;
    expect(on.list[0]).toMatchObject({ online: true, status: 'available', connectedAt: 't2' });
    expect(on.list[0]!.connectors[0]!.status).toBe('available');
  });

  it('tracks the running transaction of a connector', () => {
    const started = applyPointTransaction(list, { chargePointId: 7, connectorNo: 1, transactionId: 42 }, true)!;
    expect(started.list[0]!.connectors[0]!.transactionId).toBe(42);
    const stopped = applyPointTransaction(started, { chargePointId: 7, connectorNo: 1, transactionId: 42 }, false)!;
    expect(stopped.list[0]!.connectors[0]!.transactionId).toBeNull();
  });
});

describe('patches of the session list', () => {
  const session = { transactionId: 5, energyWh: 100, powerW: 1000, soc: 10, lastSampleAt: null } as unknown as LiveSession;
  const sessions = { list: [session], total: 1 };
  it('applies meter values and removes stopped sessions', () => {
    const next = applyMeter(sessions, { ...base, transactionId: 5, connectorNo: 1, energyWh: 2500, powerW: 7200, at: 't' })!;
    expect(next.list[0]).toMatchObject({ energyWh: 2500, powerW: 7200, soc: 10, lastSampleAt: 't' });
    expect(removeSession(next, 5)).toEqual({ list: [], total: 0 });
    expect(removeSession(next, 6)).toBe(next);
  });
});

describe('the stream', () => {
  afterEach(() => closeEvents());
  it('tells subscribers when it opens again after a break, not on the first open', () => {
    FakeSource.install();
    const reopened = vi.fn();
    const off = subscribe(STREAM_REOPENED, reopened);
    const es = FakeSource.latest();
    es.onopen!();
    expect(reopened).not.toHaveBeenCalled();
    es.onopen!();
    expect(reopened).toHaveBeenCalledTimes(1);
    off();
  });

  it('reads the aggregates again while the events never stop, not only once they fall quiet', () => {
    vi.useFakeTimers();
    try {
      FakeSource.install();
      const qc = new QueryClient();
      const invalidate = vi.spyOn(qc, 'invalidateQueries').mockResolvedValue();
      const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client: qc }, children);
      const { unmount } = renderHook(() => useMonitorLive(), { wrapper });
      const counts = () => invalidate.mock.calls.filter(([f]) => String(f?.queryKey?.[0]).endsWith('/web/monitor/counts')).length;
      // A busy network: a status every 100 ms for ten seconds, never 300 ms of quiet.
      for (let i = 0; i < 100; i++) {
        act(() => FakeSource.latest().emit('point.status', { ...base, connectorNo: 1, status: 'Charging', errorCode: 'NoError', at: 'x' }));
        act(() => vi.advanceTimersByTime(100));
      }
      expect(counts()).toBeGreaterThanOrEqual(Math.floor(10_000 / AGGREGATES_EVERY_MS) - 1);
      // A last event, then quiet: read once more.
      const before = counts();
      act(() => FakeSource.latest().emit('point.status', { ...base, connectorNo: 1, status: 'Available', errorCode: 'NoError', at: 'y' }));
      act(() => vi.advanceTimersByTime(1_000));
      expect(counts()).toBe(before + 1);
      unmount();
    } finally {
      vi.useRealTimers();
    }
  });
});

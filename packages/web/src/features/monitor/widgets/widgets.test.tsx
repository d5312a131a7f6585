import { dictEntries, type DictType } from '@csms/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeEvents } from '../../../shared/events';
import { mockFetch, renderWithProviders, signInAdmin } from '../../../shared/resource/test-kit';
import { FakeSource } from '../fake-source';
import CountsWidget from './counts-widget';
import FaultsWidget from './faults-widget';
import PowerWidget from './power-widget';

beforeEach(() => {
  signInAdmin();
  FakeSource.install();
});
afterEach(() => closeEvents());

const hour = 3_600_000;
const start = Math.floor(Date.now() / hour) * hour - 23 * hour;

describe('dashboard widgets', () => {
  it('plots the power trend and switches the bucket', async () => {
    const fetch = mockFetch((url) => {
      const minutes = Number(url.searchParams.get('bucketMinutes'));
      const n = (24 * 60) / minutes;
      const points = Array.from({ length: n }, (_, i) => ({
        at: new Date(start + i * minutes * 60_000).toISOString(),
        powerW: i === n - 1 ? 22_000 : 0,
      }));
      return { code: 200, msg: 'ok', data: { bucketMinutes: minutes, points } };
    });
    renderWithProviders(<PowerWidget />);
    expect(await screen.findByText('Now 22.00 kW')).toBeTruthy();
    expect(screen.getByText('Peak 22.00 kW')).toBeTruthy();
    expect(screen.getByTestId('chart-line').getAttribute('data-points')).toBe('24');
    fireEvent.click(screen.getByText('15 minutes'));
    await waitFor(() => expect(screen.getByTestId('chart-line').getAttribute('data-points')).toBe('96'));
    expect(fetch.mock.calls.map(([u]) => new URL(String(u), 'http://x').searchParams.get('bucketMinutes'))).toEqual(['60', '15']);
  });

  it('lists open faults and refreshes when a charger reports one', async () => {
    let faults: unknown[] = [];
    mockFetch((url) =>
      url.pathname.startsWith('/prod-api/system/dict/data/type/')
        ? { code: 200, msg: 'ok', data: dictEntries('en', url.pathname.split('/').pop() as DictType) }
        : { code: 200, msg: 'ok', data: faults },
    );
    renderWithProviders(<FaultsWidget />);
    expect(await screen.findByText('No open faults')).toBeTruthy();
    faults = [
      {
        alarmId: 1,
        stationName: 'Harbour',
        serialNumber: 'CP-7',
        pointName: 'Bay 7',
        connectorNo: 1,
        level: 'serious',
        status: 'Faulted',
        errorCode: 'GroundFailure',
        info: null,
        occurredAt: new Date().toISOString(),
      },
    ];
    act(() =>
      FakeSource.latest().emit('point.fault', {
        providerId: 1,
        stationId: 2,
        chargePointId: 7,
        serialNumber: 'CP-7',
        alarmId: 1,
        connectorNo: 1,
        level: 'serious',
        errorCode: 'GroundFailure',
        at: new Date().toISOString(),
      }),
    );
    // The error code in words, as the alarm records show it.
    expect(await screen.findByText('Ground failure')).toBeTruthy();
    expect(screen.getByText('Serious')).toBeTruthy();
    expect(screen.getByTestId('drill-faults').getAttribute('href')).toBe('/historyRecord/alarmRecord?state=open');
  });

  it('shows connectors by status', async () => {
    mockFetch(() => ({
      code: 200,
      msg: 'ok',
      data: { total: 9, connected: 7, free: 3, charging: 2, unavailable: 1, offline: 2, fault: 1, pointsOnline: 3, pointsOffline: 1 },
    }));
    renderWithProviders(<CountsWidget />);
    expect(await screen.findByText('Connector status')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('count-connected').textContent).toContain('7'));
    expect(screen.getByTestId('count-fault').textContent).toBe('Fault1');
    // Each count opens the point status list filtered to it.
    expect(screen.getByTestId('drill-count-fault').getAttribute('href')).toBe('/realTimeMonitor/chargePoint?status=faulted');
    expect(screen.getByTestId('drill-count-offline').getAttribute('href')).toBe('/realTimeMonitor/chargePoint?online=false');
  });
});

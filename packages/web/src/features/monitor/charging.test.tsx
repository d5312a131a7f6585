import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeEvents } from '../../shared/events';
import { mockFetch, renderWithProviders, signInAdmin } from '../../shared/resource/test-kit';
import ChargingPage from './charging.page';
import { FakeSource } from './fake-source';

const session = {
  transactionId: 31,
  providerId: 1,
  stationId: 2,
  stationName: 'Harbour',
  chargePointId: 7,
  serialNumber: 'CP-7',
  pointName: 'Bay 7',
  connectorNo: 2,
  idTag: 'UID31',
  cardNumber: 'C-31',
  account: 'driver31',
  startType: 'card',
  startedAt: new Date(Date.now() - 3_725_000).toISOString(),
  meterStartWh: 1000,
  energyWh: 12_340,
  powerW: 7200,
  soc: 55,
  lastSampleAt: null,
  online: true,
};
const counts = { total: 2, connected: 2, free: 1, charging: 1, unavailable: 0, offline: 0, fault: 0, pointsOnline: 1, pointsOffline: 0 };

function serve() {
  const sent: unknown[] = [];
  mockFetch((url, init) => {
    if (url.pathname.endsWith('/web/monitor/charging')) return { code: 200, msg: 'ok', data: { list: [session], total: 1 } };
    if (url.pathname.endsWith('/web/monitor/counts')) return { code: 200, msg: 'ok', data: counts };
    if (url.pathname.endsWith('/web/point/remoteStop')) {
      sent.push(JSON.parse(String(init?.body)));
      return { code: 200, msg: 'ok', data: { status: 'accepted', chargerStatus: 'Accepted', message: null, transactionId: 31 } };
    }
    return { code: 200, msg: 'ok', data: [] };
  });
  return sent;
}

beforeEach(() => {
  signInAdmin();
  FakeSource.install();
});
afterEach(() => closeEvents());

describe('charging sessions', () => {
  it('shows sessions in kWh and kW, follows meter values and removes a stopped session', async () => {
    serve();
    renderWithProviders(<ChargingPage />, '/realTimeMonitor/charging');
    await screen.findByText('UID31');
    expect(screen.getByText('12.340')).toBeTruthy();
    expect(screen.getByText('7.20')).toBeTruthy();
    // Started 3725 s ago: the same H:MM:SS as the records' durations.
    expect(screen.getByText(/^1:0\d:\d\d$/)).toBeTruthy();
    const base = { providerId: 1, stationId: 2, chargePointId: 7, serialNumber: 'CP-7', transactionId: 31, connectorNo: 2 };
    act(() =>
      FakeSource.latest().emit('transaction.meter', { ...base, energyWh: 13_000, powerW: 11_000, soc: 60, at: new Date().toISOString() }),
    );
    await waitFor(() => expect(screen.getByText('13.000')).toBeTruthy());
    expect(screen.getByText('11.00')).toBeTruthy();
    act(() => FakeSource.latest().emit('transaction.stopped', { ...base, energyWh: 13_000, stoppedAt: new Date().toISOString() }));
    await waitFor(() => expect(screen.queryByText('UID31')).toBeNull());
  });

  it('stops a session after asking', async () => {
    const sent = serve();
    renderWithProviders(<ChargingPage />);
    await screen.findByText('UID31');
    fireEvent.click(screen.getByText('Stop'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Stop transaction 31 on connector 2 of charge point "CP-7"?')).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId('action-send'));
    await within(dialog).findByTestId('action-answer');
    expect(sent).toEqual([{ serialNumber: 'CP-7', transactionId: 31 }]);
  });
});

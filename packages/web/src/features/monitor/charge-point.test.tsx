import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setSession } from '../../shared/auth/session';
import { closeEvents } from '../../shared/events';
import { mockFetch, rawKeys, renderWithProviders, signInAdmin } from '../../shared/resource/test-kit';
import ChargePointPage from './charge-point.page';
import { FakeSource } from './fake-source';

const point = {
  chargePointId: 7,
  serialNumber: 'CP-7',
  name: 'Bay 7',
  providerId: 1,
  stationId: 2,
  stationName: 'Harbour',
  online: true,
  enabled: true,
  status: 'available',
  ocppStatus: 'Available',
  errorCode: null,
  lastSeenAt: '2026-01-01T00:00:00Z',
  connectedAt: null,
  firmwareVersion: null,
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
    {
      connectorNo: 2,
      name: null,
      standard: 'ac',
      type: 'Type2',
      status: 'charging',
      ocppStatus: 'Charging',
      errorCode: 'NoError',
      info: null,
      statusAt: null,
      transactionId: 9,
    },
  ],
};
const counts = { total: 2, connected: 2, free: 1, charging: 1, unavailable: 0, offline: 0, fault: 0, pointsOnline: 1, pointsOffline: 0 };

let sent: { path: string; body: unknown }[] = [];
function serve(answer: Record<string, unknown> = { status: 'accepted', chargerStatus: 'Accepted', message: null }, listed = point) {
  sent = [];
  return mockFetch((url, init) => {
    if (url.pathname.endsWith('/web/monitor/points')) return { code: 200, msg: 'ok', data: { list: [listed], total: 1 } };
    if (url.pathname.endsWith('/web/monitor/counts')) return { code: 200, msg: 'ok', data: counts };
    if (url.pathname.endsWith('/web/point/idTagOptions'))
      return { code: 200, msg: 'ok', data: [{ idTag: 'UID-1', kind: 'card', cardNumber: 'NO-1', account: null }] };
    if (url.pathname.endsWith('/web/point/profileOptions'))
      return {
        code: 200,
        msg: 'ok',
        data: [{ id: 31, stationName: 'Harbour', stackLevel: 2, chargingProfileKind: 'Relative', chargingRateUnit: 'W', limit: 7000 }],
      };
    if (url.pathname.includes('/web/point/')) {
      sent.push({ path: url.pathname, body: JSON.parse(String(init?.body ?? '{}')) });
      return { code: 200, msg: 'ok', data: answer };
    }
    return { code: 200, msg: 'ok', data: [] };
  });
}

/** Renders the page, opens the point's "more" menu and the entry named `entry`; its dialog. */
async function openFromMore(entry: string, more = 'More') {
  const view = renderWithProviders(<ChargePointPage />);
  await screen.findByText('Bay 7');
  fireEvent.click(screen.getByText(more));
  fireEvent.click(await screen.findByText(entry));
  return { view, dialog: await screen.findByRole('dialog') };
}

beforeEach(() => {
  signInAdmin();
  FakeSource.install();
});
afterEach(() => closeEvents());

const tag = (n: number) => screen.getByTestId(`connector-CP-7-${n}`);

describe('point status', () => {
  it('shows points with their connectors and counts, and follows status events live', async () => {
    serve();
    const { container } = renderWithProviders(<ChargePointPage />, '/realTimeMonitor/chargePoint');
    await screen.findByText('Bay 7');
    expect(tag(1).textContent).toBe('#1 Available');
    expect(tag(2).textContent).toBe('#2 Charging (occupied)');
    expect(within(screen.getByTestId('count-charging')).getByText('1')).toBeTruthy();
    expect(rawKeys(container.ownerDocument.body.textContent ?? '')).toEqual([]);

    act(() =>
      FakeSource.latest().emit('point.status', {
        providerId: 1,
        stationId: 2,
        chargePointId: 7,
        serialNumber: 'CP-7',
        connectorNo: 1,
        status: 'Faulted',
        errorCode: 'GroundFailure',
        at: '2026-01-01T00:01:00Z',
      }),
    );
    // React Query tells its observers on the next tick.
    await waitFor(() => expect(tag(1).getAttribute('data-status')).toBe('faulted'));
    expect(tag(1).textContent).toBe('#1 Faulted');
    act(() =>
      FakeSource.latest().emit('point.online', {
        providerId: 1,
        stationId: 2,
        chargePointId: 7,
        serialNumber: 'CP-7',
        online: false,
        at: 'x',
      }),
    );
    await waitFor(() => expect(tag(2).getAttribute('data-status')).toBe('offline'));
  });

  it('shows a limit an outside system put on a connector, read again when the charger reports or clears one', async () => {
    let listed: typeof point = point;
    mockFetch((url) => {
      if (url.pathname.endsWith('/web/monitor/points')) return { code: 200, msg: 'ok', data: { list: [listed], total: 1 } };
      if (url.pathname.endsWith('/web/monitor/counts')) return { code: 200, msg: 'ok', data: counts };
      return { code: 200, msg: 'ok', data: [] };
    });
    const { container } = renderWithProviders(<ChargePointPage />, '/realTimeMonitor/chargePoint');
    await screen.findByText('Bay 7');
    expect(screen.queryByTestId('limit-CP-7-2')).toBeNull();

    const limit = { source: 'SO', gridCritical: true, limitW: 5_520, reportedAt: '2026-01-01T00:02:00Z' };
    listed = { ...point, connectors: point.connectors.map((c) => (c.connectorNo === 2 ? { ...c, externalLimit: limit } : c)) };
    const event = { providerId: 1, stationId: 2, chargePointId: 7, serialNumber: 'CP-7', evseId: 2, source: 'SO', at: 'x' };
    act(() => FakeSource.latest().emit('point.chargingLimit', { ...event, cleared: false }));
    expect((await screen.findByTestId('limit-CP-7-2')).textContent).toBe('Limit 5.52 kW');
    // Who set it, and when, in the tooltip.
    fireEvent.mouseEnter(screen.getByTestId('limit-CP-7-2'));
    expect(await screen.findByText(/^External limit set by Grid operator: 5\.52 kW, reported .+ \(grid critical\)$/)).toBeTruthy();
    expect(rawKeys(container.ownerDocument.body.textContent ?? '')).toEqual([]);

    listed = {
      ...point,
      connectors: point.connectors.map((c) => (c.connectorNo === 2 ? { ...c, externalLimit: { ...limit, limitW: null } } : c)),
    };
    act(() => FakeSource.latest().emit('point.chargingLimit', { ...event, cleared: false }));
    await waitFor(() => expect(screen.getByTestId('limit-CP-7-2').textContent).toBe('Limited'));

    listed = point;
    act(() => FakeSource.latest().emit('point.chargingLimit', { ...event, cleared: true }));
    await waitFor(() => expect(screen.queryByTestId('limit-CP-7-2')).toBeNull());
  });

  it('reboots after asking which kind, and shows the charger’s answer in words', async () => {
    serve({ status: 'rejected', chargerStatus: 'Rejected', message: null });
    const { dialog } = await openFromMore('Reboot');
    expect(within(dialog).getByText('Reboot - CP-7')).toBeTruthy();
    fireEvent.click(within(dialog).getByLabelText('Hard reboot'));
    fireEvent.click(within(dialog).getByTestId('action-send'));
    const answer = await within(dialog).findByTestId('action-answer');
    expect(answer.getAttribute('data-status')).toBe('rejected');
    expect(within(answer).getAllByText('Rejected')).toHaveLength(2);
    expect(sent).toEqual([{ path: '/prod-api/web/point/reset', body: { serialNumber: 'CP-7', type: 'Hard' } }]);
    // A 1.6 point reboots whole: no EVSE to choose.
    expect(within(dialog).queryByText('EVSE')).toBeNull();
  });

  it('reboots one EVSE of a 2.0.1 point when one is chosen', async () => {
    serve(undefined, { ...point, ocppVersion: '2.0.1' } as typeof point);
    const { dialog } = await openFromMore('Reboot');
    expect(within(dialog).getByText('The whole charge point')).toBeTruthy();
    fireEvent.mouseDown(within(dialog).getByLabelText('EVSE'));
    const options = await screen.findAllByText(/^Connector 2 · /, {
      selector: '.ant-select-item-option-content, .ant-select-item-option-content *',
    });
    fireEvent.click(options[options.length - 1]!);
    fireEvent.click(within(dialog).getByTestId('action-send'));
    await within(dialog).findByTestId('action-answer');
    expect(sent).toEqual([{ path: '/prod-api/web/point/reset', body: { serialNumber: 'CP-7', type: 'Soft', connectorId: 2 } }]);
  });

  it('disables one plug of an EVSE of a 2.0.1 point; a 1.6 point is offered the connector only', async () => {
    serve(undefined, { ...point, ocppVersion: '2.0.1' } as typeof point);
    const { dialog } = await openFromMore('Disable');
    fireEvent.mouseDown(within(dialog).getByLabelText('Connector'));
    const options = await screen.findAllByText(/^Connector 2 · /, {
      selector: '.ant-select-item-option-content, .ant-select-item-option-content *',
    });
    fireEvent.click(options[options.length - 1]!);
    fireEvent.change(within(dialog).getByTestId('plug-input'), { target: { value: '2' } });
    fireEvent.click(within(dialog).getByTestId('action-send'));
    await within(dialog).findByTestId('action-answer');
    expect(sent).toEqual([
      { path: '/prod-api/web/point/changeAvailability', body: { serialNumber: 'CP-7', connectorId: 2, plug: 2, type: 'Inoperative' } },
    ]);
    cleanup();
    serve();
    const again = await openFromMore('Disable');
    expect(within(again.dialog).queryByTestId('plug-input')).toBeNull();
  });

  it('stops the running transaction of a connector', async () => {
    serve();
    renderWithProviders(<ChargePointPage />);
    await screen.findByText('Bay 7');
    fireEvent.click(screen.getByText('Remote stop'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByTestId('action-send'));
    await within(dialog).findByTestId('action-answer');
    expect(sent[0]).toEqual({ path: '/prod-api/web/point/remoteStop', body: { serialNumber: 'CP-7', transactionId: 9 } });
  });

  it('starts a charge with a card and, when chosen, one of the provider’s Tx profiles', async () => {
    serve();
    renderWithProviders(<ChargePointPage />);
    await screen.findByText('Bay 7');
    fireEvent.click(screen.getByText('Remote start'));
    const dialog = await screen.findByRole('dialog');
    const choose = async (label: string, option: string) => {
      fireEvent.mouseDown(within(dialog).getByLabelText(label));
      const options = await screen.findAllByText(option, {
        selector: '.ant-select-item-option-content, .ant-select-item-option-content *',
      });
      fireEvent.click(options[options.length - 1]!);
    };
    await choose('Card or charge user', 'Card NO-1 (UID-1)');
    expect(within(dialog).getByText('A Tx profile sent with the start request; it governs this transaction only')).toBeTruthy();
    await choose('Charging profile', 'Profile 31 · Harbour · Relative · 7000 W · stack level 2');
    fireEvent.click(within(dialog).getByTestId('action-send'));
    await within(dialog).findByTestId('action-answer');
    expect(sent.at(-1)).toEqual({
      path: '/prod-api/web/point/remoteStart',
      body: { serialNumber: 'CP-7', connectorId: 1, idTag: 'UID-1', chargingProfileId: 31 },
    });
  });

  it('asks a 2.0.1 point for the status of its running transaction and shows the answer; a 1.6 point has no such entry', async () => {
    serve({ status: 'accepted', chargerStatus: 'Accepted', message: null, transactionId: 9, ongoing: true, messagesInQueue: false }, {
      ...point,
      ocppVersion: '2.0.1',
    } as typeof point);
    const { view, dialog } = await openFromMore('Transaction status');
    expect(within(dialog).getByText('Connector 2 · transaction 9')).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId('action-send'));
    const answer = await within(dialog).findByTestId('action-answer');
    expect(sent).toEqual([{ path: '/prod-api/web/point/transactionStatus', body: { serialNumber: 'CP-7', transactionId: 9 } }]);
    const row = (label: string) => within(answer).getByText(label).closest('tr')!.textContent;
    expect(row('Transaction ongoing')).toContain('Yes');
    expect(row('Messages waiting to be sent')).toContain('No');
    view.unmount();

    serve(undefined, { ...point, ocppVersion: '1.6' } as typeof point);
    renderWithProviders(<ChargePointPage />);
    await screen.findByText('Bay 7');
    fireEvent.click(screen.getByText('More'));
    await screen.findByText('Data transfer');
    expect(screen.queryByText('Transaction status')).toBeNull();
  });

  it('needs the connector for an unlock, in the page’s language', async () => {
    await act(() => i18n.changeLanguage('zh-CN'));
    serve({ status: 'accepted', chargerStatus: 'Unlocked', message: null });
    const { dialog } = await openFromMore('解锁充电枪', '更多');
    fireEvent.click(within(dialog).getByTestId('action-send'));
    expect(await within(dialog).findByText('请输入充电枪编号')).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it('hides the actions the user may not run', async () => {
    setSession({ roles: ['ops'], permissions: ['monitor:point:list', 'monitor:point:reset'], providerId: 1, providerName: 'P' } as never);
    serve();
    renderWithProviders(<ChargePointPage />);
    await screen.findByText('Bay 7');
    expect(screen.getByText('Reboot')).toBeTruthy();
    expect(screen.queryByText('Remote stop')).toBeNull();
    expect(screen.queryByText('More')).toBeNull();
    await waitFor(() => expect(screen.queryByText('Clear cache')).toBeNull());
  });
});

import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { setSession } from '../../shared/auth/session';
import { mockFetch, rawKeys, renderWithProviders, signInAdmin } from '../../shared/resource/test-kit';
import PointConfigPage from './point-config.page';

const keys = [
  { key: 'HeartbeatInterval', readonly: false, value: '300' },
  { key: 'NumberOfConnectors', readonly: true, value: '2' },
];
const logRow = {
  id: 11,
  providerId: 1,
  serialNumber: 'CP-7',
  direction: 'in',
  messageType: 2,
  action: 'BootNotification',
  messageId: 'm-1',
  createTime: '2026-01-01T00:00:00Z',
  responseType: 3,
  responseTime: '2026-01-01T00:00:00.040Z',
  latencyMs: 40,
  errorCode: null,
  reason: null,
};

function serve(
  change: Record<string, unknown> = { status: 'rebootRequired', chargerStatus: 'RebootRequired', message: null, key: 'HeartbeatInterval' },
) {
  const calls: { path: string; body: unknown }[] = [];
  mockFetch((url, init) => {
    const path = url.pathname.replace('/prod-api', '');
    if (init?.method === 'POST' && path.startsWith('/web/point/')) calls.push({ path, body: JSON.parse(String(init.body)) });
    if (path === '/web/getPoints')
      return {
        code: 200,
        msg: 'ok',
        data: [{ id: 7, serialNumber: 'CP-7', pointName: 'Bay 7', stationId: 2, stationName: 'Harbour', providerId: 1, connectors: [] }],
      };
    if (path === '/web/point/getConfiguration')
      return {
        code: 200,
        msg: 'ok',
        data: { status: 'accepted', chargerStatus: 'Accepted', message: null, configurationKey: keys, unknownKey: ['Nope'] },
      };
    if (path === '/web/point/changeConfiguration') return { code: 200, msg: 'ok', data: change };
    if (path === '/web/ocppLog/list') return { code: 200, msg: 'ok', data: { list: [logRow], total: 1 } };
    if (path === '/web/ocppLog/get')
      return { code: 200, msg: 'ok', data: { ...logRow, payload: { chargePointVendor: 'Acme' }, responsePayload: { status: 'Accepted' } } };
    if (path.startsWith('/system/dict/data/type/ocppDirection'))
      return { code: 200, msg: 'ok', data: [{ dictLabel: 'In (charger → CSMS)', dictValue: 'in', listClass: 'primary', cssClass: '' }] };
    return { code: 200, msg: 'ok', data: [] };
  });
  return calls;
}

beforeEach(signInAdmin);

describe('point configuration', () => {
  it('reads the configuration of the chosen point and changes a writable key', async () => {
    const calls = serve();
    renderWithProviders(<PointConfigPage />, '/configurationManagement/pointConfiguration?point=CP-7');
    fireEvent.click(await screen.findByTestId('config-read'));
    await screen.findByText('HeartbeatInterval');
    expect(screen.getByText('Keys the charge point does not know: Nope')).toBeTruthy();
    // The read-only key offers no edit.
    expect(screen.getAllByText('Edit')).toHaveLength(1);
    fireEvent.click(screen.getByText('Edit'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: '60' } });
    fireEvent.click(within(dialog).getByTestId('config-save'));
    const answer = await within(dialog).findByTestId('config-answer');
    expect(answer.getAttribute('data-status')).toBe('rebootRequired');
    expect(within(answer).getByText('Reboot required')).toBeTruthy();
    await waitFor(() => expect(calls.filter((c) => c.path === '/web/point/getConfiguration')).toHaveLength(2));
    expect(calls[1]).toEqual({
      path: '/web/point/changeConfiguration',
      body: { serialNumber: 'CP-7', key: 'HeartbeatInterval', value: '60' },
    });
  });

  it('shows the OCPP log with the request and response payloads in the detail, in Chinese', async () => {
    await act(() => i18n.changeLanguage('zh-CN'));
    serve();
    const { container } = renderWithProviders(<PointConfigPage />, '/configurationManagement/pointConfiguration?tab=log');
    await screen.findByText('BootNotification');
    for (const label of ['充电桩编号', '方向', '动作', '延迟（毫秒）', '应答类型'])
      expect(screen.getAllByText(label).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByText('详情'));
    expect((await screen.findByTestId('ocpp-payload')).textContent).toContain('"chargePointVendor": "Acme"');
    expect(screen.getByTestId('ocpp-response').textContent).toContain('"status": "Accepted"');
    expect(rawKeys(container.ownerDocument.body.textContent ?? '')).toEqual([]);
  });

  it('offers only the tabs the user may open', async () => {
    setSession({ roles: ['ops'], permissions: ['config:ocppLog:list'], providerId: 1, providerName: 'P' } as never);
    serve();
    renderWithProviders(<PointConfigPage />);
    await screen.findByText('BootNotification');
    expect(screen.queryByText('Point configuration')).toBeNull();
  });
});

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
const item = { componentInstance: null, evseId: null, connectorId: null, variableInstance: null, unit: null, dataType: 'string' };
const deviceModel = [
  { ...item, component: 'ChargingStation', variable: 'Model', type: 'Actual', value: 'SIM-DC60', mutability: 'ReadOnly' },
  { ...item, component: 'EVSE', evseId: 2, variable: 'Power', type: 'MaxSet', value: '60000', mutability: 'ReadOnly', unit: 'W' },
  {
    ...item,
    component: 'Connector',
    evseId: 2,
    connectorId: 1,
    variable: 'ConnectorType',
    type: 'Actual',
    value: 'cCCS2',
    mutability: 'ReadOnly',
  },
  { ...item, component: 'SecurityCtrlr', variable: 'BasicAuthPassword', type: 'Actual', value: null, mutability: 'WriteOnly' },
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
        data: [
          {
            id: 7,
            serialNumber: 'CP-7',
            pointName: 'Bay 7',
            stationId: 2,
            stationName: 'Harbour',
            providerId: 1,
            ocppVersion: '1.6',
            connectors: [],
          },
          {
            id: 8,
            serialNumber: 'CP-8',
            pointName: 'Bay 8',
            stationId: 2,
            stationName: 'Harbour',
            providerId: 1,
            ocppVersion: '2.0.1',
            connectors: [],
          },
        ],
      };
    if (path === '/web/point/getConfiguration')
      return {
        code: 200,
        msg: 'ok',
        data: { status: 'accepted', chargerStatus: 'Accepted', message: null, configurationKey: keys, unknownKey: ['Nope'] },
      };
    if (path === '/web/point/changeConfiguration') return { code: 200, msg: 'ok', data: change };
    if (path === '/web/point/deviceModel')
      return { code: 200, msg: 'ok', data: { status: 'accepted', chargerStatus: 'Accepted', message: null, items: deviceModel } };
    if (path === '/web/point/setNetworkProfile') {
      const body = JSON.parse(String(init!.body)) as { configurationSlot: number };
      if (body.configurationSlot === 8) return { code: 400, msg: 'This server has no TLS listener', data: { field: 'securityProfile' } };
      return {
        code: 200,
        msg: 'ok',
        data: {
          status: 'scheduled',
          chargerStatus: 'Scheduled',
          message: 'Stored in slot 3 and first',
          configurationSlot: 3,
          activated: true,
        },
      };
    }
    if (path === '/web/point/reset')
      return { code: 200, msg: 'ok', data: { status: 'accepted', chargerStatus: 'Accepted', message: null } };
    if (path === '/web/getStations') return { code: 200, msg: 'ok', data: [{ id: 2, stationName: 'Harbour' }] };
    if (path === '/web/point/changeConfigurationMany')
      return {
        code: 200,
        msg: 'ok',
        data: {
          changes: JSON.parse(String(init!.body)).changes,
          results: [
            {
              serialNumber: 'CP-7',
              pointName: 'Bay 7',
              stationName: 'Harbour',
              status: 'rebootRequired',
              chargerStatus: 'RebootRequired',
              message: null,
              keys: [
                { key: 'MeterValueSampleInterval', status: 'rebootRequired', chargerStatus: 'RebootRequired', message: null },
                { key: 'HeartbeatInterval', status: 'accepted', chargerStatus: 'Accepted', message: null },
              ],
            },
            {
              serialNumber: 'CP-8',
              pointName: 'Bay 8',
              stationName: 'Harbour',
              status: 'offline',
              chargerStatus: null,
              message: 'The charge point is offline',
              keys: [
                { key: 'MeterValueSampleInterval', status: 'offline', chargerStatus: null, message: 'The charge point is offline' },
                { key: 'HeartbeatInterval', status: 'offline', chargerStatus: null, message: 'The charge point is offline' },
              ],
            },
          ],
        },
      };
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
  it('reads the configuration of the chosen point, explains its keys, changes a writable one and offers the reboot it needs', async () => {
    const calls = serve();
    renderWithProviders(<PointConfigPage />, '/configurationManagement/pointConfiguration?point=CP-7');
    fireEvent.click(await screen.findByTestId('config-read'));
    await screen.findByText('HeartbeatInterval');
    expect(screen.getByText('Keys the charge point does not know: Nope')).toBeTruthy();
    expect(screen.getByText('Number of connectors of the point')).toBeTruthy();
    // The read-only key offers no edit.
    expect(screen.getAllByText('Edit')).toHaveLength(1);
    fireEvent.click(screen.getByText('Edit'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('key-help').textContent).toContain('Feature profile: Core');
    // A value the key cannot take is refused in the dialog, in words, and nothing is sent.
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: 'often' } });
    fireEvent.click(within(dialog).getByTestId('config-save'));
    expect(await within(dialog).findByText('HeartbeatInterval takes a whole number from 0 to 2147483647')).toBeTruthy();
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
    fireEvent.click(within(dialog).getByTestId('config-reboot'));
    await waitFor(() => expect(within(dialog).getAllByTestId('config-answer')).toHaveLength(2));
    expect(calls.find((c) => c.path === '/web/point/reset')?.body).toEqual({ serialNumber: 'CP-7', type: 'Soft' });
  });

  it('reads the device model of an OCPP 2.0.1 point, attribute by attribute, and filters it; a 1.6 point is not offered it', async () => {
    const calls = serve();
    const { unmount } = renderWithProviders(<PointConfigPage />, '/configurationManagement/pointConfiguration?point=CP-8');
    fireEvent.click(await screen.findByTestId('device-model-read'));
    const table = await screen.findByTestId('device-model');
    expect(calls.find((c) => c.path === '/web/point/deviceModel')?.body).toEqual({ serialNumber: 'CP-8' });
    expect(screen.getByText('4 attributes')).toBeTruthy();
    expect(within(table).getByText('SIM-DC60')).toBeTruthy();
    expect(within(table).getByText('Maximum setting')).toBeTruthy();
    expect(within(table).getByText('Connector 1')).toBeTruthy();
    expect(within(table).getByText('(write-only, not shown)')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('Filter components or variables'), { target: { value: 'evse' } });
    await waitFor(() => expect(within(table).queryByText('SIM-DC60')).toBeNull());
    expect(screen.getByText('1 of 4 attributes')).toBeTruthy();
    expect(within(table).getByText('60000')).toBeTruthy();
    // Back to the keys: the same panel shows them again.
    fireEvent.click(screen.getByTestId('config-read'));
    await screen.findByText('HeartbeatInterval');
    expect(screen.queryByTestId('device-model')).toBeNull();
    unmount();

    renderWithProviders(<PointConfigPage />, '/configurationManagement/pointConfiguration?point=CP-7');
    fireEvent.click(await screen.findByTestId('config-read'));
    await screen.findByText('HeartbeatInterval');
    // The point's version is known once the picker's points came: then no device model is offered.
    await screen.findByText('CP-7 · Bay 7 · Harbour');
    expect(screen.queryByTestId('device-model-read')).toBeNull();
    expect(screen.queryByTestId('network-profile')).toBeNull();
  });

  it('sets a network profile of an OCPP 2.0.1 point: the scheme follows the security profile, a refused field is marked, the charger’s answer shown', async () => {
    const calls = serve();
    renderWithProviders(<PointConfigPage />, '/configurationManagement/pointConfiguration?point=CP-8');
    fireEvent.click(await screen.findByTestId('network-profile'));
    const dialog = await screen.findByRole('dialog');
    const url = within(dialog).getByLabelText('Central system URL') as HTMLInputElement;
    expect(url.value).toBe(`ws://${window.location.host}/ocpp`);
    fireEvent.mouseDown(within(dialog).getByLabelText('Security profile'));
    fireEvent.click((await screen.findAllByText('2 - TLS and Basic authentication (wss://)')).at(-1)!);
    await waitFor(() => expect(url.value).toBe(`wss://${window.location.host}/ocpp`));
    fireEvent.change(within(dialog).getByLabelText('Configuration slot'), { target: { value: '8' } });
    fireEvent.click(within(dialog).getByText('Use it now'));
    fireEvent.click(screen.getByTestId('network-save'));
    expect(await within(dialog).findByText('This server has no TLS listener')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Configuration slot'), { target: { value: '3' } });
    fireEvent.click(screen.getByTestId('network-save'));
    expect(await within(dialog).findByText('Stored in slot 3 and first')).toBeTruthy();
    expect(calls.filter((c) => c.path === '/web/point/setNetworkProfile').map((c) => c.body)).toEqual(
      [8, 3].map((configurationSlot) => ({
        serialNumber: 'CP-8',
        configurationSlot,
        ocppCsmsUrl: `wss://${window.location.host}/ocpp`,
        securityProfile: 2,
        ocppInterface: 'Wired0',
        messageTimeout: 30,
        activate: true,
      })),
    );
  });

  it('changes two keys on all points of a station, shows each answer as a whole and per key, and reboots those that need it', async () => {
    const calls = serve();
    renderWithProviders(<PointConfigPage />, '/configurationManagement/pointConfiguration');
    fireEvent.click(await screen.findByTestId('config-bulk'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.mouseDown(within(dialog).getByLabelText('Station'));
    fireEvent.click((await screen.findAllByText('Harbour', { selector: '.ant-select-item-option-content' }))[0]!);
    fireEvent.click(await within(dialog).findByTestId('bulk-all-points'));
    fireEvent.change(within(dialog).getByLabelText('Key'), { target: { value: 'MeterValueSampleInterval' } });
    expect((await within(dialog).findByTestId('key-help')).textContent).toContain('Interval of meter samples');
    fireEvent.change(within(dialog).getByLabelText('Value'), { target: { value: '30' } });
    fireEvent.click(within(dialog).getByTestId('bulk-add-key'));
    await waitFor(() => expect(within(dialog).getAllByTestId('bulk-change')).toHaveLength(2));
    fireEvent.change(within(dialog).getAllByLabelText('Key')[1]!, { target: { value: 'HeartbeatInterval' } });
    // The second key's value is checked against that key, in words, and nothing is sent.
    fireEvent.change(within(dialog).getAllByLabelText('Value')[1]!, { target: { value: 'often' } });
    fireEvent.click(within(dialog).getByTestId('bulk-send'));
    expect(await within(dialog).findByText('HeartbeatInterval takes a whole number from 0 to 2147483647')).toBeTruthy();
    expect(calls.find((c) => c.path === '/web/point/changeConfigurationMany')).toBeUndefined();
    fireEvent.change(within(dialog).getAllByLabelText('Value')[1]!, { target: { value: '120' } });
    fireEvent.click(within(dialog).getByTestId('bulk-send'));
    expect((await within(dialog).findByTestId('bulk-summary')).textContent).toBe('0 accepted, 1 take effect after a reboot, 1 not changed');
    expect(calls.find((c) => c.path === '/web/point/changeConfigurationMany')?.body).toEqual({
      serialNumbers: ['CP-7', 'CP-8'],
      changes: [
        { key: 'MeterValueSampleInterval', value: '30' },
        { key: 'HeartbeatInterval', value: '120' },
      ],
    });
    expect(within(dialog).getByText('The charge point is offline')).toBeTruthy();
    // Each key's answer beside the point's.
    const answers = within(dialog).getByTestId('bulk-answers');
    expect(within(answers).getAllByText('Each key').length).toBeGreaterThan(0);
    expect(within(answers).getAllByText('HeartbeatInterval')).toHaveLength(2);
    fireEvent.click(within(dialog).getByTestId('bulk-reboot'));
    await waitFor(() => expect(within(dialog).queryByTestId('bulk-reboot')).toBeNull());
    expect(calls.filter((c) => c.path === '/web/point/reset').map((c) => c.body)).toEqual([{ serialNumber: 'CP-7', type: 'Soft' }]);
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

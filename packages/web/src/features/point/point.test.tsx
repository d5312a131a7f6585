import type { PointDto } from '@csms/contract';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { ResourcePage } from '../../shared/resource/ResourcePage';
import { mockFetch, rawKeys, renderWithProviders, signInAdmin, type Reply } from '../../shared/resource/test-kit';
import { connectionUrl } from './key-dialog';
import { pointResource } from './point.resource';

const row: PointDto = {
  id: 9,
  serialNumber: 'ACME-0001',
  pointName: 'Bay 1',
  stationId: 5,
  stationName: 'Pudong Hub',
  providerId: 1,
  providerName: 'CSMS',
  equipmentType: 'dc',
  ratedPowerW: 60_000,
  softwareVersion: '1.2.3',
  connectorCount: 2,
  connectors: [
    {
      connectorNo: 1,
      connectorName: null,
      standard: 'dc',
      type: 'CCS2',
      status: 'charging',
      ocppStatus: 'Charging',
      errorCode: null,
      statusTime: null,
    },
    {
      connectorNo: 2,
      connectorName: 'Left',
      standard: 'dc',
      type: 'CHAdeMO',
      status: 'faulted',
      ocppStatus: 'Faulted',
      errorCode: 'OtherError',
      statusTime: null,
    },
  ],
  status: 'available',
  online: true,
  needsPlacement: false,
  enabled: true,
  hasKey: true,
  keySentTime: null,
  vendor: null,
  model: null,
  firmwareVersion: null,
  ocppVersion: '2.0.1',
  lastSeenTime: null,
  createTime: '2025-01-02T03:04:05Z',
};
const placed: PointDto = { ...row, id: 10, serialNumber: 'AUTO-7', needsPlacement: true, online: false, status: 'offline', connectors: [] };
const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });
const labels: Record<string, Record<string, string>> = {
  equipmentType: { ac: 'AC', dc: 'DC', acdc: 'AC/DC' },
  connectorStandard: { ac: 'AC', dc: 'DC', combo: 'Combo' },
};

function server(extra: Reply = () => undefined) {
  return mockFetch((url, init) => {
    const own = extra(url, init);
    if (own !== undefined) return own;
    const p = url.pathname;
    if (p.endsWith('/web/point/list')) return ok({ list: [row, placed], total: 2 });
    if (p.endsWith('/web/point/get')) return ok(row);
    if (p.endsWith('/web/getStations'))
      return ok([
        { id: 5, stationName: 'Pudong Hub', providerId: 1, providerName: 'CSMS' },
        { id: 6, stationName: 'Riverside', providerId: 1, providerName: 'CSMS' },
      ]);
    const dict = p.match(/\/dict\/data\/type\/(\w+)/)?.[1];
    if (dict) {
      const entries = Object.entries(labels[dict] ?? { '1': 'Yes', '0': 'No' });
      return ok(entries.map(([v, l]) => ({ dictLabel: l, dictValue: v, listClass: 'default', cssClass: '' })));
    }
    return { code: 404, msg: 'x', data: null };
  });
}

const button = (label: string) =>
  screen.getAllByRole('button').find((b) => b.textContent?.replace(/\s/g, '') === label.replace(/\s/g, ''))!;
/** Open an antd select by its label and choose an option by its text. */
async function choose(container: HTMLElement, label: string, option: string) {
  fireEvent.mouseDown(within(container).getByLabelText(label));
  const options = await screen.findAllByText(option, { selector: '.ant-select-item-option-content, .ant-select-item-option-content *' });
  fireEvent.click(options[options.length - 1]!);
}

beforeAll(() => {
  signInAdmin();
});

describe('charge points list', () => {
  it('shows statuses, connector icons and the placement tag in English and Chinese', async () => {
    server();
    let view = renderWithProviders(<ResourcePage resource={pointResource} />);
    await screen.findByText('ACME-0001');
    for (const label of [
      'Serial number',
      'Point name',
      'Station',
      'Status',
      'Connectors',
      'Rated power (kW)',
      'Available',
      'Offline',
      'To be placed',
      '60',
      'OCPP version',
      '2.0.1',
    ]) {
      expect(screen.getAllByText(label).length, label).toBeGreaterThan(0);
    }
    const icons = view.container.querySelectorAll('svg[data-connector-type]');
    expect([...icons].map((i) => i.getAttribute('data-connector-type'))).toEqual(['CCS2', 'CHAdeMO']);
    expect(icons[1]!.getAttribute('aria-label')).toBe('CHAdeMO');
    // Coloured by status: charging blue, faulted red.
    expect(screen.getByTestId('connector-1').style.color).toBe('rgb(22, 119, 255)');
    expect(screen.getByTestId('connector-2').style.color).toBe('rgb(255, 77, 79)');
    expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
    cleanup();

    await act(() => i18n.changeLanguage('zh-CN'));
    view = renderWithProviders(<ResourcePage resource={pointResource} />);
    await screen.findByText('ACME-0001');
    for (const label of [
      '充电桩编号',
      '充电桩名称',
      '所属场站',
      '枪口',
      '额定功率（kW）',
      '空闲',
      '离线',
      '待安置',
      'OCPP 版本',
      '2.0.1',
    ]) {
      expect(screen.getAllByText(label).length, label).toBeGreaterThan(0);
    }
    expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
  });
});

describe('charge point dialogs', () => {
  it('creates a point with two connectors in kW and then shows its key once', async () => {
    const bodies: unknown[] = [];
    server((url, init) => {
      if (url.pathname.endsWith('/web/point/add')) {
        bodies.push(JSON.parse(String(init?.body)));
        return ok({ ...row, serialNumber: 'NEW-1', ocppKey: 'k'.repeat(40) });
      }
      return undefined;
    });
    renderWithProviders(<ResourcePage resource={pointResource} />);
    await screen.findByText('ACME-0001');
    fireEvent.click(button('Add'));
    const dialog = (await screen.findAllByRole('dialog'))[0]!;
    // One connector to start with; a second copies the first's kind and takes the next number.
    await within(dialog).findByTestId('connector-row-1');
    fireEvent.click(within(dialog).getByText('Add connector'));
    expect(within(dialog).getByTestId('connector-row-2').textContent).toContain('#2');
    fireEvent.change(within(within(dialog).getByTestId('connector-row-2')).getByLabelText('Connector name'), {
      target: { value: 'Right' },
    });

    fireEvent.change(within(dialog).getByLabelText('Serial number'), { target: { value: 'NEW-1' } });
    fireEvent.change(within(dialog).getByLabelText('Point name'), { target: { value: 'Bay 9' } });
    fireEvent.change(within(dialog).getByLabelText('Rated power (kW)'), { target: { value: '7.4' } });
    await choose(dialog, 'Station', 'Riverside');
    await choose(dialog, 'Equipment type', 'AC');
    fireEvent.click(button('OK'));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({
      serialNumber: 'NEW-1',
      pointName: 'Bay 9',
      stationId: 6,
      equipmentType: 'ac',
      ratedPowerW: 7400,
      connectors: [
        { connectorNo: 1, standard: 'ac', type: 'Type2' },
        { connectorNo: 2, standard: 'ac', type: 'Type2', connectorName: 'Right' },
      ],
    });
    // antd's confirm modals carry the title twice (heading and accessible name).
    expect((await screen.findAllByText('OCPP key - NEW-1')).length).toBeGreaterThan(0);
    expect(screen.getByTestId('ocpp-key').textContent).toContain('k'.repeat(40));
    expect(screen.getByTestId('ocpp-url').textContent).toContain(connectionUrl('NEW-1'));
    expect(screen.getByText(/shown only this once/)).toBeTruthy();
    fireEvent.click(button('I have saved the key'));
    await waitFor(() => expect(screen.queryAllByText('OCPP key - NEW-1')).toEqual([]));
  });

  it('renumbers the connectors when one is removed', async () => {
    server();
    renderWithProviders(<ResourcePage resource={pointResource} />);
    await screen.findByText('ACME-0001');
    fireEvent.click(button('Add'));
    const dialog = (await screen.findAllByRole('dialog'))[0]!;
    await within(dialog).findByTestId('connector-row-1');
    fireEvent.click(within(dialog).getByText('Add connector'));
    fireEvent.click(within(dialog).getByText('Add connector'));
    fireEvent.change(within(within(dialog).getByTestId('connector-row-3')).getByLabelText('Connector name'), {
      target: { value: 'Third' },
    });
    fireEvent.click(within(within(dialog).getByTestId('connector-row-1')).getByLabelText('Remove connector'));
    expect(within(dialog).queryByTestId('connector-row-3')).toBeNull();
    const second = within(dialog).getByTestId('connector-row-2');
    expect(second.textContent).toContain('#2');
    expect((within(second).getByLabelText('Connector name') as HTMLInputElement).value).toBe('Third');
  });

  it('moves a point to the chosen station and issues a new key after the confirm', async () => {
    const moves: unknown[] = [];
    server((url, init) => {
      if (url.pathname.endsWith('/web/point/move')) {
        moves.push(JSON.parse(String(init?.body)));
        return ok({ ...row, stationId: 6, stationName: 'Riverside' });
      }
      if (url.pathname.endsWith('/web/point/newKey')) return ok({ id: 9, serialNumber: 'ACME-0001', ocppKey: 'f'.repeat(40) });
      return undefined;
    });
    renderWithProviders(<ResourcePage resource={pointResource} />);
    await screen.findByText('ACME-0001');
    const first = screen.getAllByRole('row').find((r) => r.textContent?.includes('ACME-0001'))!;
    fireEvent.click(within(first).getByText('More'));
    fireEvent.click(await screen.findByText('Move'));
    await screen.findByText('Charge point "ACME-0001" is now in station "Pudong Hub".');
    const dialog = screen.getAllByRole('dialog').find((d) => d.textContent?.includes('Move to another station'))!;
    await choose(dialog, 'Station', 'Riverside');
    fireEvent.click(within(dialog).getByText('OK').closest('button')!);
    await waitFor(() => expect(moves).toEqual([{ id: 9, stationId: 6 }]));

    fireEvent.click(within(first).getByText('More'));
    fireEvent.click(await screen.findByText('New key'));
    expect((await screen.findAllByText(/Issue a new OCPP key for charge point "ACME-0001"/)).length).toBeGreaterThan(0);
    fireEvent.click(button('OK'));
    expect((await screen.findAllByText('OCPP key - ACME-0001')).length).toBeGreaterThan(0);
    expect(screen.getByTestId('ocpp-key').textContent).toContain('f'.repeat(40));
  });
});

describe('sending a new key to the charger', () => {
  it('asks first, sends the point’s serial, and says what the charger did: taken, refused, not known', async () => {
    const sent: unknown[] = [];
    const answers = [
      { status: 'accepted', chargerStatus: 'Accepted', message: 'Took it', keySentTime: '2026-11-26T04:00:00Z' },
      { status: 'rejected', chargerStatus: 'Rejected', message: 'Refused it', keySentTime: null },
      { status: 'failed', chargerStatus: null, message: 'No answer', keySentTime: '2026-11-26T04:00:00Z' },
    ];
    server((url, init) => {
      if (!url.pathname.endsWith('/web/point/sendKey')) return undefined;
      sent.push(JSON.parse(String(init?.body)));
      return ok(answers[sent.length - 1]);
    });
    renderWithProviders(<ResourcePage resource={pointResource} />);
    await screen.findByText('ACME-0001');
    const first = screen.getAllByRole('row').find((r) => r.textContent?.includes('ACME-0001'))!;
    for (const [i, words] of ['Took it', 'Refused it', 'No answer'].entries()) {
      fireEvent.click(within(first).getByText('More'));
      fireEvent.click(await screen.findByText('Send new key'));
      expect((await screen.findAllByText(/Send a new OCPP key to charge point "ACME-0001"/)).length).toBeGreaterThan(0);
      fireEvent.click(button('OK'));
      await waitFor(() => expect(sent).toHaveLength(i + 1));
      const toast = (await screen.findByText(words)).closest('.ant-message-notice')!;
      // Taken: success; refused: an error; not known (both keys open): a warning. Never the generic "Success".
      expect(toast.className).toContain(['notice-success', 'notice-error', 'notice-warning'][i]!);
    }
    expect(sent).toEqual(Array(3).fill({ serialNumber: 'ACME-0001' }));
    expect(screen.queryByText('Success')).toBeNull();
  });
});

describe('connection URL', () => {
  it('follows the console: wss behind https, the serial as its path segment', () => {
    expect(connectionUrl('CP:1', { protocol: 'https:', host: 'csms.example:8443' })).toBe('wss://csms.example:8443/ocpp/CP:1');
    expect(connectionUrl('a b/c', { protocol: 'http:', host: 'h' })).toBe('ws://h/ocpp/a%20b%2Fc');
    expect(connectionUrl('CP-1', { protocol: 'http:', host: '127.0.0.1:8080' })).toBe('ws://127.0.0.1:8080/ocpp/CP-1');
  });
});

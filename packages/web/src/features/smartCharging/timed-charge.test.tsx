import type { TimedChargeDto, TimedChargeRunDto } from '@csms/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buttonByText,
  chooseByLabel,
  dialogShown,
  mockFetch,
  rawKeys,
  renderWithProviders,
  signInAdmin,
  type Reply,
} from '../../shared/resource/test-kit';
import SmartChargingPage from './smart-charging.page';

const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });

const waiting: TimedChargeDto = {
  id: 41,
  providerId: 1,
  providerName: 'CSMS',
  stationId: 3,
  stationName: 'Pudong Hub',
  timeZone: 'Asia/Shanghai',
  serialNumber: 'CP-1',
  pointName: 'Bay CP-1',
  connectors: [1, 2],
  chargeUserId: 8,
  chargeUserAccount: 'alice',
  validFrom: '2026-03-01',
  validTo: '2026-03-31',
  startTime: '07:30',
  status: 'waiting',
  // 07:30 in Shanghai is 23:30 UTC the day before.
  nextRunTime: '2026-03-01T23:30:00.000Z',
  lastRunDay: '2026-03-01',
  lastReason: 'offline',
  createdByName: 'admin',
  createTime: '2026-02-27T08:00:00.000Z',
  updateTime: '2026-02-27T08:00:00.000Z',
};
const started: TimedChargeDto = { ...waiting, id: 42, serialNumber: 'CP-2', status: 'started', lastReason: null };
const runs: TimedChargeRunDto[] = [
  {
    day: '2026-03-01',
    connectorNo: 1,
    status: 'failed',
    reason: 'rejected',
    chargerStatus: 'Rejected',
    cardNumber: 'NO-1',
    runTime: '2026-02-28T23:30:00.000Z',
  },
];
const point = (serialNumber: string, connectors: number[]) => ({
  id: Number(serialNumber.slice(3)),
  serialNumber,
  pointName: `Bay ${serialNumber}`,
  stationId: 3,
  stationName: 'Pudong Hub',
  providerId: 1,
  connectors: connectors.map((connectorNo) => ({ connectorNo, connectorName: String(connectorNo), standard: 'ac', type: 'type2' })),
});

const bodies: Record<string, unknown[]> = {};
const asked: URL[] = [];
function server(extra: Reply = () => undefined) {
  for (const k of Object.keys(bodies)) delete bodies[k];
  asked.length = 0;
  return mockFetch((url, init) => {
    const p = url.pathname;
    asked.push(url);
    if (init?.body && typeof init.body === 'string') (bodies[p] ??= []).push(JSON.parse(init.body));
    const own = extra(url, init);
    if (own !== undefined) return own;
    if (p.endsWith('/web/timedCharge/list')) return ok({ list: [waiting, started], total: 2 });
    if (p.endsWith('/web/timedCharge/get')) return ok(waiting);
    if (p.endsWith('/web/timedCharge/runs')) return ok(runs);
    if (p.endsWith('/web/timedCharge/cancel')) return ok({ cancelled: 1 });
    if (p.endsWith('/web/getStations')) return ok([{ id: 3, stationName: 'Pudong Hub' }]);
    if (p.endsWith('/web/getPoints')) return ok([point('CP-1', [1, 2]), point('CP-3', [1])]);
    if (p.endsWith('/web/chargeUser/options')) return ok([{ id: 8, account: 'alice', phone: null, providerId: 1 }]);
    return { code: 404, msg: 'x', data: null };
  });
}

/** Type into a picker's input and confirm with Enter, as a keyboard user does. */
function typeInto(input: HTMLElement, text: string) {
  fireEvent.mouseDown(input);
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value: text } });
  fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
}

async function openAdd() {
  renderWithProviders(<SmartChargingPage />, '/realTimeMonitor/smartCharging?tab=timedCharge');
  await screen.findByText('CP-1', { selector: 'td' });
  fireEvent.click(buttonByText('Add'));
  return await dialogShown();
}

async function fillNew(dialog: HTMLElement) {
  await chooseByLabel(dialog, 'Station', 'Pudong Hub');
  await chooseByLabel(dialog, 'Point serial number', 'CP-1 · Bay CP-1');
  await chooseByLabel(dialog, 'Connectors', '2');
  await chooseByLabel(dialog, 'Charge user', 'alice');
  const [from, to] = dialog.querySelectorAll<HTMLInputElement>('input[data-testid=timed-period]');
  typeInto(from!, '2026-04-01');
  typeInto(to!, '2026-04-30');
  await waitFor(() => expect(to!.value).toBe('2026-04-30'));
  const start = dialog.querySelector<HTMLInputElement>('input[data-testid=timed-start]')!;
  typeInto(start, '06:45');
  await waitFor(() => expect(start.value).toBe('06:45'));
}

beforeAll(signInAdmin);

describe('timed charging tab', () => {
  it('lists timed charges with their status, next start on the station’s clock and the failure in words, in both languages', async () => {
    server();
    for (const [lng, words] of [
      ['en-US', ['Timed charging', 'Waiting', 'Started', 'The point is offline', 'Valid period', 'Next start', '2026-03-01 ~ 2026-03-31']],
      ['zh-CN', ['定时充电', '等待中', '已启动', '充电桩离线', '有效期', '下次启动时间']],
    ] as const) {
      await act(() => i18n.changeLanguage(lng));
      const view = renderWithProviders(<SmartChargingPage />, '/realTimeMonitor/smartCharging?tab=timedCharge');
      const row = (await screen.findByText('CP-1', { selector: 'td' })).closest('tr')!;
      for (const word of words) expect(screen.getAllByText(word).length, `${lng} ${word}`).toBeGreaterThan(0);
      // 07:30 on the station's clock, whatever the browser's zone, and the zone named.
      expect(within(row).getByText('2026-03-02 07:30:00')).toBeTruthy();
      expect(within(row).getByText('Asia/Shanghai')).toBeTruthy();
      expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
      view.unmount();
    }
  });

  it('offers edit on waiting rows only, and cancels the selected rows after asking', async () => {
    server();
    renderWithProviders(<SmartChargingPage />, '/realTimeMonitor/smartCharging?tab=timedCharge');
    const waitingRow = (await screen.findByText('CP-1', { selector: 'td' })).closest('tr')!;
    const startedRow = screen.getByText('CP-2', { selector: 'td' }).closest('tr')!;
    expect(within(waitingRow).queryByText('Edit')).toBeTruthy();
    expect(within(startedRow).queryByText('Edit')).toBeNull();

    const cancel = buttonByText('Cancel timed charge');
    expect(cancel.hasAttribute('disabled')).toBe(true);
    fireEvent.click(startedRow.querySelector('input[type=checkbox]')!);
    await waitFor(() => expect(cancel.hasAttribute('disabled')).toBe(false));
    fireEvent.click(cancel);
    const confirm = (await screen.findByText(/Cancel timed charges 42\?/)).closest('.ant-modal-confirm') as HTMLElement;
    fireEvent.click(buttonByText('OK', confirm));
    await waitFor(() => expect(bodies['/prod-api/web/timedCharge/cancel']).toEqual([{ ids: [42] }]));
  });

  it('lists a row’s runs with the reason and the charger’s answer', async () => {
    server();
    renderWithProviders(<SmartChargingPage />, '/realTimeMonitor/smartCharging?tab=timedCharge');
    const row = (await screen.findByText('CP-2', { selector: 'td' })).closest('tr')!;
    fireEvent.click(within(row).getByText('Runs'));
    const table = await screen.findByTestId('timed-runs');
    await within(table).findByText('The point refused the remote start');
    for (const text of ['2026-03-01', 'Failed', 'Rejected', 'NO-1', '2026-03-01 07:30:00'])
      expect(within(table).getByText(text)).toBeTruthy();
    expect(asked.find((u) => u.pathname.endsWith('/runs'))?.searchParams.get('id')).toBe('42');
  });
});

describe('timed charge form', () => {
  it('sends the point, connectors, user, period and start time, without the station', async () => {
    server((url) => (url.pathname.endsWith('/web/timedCharge/add') ? ok(waiting) : undefined));
    const dialog = await openAdd();
    await fillNew(dialog);
    fireEvent.click(buttonByText('OK', dialog));
    await waitFor(() =>
      expect(bodies['/prod-api/web/timedCharge/add']).toEqual([
        { serialNumber: 'CP-1', connectors: [2], chargeUserId: 8, validFrom: '2026-04-01', validTo: '2026-04-30', startTime: '06:45' },
      ]),
    );
    // Only the chosen provider's users are offered: the point's.
    expect(asked.find((u) => u.pathname.endsWith('/chargeUser/options') && u.searchParams.get('providerId') === '1')).toBeTruthy();
  });

  it('refuses a period longer than the contract allows on the period, and shows the server’s reason on its field', async () => {
    server((url) =>
      url.pathname.endsWith('/web/timedCharge/add')
        ? { code: 400, msg: 'Point CP-1 has no connector 2', data: { field: 'connectors' } }
        : undefined,
    );
    const dialog = await openAdd();
    await fillNew(dialog);
    const [from, to] = dialog.querySelectorAll<HTMLInputElement>('input[data-testid=timed-period]');
    typeInto(from!, '2026-01-01');
    typeInto(to!, '2027-03-01');
    await waitFor(() => expect(to!.value).toBe('2027-03-01'));
    fireEvent.click(buttonByText('OK', dialog));
    const span = await within(dialog).findByText('The valid period is at most 366 days');
    expect(span.closest('.ant-form-item')!.querySelector('input[data-testid=timed-period]')).toBeTruthy();
    expect(bodies['/prod-api/web/timedCharge/add']).toBeUndefined();

    typeInto(from!, '2026-04-01');
    typeInto(to!, '2026-04-30');
    await waitFor(() => expect(within(dialog).queryByText('The valid period is at most 366 days')).toBeNull());
    fireEvent.click(buttonByText('OK', dialog));
    const error = await within(dialog).findByText('Point CP-1 has no connector 2');
    expect(error.closest('.ant-form-item')!.querySelector('[data-testid=timed-connectors]')).toBeTruthy();
    expect(bodies['/prod-api/web/timedCharge/add']).toHaveLength(1);
  });

  it('edits a waiting one from its record: the id, the same period and time, without the station', async () => {
    server((url) => (url.pathname.endsWith('/web/timedCharge/edit') ? ok(waiting) : undefined));
    renderWithProviders(<SmartChargingPage />, '/realTimeMonitor/smartCharging?tab=timedCharge');
    const row = (await screen.findByText('CP-1', { selector: 'td' })).closest('tr')!;
    fireEvent.click(within(row).getByText('Edit'));
    const dialog = await dialogShown();
    const [from, to] = dialog.querySelectorAll<HTMLInputElement>('input[data-testid=timed-period]');
    await waitFor(() => expect([from!.value, to!.value]).toEqual(['2026-03-01', '2026-03-31']));
    expect(dialog.querySelector<HTMLInputElement>('input[data-testid=timed-start]')!.value).toBe('07:30');
    await within(dialog).findByText('alice');
    fireEvent.click(buttonByText('OK', dialog));
    await waitFor(() =>
      expect(bodies['/prod-api/web/timedCharge/edit']).toEqual([
        {
          id: 41,
          serialNumber: 'CP-1',
          connectors: [1, 2],
          chargeUserId: 8,
          validFrom: '2026-03-01',
          validTo: '2026-03-31',
          startTime: '07:30',
        },
      ]),
    );
  });
});

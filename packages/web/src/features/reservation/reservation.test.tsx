import type { ReservationDto } from '@csms/contract';
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
import ReservationPage from './reservation.page';

const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });

const reserved: ReservationDto = {
  id: 51,
  providerId: 1,
  providerName: 'CSMS',
  stationId: 3,
  stationName: 'Pudong Hub',
  serialNumber: 'CP-1',
  pointName: 'Bay CP-1',
  connectorNo: 0,
  chargeUserId: 8,
  chargeUserAccount: 'alice',
  cardNumber: 'NO-ALICE',
  expiryTime: '2026-03-01T10:00:00.000Z',
  status: 'reserved',
  chargerStatus: 'Accepted',
  transactionId: null,
  feeCents: null,
  createdByName: 'admin',
  createTime: '2026-03-01T08:00:00.000Z',
  updateTime: '2026-03-01T08:00:00.000Z',
};
const used: ReservationDto = {
  ...reserved,
  id: 52,
  serialNumber: 'CP-2',
  connectorNo: 2,
  status: 'used',
  transactionId: 901,
  feeCents: 150,
};

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
    if (p.endsWith('/web/reservation/list')) return ok({ list: [reserved, used], total: 2 });
    if (p.endsWith('/web/reservation/cancel')) return ok({ ...reserved, status: 'cancelled' });
    if (p.endsWith('/web/getStations')) return ok([{ id: 3, stationName: 'Pudong Hub' }]);
    if (p.endsWith('/web/getPoints')) return ok([point('CP-1', [1, 2]), point('CP-3', [1])]);
    if (p.endsWith('/web/chargeUser/options')) return ok([{ id: 8, account: 'alice', phone: null, providerId: 1 }]);
    if (p.endsWith('/web/common/dayZone')) return ok({ timeZone: 'Asia/Shanghai', stationName: null });
    return { code: 404, msg: 'x', data: null };
  });
}

async function openReserve() {
  renderWithProviders(<ReservationPage />, '/realTimeMonitor/reservation');
  await screen.findByText('CP-1', { selector: 'td' });
  fireEvent.click(buttonByText('Add'));
  const dialog = await dialogShown();
  expect(within(dialog).getByText('Reserve a connector')).toBeTruthy();
  return dialog;
}

async function fill(dialog: HTMLElement) {
  await chooseByLabel(dialog, 'Station', 'Pudong Hub');
  await chooseByLabel(dialog, 'Point serial number', 'CP-1 · Bay CP-1');
  await chooseByLabel(dialog, 'Connector', '2');
  await chooseByLabel(dialog, 'Charge user', 'alice');
}

beforeAll(signInAdmin);

describe('reservations list', () => {
  it('shows "any connector", the status, the fee in dollars and the charger’s answer, in both languages', async () => {
    server();
    for (const [lng, words] of [
      ['en-US', ['Any connector', 'Reserved', 'Used', 'Reservation fee ($)', 'Charger answer', 'Cancel reservation']],
      ['zh-CN', ['任意充电枪', '已预约', '已使用', '预约费（元）', '充电桩应答', '取消预约']],
    ] as const) {
      await act(() => i18n.changeLanguage(lng));
      const view = renderWithProviders(<ReservationPage />, '/realTimeMonitor/reservation');
      const row = (await screen.findByText('CP-2', { selector: 'td' })).closest('tr')!;
      for (const word of words) expect(screen.getAllByText(word).length, `${lng} ${word}`).toBeGreaterThan(0);
      for (const text of ['1.50', '901', 'NO-ALICE']) expect(within(row).getByText(text)).toBeTruthy();
      expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
      view.unmount();
    }
  });

  it('cancels a reserved one after asking; a used one offers no cancel', async () => {
    server();
    renderWithProviders(<ReservationPage />, '/realTimeMonitor/reservation');
    const reservedRow = (await screen.findByText('CP-1', { selector: 'td' })).closest('tr')!;
    const usedRow = screen.getByText('CP-2', { selector: 'td' }).closest('tr')!;
    expect(within(usedRow).queryByText('Cancel reservation')).toBeNull();
    fireEvent.click(within(reservedRow).getByText('Cancel reservation'));
    const confirm = (await screen.findByText('Cancel reservation 51 on point CP-1?')).closest('.ant-modal-confirm') as HTMLElement;
    fireEvent.click(buttonByText('OK', confirm));
    await waitFor(() => expect(bodies['/prod-api/web/reservation/cancel']).toEqual([{ id: 51 }]));
    expect(await screen.findByText('Reservation cancelled')).toBeTruthy();
  });
});

describe('reserve dialog', () => {
  it('starts at any connector, expiring in an hour, and sends the point, connector, user and expiry without the station', async () => {
    server((url) => (url.pathname.endsWith('/web/reservation/add') ? ok(reserved) : undefined));
    const before = Date.now();
    const dialog = await openReserve();
    expect(within(dialog).getByText('Any connector')).toBeTruthy();
    await fill(dialog);
    fireEvent.click(buttonByText('OK', dialog));
    await waitFor(() => expect(bodies['/prod-api/web/reservation/add']).toHaveLength(1));
    const body = bodies['/prod-api/web/reservation/add']![0] as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['chargeUserId', 'connectorNo', 'expiryTime', 'serialNumber']);
    expect(body).toMatchObject({ serialNumber: 'CP-1', connectorNo: 2, chargeUserId: 8 });
    // Now + 1 h, to the minute.
    const expiry = Date.parse(String(body.expiryTime));
    expect(expiry).toBeGreaterThan(before + 3_600_000 - 60_000);
    expect(expiry).toBeLessThanOrEqual(Date.now() + 3_600_000);
    expect(asked.some((u) => u.pathname.endsWith('/chargeUser/options') && u.searchParams.get('providerId') === '1')).toBe(true);
    expect(await screen.findByText('Sent to the point')).toBeTruthy();
  });

  it('shows the server’s reason on its field and keeps the dialog open', async () => {
    server((url) =>
      url.pathname.endsWith('/web/reservation/add')
        ? { code: 400, msg: 'Charge user alice has no valid card', data: { field: 'chargeUserId' } }
        : undefined,
    );
    const dialog = await openReserve();
    await fill(dialog);
    fireEvent.click(buttonByText('OK', dialog));
    const error = await within(dialog).findByText('Charge user alice has no valid card');
    expect(error.closest('.ant-form-item')!.querySelector('[data-testid=reserve-user]')).toBeTruthy();
    expect(within(dialog).getByText('Reserve a connector')).toBeTruthy();
  });

  it('says so when the point refused: the reservation is kept with the refusal', async () => {
    server((url) =>
      url.pathname.endsWith('/web/reservation/add') ? ok({ ...reserved, status: 'occupied', chargerStatus: 'Occupied' }) : undefined,
    );
    const dialog = await openReserve();
    await fill(dialog);
    fireEvent.click(buttonByText('OK', dialog));
    expect(await screen.findByText('The point answered “Occupied”: nothing is reserved')).toBeTruthy();
  });
});

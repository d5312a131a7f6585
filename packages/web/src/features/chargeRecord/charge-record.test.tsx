import { dictEntries, type ChargeRecordDetail, type DictType, type ProcessSample } from '@csms/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setSession } from '../../shared/auth/session';
import { mockFetch, polyfillDom, rawKeys, renderWithProviders, signInAdmin } from '../../shared/resource/test-kit';
import ChargeRecordDetailPage from './charge-record-detail.page';
import ChargeRecordPage from './charge-record.page';
import { wallClockOrEmpty } from '../../shared/format/zone-time';
import ChargeRecordPrintPage from './charge-record-print.page';
import { seriesOf } from '../../shared/charts/process-charts';

const record: ChargeRecordDetail = {
  id: 4711,
  providerId: 1,
  providerName: 'Demo provider',
  stationId: 3,
  stationName: 'Harbour station',
  stationAddress: '1 Quay Road',
  stationTimeZone: 'Asia/Shanghai',
  chargePointId: 9,
  serialNumber: 'SN-0009',
  pointName: 'Bay 9',
  connectorNo: 2,
  idTag: 'A1B2C3D4',
  cardNumber: 'NO-77',
  account: 'alice',
  authorization: 'authorized',
  authReason: 'accepted',
  startType: 'card',
  startTime: '2026-03-01T23:30:00.000Z',
  endTime: '2026-03-02T00:30:00.000Z',
  durationSec: 3600,
  meterStartWh: 1000,
  meterStopWh: 8000,
  energyWh: 7000,
  stopReason: 'EVDisconnected',
  stopIdTag: null,
  stopAccount: null,
  elecFeeCents: 549,
  serviceFeeCents: 175,
  reserveFeeCents: 0,
  totalCents: 724,
  billedAt: '2026-03-02T00:30:01.000Z',
  paidFrom: 'card',
  billingNote: null,
  validity: 'valid',
  invalidReason: null,
  confirmedByName: null,
  confirmedAt: null,
  late: false,
  lateStopAt: null,
  adjustmentCents: null,
  createTime: '2026-03-01T23:30:00.000Z',
  discounts: [],
  lines: [
    {
      priceId: 5,
      effectiveFrom: '2026-01-01T00:00:00.000Z',
      tier: 'valley',
      kind: 'elec',
      energyWh: 3500,
      unitPrice: 3333,
      amountCents: 117,
      adjustment: false,
    },
    {
      priceId: 5,
      effectiveFrom: '2026-01-01T00:00:00.000Z',
      tier: 'valley',
      kind: 'service',
      energyWh: 3500,
      unitPrice: 1000,
      amountCents: 35,
      adjustment: false,
    },
    {
      priceId: 5,
      effectiveFrom: '2026-01-01T00:00:00.000Z',
      tier: 'peak',
      kind: 'elec',
      energyWh: 3500,
      unitPrice: 12345,
      amountCents: 432,
      adjustment: false,
    },
    {
      priceId: 5,
      effectiveFrom: '2026-01-01T00:00:00.000Z',
      tier: 'peak',
      kind: 'service',
      energyWh: 3500,
      unitPrice: 4000,
      amountCents: 140,
      adjustment: false,
    },
  ],
};
const invalid: ChargeRecordDetail = {
  ...record,
  id: 4712,
  validity: 'invalid',
  invalidReason: 'meterJump',
  elecFeeCents: null,
  serviceFeeCents: null,
  reserveFeeCents: null,
  totalCents: null,
  billedAt: null,
  paidFrom: null,
  lines: [],
};
/** A gold member's session during an activity, with a voucher: three discounts off the 1.75 service fee. */
const discounted: ChargeRecordDetail = {
  ...record,
  id: 4715,
  totalCents: 724 - 35 - 28 - 50,
  discounts: [
    { kind: 'member', refId: 1, label: 'Gold', energyWh: 7000, unitPrice: 0, amountCents: -35 },
    { kind: 'activity', refId: 2, label: 'Spring offer', energyWh: 7000, unitPrice: 400, amountCents: -28 },
    { kind: 'voucher', refId: 3, label: '0.50 off', energyWh: 0, unitPrice: 0, amountCents: -50 },
  ],
};
/** Closed as never stopped, settled on the guess, then its Stop came: real end, and 3.00 more through an adjustment. */
const closedLate: ChargeRecordDetail = {
  ...record,
  id: 4714,
  lateStopAt: '2026-03-02T02:00:00.000Z',
  adjustmentCents: 300,
  lines: [
    ...record.lines,
    {
      priceId: 5,
      effectiveFrom: '2026-01-01T00:00:00.000Z',
      tier: 'peak',
      kind: 'elec',
      energyWh: 2000,
      unitPrice: 12345,
      amountCents: 247,
      adjustment: true,
    },
    {
      priceId: 5,
      effectiveFrom: '2026-01-01T00:00:00.000Z',
      tier: 'peak',
      kind: 'service',
      energyWh: 2000,
      unitPrice: 4000,
      amountCents: 53,
      adjustment: true,
    },
  ],
};
const samples: ProcessSample[] = [1, 2, 3, 4].map((k) => ({
  at: new Date(Date.parse(record.startTime) + k * 600_000).toISOString(),
  energyWh: 1000 + k * 1000,
  powerW: 7000 + k * 100,
  currentImportA: 30 + k,
  currentOfferedA: 32,
  voltageV: 230,
  soc: 40 + k * 10,
  // The charger sent no temperature in the second sample.
  temperatureC: k === 2 ? null : 30 + k,
}));

const lang = () => (i18n.language.startsWith('en') ? 'en' : 'zh');

function answer(opts: { detail?: ChargeRecordDetail; list?: ChargeRecordDetail[]; onConfirm?: () => void } = {}) {
  const detail = opts.detail ?? record;
  const rows = opts.list ?? [record, invalid];
  return mockFetch((url, init) => {
    const p = url.pathname;
    if (p.startsWith('/prod-api/system/dict/data/type/'))
      return { code: 200, msg: 'ok', data: dictEntries(lang(), p.split('/').pop() as DictType) };
    if (p.endsWith('/web/chargeRecord/list')) return { code: 200, msg: 'ok', data: { list: rows, total: rows.length } };
    if (p.endsWith('/web/chargeRecord/get')) return { code: 200, msg: 'ok', data: detail };
    if (p.endsWith('/charging/realTime/getHisBmsData'))
      return { code: 200, msg: 'ok', data: { transactionId: detail.id, samples, thinned: false } };
    if (p.endsWith('/web/chargeRecord/confirm')) {
      opts.onConfirm?.();
      expect(JSON.parse(String(init?.body))).toEqual({ id: detail.id });
      return { code: 200, msg: 'ok', data: { ...detail, validity: 'confirmed' } };
    }
    if (p.endsWith('/web/getStations') || p.endsWith('/web/getPoints')) return { code: 200, msg: 'ok', data: [] };
    return { code: 404, msg: 'x', data: null };
  });
}

beforeAll(() => {
  polyfillDom();
  signInAdmin();
});
afterEach(() => {
  signInAdmin();
});

describe('units and series', () => {
  it('shows station-local times on the bill and skips samples without the quantity', () => {
    expect(wallClockOrEmpty('2026-03-01T23:30:00.000Z', 'Asia/Shanghai')).toBe('2026-03-02 07:30:00');
    expect(wallClockOrEmpty('2026-03-29T01:30:00.000Z', 'Europe/Berlin')).toBe('2026-03-29 03:30:00');
    expect(wallClockOrEmpty(null, 'UTC')).toBe('');
    expect(seriesOf(samples, 'temperatureC').map((p) => p.y)).toEqual([31, 33, 34]);
    expect(seriesOf(samples, 'soc')).toHaveLength(4);
  });
});

describe('charging records list', () => {
  it('shows money in $ and energy in kWh, and offers confirm only on invalid records', async () => {
    answer();
    const { container } = renderWithProviders(<ChargeRecordPage />, '/historyRecord/chargeRecord');
    const row = (await screen.findByText('4711')).closest('tr')!;
    for (const text of ['7.000', '5.49', '1.75', '7.24', '1:00:00', 'SN-0009', 'alice', 'NO-77']) {
      expect(within(row as HTMLElement).getByText(text)).toBeTruthy();
    }
    await waitFor(() => expect(within(row as HTMLElement).getByText('EV disconnected')).toBeTruthy());
    expect(within(row as HTMLElement).queryByText('Confirm record')).toBeNull();
    const bad = screen.getByText('4712').closest('tr') as HTMLElement;
    expect(within(bad).getByText('Confirm record')).toBeTruthy();
    expect(within(bad).getByText('Print bill')).toBeTruthy();
    expect(rawKeys(container.textContent ?? '')).toEqual([]);
  });

  it('shows each row’s times on its station’s clock, whatever the browser’s zone, and names the zone', async () => {
    // A browser zone unlike both stations', so the browser's clock would show other times.
    const tz = process.env.TZ;
    process.env.TZ = 'Asia/Tokyo';
    try {
      const newYork = { ...record, id: 4713, stationTimeZone: 'America/New_York' };
      answer({ list: [record, newYork] });
      const { container } = renderWithProviders(<ChargeRecordPage />, '/historyRecord/chargeRecord');
      const ny = (await screen.findByText('4713')).closest('tr') as HTMLElement;
      // 23:30Z–00:30Z: 18:30–19:30 in New York (EST), 07:30–08:30 in Shanghai, 08:30–09:30 in Tokyo.
      expect(within(ny).getByText('2026-03-01 18:30:00')).toBeTruthy();
      expect(within(ny).getByText('2026-03-01 19:30:00')).toBeTruthy();
      const sh = screen.getByText('4711').closest('tr') as HTMLElement;
      expect(within(sh).getByText('2026-03-02 07:30:00')).toBeTruthy();
      expect(within(sh).getByText('2026-03-02 08:30:00')).toBeTruthy();
      // The browser's (Tokyo) end time of both rows appears nowhere.
      expect(container.textContent).not.toContain('2026-03-02 09:30:00');
      expect(screen.getByTestId('list-zone-note').textContent).toBe(
        'Times are in each station’s time zone; hover over a time to see which.',
      );
      fireEvent.mouseEnter(within(ny).getByText('2026-03-01 18:30:00'));
      expect((await screen.findByRole('tooltip')).textContent).toBe('Station time zone: America/New_York');
      expect(rawKeys(container.textContent ?? '')).toEqual([]);
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });

  it('asks before confirming, with the reason in words, then calls the server', async () => {
    const confirmed = vi.fn();
    answer({ detail: invalid, onConfirm: confirmed });
    renderWithProviders(<ChargeRecordPage />, '/historyRecord/chargeRecord');
    const bad = (await screen.findByText('4712')).closest('tr') as HTMLElement;
    fireEvent.click(within(bad).getByText('Confirm record'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Meter reading jumped beyond what the point can deliver');
    fireEvent.click(within(dialog).getByRole('button', { name: /OK|Confirm/ }));
    await waitFor(() => expect(confirmed).toHaveBeenCalledTimes(1));
  });

  it('shows a record closed late with its adjustment, in English and Chinese', async () => {
    answer({ list: [record, closedLate] });
    const { container } = renderWithProviders(<ChargeRecordPage />, '/historyRecord/chargeRecord');
    const late = (await screen.findByText('4714')).closest('tr') as HTMLElement;
    // When its Stop came, on the station's clock, and the correction with its sign.
    expect(within(late).getByText('2026-03-02 10:00:00')).toBeTruthy();
    expect(within(late).getByText('+3.00')).toBeTruthy();
    const onTime = screen.getByText('4711').closest('tr') as HTMLElement;
    expect(within(onTime).queryByText('+3.00')).toBeNull();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(
      expect.arrayContaining(['Closed late at', 'Bill adjustment ($)']),
    );
    await act(() => i18n.changeLanguage('zh-CN'));
    await waitFor(() =>
      expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(
        expect.arrayContaining(['补报结束时间', '账单调整（元）']),
      ),
    );
    expect(rawKeys(container.textContent ?? '')).toEqual([]);
    await act(() => i18n.changeLanguage('en-US'));
  }, 300_000);

  it('hides confirm without its permission', async () => {
    setSession({ roles: ['ops'], permissions: ['record:charge:list', 'record:charge:query'], providerId: 1, providerName: 'P' } as never);
    answer();
    renderWithProviders(<ChargeRecordPage />, '/historyRecord/chargeRecord');
    await screen.findByText('4712');
    expect(screen.queryByText('Confirm record')).toBeNull();
    expect(screen.queryByText('Export')).toBeNull();
  });
});

const at = (path: string, element: React.ReactNode) => (
  <Routes>
    <Route path={path} element={element} />
  </Routes>
);

describe('charging record detail and bill', () => {
  it('shows the session, the bill lines with their total, and the six process curves', async () => {
    answer();
    const { container } = renderWithProviders(
      at('/historyRecord/chargeRecord/detail/:id', <ChargeRecordDetailPage />),
      '/historyRecord/chargeRecord/detail/4711',
    );
    await screen.findByText('Charging record 4711');
    await screen.findByText('Harbour station');
    expect(screen.getAllByText('7.24').length).toBeGreaterThan(0);
    expect(screen.getByText('1.2345')).toBeTruthy();
    expect(screen.getAllByText('Peak').length).toBe(2);
    for (const key of ['powerW', 'soc', 'temperatureC', 'currentImportA', 'currentOfferedA', 'voltageV']) {
      const card = await screen.findByTestId(`curve-${key}`);
      await waitFor(() => expect(within(card).getByTestId('chart-line').getAttribute('data-points')).not.toBe('0'));
    }
    expect(within(screen.getByTestId('curve-temperatureC')).getByTestId('chart-line').getAttribute('data-points')).toBe('3');
    expect(screen.getByText('Output current (A)')).toBeTruthy();
    // Times on the station's clock (Asia/Shanghai), whatever the browser's zone: start, end, bill, curves.
    expect(screen.getByText('2026-03-02 07:30:00')).toBeTruthy();
    expect(screen.getByText('2026-03-02 08:30:00')).toBeTruthy();
    expect(screen.getByTestId('record-zone').textContent).toContain('Asia/Shanghai');
    expect(screen.getAllByText('2026-01-01 08:00:00')).toHaveLength(4);
    expect(rawKeys(container.textContent ?? '')).toEqual([]);
  });

  it('says a record was closed late and its bill corrected, with the adjustment lines beside the settled ones, in both languages', async () => {
    answer({ detail: closedLate });
    const { container } = renderWithProviders(
      at('/historyRecord/chargeRecord/detail/:id', <ChargeRecordDetailPage />),
      '/historyRecord/chargeRecord/detail/4714',
    );
    await screen.findByText('Charging record 4714');
    const alert = await screen.findByTestId('record-alert');
    expect(alert.textContent).toContain(
      'Closed late: the charger sent this session’s Stop at 2026-03-02 10:00:00, after the record had been closed as never stopped; it now shows the real end.',
    );
    expect(alert.textContent).toContain(
      'The settled bill was corrected by +3.00 for the real end (see the adjustment lines and the balance history).',
    );
    expect(screen.getByText('Closed late at')).toBeTruthy();
    expect(screen.getByText('Bill adjustment ($)')).toBeTruthy();
    expect(screen.getAllByText('Adjustment')).toHaveLength(2);
    // The lines' total is what was charged in all: the settled 7.24 and the 3.00 more.
    expect(screen.getByText('10.24')).toBeTruthy();
    await act(() => i18n.changeLanguage('zh-CN'));
    await waitFor(() => expect(screen.getByTestId('record-alert').textContent).toContain('于 2026-03-02 10:00:00 补报了结束'));
    expect(screen.getByTestId('record-alert').textContent).toContain('账单已于结算后按实际结束调整 +3.00');
    expect(screen.getAllByText('调整')).toHaveLength(2);
    expect(rawKeys(container.textContent ?? '')).toEqual([]);
    await act(() => i18n.changeLanguage('en-US'));
  });

  it('warns about an invalid record and offers its confirmation', async () => {
    answer({ detail: invalid });
    renderWithProviders(
      at('/historyRecord/chargeRecord/detail/:id', <ChargeRecordDetailPage />),
      '/historyRecord/chargeRecord/detail/4712',
    );
    const alert = await screen.findByTestId('record-alert');
    expect(alert.textContent).toContain('It is not billed until an operator confirms it');
    expect(screen.getByTestId('record-confirm')).toBeTruthy();
    expect(screen.getByText('No bill lines')).toBeTruthy();
  });

  it('prints a bill in the station’s local time, in Chinese too', async () => {
    await act(() => i18n.changeLanguage('zh-CN'));
    answer();
    const print = vi.fn();
    vi.stubGlobal('print', print);
    const { container } = renderWithProviders(
      at('/historyRecord/chargeRecord/print/:id', <ChargeRecordPrintPage />),
      '/historyRecord/chargeRecord/print/4711',
    );
    const bill = await screen.findByTestId('print-bill');
    expect(bill.textContent).toContain('充电账单');
    expect(bill.textContent).toContain('2026-03-02 07:30:00');
    expect(bill.textContent).toContain('Asia/Shanghai');
    expect(within(screen.getByTestId('bill-lines')).getAllByText('峰')).toHaveLength(2);
    expect(screen.getByTestId('bill-total').textContent).toBe('7.24');
    fireEvent.click(screen.getByTestId('print-button'));
    expect(print).toHaveBeenCalledTimes(1);
    expect(rawKeys(container.textContent ?? '')).toEqual([]);
    await act(() => i18n.changeLanguage('en-US'));
  });

  it('shows and prints the member, activity and voucher discounts as lines of their own, and the total after them', async () => {
    answer({ detail: discounted });
    const view = renderWithProviders(
      at('/historyRecord/chargeRecord/detail/:id', <ChargeRecordDetailPage />),
      '/historyRecord/chargeRecord/detail/4715',
    );
    const table = await screen.findByTestId('bill-discounts');
    expect(within(table).getByText('Member discount')).toBeTruthy();
    expect(within(table).getByText('Spring offer')).toBeTruthy();
    expect(within(table).getByText('-0.50')).toBeTruthy();
    expect(screen.getByTestId('bill-net-total').textContent).toBe('6.11');
    view.unmount();

    await act(() => i18n.changeLanguage('zh-CN'));
    const { container } = renderWithProviders(
      at('/historyRecord/chargeRecord/print/:id', <ChargeRecordPrintPage />),
      '/historyRecord/chargeRecord/print/4715',
    );
    await screen.findByTestId('print-bill');
    const lines = screen.getByTestId('bill-lines');
    expect(lines.querySelector('[data-discount="member"]')?.textContent).toContain('会员折扣');
    expect(lines.querySelector('[data-discount="activity"]')?.textContent).toContain('-0.28');
    expect(lines.querySelector('[data-discount="voucher"]')?.textContent).toContain('优惠券');
    expect(screen.getByTestId('bill-discount-total').textContent).toBe('-1.13');
    expect(screen.getByTestId('bill-total').textContent).toBe('6.11');
    expect(rawKeys(container.textContent ?? '')).toEqual([]);
    await act(() => i18n.changeLanguage('en-US'));
  });

  it('prints the adjustment of a record closed late beside the settled total', async () => {
    answer({ detail: closedLate });
    renderWithProviders(at('/historyRecord/chargeRecord/print/:id', <ChargeRecordPrintPage />), '/historyRecord/chargeRecord/print/4714');
    await screen.findByTestId('print-bill');
    expect(screen.getByTestId('bill-total').textContent).toBe('7.24');
    expect(screen.getByTestId('bill-adjustment').textContent).toBe('+3.00');
    expect(within(screen.getByTestId('bill-lines')).getAllByText(/\(Adjustment\)/)).toHaveLength(2);
  });
});

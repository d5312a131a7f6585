import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockFetch, polyfillDom, rawKeys, renderWithProviders, signInAdmin } from '../../shared/resource/test-kit';
import RevenueWidget, { bucketDays } from './revenue-widget';
import TodayWidget from './today-widget';
import AssetsWidget from './assets-widget';

beforeAll(() => {
  polyfillDom();
  signInAdmin();
});

const today = {
  date: '2026-03-02',
  timeZone: 'Asia/Shanghai',
  chargeCount: 3,
  energyWh: 12500,
  incomeCents: 72400,
  utilisation: 0.09375,
  connectorCount: 4,
  chargingSeconds: 16200,
};

function trend(period: string) {
  const n = period === 'day' ? 15 : 12;
  return {
    period,
    timeZone: 'Asia/Shanghai',
    points: Array.from({ length: n }, (_, i) => ({
      start: `2026-01-${String(i + 1).padStart(2, '0')}`,
      incomeCents: i * 100,
      energyWh: 0,
      chargeCount: 0,
    })),
  };
}

describe('dashboard statistics widgets', () => {
  it("shows today's energy in kWh, income in $, the count and utilisation in %", async () => {
    mockFetch((url) =>
      url.pathname.endsWith('/web/statistics/today') ? { code: 200, msg: 'ok', data: today } : { code: 404, msg: 'x', data: null },
    );
    const { container } = renderWithProviders(<TodayWidget />);
    await waitFor(() => expect(screen.getByTestId('today-energy').textContent).toContain('12.500'));
    expect(screen.getByTestId('today-income').textContent).toContain('724.00');
    expect(screen.getByTestId('today-count').textContent).toContain('3');
    expect(screen.getByTestId('today-utilisation').textContent).toContain('9.4');
    expect(screen.getByText('Income today ($)')).toBeTruthy();
    expect(rawKeys(container.textContent ?? '')).toEqual([]);
    // Each figure opens its list: today's records, or the sessions charging now.
    expect(screen.getByTestId('drill-today-income').getAttribute('href')).toBe(
      '/historyRecord/chargeRecord?startTime=2026-03-02&endTime=2026-03-02',
    );
    expect(screen.getByTestId('drill-today-utilisation').getAttribute('href')).toBe('/realTimeMonitor/charging');
  });

  it('switches the revenue trend between 15 days, 12 weeks and 12 months', async () => {
    const asked: string[] = [];
    mockFetch((url) => {
      if (!url.pathname.endsWith('/web/statistics/revenueTrend')) return { code: 404, msg: 'x', data: null };
      const period = url.searchParams.get('period') ?? 'day';
      asked.push(period);
      return { code: 200, msg: 'ok', data: trend(period) };
    });
    await act(() => i18n.changeLanguage('zh-CN'));
    renderWithProviders(<RevenueWidget />);
    // 0 + 100 + … + 1400 cents over 15 days.
    await waitFor(() => expect(screen.getByTestId('trend-total').textContent).toContain('105.00'));
    expect(screen.getByTestId('chart-line').getAttribute('data-points')).toBe('15');
    fireEvent.click(screen.getByText('近 12 个月'));
    await waitFor(() => expect(screen.getByTestId('chart-line').getAttribute('data-points')).toBe('12'));
    expect(screen.getByTestId('trend-total').textContent).toContain('66.00');
    expect(asked).toEqual(['day', 'month']);
    // The total opens the records of the whole span (from the first month's first day).
    expect(screen.getByTestId('drill-trend').getAttribute('href')).toMatch(
      /^\/historyRecord\/chargeRecord\?startTime=2026-01-01&endTime=\d{4}-\d{2}-\d{2}$/,
    );
    await act(() => i18n.changeLanguage('en-US'));
  });
});

describe('revenue trend drill-down', () => {
  it("opens a bucket's days: to the day before the next bucket, the last one to today", () => {
    const weeks = ['2026-02-09', '2026-02-16', '2026-02-23'];
    expect(bucketDays(weeks, 0, '2026-02-25')).toEqual({ startTime: '2026-02-09', endTime: '2026-02-15' });
    expect(bucketDays(weeks, 2, '2026-02-25')).toEqual({ startTime: '2026-02-23', endTime: '2026-02-25' });
    expect(bucketDays(['2026-01-01', '2026-02-01'], 0, '2026-02-03')).toEqual({ startTime: '2026-01-01', endTime: '2026-01-31' });
  });
});

describe('assets widget', () => {
  it('counts what the scope holds and opens each list', async () => {
    const assets = { stations: 3, points: 7, acPoints: 5, dcPoints: 2, acdcPoints: 0, connectors: 14, chargeUsers: 40, cards: 52 };
    mockFetch((url) =>
      url.pathname.endsWith('/web/statistics/assets') ? { code: 200, msg: 'ok', data: assets } : { code: 404, msg: 'x', data: null },
    );
    const { container } = renderWithProviders(<AssetsWidget />);
    await waitFor(() => expect(screen.getByTestId('assets-cards').textContent).toContain('52'));
    expect(screen.getByTestId('assets-connectors').textContent).toContain('14');
    expect(screen.getByText('AC 5 · DC 2 · AC/DC 0')).toBeTruthy();
    expect(screen.getByTestId('drill-assets-points').getAttribute('href')).toBe('/configurationManagement/stationManagement?tab=points');
    expect(screen.getByTestId('drill-assets-cards').getAttribute('href')).toBe('/userManagement/cardManage');
    expect(rawKeys(container.textContent ?? '')).toEqual([]);
  });
});

import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockFetch, polyfillDom, rawKeys, renderWithProviders, signInAdmin } from '../../shared/resource/test-kit';
import RevenueWidget from './revenue-widget';
import TodayWidget from './today-widget';

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
    expect(screen.getByTestId('chart-line').getAttribute('d')?.match(/[ML]/g)).toHaveLength(15);
    fireEvent.click(screen.getByText('近 12 个月'));
    await waitFor(() => expect(screen.getByTestId('chart-line').getAttribute('d')?.match(/[ML]/g)).toHaveLength(12));
    expect(screen.getByTestId('trend-total').textContent).toContain('66.00');
    expect(asked).toEqual(['day', 'month']);
    await act(() => i18n.changeLanguage('en-US'));
  });
});

import type { FinancialStats, OperationStats } from '@csms/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockFetch, polyfillDom, rawKeys, renderWithProviders, signInAdmin } from '../../shared/resource/test-kit';
import FinancialStatisticsPage from './financial-statistics.page';
import OperateStatisticsPage from './operate-statistics.page';
import { readStatsQuery, writeStatsQuery } from './stats-query';

beforeAll(() => {
  polyfillDom();
  signInAdmin();
});

const figures = {
  chargeCount: 3,
  energyWh: 10_000,
  chargingSeconds: 9000,
  onlineSeconds: 518_400,
  idleSeconds: 509_400,
  utilisation: 9000 / 518_400,
  averageSeconds: 3000,
  averageEnergyWh: 3333,
  faultCount: 1,
  faultyPoints: 1,
  pointCount: 2,
  connectorCount: 3,
  faultRate: 0.5,
};
const row = (id: number, name: string, energyWh: number) => ({ ...figures, id, name, stationName: name, energyWh });
const operation = (startDate: string): OperationStats => ({
  timeZone: 'Asia/Shanghai',
  startDate,
  endDate: startDate,
  totals: figures,
  series: [{ date: startDate, chargeCount: 3, energyWh: 10_000, chargingSeconds: 9000 }],
  heatmap: Array.from({ length: 7 }, (_, d) => Array.from({ length: 24 }, (_, h) => (d === 0 && h === 9 ? 2 : 0))),
  rowKind: 'station',
  rows: [row(1, 'Alpha', 7000), row(2, 'Bravo', 3000)],
  topStations: [row(1, 'Alpha', 7000), row(2, 'Bravo', 3000)],
  bottomStations: [row(2, 'Bravo', 3000), row(1, 'Alpha', 7000)],
  topPoints: [],
  bottomPoints: [],
});

describe('statistics query in the URL', () => {
  it('reads what it can, keeps only the days its period uses, and waits for both days of a custom range', () => {
    const q = readStatsQuery(new URLSearchParams('period=week&date=2026-03-04&stationId=7&pointId=x&startDate=2026-01-01'));
    expect(q).toMatchObject({ period: 'week', date: '2026-03-04', stationId: 7, pointId: undefined });
    expect(writeStatsQuery(q)).toEqual({ period: 'week', date: '2026-03-04', stationId: '7' });
    expect(readStatsQuery(new URLSearchParams('period=bogus')).period).toBe('day');
    expect(readStatsQuery(new URLSearchParams('period=custom&startDate=2026-01-01'))).toMatchObject({ startDate: undefined });
    expect(writeStatsQuery({ period: 'custom', startDate: '2026-01-01', endDate: '2026-01-31', date: '2026-02-02' })).toEqual({
      period: 'custom',
      startDate: '2026-01-01',
      endDate: '2026-01-31',
    });
  });
});

describe('operation statistics screen', () => {
  it('shows the totals with their units, the rankings and the table, and asks again when the period changes', async () => {
    const asked: string[] = [];
    mockFetch((url) => {
      if (url.pathname.endsWith('/web/statistics/operation')) {
        asked.push(url.searchParams.get('period') ?? '');
        return { code: 200, msg: 'ok', data: operation('2026-03-02') };
      }
      return { code: 200, msg: 'ok', data: [] };
    });
    const { container } = renderWithProviders(<OperateStatisticsPage />, '/operateManagement/operateStatistics?period=day&date=2026-03-02');
    await waitFor(() => expect(screen.getByTestId('stat-energy').textContent).toContain('10.000'));
    expect(screen.getByTestId('stat-utilisation').textContent).toContain('1.7');
    expect(screen.getByTestId('stat-faultRate').textContent).toContain('50.0');
    expect(screen.getByText('Energy (kWh)', { selector: '.ant-statistic-title' })).toBeTruthy();
    expect(within(screen.getByTestId('rank-topStations')).getAllByRole('row')[0]!.textContent).toContain('Alpha');
    expect(within(screen.getByTestId('rank-bottomStations')).getAllByRole('row')[0]!.textContent).toContain('Bravo');
    expect(within(screen.getByTestId('stats-table')).getByText('Bravo')).toBeTruthy();
    expect(screen.getByTestId('stats-zone').textContent).toContain('Asia/Shanghai');
    fireEvent.click(screen.getByText('Week'));
    await waitFor(() => expect(asked).toContain('week'));
    expect(asked[0]).toBe('day');
    expect(rawKeys(container.textContent ?? '')).toEqual([]);
  });
});

describe('financial statistics screen', () => {
  it('shows income by kind and hides the ledger figures a station does not have', async () => {
    const money = {
      billCount: 2,
      elecFeeCents: 1098,
      serviceFeeCents: 350,
      reserveFeeCents: 0,
      discountCents: -70,
      adjustmentCents: 0,
      incomeCents: 1378,
    };
    const none = { rechargeCents: null, refundCents: null, transferCents: null, invoicedCents: null, outstandingCents: null };
    const data: FinancialStats = {
      timeZone: 'Asia/Shanghai',
      startDate: '2026-03-02',
      endDate: '2026-03-02',
      totals: { ...money, ...none },
      series: [{ date: '2026-03-02', incomeCents: 1378, discountCents: -70, rechargeCents: null, refundCents: null }],
      rowKind: 'station',
      rows: [{ id: 5, name: 'Alpha', ...money, ...none }],
    };
    const asked: string[] = [];
    mockFetch((url) => {
      if (url.pathname.endsWith('/web/statistics/financial')) {
        asked.push(url.searchParams.get('groupBy') ?? '');
        return { code: 200, msg: 'ok', data };
      }
      return { code: 200, msg: 'ok', data: [] };
    });
    const { container } = renderWithProviders(
      <FinancialStatisticsPage />,
      '/financialManagement/financialStatistics?period=day&groupBy=station',
    );
    await waitFor(() => expect(screen.getByTestId('stat-income').textContent).toContain('13.78'));
    expect(screen.getByTestId('stat-discounts').textContent).toContain('-0.70');
    expect(screen.queryByTestId('stat-recharges')).toBeNull();
    expect(within(screen.getByTestId('stats-table')).getByText('Alpha')).toBeTruthy();
    expect(asked[0]).toBe('station');
    expect(rawKeys(container.textContent ?? '')).toEqual([]);
  });
});

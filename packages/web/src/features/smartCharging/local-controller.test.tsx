import type { ControllerLive, ControllerSample, LocalControllerDto } from '@csms/contract';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mockFetch, polyfillDom, rawKeys, renderWithProviders, signInAdmin, type Reply } from '../../shared/resource/test-kit';
import LoadBalancing from './load-balancing';
import SmartChargingPage from './smart-charging.page';

// ECharts needs a layout jsdom does not have; the chart's own module is exercised by the build.
vi.mock('./controller-chart', () => ({
  default: ({ samples }: { samples: ControllerSample[] }) => <div data-testid="chart-stub">{samples.length}</div>,
}));

const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });

const live: ControllerLive = {
  id: 7,
  name: 'Garage B2',
  limitW: 30_000,
  allocatedW: 29_000,
  measuredW: 24_500,
  plannedTime: '2025-01-02T03:04:05Z',
  connectors: [
    {
      serialNumber: 'CP-1',
      connectorNo: 1,
      transactionId: 11,
      state: 'charging',
      priority: true,
      allocatedW: 22_000,
      measuredW: 21_900,
      answer: 'accepted',
    },
    {
      serialNumber: 'CP-2',
      connectorNo: 2,
      transactionId: 12,
      state: 'charging',
      priority: false,
      allocatedW: 7_000,
      measuredW: 2_600,
      answer: 'rejected',
    },
    {
      serialNumber: 'CP-3',
      connectorNo: 1,
      transactionId: 13,
      state: 'waiting',
      priority: false,
      allocatedW: 0,
      measuredW: null,
      answer: null,
    },
    {
      serialNumber: 'CP-4',
      connectorNo: 1,
      transactionId: 14,
      state: 'offline',
      priority: false,
      allocatedW: 0,
      measuredW: null,
      answer: 'offline',
    },
  ],
};
const samples: ControllerSample[] = [
  { at: '2025-01-02T03:00:00Z', limitW: 30_000, allocatedW: 22_000, measuredW: 21_000 },
  { at: '2025-01-02T03:04:05Z', limitW: 30_000, allocatedW: 29_000, measuredW: 24_500 },
];
const controller: LocalControllerDto = {
  id: 7,
  name: 'Garage B2',
  description: null,
  providerId: 1,
  providerName: 'CSMS',
  stationId: 3,
  stationName: 'Pudong Hub',
  limitW: 30_000,
  minCurrentA: 6,
  serialNumbers: ['CP-1', 'CP-2'],
  prioritySerialNumbers: ['CP-2'],
  priorityGroupIds: [],
  priorityGroupNames: [],
  ratedSumW: 44_000,
  createTime: '2025-01-02T03:04:05Z',
  updateTime: '2025-01-02T03:04:05Z',
};
const point = (serialNumber: string) => ({
  id: Number(serialNumber.slice(3)),
  serialNumber,
  pointName: `Bay ${serialNumber}`,
  stationId: 3,
  stationName: 'Pudong Hub',
  providerId: 1,
  connectors: [{ connectorNo: 1, connectorName: '1', standard: 'ac', type: 'type2' }],
});

const bodies: Record<string, unknown[]> = {};
function server(extra: Reply = () => undefined) {
  for (const k of Object.keys(bodies)) delete bodies[k];
  return mockFetch((url, init) => {
    const p = url.pathname;
    if (init?.body && typeof init.body === 'string') (bodies[p] ??= []).push(JSON.parse(init.body));
    const own = extra(url, init);
    if (own !== undefined) return own;
    if (p.endsWith('/web/localController/live')) return ok([live]);
    if (p.endsWith('/web/localController/history')) return ok(samples);
    if (p.endsWith('/web/localController/list')) return ok({ list: [controller], total: 1 });
    if (p.endsWith('/web/localController/get')) return ok(controller);
    if (p.endsWith('/web/getStations')) return ok([{ id: 3, stationName: 'Pudong Hub' }]);
    if (p.endsWith('/web/getPoints')) return ok([point('CP-1'), point('CP-2'), point('CP-3')]);
    return { code: 404, msg: 'x', data: null };
  });
}

const button = (label: string) =>
  screen.getAllByRole('button').find((b) => b.textContent?.replace(/\s/g, '') === label.replace(/\s/g, ''))!;

beforeAll(() => {
  polyfillDom();
  signInAdmin();
});
afterEach(async () => {
  cleanup();
  await act(() => i18n.changeLanguage('en-US'));
});

describe('load balancing', () => {
  it("shows each controller's sums and its connectors' states in both languages, without raw keys", async () => {
    const fetch = server();
    for (const [lng, words] of [
      [
        'en-US',
        [
          'Load balancing',
          'Limit power (W)',
          'Allocated (W)',
          'Measured (W)',
          'Charging',
          'Waiting (0 W)',
          'Offline (last allocation kept)',
          'Accepted',
          'Rejected',
          'Last hour',
        ],
      ],
      [
        'zh-CN',
        [
          '负载均衡',
          '限制功率（W）',
          '分配功率（W）',
          '实测功率（W）',
          '充电中',
          '排队等待（0 W）',
          '离线（保留上次分配）',
          '已接受',
          '已拒绝',
          '最近一小时',
        ],
      ],
    ] as const) {
      await act(() => i18n.changeLanguage(lng));
      const view = renderWithProviders(<SmartChargingPage />, '/realTimeMonitor/smartCharging?tab=loadBalancing');
      const card = await screen.findByTestId('live-controller');
      expect(within(card).getByText('Garage B2')).toBeTruthy();
      expect(within(card).getByTestId('live-limit').textContent).toBe('30000');
      expect(within(card).getByTestId('live-allocated').textContent).toBe('29000');
      expect(within(card).getByTestId('live-measured').textContent).toBe('24500');
      expect(within(card).getByTestId('live-usage').textContent).toContain('82%');
      const rows = within(card).getByTestId('live-connectors').querySelectorAll('tbody tr.ant-table-row');
      expect([...rows].map((r) => r.querySelector('[data-state]')?.getAttribute('data-state'))).toEqual([
        'charging',
        'charging',
        'waiting',
        'offline',
      ]);
      expect(rows[0]!.textContent).toContain('21900');
      // The last hour, from the history of this controller.
      expect((await within(card).findByTestId('chart-stub')).textContent).toBe('2');
      for (const word of words) expect(screen.getAllByText(word).length, `${lng} ${word}`).toBeGreaterThan(0);
      expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
      cleanup();
    }
    const history = fetch.mock.calls.map((c) => new URL(String(c[0]), 'http://localhost')).find((u) => u.pathname.endsWith('/history'));
    expect(history?.searchParams.get('id')).toBe('7');
  });

  it('says when there is no controller yet and leads to the tab that adds one', async () => {
    server((url) => (url.pathname.endsWith('/web/localController/live') ? ok([]) : undefined));
    const opened = vi.fn();
    renderWithProviders(<LoadBalancing onOpenControllers={opened} />);
    const empty = await screen.findByTestId('live-empty');
    expect(empty.textContent).toContain('No local controllers yet. Add one in the Local smart charging tab');
    fireEvent.click(within(empty).getByRole('button'));
    expect(opened).toHaveBeenCalled();
  });
});

describe('local controllers', () => {
  it('refuses priority points that are not among the chosen points, with the contract’s message', async () => {
    server();
    renderWithProviders(<SmartChargingPage />, '/realTimeMonitor/smartCharging?tab=localController');
    const row = (await screen.findByText('Garage B2')).closest('tr')!;
    fireEvent.click(within(row).getByText('Edit'));
    const dialog = (await screen.findAllByRole('dialog'))[0]!;
    const points = within(dialog).getByTestId('controller-points');
    // CP-2, a priority point, is taken out of the controller's points.
    const cp2 = await waitFor(() => {
      const tag = [...points.querySelectorAll('[title]')].find((n) => n.getAttribute('title')?.startsWith('CP-2'));
      expect(tag).toBeTruthy();
      return tag!.closest('.ant-select-selection-item')!;
    });
    fireEvent.click(cp2.querySelector('.ant-select-selection-item-remove')!);
    await waitFor(() => expect(within(points).queryByTitle(/^CP-2/)).toBeNull());
    fireEvent.click(button('OK'));
    expect(await within(dialog).findByText('Priority points must be among the controller’s points')).toBeTruthy();
    expect(bodies['/prod-api/web/localController/edit']).toBeUndefined();
  });
});

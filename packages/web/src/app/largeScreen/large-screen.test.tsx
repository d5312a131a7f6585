import { dictEntries, type BoardStation, type DictType } from '@csms/contract';
import { act, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeEvents } from '../../shared/events';
import { mockFetch, polyfillDom, rawKeys, renderWithProviders, signInAdmin } from '../../shared/resource/test-kit';
import { clusterIndex, clusterState, isCluster } from './board-clusters';
import { fitScale, ranking, stationState } from './board-state';
import LargeScreenPage from './large-screen.page';

// Leaflet needs a layout jsdom has not: the map is tested in the browser (e2e/screens.spec.ts).
vi.mock('./board-map', () => ({
  default: ({ stations }: { stations: BoardStation[] }) => <div data-testid="board-map">{stations.length}</div>,
}));

class FakeSource {
  static all: FakeSource[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((e: MessageEvent<string>) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSource.all.push(this);
  }
  addEventListener() {}
  close() {}
  send(event: Record<string, unknown>) {
    this.onmessage?.({ data: JSON.stringify(event) } as MessageEvent<string>);
  }
}

beforeAll(() => {
  polyfillDom();
  signInAdmin();
});
afterEach(() => closeEvents());

const station = (id: number, name: string, x: Partial<BoardStation>): BoardStation => ({
  stationId: id,
  stationName: name,
  longitude: 121.4 + id / 100,
  latitude: 31.2,
  connectors: 2,
  available: 0,
  charging: 0,
  faulted: 0,
  offline: 0,
  unavailable: 0,
  powerW: 0,
  chargeCount: 0,
  energyWh: 0,
  incomeCents: 0,
  ...x,
});

describe('the large screen', () => {
  it('clusters near stations at a low zoom, never hiding a fault, and splits them when zoomed in', () => {
    const near = [
      station(1, 'A', { available: 2 }),
      station(2, 'B', { faulted: 1, powerW: 7000 }),
      station(3, 'C', { charging: 1, powerW: 11_000 }),
    ];
    const far = station(4, 'D', { charging: 1, longitude: 2.35, latitude: 48.85 });
    const index = clusterIndex([...near, far]);
    const world: [number, number, number, number] = [-180, -85, 180, 85];
    const low = index.getClusters(world, 4);
    expect(low).toHaveLength(2);
    const cluster = low.find(isCluster)!;
    expect(cluster.properties).toMatchObject({ stations: 3, powerW: 18_000, charging: 1, connectors: 6 });
    expect(clusterState(cluster.properties)).toBe('faulted');
    expect(index.getClusters(world, 16).filter((f) => !isCluster(f))).toHaveLength(4);
    expect(index.getClusterExpansionZoom(cluster.properties.cluster_id)).toBeGreaterThan(4);
  });

  it('ranks, colours and scales as the wall needs', () => {
    expect(stationState({ faulted: 1, charging: 1, available: 1 })).toBe('faulted');
    expect(stationState({ faulted: 0, charging: 1, available: 1 })).toBe('charging');
    expect(stationState({ faulted: 0, charging: 0, available: 1 })).toBe('available');
    expect(stationState({ faulted: 0, charging: 0, available: 0 })).toBe('offline');
    const list = [station(1, 'B', { incomeCents: 100 }), station(2, 'A', { incomeCents: 100 }), station(3, 'C', { incomeCents: 900 })];
    expect(ranking(list).map((s) => s.stationName)).toEqual(['C', 'A', 'B']);
    expect(fitScale({ width: 3840, height: 2160 })).toBe(2);
    expect(fitScale({ width: 1440, height: 900 })).toBe(0.75);
  });

  it("shows today's figures, the power drawn now, the ranking and the stations' states, and reads them again on charger events", async () => {
    vi.stubGlobal('EventSource', FakeSource);
    FakeSource.all = [];
    let incomeCents = 1234;
    let boardReads = 0;
    mockFetch((url) => {
      const data = (d: unknown) => ({ code: 200, msg: 'ok', data: d });
      if (url.pathname.endsWith('/web/statistics/stationBoard')) {
        boardReads++;
        return data({
          date: '2026-03-02',
          timeZone: 'Asia/Shanghai',
          truncated: false,
          stations: [
            station(1, 'Pudong Hub', { charging: 1, available: 1, powerW: 7200, incomeCents }),
            station(2, 'Xuhui Mall', { faulted: 1, incomeCents: 500 }),
            station(3, 'Minhang Depot', { offline: 2 }),
          ],
        });
      }
      if (url.pathname.endsWith('/web/statistics/today'))
        return data({
          date: '2026-03-02',
          timeZone: 'Asia/Shanghai',
          chargeCount: 7,
          energyWh: 42_500,
          incomeCents: 1734,
          utilisation: 0.25,
          connectorCount: 6,
          chargingSeconds: 100,
        });
      if (url.pathname.endsWith('/web/monitor/counts'))
        return data({
          total: 6,
          connected: 4,
          free: 1,
          charging: 1,
          unavailable: 0,
          offline: 2,
          fault: 1,
          pointsOnline: 2,
          pointsOffline: 1,
        });
      if (url.pathname.endsWith('/web/monitor/powerTrend')) return data({ bucketMinutes: 15, points: [] });
      if (url.pathname.endsWith('/web/monitor/faults'))
        return data([
          {
            alarmId: 9,
            stationName: 'Xuhui Mall',
            serialNumber: 'SN-9',
            pointName: 'p',
            connectorNo: 1,
            level: 'serious',
            status: 'open',
            errorCode: 'GroundFailure',
            info: null,
            occurredAt: '2026-03-02T01:00:00Z',
          },
        ]);
      if (url.pathname.includes('/dict/data/type/'))
        return data(dictEntries(i18n.language.startsWith('en') ? 'en' : 'zh', url.pathname.split('/').pop() as DictType));
      if (url.pathname.includes('/configKey/')) return data('');
      return { code: 404, msg: 'x', data: null };
    });
    await act(() => i18n.changeLanguage('en-US'));
    const { container } = renderWithProviders(<LargeScreenPage />, '/largeScreen');

    await waitFor(() => expect(screen.getByTestId('board-power').textContent).toContain('7.20'));
    expect(screen.getByTestId('board-energy').textContent).toContain('42.500');
    expect(screen.getByTestId('board-income').textContent).toContain('17.34');
    expect(screen.getByTestId('board-count').textContent).toContain('7');
    expect(screen.getByTestId('board-utilisation').textContent).toContain('25.0');
    expect([...screen.getByTestId('board-ranking').querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      'Pudong Hub12.34',
      'Xuhui Mall5.00',
      'Minhang Depot0.00',
    ]);
    expect(screen.getByTestId('board-state-faulted').textContent).toBe('1');
    expect(screen.getByTestId('board-state-charging').textContent).toBe('1');
    expect(screen.getByTestId('board-state-offline').textContent).toBe('1');
    // The fault's code in words, in the screen's language.
    await waitFor(() => expect(screen.getByTestId('board-faults').textContent).toContain('Ground failure'));
    expect(rawKeys(container.textContent ?? '')).toEqual([]);

    // A session ends: once the burst is over the board is read again, and the ranking follows.
    const reads = boardReads;
    incomeCents = 99;
    act(() => FakeSource.all[0]!.send({ type: 'transaction.stopped', transactionId: 1, chargePointId: 1, connectorNo: 1 }));
    await waitFor(() => expect(boardReads).toBeGreaterThan(reads));
    await waitFor(() =>
      expect([...screen.getByTestId('board-ranking').querySelectorAll('li')].map((li) => li.textContent)[0]).toBe('Xuhui Mall5.00'),
    );

    await act(() => i18n.changeLanguage('zh-CN'));
    expect(screen.getByText('充电网络实时大屏')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('board-faults').textContent).toContain('接地故障'));
    expect(rawKeys(container.textContent ?? '')).toEqual([]);
  });
});

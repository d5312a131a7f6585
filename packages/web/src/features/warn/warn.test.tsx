import type { StationWeatherDto, WarningDto, WarningRulesDto, WeatherFeedDto } from '@csms/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setSession } from '../../shared/auth/session';
import { buttonByText, mockFetch, rawKeys, renderWithProviders, signInAdmin, type Reply } from '../../shared/resource/test-kit';
import WarnPage from './warn.page';

const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });

const warning = (id: number, extra: Partial<WarningDto> = {}): WarningDto => ({
  id,
  providerId: 1,
  providerName: 'CSMS',
  stationId: 3,
  stationName: 'Pudong Hub',
  kind: 'heat',
  level: 'high',
  day: '2026-07-21',
  source: 'forecast',
  state: 'active',
  value: 41,
  threshold: 35,
  note: null,
  createdByName: null,
  createTime: '2026-07-20T08:00:00.000Z',
  updateTime: '2026-07-20T08:00:00.000Z',
  endedAt: null,
  endedByName: null,
  ...extra,
});
const manual = warning(2, {
  kind: 'storm',
  level: 'medium',
  source: 'manual',
  value: null,
  threshold: null,
  note: 'Typhoon',
  createdByName: 'Ann',
});

const station: StationWeatherDto = {
  stationId: 3,
  stationName: 'Pudong Hub',
  providerId: 1,
  providerName: 'CSMS',
  timeZone: 'Asia/Shanghai',
  latitude: 31.2,
  longitude: 121.5,
  fetchedAt: '2026-07-20T06:00:00.000Z',
  days: [
    { day: '2026-07-20', tempMaxC: 33, tempMinC: 26, precipitationMm: 0, windMaxKmh: 14, weatherCode: 2 },
    { day: '2026-07-21', tempMaxC: 41, tempMinC: 29, precipitationMm: 3.5, windMaxKmh: 20, weatherCode: 61 },
    { day: '2026-07-22', tempMaxC: 30, tempMinC: 24, precipitationMm: 62, windMaxKmh: 70, weatherCode: 95 },
  ],
  warnings: [warning(1), manual],
};

const rules: WarningRulesDto = {
  providerId: 1,
  providerName: 'CSMS',
  heatMaxC: 35,
  frostMinC: 0,
  stormWindKmh: 62,
  heavyRainMm: 50,
  isDefault: true,
  updatedByName: null,
  updateTime: null,
};

const off: WeatherFeedDto = {
  enabled: false,
  refreshHours: 3,
  lastRunAt: null,
  lastSuccessAt: null,
  lastError: null,
  lastErrorAt: null,
  stations: 0,
  failedLocations: 0,
  nextRunAt: null,
};

const bodies: Record<string, unknown[]> = {};
function server(feed: WeatherFeedDto = off, extra: Reply = () => undefined) {
  for (const k of Object.keys(bodies)) delete bodies[k];
  return mockFetch((url, init) => {
    const p = url.pathname;
    if (init?.body && typeof init.body === 'string') (bodies[p] ??= []).push(JSON.parse(init.body));
    const own = extra(url, init);
    if (own !== undefined) return own;
    if (p.endsWith('/web/warn/feed')) return ok(feed);
    if (p.endsWith('/web/warn/searchStationWeather')) return ok({ list: [station], total: 1 });
    if (p.endsWith('/web/warn/list')) return ok({ list: [warning(1), manual], total: 2 });
    if (p.endsWith('/web/warn/getRules')) return ok(rules);
    if (p.endsWith('/web/warn/saveRules')) return ok({ ...rules, isDefault: false });
    if (p.endsWith('/web/warn/refresh')) return ok({ queued: true });
    if (p.endsWith('/web/getAllProviders')) return ok([{ id: 1, providerName: 'CSMS' }]);
    if (p.endsWith('/web/getStations')) return ok([{ id: 3, stationName: 'Pudong Hub', providerId: 1, providerName: 'CSMS' }]);
    return { code: 404, msg: 'x', data: null };
  });
}

const stationRow = () => screen.getByText('Pudong Hub', { selector: 'td, td *' }).closest('tr')!;

beforeAll(signInAdmin);
afterEach(signInAdmin);

describe('warning management', () => {
  it('says the feed is off and shows each station’s forecast in words and its warnings as coloured tags, in both languages', async () => {
    server();
    for (const [lng, words] of [
      [
        'en-US',
        [
          'Weather feed is off',
          'Partly cloudy',
          'Light rain',
          'Thunderstorm',
          '41° / 29°',
          'Rain 62 mm · wind 70 km/h',
          'Heat 07-21',
          'Storm 07-21',
        ],
      ],
      ['zh-CN', ['天气预报未开启', '多云', '小雨', '雷暴', '41° / 29°', '降水 62 mm · 风速 70 km/h', '高温 07-21', '大风 07-21']],
    ] as const) {
      await act(() => i18n.changeLanguage(lng));
      const view = renderWithProviders(<WarnPage />, '/workOrder/warnManage');
      await screen.findByText('Pudong Hub', { selector: 'td, td *' });
      for (const word of words) expect(screen.getAllByText(word).length, `${lng} ${word}`).toBeGreaterThan(0);
      expect(screen.getByTestId('warn-feed').getAttribute('data-feed')).toBe('off');
      // No "fetch now" without a feed.
      expect(screen.queryByTestId('warn-fetch-now')).toBeNull();
      const tags = [...stationRow().querySelectorAll('[data-warning]')].map((e) => [
        e.getAttribute('data-warning'),
        e.getAttribute('data-level'),
      ]);
      expect(tags).toEqual([
        ['heat:2026-07-21', 'high'],
        ['storm:2026-07-21', 'medium'],
      ]);
      expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
      view.unmount();
    }
    await act(() => i18n.changeLanguage('en-US'));
  });

  it('shows the feed’s last error and fetches on request', async () => {
    server({
      ...off,
      enabled: true,
      lastRunAt: '2026-07-20T06:00:00.000Z',
      lastErrorAt: '2026-07-20T06:00:00.000Z',
      lastSuccessAt: '2026-07-20T03:00:00.000Z',
      lastError: '1 of 2 locations failed: The forecast service answered HTTP 503',
      failedLocations: 1,
      nextRunAt: '2026-07-20T09:00:00.000Z',
    });
    renderWithProviders(<WarnPage />, '/workOrder/warnManage');
    const banner = await screen.findByTestId('warn-feed');
    expect(banner.getAttribute('data-feed')).toBe('error');
    expect(banner.textContent).toContain('1 of 2 locations failed: The forecast service answered HTTP 503');
    fireEvent.click(screen.getByTestId('warn-fetch-now'));
    await waitFor(() => expect(bodies['/prod-api/web/warn/refresh']).toEqual([{}]));
    expect(await screen.findByText('Fetching the forecast; refresh the list shortly to see it')).toBeTruthy();
  });

  it('edits the rules: refuses a threshold out of bounds, and saves an emptied one as off', async () => {
    server();
    renderWithProviders(<WarnPage />, '/workOrder/warnManage');
    fireEvent.click(await screen.findByTestId('warn-rules-open'));
    // The dialog shows once the rules are read.
    const heat = await screen.findByLabelText('Heat threshold (max temperature ≥ °C)');
    const dialog = heat.closest<HTMLElement>('.ant-modal')!;
    expect(dialog.textContent).toContain('These are the default rules');
    await waitFor(() => expect((heat as HTMLInputElement).value).toBe('35'));
    fireEvent.change(heat, { target: { value: '75' } });
    fireEvent.click(buttonByText('OK', dialog));
    expect(await within(dialog).findByText(/Heat threshold.*60/)).toBeTruthy();
    expect(bodies['/prod-api/web/warn/saveRules']).toBeUndefined();
    fireEvent.change(heat, { target: { value: '38' } });
    fireEvent.change(within(dialog).getByLabelText('Heavy rain threshold (rain per day ≥ mm)'), { target: { value: '' } });
    fireEvent.click(buttonByText('OK', dialog));
    await waitFor(() =>
      expect(bodies['/prod-api/web/warn/saveRules']).toEqual([
        { providerId: 1, heatMaxC: 38, frostMinC: 0, stormWindKmh: 62, heavyRainMm: null },
      ]),
    );
  });

  it('lets operators edit and remove manual warnings only, and end either', async () => {
    server();
    renderWithProviders(<WarnPage />, '/workOrder/warnManage?tab=warnings');
    await screen.findByText('Typhoon', { selector: 'td, td *' });
    const rowWith = (start: string) => [...document.querySelectorAll('tbody tr')].find((tr) => tr.textContent?.startsWith(start))!;
    const buttons = (text: string) =>
      [...rowWith(text).querySelectorAll('button')].map((b) => b.textContent?.replace(/\s/g, '')).filter(Boolean);
    // The forecast's warning is read-only; the manual one is the operators' (delete and end in "More").
    expect(buttons('1Pudong')).toEqual(['Details', 'End']);
    expect(buttons('2Pudong')).toEqual(['Details', 'Edit', 'More']);
  });

  it('hides the rules and the fetch from a user who may only look', async () => {
    server({ ...off, enabled: true });
    setSession({ roles: ['ops'], permissions: ['workOrder:warn:list'], providerId: 1, providerName: 'P' } as never);
    renderWithProviders(<WarnPage />, '/workOrder/warnManage');
    await screen.findByText('Pudong Hub', { selector: 'td, td *' });
    expect(screen.queryByTestId('warn-rules-open')).toBeNull();
    expect(screen.queryByTestId('warn-fetch-now')).toBeNull();
  });
});

import { act, screen } from '@testing-library/react';
import dayjs from 'dayjs';
import i18n from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useResourceText } from './labels';
import { formToQuery, SearchBar } from './SearchBar';
import { mockFetch, renderWithProviders, signInAdmin } from './test-kit';
import type { SearchDef } from './types';

const search = [{ key: 'timeRange', kind: 'dateRange', keys: ['startTime', 'endTime'], zoneDays: true }] as SearchDef[];

function Bar({ query }: { query: Record<string, unknown> }) {
  const text = useResourceText('chargeRecord');
  return <SearchBar name="chargeRecord" search={search} query={query} text={text} onSearch={() => {}} onReset={() => {}} />;
}

function serve() {
  const asked: string[] = [];
  mockFetch((url) => {
    asked.push(url.search);
    const station = url.searchParams.get('stationId');
    return {
      code: 200,
      msg: 'ok',
      data: station
        ? { timeZone: 'America/New_York', stationId: Number(station), stationName: 'Harbour' }
        : { timeZone: 'UTC', stationId: null, stationName: null },
    };
  });
  return asked;
}

beforeAll(signInAdmin);
afterAll(() => i18n.changeLanguage('en-US'));

describe('record time filters in the zone of the list', { timeout: 60_000 }, () => {
  it('send whole days for the server to bound', () => {
    const range = [dayjs('2026-01-10T23:30:00'), dayjs('2026-01-12T00:10:00')];
    expect(formToQuery(search, { timeRange: range })).toEqual({ startTime: '2026-01-10', endTime: '2026-01-12' });
  });

  it("name the station's zone when the list is of one station, else the default one, in both languages", async () => {
    const asked = serve();
    const one = renderWithProviders(<Bar query={{ stationId: 3 }} />);
    expect((await screen.findByTestId('day-zone', {}, { timeout: 20_000 })).textContent).toBe(
      'Days in the time of Harbour (America/New_York)',
    );
    expect(asked).toContain('?stationId=3');
    one.unmount();
    const all = renderWithProviders(<Bar query={{}} />);
    expect((await screen.findByTestId('day-zone', {}, { timeout: 20_000 })).textContent).toBe(
      'Days in UTC time; choose one station for its own',
    );
    all.unmount();
    await act(() => i18n.changeLanguage('zh-CN'));
    renderWithProviders(<Bar query={{ stationId: 3 }} />);
    expect((await screen.findByTestId('day-zone', {}, { timeout: 20_000 })).textContent).toBe(
      '按场站“Harbour”的时间（America/New_York）计日',
    );
  });
});

import { dictEntries, type AlarmRecordDto, type DictType } from '@csms/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockFetch, polyfillDom, rawKeys, renderWithProviders, signInAdmin } from '../../shared/resource/test-kit';
import AlarmRecordPage from './alarm-record.page';

const alarm: AlarmRecordDto = {
  id: 31,
  providerId: 1,
  providerName: 'Demo provider',
  stationId: 3,
  stationName: 'Harbour station',
  stationTimeZone: 'Asia/Shanghai',
  chargePointId: 9,
  serialNumber: 'SN-0009',
  pointName: 'Bay 9',
  connectorNo: 1,
  level: 'serious',
  status: 'Faulted',
  errorCode: 'GroundFailure',
  info: 'RCD tripped',
  vendorErrorCode: null,
  occurTime: '2026-03-01T00:00:00.000Z',
  clearTime: '2026-03-01T00:10:30.000Z',
  state: 'cleared',
  durationSec: 630,
};

beforeAll(() => {
  polyfillDom();
  signInAdmin();
});

const answer = (list: AlarmRecordDto[]) =>
  mockFetch((url) => {
    const p = url.pathname;
    if (p.startsWith('/prod-api/system/dict/data/type/'))
      return { code: 200, msg: 'ok', data: dictEntries('en', p.split('/').pop() as DictType) };
    if (p.endsWith('/web/alarmRecord/list')) return { code: 200, msg: 'ok', data: { list, total: list.length } };
    return { code: 200, msg: 'ok', data: [] };
  });

describe('alarm records', () => {
  it('lists faults with level, error code and state in words, and the search by time, station, level and state', async () => {
    const fetch = answer([alarm]);
    const { container } = renderWithProviders(<AlarmRecordPage />, '/historyRecord/alarmRecord?level=serious&state=cleared');
    const row = (await screen.findByText('RCD tripped')).closest('tr') as HTMLElement;
    await waitFor(() => expect(within(row).getByText('Ground failure')).toBeTruthy());
    for (const text of ['Serious', 'Cleared', '0:10:30', 'SN-0009']) expect(within(row).getByText(text)).toBeTruthy();
    for (const label of ['Occurred', 'Level', 'State', 'Error code', 'Export'])
      expect(screen.getAllByText(label).length).toBeGreaterThan(0);
    const listCall = fetch.mock.calls.map((c) => new URL(String(c[0]), 'http://localhost')).find((u) => u.pathname.endsWith('/list'))!;
    expect(Object.fromEntries(listCall.searchParams)).toMatchObject({ level: 'serious', state: 'cleared' });
    expect(rawKeys(container.textContent ?? '')).toEqual([]);
  });

  it('shows occurred and cleared times on the station’s clock, whatever the browser’s zone, and names the zone', async () => {
    // A browser zone unlike both stations', so the browser's clock would show other times.
    const tz = process.env.TZ;
    process.env.TZ = 'Asia/Tokyo';
    try {
      answer([alarm, { ...alarm, id: 32, info: 'Lid open', stationTimeZone: 'America/New_York' }]);
      const { container } = renderWithProviders(<AlarmRecordPage />, '/historyRecord/alarmRecord');
      const ny = (await screen.findByText('Lid open')).closest('tr') as HTMLElement;
      // 00:00Z and 00:10:30Z: the evening before in New York (EST), 08:00 in Shanghai, 09:00 in Tokyo.
      expect(within(ny).getByText('2026-02-28 19:00:00')).toBeTruthy();
      expect(within(ny).getByText('2026-02-28 19:10:30')).toBeTruthy();
      const sh = screen.getByText('RCD tripped').closest('tr') as HTMLElement;
      expect(within(sh).getByText('2026-03-01 08:00:00')).toBeTruthy();
      expect(within(sh).getByText('2026-03-01 08:10:30')).toBeTruthy();
      expect(container.textContent).not.toContain('2026-03-01 09:00:00');
      expect(screen.getByTestId('list-zone-note').textContent).toBe(
        'Times are in each station’s time zone; hover over a time to see which.',
      );
      fireEvent.mouseEnter(within(ny).getByText('2026-02-28 19:00:00'));
      expect((await screen.findByRole('tooltip')).textContent).toBe('Station time zone: America/New_York');
      expect(rawKeys(container.textContent ?? '')).toEqual([]);
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });
});

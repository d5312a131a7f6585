import { dictEntries, type AlarmRecordDto, type DictType } from '@csms/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockFetch, polyfillDom, rawKeys, renderWithProviders, signInAdmin } from '../../shared/resource/test-kit';
import AlarmRecordPage from './alarm-record.page';

const alarm: AlarmRecordDto = {
  id: 31,
  providerId: 1,
  providerName: 'Demo provider',
  stationId: 3,
  stationName: 'Harbour station',
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

describe('alarm records', { timeout: 60_000 }, () => {
  it('lists faults with level, error code and state in words, and the search by time, station, level and state', async () => {
    const fetch = mockFetch((url) => {
      const p = url.pathname;
      if (p.startsWith('/prod-api/system/dict/data/type/'))
        return { code: 200, msg: 'ok', data: dictEntries('en', p.split('/').pop() as DictType) };
      if (p.endsWith('/web/alarmRecord/list')) return { code: 200, msg: 'ok', data: { list: [alarm], total: 1 } };
      return { code: 200, msg: 'ok', data: [] };
    });
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
});

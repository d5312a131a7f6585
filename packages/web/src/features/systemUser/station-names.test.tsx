import { act, screen } from '@testing-library/react';
import i18n from 'i18next';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../shared/resource/test-kit';
import { StationNames } from './station-names';

const stations = [
  { id: 3, stationName: 'Pudong Hub', providerId: 1, providerName: 'CSMS' },
  { id: 4, stationName: 'Riverside', providerId: 1, providerName: 'CSMS' },
];

describe('bound stations', () => {
  it('names the stations a user is bound to, from the station picker list', async () => {
    const fetch = mockFetch((url) =>
      url.pathname.endsWith('/web/getStations') ? { code: 200, msg: 'ok', data: stations } : { code: 404, msg: 'x', data: null },
    );
    renderWithProviders(<StationNames ids={[4, 3, 99]} />);
    expect(await screen.findByText('Riverside, Pudong Hub, #99')).toBeTruthy();
    expect(fetch.mock.calls.map(([u]) => new URL(String(u), 'http://x').pathname)).toEqual(['/prod-api/web/getStations']);
  });

  it('says "all stations" for a user bound to none, without asking the server', async () => {
    const fetch = mockFetch(() => ({ code: 200, msg: 'ok', data: [] }));
    renderWithProviders(<StationNames ids={[]} />);
    expect(screen.getByText('All stations')).toBeTruthy();
    await act(() => i18n.changeLanguage('zh-CN'));
    expect(screen.getByText('全部场站')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });
});

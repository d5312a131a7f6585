import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockFetch, signInAdmin } from '../../shared/resource/test-kit';
import StationManagementPage from './station-management.page';

const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });

beforeAll(() => {
  signInAdmin();
});

describe('stations and charge points screen', () => {
  it('opens the tab and the filters of the URL, and reads a list again when its tab is opened', async () => {
    const calls: string[] = [];
    mockFetch((url) => {
      calls.push(`${url.pathname}${url.search}`);
      if (url.pathname.endsWith('/web/point/list')) return ok({ list: [], total: 0 });
      if (url.pathname.endsWith('/web/station/list')) return ok({ list: [], total: 0 });
      return ok([]);
    });
    // Lists stay fresh for 30 s, as in the console: only opening the tab makes it read its list again.
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/configurationManagement/stationManagement?tab=points&stationId=5']}>
          <App>
            <StationManagementPage />
          </App>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(calls.some((c) => c.startsWith('/prod-api/web/point/list?') && c.includes('stationId=5'))).toBe(true));
    expect(screen.getByRole('tab', { name: 'Charge points' }).getAttribute('aria-selected')).toBe('true');

    fireEvent.click(screen.getByRole('tab', { name: 'Stations' }));
    await waitFor(() => expect(calls.filter((c) => c.startsWith('/prod-api/web/station/list')).length).toBe(1));
    fireEvent.click(screen.getByRole('tab', { name: 'Charge points' }));
    fireEvent.click(screen.getByRole('tab', { name: 'Stations' }));
    // Back on a tab seen a moment ago: its list is read again (a point may have moved meanwhile); the
    // points tab dropped the station filter of the link it was opened with.
    await waitFor(() => expect(calls.filter((c) => c.startsWith('/prod-api/web/station/list')).length).toBe(2));
    expect(calls.filter((c) => c.startsWith('/prod-api/web/point/list')).at(-1)).not.toContain('stationId');
  });
});

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setSession } from '../../shared/auth/session';
import { mockFetch, renderWithProviders, signInAdmin } from '../../shared/resource/test-kit';
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

describe('a point’s maintenance history', () => {
  const point = {
    id: 9,
    serialNumber: 'CP-9',
    pointName: 'Bay 9',
    stationId: 5,
    stationName: 'Pudong Hub',
    providerId: 1,
    providerName: 'CSMS',
    equipmentType: 'dc',
    ratedPowerW: 60_000,
    softwareVersion: null,
    connectorCount: 0,
    connectors: [],
    status: 'available',
    online: true,
    needsPlacement: false,
    enabled: true,
    hasKey: true,
    keySentTime: null,
    vendor: null,
    model: null,
    firmwareVersion: null,
    lastSeenTime: null,
    createTime: '2025-01-02T03:04:05Z',
  };
  const record = {
    id: 1,
    providerId: 1,
    providerName: 'CSMS',
    stationId: 5,
    stationName: 'Pudong Hub',
    serialNumber: 'CP-9',
    pointName: 'Bay 9',
    connectorNo: 1,
    component: 'contactor',
    action: 'replaced',
    quantity: 1,
    note: null,
    taskId: 'WO00000004',
    faultCode: 'GroundFailure',
    actorName: 'Bob',
    createTime: '2026-03-01T08:00:00.000Z',
  };
  const open = (permissions: string[]) => {
    setSession({ roles: ['ops'], permissions, providerId: 1, providerName: 'P' } as never);
    const calls: URL[] = [];
    mockFetch((url) => {
      calls.push(url);
      if (url.pathname.endsWith('/web/point/list')) return ok({ list: [point], total: 1 });
      if (url.pathname.endsWith('/web/component/getComponentUseInfo')) return ok({ list: [record], total: 1 });
      return ok([]);
    });
    renderWithProviders(<StationManagementPage />, '/configurationManagement/stationManagement?tab=points');
    return calls;
  };
  afterEach(signInAdmin);

  it('opens from the point’s row in a drawer, for users who may list the records', async () => {
    const calls = open(['config:point:list', 'workOrder:maintain:list']);
    const row = (await screen.findByText('CP-9', { selector: 'td, td *' })).closest('tr')!;
    fireEvent.click(within(row).getByText('Maintenance history'));
    const table = await screen.findByTestId('point-maintenance');
    expect(await within(table).findByText('Contactor')).toBeTruthy();
    expect(
      calls.filter((u) => u.pathname.endsWith('/web/component/getComponentUseInfo')).map((u) => u.searchParams.get('serialNumber')),
    ).toEqual(['CP-9']);
  });

  it('is not offered without workOrder:maintain:list', async () => {
    open(['config:point:list', 'config:point:move']);
    const row = (await screen.findByText('CP-9', { selector: 'td, td *' })).closest('tr')!;
    expect(within(row).getByText('Move')).toBeTruthy();
    expect(within(row).queryByText('Maintenance history')).toBeNull();
  });
});

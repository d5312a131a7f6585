import type { ComponentUseDto, FaultCodeDto } from '@csms/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setSession } from '../../shared/auth/session';
import {
  buttonByText,
  chooseByLabel,
  dialogShown,
  mockFetch,
  rawKeys,
  renderWithProviders,
  signInAdmin,
  type Reply,
} from '../../shared/resource/test-kit';
import MaintenanceRecordsPage from './maintenance-records.page';
import { PointMaintenanceDrawer } from './point-maintenance-drawer';
import WorkOrderPage from './work-order.page';

const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });

const record = (id: number, extra: Partial<ComponentUseDto>): ComponentUseDto => ({
  id,
  providerId: 1,
  providerName: 'CSMS',
  stationId: 3,
  stationName: 'Pudong Hub',
  serialNumber: 'CP-1',
  pointName: 'Bay 1',
  connectorNo: 1,
  component: 'relay',
  action: 'replaced',
  quantity: 1,
  note: null,
  taskId: 'WO00000004',
  faultCode: 'GroundFailure',
  actorName: 'Bob',
  createTime: '2026-03-01T08:00:00.000Z',
  ...extra,
});

const records = [
  record(1, {}),
  record(2, { component: 'Brake resistor R7', action: 'repaired', quantity: 2, connectorNo: 0, note: 'Resoldered the leg' }),
];

const code: FaultCodeDto = {
  id: 8,
  providerId: 1,
  providerName: 'CSMS',
  code: 'E-101',
  title: 'Insulation fault',
  steps: 'Check the cable\nMeasure the insulation',
  updateTime: '2026-03-01T08:00:00.000Z',
};

const bodies: Record<string, unknown[]> = {};
const asked: URL[] = [];
function server(extra: Reply = () => undefined) {
  for (const k of Object.keys(bodies)) delete bodies[k];
  asked.length = 0;
  return mockFetch((url, init) => {
    const p = url.pathname;
    asked.push(url);
    if (init?.body && typeof init.body === 'string') (bodies[p] ??= []).push(JSON.parse(init.body));
    const own = extra(url, init);
    if (own !== undefined) return own;
    if (p.endsWith('/web/component/getComponentUseInfo')) return ok({ list: records, total: records.length });
    if (p.endsWith('/web/component/getComName'))
      return ok([
        { value: 'relay', common: true },
        { value: 'cable', common: true },
        { value: 'Brake resistor R7', common: false },
      ]);
    if (p.endsWith('/web/workOrder/faultCodes')) return ok({ list: [code], total: 1 });
    if (p.endsWith('/web/getWorkOrderList')) return ok({ list: [], total: 0 });
    if (p.endsWith('/web/getStations')) return ok([{ id: 3, stationName: 'Pudong Hub', providerId: 1, providerName: 'CSMS' }]);
    if (p.endsWith('/web/common/dayZone')) return ok({ timeZone: 'Asia/Shanghai', stationName: null });
    return { code: 404, msg: 'x', data: null };
  });
}

const listAsked = () => asked.filter((u) => u.pathname.endsWith('/web/component/getComponentUseInfo'));
const rowOf = (text: string) => screen.getByText(text).closest('tr')!;

beforeAll(signInAdmin);
afterEach(signInAdmin);

describe('maintenance records', () => {
  it('names common components in the console’s language and typed ones as typed, in both languages', async () => {
    server();
    for (const [lng, words] of [
      ['en-US', { relay: 'Relay', replaced: 'Replaced', repaired: 'Repaired', whole: 'Whole point' }],
      ['zh-CN', { relay: '继电器', replaced: '更换', repaired: '维修', whole: '整桩' }],
    ] as const) {
      await act(() => i18n.changeLanguage(lng));
      const view = renderWithProviders(<MaintenanceRecordsPage />, '/workOrder/maintainManage');
      const common = await screen.findByText(words.relay, { selector: 'td, td *' });
      const typed = rowOf('Brake resistor R7');
      expect(within(common.closest('tr')!).getByText(words.replaced)).toBeTruthy();
      expect(within(common.closest('tr')!).getByText('WO00000004')).toBeTruthy();
      expect(within(typed).getByText(words.repaired)).toBeTruthy();
      expect(within(typed).getByText(words.whole)).toBeTruthy();
      expect(within(typed).getByText('Resoldered the leg')).toBeTruthy();
      // The key never shows: a common component is always named.
      expect(screen.queryByText('relay', { selector: 'td, td *' })).toBeNull();
      expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
      view.unmount();
    }
  });

  it('opens filtered by ?serialNumber= and searches by a component chosen by its name', async () => {
    server();
    const view = renderWithProviders(<MaintenanceRecordsPage />, '/workOrder/maintainManage?serialNumber=CP-1');
    await screen.findByText('Brake resistor R7');
    expect(listAsked()[0]!.searchParams.get('serialNumber')).toBe('CP-1');
    const form = view.container.querySelector<HTMLElement>('form#componentUse-search')!;
    expect(within(form).getByDisplayValue('CP-1')).toBeTruthy();
    await chooseByLabel(form, 'Component', 'Relay');
    fireEvent.click(buttonByText('Search', form));
    await waitFor(() => expect(listAsked().at(-1)!.searchParams.get('component')).toBe('relay'));
    expect(listAsked().at(-1)!.searchParams.get('serialNumber')).toBe('CP-1');
  });

  it('lists one point’s history in its drawer, without the point’s own columns', async () => {
    server();
    renderWithProviders(<PointMaintenanceDrawer point={{ serialNumber: 'CP-1' }} onClose={() => undefined} />);
    const table = await screen.findByTestId('point-maintenance');
    await within(table).findByText('Brake resistor R7');
    expect(listAsked().map((u) => u.searchParams.get('serialNumber'))).toEqual(['CP-1']);
    const drawer = table.closest('.ant-drawer') as HTMLElement;
    expect(within(drawer).getByText('Maintenance history of point CP-1')).toBeTruthy();
    const headers = [...table.querySelectorAll('th')].map((th) => th.textContent);
    expect(headers).toContain('Component');
    expect(headers).not.toContain('Point serial number');
    expect(within(table).queryByText('Pudong Hub')).toBeNull();
    expect(within(drawer).getByTestId('point-maintenance-list').getAttribute('href')).toBe('/workOrder/maintainManage?serialNumber=CP-1');
    expect(rawKeys(drawer.textContent ?? '')).toEqual([]);
  });
});

describe('vendor fault codes', () => {
  const openCodes = async () => {
    renderWithProviders(<WorkOrderPage />, '/workOrder/list');
    fireEvent.click(await screen.findByTestId('fault-codes-open'));
    const dialog = await dialogShown();
    await within(dialog).findByText('E-101');
    return dialog;
  };

  it('lists the codes with their steps and adds one, showing the server’s refusal on its field', async () => {
    let refuse = true;
    server((url) => {
      if (!url.pathname.endsWith('/web/workOrder/faultCodeSave')) return undefined;
      if (refuse) {
        refuse = false;
        return { code: 400, msg: 'Vendor fault code E-101 already exists', data: { field: 'code' } };
      }
      return ok({ ...code, id: 9, code: 'E-102' });
    });
    const dialog = await openCodes();
    const row = within(dialog).getByText('E-101').closest('tr')!;
    for (const text of ['Insulation fault', 'Check the cable', 'Measure the insulation']) expect(within(row).getByText(text)).toBeTruthy();

    fireEvent.click(within(dialog).getByTestId('fault-code-add'));
    const form = await waitFor(() => {
      const found = [...document.querySelectorAll<HTMLElement>('.ant-modal[role=dialog]')].find((d) =>
        d.textContent?.includes('Add vendor fault code'),
      );
      if (!found) throw new Error('no form');
      return found;
    });
    fireEvent.change(within(form).getByLabelText('Vendor fault code'), { target: { value: 'E-101' } });
    fireEvent.change(within(form).getByLabelText('Fault name'), { target: { value: 'Earth leakage' } });
    fireEvent.change(within(form).getByLabelText('Steps to fix'), { target: { value: 'Switch off\nTest the RCD' } });
    fireEvent.click(buttonByText('OK', form));
    // The server's message stands under the field it names; the dialog stays open.
    expect(await within(form).findByText('Vendor fault code E-101 already exists')).toBeTruthy();

    fireEvent.change(within(form).getByLabelText('Vendor fault code'), { target: { value: 'E-102' } });
    fireEvent.click(buttonByText('OK', form));
    expect(await screen.findByText('Vendor fault code saved')).toBeTruthy();
    expect(bodies['/prod-api/web/workOrder/faultCodeSave']).toEqual([
      { code: 'E-101', title: 'Earth leakage', steps: 'Switch off\nTest the RCD' },
      { code: 'E-102', title: 'Earth leakage', steps: 'Switch off\nTest the RCD' },
    ]);
  });

  it('is neither offered without its permission nor editable with the list permission only', async () => {
    server();
    setSession({ roles: ['ops'], permissions: ['workOrder:list:list'], providerId: 1, providerName: 'P' } as never);
    const view = renderWithProviders(<WorkOrderPage />, '/workOrder/list');
    await waitFor(() => expect(asked.some((u) => u.pathname.endsWith('/web/getWorkOrderList'))).toBe(true));
    expect(screen.queryByTestId('fault-codes-open')).toBeNull();
    view.unmount();

    setSession({
      roles: ['ops'],
      permissions: ['workOrder:list:list', 'workOrder:faultCode:list'],
      providerId: 1,
      providerName: 'P',
    } as never);
    const dialog = await openCodes();
    expect(within(dialog).queryByTestId('fault-code-add')).toBeNull();
    expect(within(dialog).queryByText('Edit')).toBeNull();
  });
});

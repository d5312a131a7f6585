import { taskIdOf, type ServiceAreaDto, type WorkOrderDetail, type WorkOrderDto, type WorkOrderStatus } from '@csms/contract';
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
import FeedbackPage from './feedback.page';
import WorkOrderPage from './work-order.page';

const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });

const order = (id: number, status: WorkOrderStatus, extra: Partial<WorkOrderDto> = {}): WorkOrderDto => ({
  id,
  taskId: taskIdOf(id),
  providerId: 1,
  providerName: 'CSMS',
  stationId: 3,
  stationName: 'Pudong Hub',
  pointId: id,
  serialNumber: `CP-${id}`,
  pointName: `Bay ${id}`,
  connectorNo: 1,
  transactionId: null,
  faultCode: 'GroundFailure',
  vendorErrorCode: null,
  source: 'alarm',
  description: 'The charger reported a ground failure',
  pictures: [],
  priority: 'high',
  status,
  areaId: 5,
  areaName: 'East',
  serviceManId: null,
  serviceManName: null,
  repeats: 0,
  faultClearedAt: null,
  createdByName: null,
  createTime: '2026-03-01T08:00:00.000Z',
  updateTime: '2026-03-01T08:00:00.000Z',
  ...extra,
});

const rows = [
  order(1, 'new', { connectorNo: 0 }),
  order(2, 'assigned', { serviceManId: 7, serviceManName: 'Bob' }),
  order(3, 'processing', { serviceManId: 7, serviceManName: 'Bob', source: 'manual', priority: 'urgent' }),
  order(4, 'resolved', { serviceManId: 7, serviceManName: 'Bob', repeats: 2 }),
  order(5, 'failed', { serviceManId: 7, serviceManName: 'Bob', transactionId: 901 }),
  order(6, 'archived', { serviceManId: 7, serviceManName: 'Bob' }),
];

const area: ServiceAreaDto = {
  id: 5,
  providerId: 1,
  providerName: 'CSMS',
  name: 'East',
  stations: [{ id: 3, name: 'Pudong Hub' }],
  members: [
    { userId: 11, name: 'Ann', role: 'leader' },
    { userId: 7, name: 'Bob', role: 'serviceMan' },
    { userId: 12, name: 'Cid', role: 'archivist' },
  ],
};

const detail: WorkOrderDetail = {
  ...rows[4]!,
  steps: [
    { kind: 'created', actorName: null, serviceManName: null, note: null, at: '2026-03-01T08:00:00.000Z' },
    { kind: 'assigned', actorName: 'Ann', serviceManName: 'Bob', note: 'Bring a tester', at: '2026-03-01T09:00:00.000Z' },
    { kind: 'failed', actorName: 'Bob', serviceManName: null, note: 'Spare relay missing', at: '2026-03-01T10:00:00.000Z' },
  ],
  can: { assign: true, accept: false, report: false, archive: false },
};

const point = {
  id: 1,
  serialNumber: 'CP-1',
  pointName: 'Bay CP-1',
  stationId: 3,
  stationName: 'Pudong Hub',
  providerId: 1,
  connectors: [1, 2].map((connectorNo) => ({ connectorNo, connectorName: String(connectorNo), standard: 'ac', type: 'type2' })),
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
    if (p.endsWith('/web/getWorkOrderList')) return ok({ list: rows, total: rows.length });
    if (p.endsWith('/web/workOrder/serviceMen')) return ok([{ id: 7, name: 'Bob', username: 'bob' }]);
    if (p.endsWith('/web/updateServiceManToWorkOrder')) return ok({ ...rows[0], status: 'assigned' });
    if (p.endsWith('/web/getServiceMenProcessingResult')) return ok({ ...rows[2], status: 'resolved' });
    if (p.endsWith('/web/workOrder/accept')) return ok({ ...rows[1], status: 'processing' });
    if (p.endsWith('/web/createArtificialOrder')) return ok(order(7, 'new', { source: 'manual' }));
    if (p.endsWith('/web/workOrder/feedback')) return ok(order(8, 'new', { source: 'feedback', faultCode: 'Feedback' }));
    if (p.endsWith('/web/workOrder/myFeedback')) return ok({ rows: [], total: 0 });
    if (p.endsWith('/web/getFaultDetails')) return ok(detail);
    if (p.endsWith('/web/getAreaToServiceMan')) return ok([area]);
    if (p.endsWith('/web/updateAreaToServiceMan')) return ok(area);
    if (p.endsWith('/web/workOrder/userOptions'))
      return ok([
        { id: 11, name: 'Ann', username: 'ann' },
        { id: 7, name: 'Bob', username: 'bob' },
        { id: 12, name: 'Cid', username: 'cid' },
      ]);
    if (p.endsWith('/web/getStations')) return ok([{ id: 3, stationName: 'Pudong Hub', providerId: 1, providerName: 'CSMS' }]);
    if (p.endsWith('/web/getPoints')) return ok([point]);
    if (p.endsWith('/web/component/getComName'))
      return ok([
        { value: 'contactor', common: true },
        { value: 'Busbar clamp', common: false },
      ]);
    if (p.endsWith('/web/common/dayZone')) return ok({ timeZone: 'Asia/Shanghai', stationName: null });
    return { code: 404, msg: 'x', data: null };
  });
}

const listCalls = () => asked.filter((u) => u.pathname.endsWith('/web/getWorkOrderList')).length;

/** The page, once the orders are listed; `rowOf(n)` is order n's row. */
async function openPage() {
  const view = renderWithProviders(<WorkOrderPage />, '/workOrder/list');
  await screen.findByText(taskIdOf(1), { selector: 'td' });
  return view;
}
const rowOf = (id: number) => screen.getByText(taskIdOf(id), { selector: 'td' }).closest('tr')!;
const rowButtons = (id: number) =>
  [...rowOf(id).querySelectorAll('button')].map((b) => b.textContent?.replace(/\s/g, '')).filter((s): s is string => !!s);

beforeAll(signInAdmin);
afterEach(signInAdmin);

describe('work order list', () => {
  it('shows each order’s status, priority and source, in both languages', async () => {
    server();
    for (const [lng, words] of [
      [
        'en-US',
        ['To assign', 'Assigned', 'In progress', 'Resolved', 'Failed', 'Archived', 'Urgent', 'High', 'Charger fault', 'Opened by hand'],
      ],
      ['zh-CN', ['待派单', '已派单', '处理中', '已解决', '处理失败', '已归档', '紧急', '高', '故障自动生成', '人工创建']],
    ] as const) {
      await act(() => i18n.changeLanguage(lng));
      const view = await openPage();
      for (const word of words) expect(screen.getAllByText(word).length, `${lng} ${word}`).toBeGreaterThan(0);
      expect(within(rowOf(1)).getByText(lng === 'en-US' ? 'Whole point' : '整桩')).toBeTruthy();
      expect(within(rowOf(5)).getByText('901')).toBeTruthy();
      expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
      view.unmount();
    }
  });

  it('offers each step on the rows in the status it applies to', async () => {
    server();
    await openPage();
    expect(rowButtons(1)).toEqual(['Details', 'Assign']);
    expect(rowButtons(2)).toEqual(['Details', 'Accept']);
    expect(rowButtons(3)).toEqual(['Details', 'Reportresult']);
    expect(rowButtons(4)).toEqual(['Details', 'Archive']);
    expect(rowButtons(5)).toEqual(['Details', 'Reassign']);
    expect(rowButtons(6)).toEqual(['Details']);
  });

  it('hides the steps, the add and the service areas from a user without their permissions', async () => {
    server();
    setSession({ roles: ['ops'], permissions: ['workOrder:list:list', 'workOrder:list:query'], providerId: 1, providerName: 'P' } as never);
    let view = await openPage();
    for (const id of [1, 2, 3, 4, 5, 6]) expect(rowButtons(id), `row ${id}`).toEqual(['Details']);
    expect(buttonByText('Add')).toBeUndefined();
    expect(buttonByText('Service areas')).toBeUndefined();
    view.unmount();

    // A service man: accepts and reports, neither assigns nor archives.
    setSession({
      roles: ['ops'],
      permissions: ['workOrder:list:list', 'workOrder:list:process'],
      providerId: 1,
      providerName: 'P',
    } as never);
    view = await openPage();
    expect(rowButtons(1)).toEqual([]);
    expect(rowButtons(2)).toEqual(['Accept']);
    expect(rowButtons(3)).toEqual(['Reportresult']);
    expect(rowButtons(4)).toEqual([]);
    expect(rowButtons(5)).toEqual([]);
    view.unmount();
  });
});

describe('work order flow', () => {
  it('assigns a new order to one of its area’s service men, then refreshes the list', async () => {
    server();
    await openPage();
    const before = listCalls();
    fireEvent.click(within(rowOf(1)).getByText('Assign'));
    const dialog = await dialogShown();
    expect(within(dialog).getByText('Assign WO00000001')).toBeTruthy();
    await chooseByLabel(dialog, 'Service man', 'Bob (bob)');
    expect(asked.filter((u) => u.pathname.endsWith('/web/workOrder/serviceMen')).map((u) => u.searchParams.get('taskId'))).toEqual([
      'WO00000001',
    ]);
    fireEvent.click(buttonByText('OK', dialog));
    await waitFor(() => expect(bodies['/prod-api/web/updateServiceManToWorkOrder']).toEqual([{ taskId: 'WO00000001', serviceManId: 7 }]));
    expect(await screen.findByText('Order assigned')).toBeTruthy();
    await waitFor(() => expect(listCalls()).toBeGreaterThan(before));
  });

  it('shows the server’s refusal and keeps the dialog open', async () => {
    server((url) =>
      url.pathname.endsWith('/web/updateFailManToWorkOrder')
        ? { code: 403, msg: 'You are not a leader of the order’s service area', data: null }
        : undefined,
    );
    await openPage();
    fireEvent.click(within(rowOf(5)).getByText('Reassign'));
    const dialog = await dialogShown();
    await chooseByLabel(dialog, 'Service man', 'Bob (bob)');
    fireEvent.click(buttonByText('OK', dialog));
    expect(await screen.findByText('You are not a leader of the order’s service area')).toBeTruthy();
    expect(bodies['/prod-api/web/updateFailManToWorkOrder']).toEqual([{ taskId: 'WO00000005', serviceManId: 7 }]);
    expect(within(dialog).getByText('Reassign WO00000005')).toBeTruthy();
  });

  it('refuses a result described in 5 characters, naming the field, and reports a valid one with its components', async () => {
    server();
    await openPage();
    fireEvent.click(within(rowOf(3)).getByText('Report result'));
    const dialog = await dialogShown();
    fireEvent.click(within(dialog).getByLabelText('Resolved'));
    const description = within(dialog).getByLabelText('Fault description');
    fireEvent.change(description, { target: { value: 'fixed' } });
    fireEvent.click(buttonByText('OK', dialog));
    // The contract's message, naming the field (the server answers the same).
    expect(await within(dialog).findByText(/^Fault description .*\b10 characters$/)).toBeTruthy();
    expect(bodies['/prod-api/web/getServiceMenProcessingResult']).toBeUndefined();

    fireEvent.change(description, { target: { value: 'Replaced the ground relay' } });
    // Two component lines: a common one chosen by its English name, and one left empty (dropped).
    fireEvent.click(within(dialog).getByTestId('component-add'));
    fireEvent.click(within(dialog).getByTestId('component-add'));
    const name = within(within(dialog).getByTestId('report-components')).getAllByRole('combobox')[0]!;
    fireEvent.change(name, { target: { value: 'Contactor' } });
    fireEvent.click(buttonByText('OK', dialog));
    await waitFor(() =>
      expect(bodies['/prod-api/web/getServiceMenProcessingResult']).toEqual([
        {
          taskId: 'WO00000003',
          result: 'resolved',
          description: 'Replaced the ground relay',
          components: [{ component: 'contactor', action: 'replaced', quantity: 1 }],
        },
      ]),
    );
    expect(await screen.findByText('Result reported')).toBeTruthy();
  });

  it('accepts an assigned order after asking', async () => {
    server();
    await openPage();
    fireEvent.click(within(rowOf(2)).getByText('Accept'));
    const confirm = (await screen.findByText('Accept work order WO00000002?')).closest('.ant-modal-confirm') as HTMLElement;
    fireEvent.click(buttonByText('OK', confirm));
    await waitFor(() => expect(bodies['/prod-api/web/workOrder/accept']).toEqual([{ taskId: 'WO00000002' }]));
    expect(await screen.findByText('Order accepted')).toBeTruthy();
  });

  it('opens an order by hand without the station, starting at the whole point and normal priority', async () => {
    server();
    await openPage();
    fireEvent.click(buttonByText('Add'));
    const dialog = await dialogShown();
    expect(within(dialog).getByText('Open a work order')).toBeTruthy();
    await chooseByLabel(dialog, 'Station', 'Pudong Hub');
    await chooseByLabel(dialog, 'Point serial number', 'CP-1 · Bay CP-1');
    fireEvent.change(within(dialog).getByLabelText('Fault code'), { target: { value: 'ConnectorLockFailure' } });
    fireEvent.change(within(dialog).getByLabelText('Fault description'), { target: { value: 'The cable stays locked in' } });
    fireEvent.click(buttonByText('OK', dialog));
    await waitFor(() => expect(bodies['/prod-api/web/createArtificialOrder']).toHaveLength(1));
    expect(bodies['/prod-api/web/createArtificialOrder']![0]).toEqual({
      serialNumber: 'CP-1',
      connectorNo: 0,
      faultCode: 'ConnectorLockFailure',
      description: 'The cable stays locked in',
      priority: 'normal',
    });
    expect(await screen.findByText('Work order opened')).toBeTruthy();
  });
});

describe('feedback', () => {
  it('refuses a short description, then files the problem and says which order it opened', async () => {
    server();
    renderWithProviders(<FeedbackPage />, '/workOrder/create');
    const form = (await screen.findByTestId('feedback-submit')).closest('.ant-card') as HTMLElement;
    await chooseByLabel(form, 'Station', 'Pudong Hub');
    await chooseByLabel(form, 'Point serial number', 'CP-1 · Bay CP-1');
    const description = within(form).getByLabelText('Fault description');
    fireEvent.change(description, { target: { value: 'broken' } });
    fireEvent.click(screen.getByTestId('feedback-submit'));
    expect(await within(form).findByText(/^Fault description .*\b10 characters$/)).toBeTruthy();
    expect(bodies['/prod-api/web/workOrder/feedback']).toBeUndefined();
    fireEvent.change(description, { target: { value: 'The holster is broken off' } });
    fireEvent.click(screen.getByTestId('feedback-submit'));
    await waitFor(() =>
      expect(bodies['/prod-api/web/workOrder/feedback']).toEqual([
        { serialNumber: 'CP-1', connectorNo: 0, description: 'The holster is broken off' },
      ]),
    );
    expect((await screen.findByTestId('feedback-sent')).textContent).toContain('Work order WO00000008 opened');
  });
});

describe('work order details', () => {
  it('shows the order and its history step by step', async () => {
    server();
    await openPage();
    fireEvent.click(within(rowOf(5)).getByText('Details'));
    const steps = await screen.findByTestId('work-order-steps');
    expect(bodies['/prod-api/web/getFaultDetails']).toEqual([{ taskId: 'WO00000005' }]);
    for (const text of ['Order opened', 'Assigned', 'Failed', 'By the system', 'By Ann', 'Service man: Bob', 'Spare relay missing'])
      expect(within(steps).getAllByText(text).length, text).toBeGreaterThan(0);
    const drawer = steps.closest('.ant-drawer') as HTMLElement;
    expect(within(drawer).getByText('Work order WO00000005')).toBeTruthy();
    expect(within(drawer).getByText('The charger reported a ground failure')).toBeTruthy();
    expect(rawKeys(drawer.textContent ?? '')).toEqual([]);
  });
});

describe('service areas', () => {
  it('lists the areas with their members by role and saves an edit', async () => {
    server();
    await openPage();
    fireEvent.click(buttonByText('Service areas'));
    const dialog = await dialogShown();
    const row = (await within(dialog).findByText('East', { selector: 'td' })).closest('tr')!;
    for (const name of ['Pudong Hub', 'Ann', 'Bob', 'Cid']) expect(within(row).getByText(name)).toBeTruthy();
    fireEvent.click(within(row).getByText('Edit'));
    const form = await waitFor(() => {
      const found = [...document.querySelectorAll<HTMLElement>('.ant-modal[role=dialog]')].find((d) =>
        d.textContent?.includes('Edit service area'),
      );
      if (!found) throw new Error('no form');
      return found;
    });
    fireEvent.change(within(form).getByLabelText('Area name'), { target: { value: 'East side' } });
    fireEvent.click(buttonByText('OK', form));
    await waitFor(() =>
      expect(bodies['/prod-api/web/updateAreaToServiceMan']).toEqual([
        { id: 5, name: 'East side', stationIds: [3], leaderIds: [11], serviceManIds: [7], archivistIds: [12] },
      ]),
    );
    expect(await screen.findByText('Service area saved')).toBeTruthy();
  });

  it('lists without the edit buttons for a user who may only look', async () => {
    server();
    setSession({ roles: ['ops'], permissions: ['workOrder:list:list', 'workOrder:area:list'], providerId: 1, providerName: 'P' } as never);
    await openPage();
    fireEvent.click(buttonByText('Service areas'));
    const dialog = await dialogShown();
    const row = (await within(dialog).findByText('East', { selector: 'td' })).closest('tr')!;
    expect(within(row).queryByText('Edit')).toBeNull();
    expect(buttonByText('Add', dialog)).toBeUndefined();
  });
});

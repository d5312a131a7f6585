import { applyTaskIdOf, type MaterialApplyDto, type MaterialApplyStatus, type MaterialDto } from '@csms/contract';
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
import SparePartsPage from './spare-parts.page';

const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });
const at = '2026-03-01T08:00:00.000Z';

const part = (id: number, stock: number): MaterialDto => ({
  id,
  providerId: 1,
  providerName: 'CSMS',
  partsNumber: `PN-${id}`,
  name: `Contactor ${id}`,
  model: 'LC1D63',
  unit: 'pcs',
  stock,
  note: null,
  createTime: at,
  updateTime: at,
});
const parts = [part(1, 12), part(2, 0)];

const order = (id: number, status: MaterialApplyStatus, extra: Partial<MaterialApplyDto> = {}): MaterialApplyDto => ({
  id,
  taskId: applyTaskIdOf(id),
  providerId: 1,
  providerName: 'CSMS',
  workOrderTaskId: 'WO00000007',
  stationId: 3,
  stationName: 'Pudong Hub',
  serialNumber: 'CP-7',
  lines: [{ materialId: 1, partsNumber: 'PN-1', name: 'Contactor 1', model: 'LC1D63', unit: 'pcs', count: 2 }],
  summary: 'PN-1 ×2',
  receiver: 'Sam',
  receiverPhone: '13900001111',
  logisticsType: 'express',
  deliveryAddress: '1 Depot Road',
  note: null,
  status,
  applicantName: 'Sam',
  approverName: status === 'applied' ? null : 'Ann',
  auditOpinion: status === 'notAgreed' ? 'Use the van stock' : null,
  decideTime: status === 'applied' ? null : at,
  createTime: at,
  updateTime: at,
  ...extra,
});
const orders = [order(1, 'applied'), order(2, 'agreed'), order(3, 'notAgreed')];

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
    if (p.endsWith('/web/material/getMaterials')) return ok({ list: parts, total: parts.length });
    if (p.endsWith('/web/material/getMaterialApplyOrder')) return ok({ list: orders, total: orders.length });
    if (p.endsWith('/web/material/confirmApply')) return ok({ ...orders[0], status: 'notAgreed' });
    if (p.endsWith('/web/material/workOrders'))
      return ok([{ taskId: 'WO00000007', providerId: 1, stationName: 'Pudong Hub', serialNumber: 'CP-7', faultCode: 'GroundFailure' }]);
    if (p.endsWith('/web/material/options'))
      return ok(parts.map(({ id, partsNumber, name, model, unit, stock }) => ({ id, partsNumber, name, model, unit, stock })));
    if (p.endsWith('/web/material/createMaterialApply')) return ok(order(4, 'applied'));
    if (p.endsWith('/web/material/getApplyOrderFlowChart'))
      return ok({
        taskId: applyTaskIdOf(3),
        nodes: [
          { status: 'applied', state: 'done' },
          { status: 'agreed', state: 'todo' },
          { status: 'notAgreed', state: 'current' },
        ],
        edges: [
          { from: 'applied', to: 'agreed', done: false, times: 0 },
          { from: 'applied', to: 'notAgreed', done: true, times: 1 },
        ],
        steps: [
          { kind: 'applied', actorName: 'Sam', note: null, at },
          { kind: 'notAgreed', actorName: 'Ann', note: 'Use the van stock', at },
        ],
      });
    if (p.endsWith('/web/getStations')) return ok([{ id: 3, stationName: 'Pudong Hub', providerId: 1, providerName: 'CSMS' }]);
    if (p.endsWith('/web/common/dayZone')) return ok({ timeZone: 'Asia/Shanghai', stationName: null });
    if (p.endsWith('/common/upload')) return { code: 200, msg: 'ok', fileName: '2026/03/01/p.xlsx', url: '/p', originalName: 'parts.xlsx' };
    if (p.endsWith('/web/material/batchImportMaterials'))
      return ok({
        total: 3,
        imported: 1,
        restocked: 1,
        rejected: [{ row: 4, partsNumber: '#x', field: 'partsNumber', reason: 'Bad parts number' }],
      });
    return ok([]);
  });
}

const rowOf = (text: string) => screen.getByText(text, { selector: 'td' }).closest('tr')!;
const rowButtons = (text: string) =>
  [...rowOf(text).querySelectorAll('button')].map((b) => b.textContent?.replace(/\s/g, '')).filter((s): s is string => !!s);
const openApply = async () => {
  const view = renderWithProviders(<SparePartsPage />, '/workOrder/sparePartsManage?tab=apply');
  await screen.findByText(applyTaskIdOf(1), { selector: 'td' });
  return view;
};

beforeAll(signInAdmin);
afterEach(async () => {
  signInAdmin();
  await act(() => i18n.changeLanguage('en-US'));
});

describe('spare parts screen', () => {
  it('lists the parts with their stock and the apply orders with their status, in both languages', async () => {
    server();
    for (const [lng, words] of [
      ['en-US', ['Parts catalogue', 'Apply orders', 'Out of stock', 'Import']],
      ['zh-CN', ['备件目录', '领料单', '库存为 0', '导入']],
    ] as const) {
      await act(() => i18n.changeLanguage(lng));
      let view = renderWithProviders(<SparePartsPage />, '/workOrder/sparePartsManage');
      await screen.findByText('PN-1', { selector: 'td' });
      for (const word of words) expect(screen.getAllByText(word).length, `${lng} ${word}`).toBeGreaterThan(0);
      expect(within(rowOf('PN-1')).getByText('12')).toBeTruthy();
      expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
      view.unmount();
      view = await openApply();
      const statuses = lng === 'en-US' ? ['Awaiting approval', 'Agreed', 'Not agreed', 'Express'] : ['待审批', '已同意', '未同意', '快递'];
      for (const word of statuses) expect(screen.getAllByText(word).length, `${lng} ${word}`).toBeGreaterThan(0);
      expect(rawKeys(view.container.textContent ?? '')).toEqual([]);
      view.unmount();
    }
  });

  it('offers the approval on applied orders only, and neither approval nor import without the permissions', async () => {
    server();
    let view = await openApply();
    expect(rowButtons(applyTaskIdOf(1))).toEqual(['Details', 'Approve', 'Flowchart']);
    expect(rowButtons(applyTaskIdOf(2))).toEqual(['Details', 'Flowchart']);
    view.unmount();
    setSession({
      roles: ['ops'],
      permissions: ['workOrder:materialApply:list', 'workOrder:materialApply:apply', 'workOrder:material:list'],
      providerId: 1,
      providerName: 'P',
    } as never);
    view = await openApply();
    expect(rowButtons(applyTaskIdOf(1))).toEqual(['Details']);
    expect(buttonByText('Add')).toBeTruthy();
    view.unmount();
    renderWithProviders(<SparePartsPage />, '/workOrder/sparePartsManage');
    await screen.findByText('PN-1', { selector: 'td' });
    expect(screen.queryByTestId('material-import')).toBeNull();
  });

  it('needs an opinion to refuse, then sends the decision', async () => {
    server();
    await openApply();
    fireEvent.click(within(rowOf(applyTaskIdOf(1))).getByText('Approve'));
    const dialog = await dialogShown();
    expect(within(dialog).getByText(`Approve ${applyTaskIdOf(1)}`)).toBeTruthy();
    expect(within(dialog).getByText('PN-1')).toBeTruthy();
    fireEvent.click(within(dialog).getByText('Do not agree'));
    fireEvent.click(buttonByText('OK', dialog));
    expect(await within(dialog).findByText('Audit opinion is required')).toBeTruthy();
    expect(bodies['/prod-api/web/material/confirmApply']).toBeUndefined();
    fireEvent.change(within(dialog).getByLabelText('Audit opinion'), { target: { value: 'Use the van stock' } });
    fireEvent.click(buttonByText('OK', dialog));
    await waitFor(() =>
      expect(bodies['/prod-api/web/material/confirmApply']).toEqual([
        { taskId: applyTaskIdOf(1), result: 'notAgreed', auditOpinion: 'Use the van stock' },
      ]),
    );
    expect(await screen.findByText('Decision recorded')).toBeTruthy();
  });

  it('applies for parts: a work order, a part and its count, the receiver and the delivery', async () => {
    server();
    await openApply();
    fireEvent.click(buttonByText('Add'));
    const dialog = await dialogShown();
    expect(within(dialog).getByText('Choose the work order first')).toBeTruthy();
    await chooseByLabel(dialog, 'Work order', 'WO00000007 · Pudong Hub · CP-7 · GroundFailure');
    const line = await within(dialog).findByTestId('apply-line-0');
    fireEvent.mouseDown(line.querySelector('input')!);
    const option = await screen.findAllByText('PN-1 · Contactor 1 · LC1D63 (12 pcs)', { selector: '.ant-select-item-option-content' });
    fireEvent.click(option[option.length - 1]!);
    fireEvent.change(within(dialog).getByLabelText('Count'), { target: { value: '3' } });
    fireEvent.change(within(dialog).getByLabelText('Receiver'), { target: { value: 'Sam' } });
    fireEvent.change(within(dialog).getByLabelText("Receiver's phone"), { target: { value: '13900001111' } });
    fireEvent.change(within(dialog).getByLabelText('Delivery address'), { target: { value: '1 Depot Road' } });
    fireEvent.click(buttonByText('OK', dialog));
    await waitFor(() =>
      expect(bodies['/prod-api/web/material/createMaterialApply']).toEqual([
        {
          workOrderTaskId: 'WO00000007',
          lines: [{ materialId: 1, count: 3 }],
          receiver: 'Sam',
          receiverPhone: '13900001111',
          logisticsType: 'express',
          deliveryAddress: '1 Depot Road',
        },
      ]),
    );
    expect(await screen.findByText('Apply order submitted')).toBeTruthy();
  });

  it('draws the flow chart with the steps', async () => {
    server();
    await openApply();
    fireEvent.click(within(rowOf(applyTaskIdOf(3))).getByText('Flow chart'));
    const dialog = await dialogShown();
    await waitFor(() => expect(dialog.querySelector('[data-status="notAgreed"][data-state="current"]')).not.toBeNull());
    expect(dialog.querySelector('[data-status="applied"][data-state="done"]')).not.toBeNull();
    expect(within(dialog).getByTestId('apply-steps').textContent).toContain('Use the van stock');
    expect(rawKeys(dialog.textContent ?? '')).toEqual([]);
  });

  it('imports the template and reports new, restocked and rejected rows', async () => {
    server();
    const view = renderWithProviders(<SparePartsPage />, '/workOrder/sparePartsManage');
    await screen.findByText('PN-1', { selector: 'td' });
    fireEvent.click(screen.getByTestId('material-import'));
    fireEvent.click(await screen.findByTestId('import-start'));
    expect(await screen.findByText('Upload the template file first')).toBeTruthy();
    const input = view.baseElement.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File([new Uint8Array([1, 2])], 'parts.xlsx')] } });
    await waitFor(() => expect(view.baseElement.querySelector('.ant-upload-list-item-done')).not.toBeNull());
    fireEvent.click(screen.getByTestId('import-start'));
    expect(await screen.findByText('3 rows: 1 new parts, 1 parts restocked, 1 rejected')).toBeTruthy();
    expect(screen.getByText('Bad parts number')).toBeTruthy();
    expect(bodies['/prod-api/web/material/batchImportMaterials']).toEqual([
      { fileName: '2026/03/01/p.xlsx', importId: expect.any(String) },
    ]);
    expect(rawKeys(view.baseElement.textContent ?? '')).toEqual([]);
  });
});

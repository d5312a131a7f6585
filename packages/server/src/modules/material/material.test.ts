import {
  api,
  type MaterialApplyDto,
  type MaterialApplyFlowChart,
  type MaterialDto,
  type MaterialImportReport,
  type WorkOrderDto,
} from '@csms/contract';
import { count, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createRole, createUser } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import { createPoint } from '../../../test/ocpp/support.js';
import type { Db } from '../../db/client.js';
import { material, materialApply, materialApplyStep, provider, systemLog, workOrder } from '../../db/schema.js';

let s: TestServer;
let db: Db;
beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
});
afterAll(() => s.close());

const ALL = [
  ...['list', 'query', 'add', 'edit', 'remove', 'import', 'export'].map((a) => `workOrder:material:${a}`),
  ...['list', 'query', 'apply', 'approve', 'export'].map((a) => `workOrder:materialApply:${a}`),
  'workOrder:list:add',
  'workOrder:list:list',
];
let seq = 0;
const pn = () => `P-${Date.now().toString(36)}-${++seq}`;
type Page<T> = { list: T[]; total: number };

/** A provider with a point and an open work order, its administrator (every permission) and a service man who may only apply. */
async function site() {
  const op = await createOperator(db, { permissions: ALL, rolePaths: ['/workOrder', '/workOrder/sparePartsManage'] });
  const manRole = await createRole(db, {
    providerId: op.providerId,
    permissions: ['workOrder:materialApply:list', 'workOrder:materialApply:apply'],
    rolePaths: ['/workOrder', '/workOrder/sparePartsManage'],
  });
  const man = await createUser(db, { providerId: op.providerId, roleId: manRole.id });
  const p = await createPoint(db, { providerId: op.providerId });
  const t = { op: await s.login(op.user.username, op.user.password), man: await s.login(man.username, man.password) };
  const w = await s.call<WorkOrderDto>('POST', api.workOrder.add.path, {
    token: t.op,
    body: {
      serialNumber: p.serialNumber,
      connectorNo: 1,
      faultCode: 'ConnectorLockFailure',
      description: 'The lock does not engage',
      priority: 'normal',
    },
  });
  expect(w.code, w.msg).toBe(200);
  const [prov] = await db.select().from(provider).where(eq(provider.id, op.providerId));
  return { op, man, p, t, workOrder: w.data, providerName: prov!.name };
}

async function addPart(token: string, providerId: number, stock: number, extra: Record<string, unknown> = {}) {
  const r = await s.call<MaterialDto>('POST', api.material.add.path, {
    token,
    body: { partsNumber: pn(), name: 'Contactor 63 A', model: 'LC1D63', unit: 'pcs', stock, providerId, ...extra },
  });
  expect(r.code, r.msg).toBe(200);
  return r.data;
}
const stockOf = async (id: number) => (await db.select({ stock: material.stock }).from(material).where(eq(material.id, id)))[0]!.stock;
const applyBody = (workOrderTaskId: string, lines: { materialId: number; count: number }[]) => ({
  workOrderTaskId,
  lines,
  receiver: 'Sam Service',
  receiverPhone: '13900001111',
  logisticsType: 'express',
  deliveryAddress: '1 Depot Road, Shanghai',
});
const apply = (token: string, body: unknown, lang?: 'zh' | 'en') =>
  s.call<MaterialApplyDto>('POST', api.materialApply.add.path, { token, body, ...(lang ? { lang } : {}) });
const confirm = (token: string, body: unknown, lang?: 'zh' | 'en') =>
  s.call<MaterialApplyDto>('POST', api.materialApply.confirm.path, { token, body, ...(lang ? { lang } : {}) });
const logRows = async () => (await db.select({ n: count() }).from(systemLog))[0]!.n;

async function upload(token: string, bytes: Buffer, name = 'parts.xlsx') {
  const form = new FormData();
  form.append('file', new Blob([bytes as unknown as ArrayBuffer]), name);
  const res = await fetch(`${s.url}/prod-api/common/upload?kind=file`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const r = (await res.json()) as { code: number; fileName: string; msg: string };
  expect(r.code, r.msg).toBe(200);
  return r.fileName;
}

describe('spare parts: the catalogue', () => {
  it('adds, lists, edits and removes; parts numbers are unique within a provider whatever the case', async () => {
    const x = await site();
    const part = await addPart(x.t.op, x.op.providerId, 5);
    expect(part).toMatchObject({ stock: 5, model: 'LC1D63', unit: 'pcs', providerId: x.op.providerId });
    const again = await s.call('POST', api.material.add.path, {
      token: x.t.op,
      lang: 'en',
      body: { partsNumber: part.partsNumber.toLowerCase(), name: 'x', stock: 1, providerId: x.op.providerId },
    });
    expect(again).toEqual({
      code: 409,
      msg: `Parts number "${part.partsNumber.toLowerCase()}" already exists for this provider`,
      data: { field: 'partsNumber' },
    });
    const listed = await s.call<Page<MaterialDto>>('GET', `${api.material.list.path}?page=1&limit=10&partsNumber=${part.partsNumber}`, {
      token: x.t.op,
    });
    expect(listed.data.list.map((m) => m.id)).toEqual([part.id]);
    const low = await s.call<Page<MaterialDto>>(
      'GET',
      `${api.material.list.path}?page=1&limit=10&providerId=${x.op.providerId}&maxStock=4`,
      { token: x.t.op },
    );
    expect(low.data.total).toBe(0);
    const edited = await s.call<MaterialDto>('POST', api.material.edit.path, {
      token: x.t.op,
      body: { id: part.id, partsNumber: part.partsNumber, name: 'Contactor 80 A', model: '', stock: 7 },
    });
    expect(edited.data).toMatchObject({ name: 'Contactor 80 A', model: null, stock: 7 });
    expect((await s.call('POST', api.material.remove.path, { token: x.t.op, body: { ids: [part.id] } })).data).toEqual({ removed: 1 });
  });

  it('validates in both languages and changes nothing', async () => {
    const x = await site();
    const before = (await db.select({ n: count() }).from(material))[0]!.n;
    const body = { partsNumber: '#bad', name: 'x', stock: 1, providerId: x.op.providerId };
    expect(await s.call('POST', api.material.add.path, { token: x.t.op, body, lang: 'en' })).toMatchObject({
      code: 400,
      data: { field: 'partsNumber' },
    });
    const zh = await s.call('POST', api.material.add.path, { token: x.t.op, body, lang: 'zh' });
    expect(zh).toMatchObject({ code: 400, data: { field: 'partsNumber' } });
    expect(zh.msg).toContain('备件编号');
    const neg = { partsNumber: pn(), name: 'x', stock: -1, providerId: x.op.providerId };
    expect(await s.call('POST', api.material.add.path, { token: x.t.op, body: neg, lang: 'en' })).toMatchObject({
      code: 400,
      data: { field: 'stock' },
    });
    expect((await db.select({ n: count() }).from(material))[0]!.n).toBe(before);
  });

  it('imports the template: new parts, deliveries to known ones, every rejected row reported', async () => {
    const x = await site();
    const known = await addPart(x.t.op, x.op.providerId, 3);
    const res = await fetch(`${s.url}${'/prod-api'}${api.material.importTemplate.path}`, {
      headers: { authorization: `Bearer ${x.t.op}`, 'x-language': 'en' },
    });
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await res.arrayBuffer()) as never);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).getCell(1).text).toBe('Parts number *');
    const fresh = pn();
    ws.addRow([fresh, 'Fuse 10 A', 'F10', 'pcs', 20, x.providerName, 'shelf B']); // row 2: new
    ws.addRow([known.partsNumber.toLowerCase(), 'ignored name', '', '', 4, x.providerName]); // row 3: delivery
    ws.addRow([pn(), 'No count', '', '', '', x.providerName]); // row 4: count missing
    ws.addRow([pn(), 'Bad count', '', '', 'ten', x.providerName]); // row 5
    ws.addRow(['#x', 'Bad number', '', '', 1, x.providerName]); // row 6
    ws.addRow([pn(), 'Who', '', '', 1, 'No Such Provider']); // row 7
    ws.addRow([fresh, 'Twice', '', '', 1, x.providerName]); // row 8: duplicate of row 2
    const fileName = await upload(x.t.op, Buffer.from(await wb.xlsx.writeBuffer()));
    const before = await logRows();
    const r = await s.call<MaterialImportReport>('POST', api.material.import.path, { token: x.t.op, lang: 'en', body: { fileName } });
    expect(r.code, r.msg).toBe(200);
    expect(r.data).toMatchObject({ total: 7, imported: 1, restocked: 1 });
    expect(r.data.rejected.map((j) => [j.row, j.field, j.reason])).toEqual([
      [4, 'count', 'Count received is required'],
      [5, 'count', 'The count received must be a whole number from 1 to 1000000'],
      [6, 'partsNumber', 'A parts number holds letters, digits and . _ / - and starts with a letter or digit'],
      [7, 'providerName', 'Provider "No Such Provider" does not exist or is out of your scope'],
      [8, 'partsNumber', 'Same parts number as row 2'],
    ]);
    expect(await logRows()).toBe(before + 1);
    expect(await stockOf(known.id)).toBe(7);
    const [made] = await db.select().from(material).where(eq(material.partsNumber, fresh));
    expect(made).toMatchObject({ name: 'Fuse 10 A', stock: 20, note: 'shelf B', providerId: x.op.providerId });
  });

  it('refuses a file that is not the template, in the caller’s language, importing nothing', async () => {
    const x = await site();
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('x').addRow(['Plate', 'VIN']);
    const fileName = await upload(x.t.op, Buffer.from(await wb.xlsx.writeBuffer()));
    const before = (await db.select({ n: count() }).from(material))[0]!.n;
    expect(await s.call('POST', api.material.import.path, { token: x.t.op, lang: 'en', body: { fileName } })).toEqual({
      code: 400,
      msg: 'This is not the parts import template (no "Parts number" column): download the template, fill it in and upload it',
      data: { field: 'fileName' },
    });
    const zh = await s.call('POST', api.material.import.path, { token: x.t.op, lang: 'zh', body: { fileName } });
    expect(zh.msg).toBe('文件不是备件导入模板（缺少“备件编号”列），请先下载模板，填写后再上传');
    expect((await db.select({ n: count() }).from(material))[0]!.n).toBe(before);
  });
});

describe('spare parts: apply orders', () => {
  it('applies for a work order, agrees: the stock falls, the steps and flow chart show it; a second decision is refused', async () => {
    const x = await site();
    const a = await addPart(x.t.op, x.op.providerId, 10);
    const b = await addPart(x.t.op, x.op.providerId, 2);
    const made = await apply(
      x.t.man,
      applyBody(x.workOrder.taskId, [
        { materialId: a.id, count: 4 },
        { materialId: b.id, count: 2 },
      ]),
    );
    expect(made.code, made.msg).toBe(200);
    expect(made.data).toMatchObject({
      status: 'applied',
      workOrderTaskId: x.workOrder.taskId,
      logisticsType: 'express',
      serialNumber: x.p.serialNumber,
    });
    expect(made.data.taskId).toMatch(/^MA\d{8}$/);
    expect(made.data.lines).toHaveLength(2);
    // Nothing leaves the shelf before the approval.
    expect(await stockOf(a.id)).toBe(10);

    // The service man may apply, not approve.
    expect((await confirm(x.t.man, { taskId: made.data.taskId, result: 'agreed' })).code).toBe(403);
    const agreed = await confirm(x.t.op, { taskId: made.data.taskId, result: 'agreed', auditOpinion: 'Ship today' });
    expect(agreed.code, agreed.msg).toBe(200);
    expect(agreed.data).toMatchObject({ status: 'agreed', auditOpinion: 'Ship today', approverName: expect.any(String) });
    expect([await stockOf(a.id), await stockOf(b.id)]).toEqual([6, 0]);

    const twice = await confirm(x.t.op, { taskId: made.data.taskId, result: 'notAgreed', auditOpinion: 'changed my mind' }, 'en');
    expect(twice).toEqual({ code: 409, msg: `Apply order ${made.data.taskId} is already decided (Agreed)`, data: { field: 'taskId' } });
    expect([await stockOf(a.id), await stockOf(b.id)]).toEqual([6, 0]);

    const chart = await s.call<MaterialApplyFlowChart>('GET', `${api.materialApply.flowChart.path}?taskId=${made.data.taskId}`, {
      token: x.t.op,
    });
    expect(chart.data.nodes).toEqual([
      { status: 'applied', state: 'done' },
      { status: 'agreed', state: 'current' },
      { status: 'notAgreed', state: 'todo' },
    ]);
    expect(chart.data.edges.filter((e) => e.done)).toEqual([{ from: 'applied', to: 'agreed', done: true, times: 1 }]);
    expect(chart.data.steps.map((st) => [st.kind, st.note])).toEqual([
      ['applied', null],
      ['agreed', 'Ship today'],
    ]);

    // The work order's apply orders (its drawer lists them).
    const ofOrder = await s.call<Page<MaterialApplyDto>>('POST', api.materialApply.search.path, {
      token: x.t.op,
      body: { page: 1, limit: 10, workOrderTaskId: x.workOrder.taskId },
    });
    expect(ofOrder.data.list.map((o) => o.taskId)).toEqual([made.data.taskId]);
  });

  it('refuses an agreement when a part is short, naming it, and changes nothing', async () => {
    const x = await site();
    const a = await addPart(x.t.op, x.op.providerId, 5);
    const b = await addPart(x.t.op, x.op.providerId, 3, { name: 'Relay' });
    const first = await apply(
      x.t.man,
      applyBody(x.workOrder.taskId, [
        { materialId: a.id, count: 2 },
        { materialId: b.id, count: 3 },
      ]),
    );
    const second = await apply(x.t.man, applyBody(x.workOrder.taskId, [{ materialId: b.id, count: 2 }]));
    expect((await confirm(x.t.op, { taskId: first.data.taskId, result: 'agreed' })).code).toBe(200);
    const steps = (await db.select({ n: count() }).from(materialApplyStep))[0]!.n;
    const short = await confirm(x.t.op, { taskId: second.data.taskId, result: 'agreed' }, 'en');
    expect(short).toMatchObject({ code: 409, msg: `Not enough "${b.partsNumber}" (Relay) in stock: 2 applied for, 0 in stock` });
    const zh = await confirm(x.t.op, { taskId: second.data.taskId, result: 'agreed' }, 'zh');
    expect(zh.msg).toBe(`备件“${b.partsNumber}”（Relay）库存不足：申请 2，库存 0`);
    expect([await stockOf(a.id), await stockOf(b.id)]).toEqual([3, 0]);
    expect((await db.select().from(materialApply).where(eq(materialApply.id, second.data.id)))[0]).toMatchObject({
      status: 'applied',
      approverId: null,
    });
    expect((await db.select({ n: count() }).from(materialApplyStep))[0]!.n).toBe(steps);
    // Applying for more than is in stock is refused up front.
    expect(await apply(x.t.man, applyBody(x.workOrder.taskId, [{ materialId: b.id, count: 1 }]), 'en')).toMatchObject({
      code: 400,
      data: { field: 'lines' },
    });
  });

  it('takes the stock once when two approvers agree at the same time', async () => {
    const x = await site();
    const a = await addPart(x.t.op, x.op.providerId, 5);
    const made = await apply(x.t.man, applyBody(x.workOrder.taskId, [{ materialId: a.id, count: 3 }]));
    const both = await Promise.all([
      confirm(x.t.op, { taskId: made.data.taskId, result: 'agreed' }),
      confirm(x.t.op, { taskId: made.data.taskId, result: 'notAgreed', auditOpinion: 'No budget' }),
    ]);
    expect(both.map((r) => r.code).sort()).toEqual([200, 409]);
    const won = both.find((r) => r.code === 200)!.data.status;
    expect(await stockOf(a.id)).toBe(won === 'agreed' ? 2 : 5);
    expect((await db.select({ n: count() }).from(materialApplyStep).where(eq(materialApplyStep.applyId, made.data.id)))[0]!.n).toBe(2);
  });

  it('needs an audit opinion to refuse, in both languages; refusing leaves the stock', async () => {
    const x = await site();
    const a = await addPart(x.t.op, x.op.providerId, 5);
    const made = await apply(x.t.man, applyBody(x.workOrder.taskId, [{ materialId: a.id, count: 1 }]));
    const en = await confirm(x.t.op, { taskId: made.data.taskId, result: 'notAgreed' }, 'en');
    expect(en).toEqual({ code: 400, msg: 'Audit opinion is required', data: { field: 'auditOpinion' } });
    const zh = await confirm(x.t.op, { taskId: made.data.taskId, result: 'notAgreed', auditOpinion: '  ' }, 'zh');
    expect(zh).toMatchObject({ code: 400, data: { field: 'auditOpinion' } });
    expect(zh.msg).toContain('审批意见');
    const refused = await confirm(x.t.op, { taskId: made.data.taskId, result: 'notAgreed', auditOpinion: 'Use the spare in the van' });
    expect(refused.data).toMatchObject({ status: 'notAgreed', auditOpinion: 'Use the spare in the van' });
    expect(await stockOf(a.id)).toBe(5);
  });

  it('validates the apply order in both languages', async () => {
    const x = await site();
    const a = await addPart(x.t.op, x.op.providerId, 5);
    const dup = applyBody(x.workOrder.taskId, [
      { materialId: a.id, count: 1 },
      { materialId: a.id, count: 2 },
    ]);
    expect(await apply(x.t.man, dup, 'en')).toEqual({
      code: 400,
      msg: 'A part appears only once in Parts applied for',
      data: { field: 'lines' },
    });
    expect(await apply(x.t.man, dup, 'zh')).toEqual({ code: 400, msg: '申请备件中同一备件只能出现一次', data: { field: 'lines' } });
    const phone = { ...applyBody(x.workOrder.taskId, [{ materialId: a.id, count: 1 }]), receiverPhone: 'call me' };
    expect(await apply(x.t.man, phone, 'en')).toMatchObject({ code: 400, data: { field: 'receiverPhone' } });
    const logistics = { ...applyBody(x.workOrder.taskId, [{ materialId: a.id, count: 1 }]), logisticsType: 'pigeon' };
    expect(await apply(x.t.man, logistics, 'zh')).toMatchObject({ code: 400, data: { field: 'logisticsType' } });
    expect((await db.select({ n: count() }).from(materialApply).where(eq(materialApply.providerId, x.op.providerId)))[0]!.n).toBe(0);
  });

  it("keeps providers apart: another provider's work order, parts and apply orders are not found", async () => {
    const x = await site();
    const y = await site();
    const a = await addPart(x.t.op, x.op.providerId, 5);
    // Y's service man cannot apply for X's work order, nor for X's parts on his own.
    expect((await apply(y.t.man, applyBody(x.workOrder.taskId, [{ materialId: a.id, count: 1 }]))).code).toBe(404);
    expect(await apply(y.t.man, applyBody(y.workOrder.taskId, [{ materialId: a.id, count: 1 }]), 'en')).toMatchObject({
      code: 400,
      data: { field: 'lines' },
    });
    const made = await apply(x.t.man, applyBody(x.workOrder.taskId, [{ materialId: a.id, count: 1 }]));
    expect((await confirm(y.t.op, { taskId: made.data.taskId, result: 'agreed' })).code).toBe(404);
    expect((await s.call('GET', `${api.materialApply.flowChart.path}?taskId=${made.data.taskId}`, { token: y.t.op })).code).toBe(404);
    const seen = await s.call<Page<MaterialApplyDto>>('GET', `${api.materialApply.list.path}?page=1&limit=10`, { token: y.t.op });
    expect(seen.data.list.some((o) => o.id === made.data.id)).toBe(false);
    expect((await s.call('GET', `${api.material.get.path}?id=${a.id}`, { token: y.t.op })).code).toBe(404);
    const opts = await s.call<unknown[]>('GET', `${api.material.options.path}?providerId=${x.op.providerId}`, { token: y.t.op });
    expect(opts.data).toEqual([]);
    const orders = await s.call<{ taskId: string }[]>('GET', `${api.materialApply.workOrders.path}?text=${x.workOrder.taskId}`, {
      token: y.t.man,
    });
    expect(orders.data).toEqual([]);
    const mine = await s.call<{ taskId: string }[]>('GET', `${api.materialApply.workOrders.path}?text=${x.workOrder.taskId.slice(-4)}`, {
      token: x.t.man,
    });
    expect(mine.data.map((o) => o.taskId)).toContain(x.workOrder.taskId);
    expect(await stockOf(a.id)).toBe(5);
  });

  it('gives a service man (who processes orders) only his own work orders to apply for', async () => {
    const x = await site();
    const part = await addPart(x.t.op, x.op.providerId, 5);
    const role = await createRole(db, {
      providerId: x.op.providerId,
      permissions: ['workOrder:list:process', 'workOrder:materialApply:list', 'workOrder:materialApply:apply'],
    });
    const sam = await createUser(db, { providerId: x.op.providerId, roleId: role.id });
    const ts = await s.login(sam.username, sam.password);
    const options = () => s.call<{ taskId: string }[]>('GET', `${api.materialApply.workOrders.path}?text=`, { token: ts });
    expect((await options()).data).toEqual([]);
    expect((await apply(ts, applyBody(x.workOrder.taskId, [{ materialId: part.id, count: 1 }]))).code).toBe(404);
    // Once the order is his, he sees it and applies.
    await db.update(workOrder).set({ serviceManId: sam.id, status: 'processing' }).where(eq(workOrder.id, x.workOrder.id));
    expect((await options()).data.map((o) => o.taskId)).toEqual([x.workOrder.taskId]);
    expect((await apply(ts, applyBody(x.workOrder.taskId, [{ materialId: part.id, count: 1 }]))).code).toBe(200);
  });

  it('refuses a part on an apply order from being removed', async () => {
    const x = await site();
    const a = await addPart(x.t.op, x.op.providerId, 5);
    await apply(x.t.man, applyBody(x.workOrder.taskId, [{ materialId: a.id, count: 1 }]));
    expect(await s.call('POST', api.material.remove.path, { token: x.t.op, lang: 'en', body: { ids: [a.id] } })).toMatchObject({
      code: 409,
      msg: `Part "${a.partsNumber}" is on apply orders and cannot be removed`,
    });
  });
});

import {
  api,
  type ComponentUseDto,
  type FaultCodeDto,
  type FaultScheme,
  type ServiceAreaDto,
  type WorkOrderDetail,
  type WorkOrderDto,
  type WorkOrderFlowChart,
} from '@csms/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createRole, createUser } from '../../../test/fixtures.js';
import { startServer, type TestServer } from '../../../test/harness.js';
import { createPoint, eventually, iso, TestCharger } from '../../../test/ocpp/support.js';
import type { Db } from '../../db/client.js';
import { png } from '../../../test/support/files.js';
import { storedFile, systemLog, workOrder } from '../../db/schema.js';
import { insertTransaction } from '../monitor/monitor.fixtures.js';

let s: TestServer;
let db: Db;

beforeAll(async () => {
  s = await startServer();
  db = s.database.db;
});
afterAll(() => s.close());

const fault = (connectorId: number, errorCode = 'GroundFailure', extra: Record<string, unknown> = {}) => ({
  connectorId,
  status: 'Faulted',
  errorCode,
  timestamp: iso(),
  ...extra,
});

/** A provider with one point online, a service area over its station, and the people of the flow, signed in. */
async function site() {
  const op = await createOperator(db, {
    permissions: ['workOrder:list:list', 'workOrder:list:query', 'workOrder:area:list', 'workOrder:area:edit', 'workOrder:list:add'],
  });
  const role = (permissions: string[]) =>
    createRole(db, { providerId: op.providerId, permissions, rolePaths: ['/workOrder', '/workOrder/list'] });
  const leaderRole = await role(['workOrder:list:list', 'workOrder:list:query', 'workOrder:list:assign']);
  const manRole = await role(['workOrder:list:list', 'workOrder:list:query', 'workOrder:list:process']);
  const archiveRole = await role(['workOrder:list:list', 'workOrder:list:query', 'workOrder:list:archive']);
  const leader = await createUser(db, { providerId: op.providerId, roleId: leaderRole.id, name: 'Lee' });
  const man = await createUser(db, { providerId: op.providerId, roleId: manRole.id, name: 'Sam' });
  const other = await createUser(db, { providerId: op.providerId, roleId: manRole.id, name: 'Oz' });
  const archivist = await createUser(db, { providerId: op.providerId, roleId: archiveRole.id, name: 'Ann' });
  const p = await createPoint(db, { providerId: op.providerId });
  const token = async (u: { username: string; password: string }) => s.login(u.username, u.password);
  const t = {
    op: await token(op.user),
    leader: await token(leader),
    man: await token(man),
    other: await token(other),
    archivist: await token(archivist),
  };
  const area = await s.call<ServiceAreaDto>('POST', api.workOrder.saveArea.path, {
    token: t.op,
    body: {
      name: `Area ${p.serialNumber}`,
      stationIds: [p.stationId],
      leaderIds: [leader.id],
      serviceManIds: [man.id, other.id],
      archivistIds: [archivist.id],
    },
  });
  expect(area.code).toBe(200);
  return { op, p, t, leader, man, other, archivist, area: area.data };
}

async function upload(token: string, name: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png())]), name);
  const res = await fetch(`${s.url}/prod-api/common/upload?kind=image`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return (await res.json()) as { code: number; url: string; fileName: string };
}

const detail = (token: string, taskId: string) => s.call<WorkOrderDetail>('POST', api.workOrder.detail.path, { token, body: { taskId } });

describe('work orders: fault treatment', () => {
  it('opens one order for a serious fault, attaches repeats, says when the fault clears, and runs the whole flow', async () => {
    const x = await site();
    const c = await TestCharger.connect(s.url, x.p.serialNumber, { key: x.p.key });
    await c.ok('BootNotification', { chargePointVendor: 'V', chargePointModel: 'M' });
    await c.ok('StatusNotification', fault(1, 'GroundFailure', { info: 'RCD tripped' }));
    const opened = await eventually(async () => (await db.select().from(workOrder).where(eq(workOrder.chargePointId, x.p.point.id)))[0]);
    expect(opened).toMatchObject({
      faultCode: 'GroundFailure',
      status: 'new',
      source: 'alarm',
      priority: 'high',
      repeats: 0,
      connectorNo: 1,
    });

    // The same fault on the other connector, and again after it cleared: one order, two repeats, standing again.
    await c.ok('StatusNotification', fault(2));
    await c.ok('StatusNotification', { connectorId: 1, status: 'Available', errorCode: 'NoError', timestamp: iso() });
    let rows = await db.select().from(workOrder).where(eq(workOrder.chargePointId, x.p.point.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.faultClearedAt).not.toBeNull();
    await c.ok('StatusNotification', fault(1));
    rows = await db.select().from(workOrder).where(eq(workOrder.chargePointId, x.p.point.id));
    expect(rows).toMatchObject([{ repeats: 2, faultClearedAt: null }]);
    await c.close();

    const list = await s.call<{ list: WorkOrderDto[]; total: number }>(
      'GET',
      `${api.workOrder.list.path}?serialNumber=${x.p.serialNumber}`,
      {
        token: x.t.leader,
      },
    );
    expect(list.data.total).toBe(1);
    const w = list.data.list[0]!;
    expect(w).toMatchObject({ areaName: x.area.name, status: 'new', serialNumber: x.p.serialNumber });
    const taskId = w.taskId;
    expect((await detail(x.t.leader, taskId)).data.can).toEqual({ assign: true, accept: false, report: false, archive: false });

    // Archiving an open order is refused, and changes nothing.
    const early = await s.call('POST', api.workOrder.archive.path, { token: x.t.archivist, body: { taskId }, lang: 'en' });
    expect(early.code).toBe(409);
    expect(early.msg).toContain(`Order ${taskId} is "To assign"`);

    // The service man sees nothing before the order is his.
    const before = await s.call<{ total: number }>('GET', api.workOrder.list.path, { token: x.t.man });
    expect(before.data.total).toBe(0);

    // Only a service man of the area may be chosen.
    const outsider = await s.call('POST', api.workOrder.assign.path, {
      token: x.t.leader,
      body: { taskId, serviceManId: x.archivist.id },
      lang: 'zh',
    });
    expect(outsider).toMatchObject({ code: 400, msg: '所选人员不是该服务区域的维修人员' });
    const men = await s.call<{ id: number }[]>('GET', `${api.workOrder.serviceMen.path}?taskId=${taskId}`, { token: x.t.leader });
    expect(men.data.map((m) => m.id).sort()).toEqual([x.man.id, x.other.id].sort());

    expect(
      (await s.call('POST', api.workOrder.assign.path, { token: x.t.leader, body: { taskId, serviceManId: x.man.id, note: 'today' } }))
        .code,
    ).toBe(200);
    // Another service man cannot act on it.
    const stranger = await s.call('POST', api.workOrder.accept.path, { token: x.t.other, body: { taskId } });
    expect(stranger.code).toBe(404);
    expect((await s.call('POST', api.workOrder.accept.path, { token: x.t.man, body: { taskId } })).code).toBe(200);
    const short = await s.call('POST', api.workOrder.report.path, {
      token: x.t.man,
      body: { taskId, result: 'failed', description: 'no part' },
      lang: 'en',
    });
    expect(short.code).toBe(400);
    expect(short.msg).toContain('at least 10 characters');
    expect(
      (
        await s.call('POST', api.workOrder.report.path, {
          token: x.t.man,
          body: { taskId, result: 'failed', description: 'The RCD module needs replacing' },
        })
      ).code,
    ).toBe(200);

    // Failed: back to the leader, who gives it to the other service man; he resolves it; the archive person files it.
    expect((await detail(x.t.leader, taskId)).data).toMatchObject({ status: 'failed', can: { assign: true } });
    expect(
      (await s.call('POST', api.workOrder.reassign.path, { token: x.t.leader, body: { taskId, serviceManId: x.other.id } })).code,
    ).toBe(200);
    expect((await s.call('POST', api.workOrder.accept.path, { token: x.t.other, body: { taskId } })).code).toBe(200);
    expect(
      (
        await s.call('POST', api.workOrder.report.path, {
          token: x.t.other,
          body: { taskId, result: 'resolved', description: 'Replaced the RCD module, tested' },
        })
      ).code,
    ).toBe(200);
    // The first service man no longer sees it.
    expect((await detail(x.t.man, taskId)).code).toBe(404);
    expect((await s.call('POST', api.workOrder.archive.path, { token: x.t.archivist, body: { taskId, note: 'filed' } })).code).toBe(200);

    const done = (await detail(x.t.op, taskId)).data;
    expect(done.status).toBe('archived');
    expect(done.steps.map((st) => st.kind)).toEqual([
      'created',
      'repeated',
      'faultCleared',
      'repeated',
      'assigned',
      'accepted',
      'failed',
      'reassigned',
      'accepted',
      'resolved',
      'archived',
    ]);
    expect(done.steps[4]).toMatchObject({ actorName: 'Lee', serviceManName: 'Sam', note: 'today' });
    expect(done.steps[9]).toMatchObject({ actorName: 'Oz', note: 'Replaced the RCD module, tested' });
    // The flow chart: every state passed but processing→… twice, the failed loop drawn, archived current.
    const chart = await s.call<WorkOrderFlowChart>('GET', `${api.workOrder.flowChart.path}?taskId=${taskId}`, { token: x.t.op });
    expect(Object.fromEntries(chart.data.nodes.map((nd) => [nd.status, nd.state]))).toEqual({
      new: 'done',
      assigned: 'done',
      processing: 'done',
      resolved: 'done',
      failed: 'done',
      archived: 'current',
    });
    expect(chart.data.edges.filter((e) => e.times === 2).map((e) => `${e.from}>${e.to}`)).toEqual(['assigned>processing']);
    expect(chart.data.edges.every((e) => e.done)).toBe(true);

    // The recommended fix of its code, in the caller's language.
    const scheme = await s.call<FaultScheme>('POST', api.workOrder.scheme.path, {
      token: x.t.man,
      body: { faultCode: 'GroundFailure' },
      lang: 'en',
    });
    expect(scheme.data).toMatchObject({ known: true, title: 'Ground fault / residual current' });
    expect(scheme.data.steps.length).toBeGreaterThan(2);
    const vendor = await s.call<FaultScheme>('POST', api.workOrder.scheme.path, {
      token: x.t.man,
      body: { faultCode: 'E-17' },
      lang: 'zh',
    });
    expect(vendor.data).toMatchObject({ known: false, title: '厂商或自定义故障码' });

    // One system-log row per change.
    const logged = await db
      .select()
      .from(systemLog)
      .where(eq(systemLog.operand, `workOrder:${taskId}`));
    expect(new Set(logged.map((l) => l.operation))).toEqual(new Set(['assign', 'accept', 'report', 'reassign', 'archive']));

    // A new fault after the order was closed opens a new one.
    const c2 = await TestCharger.connect(s.url, x.p.serialNumber, { key: x.p.key });
    await c2.ok('BootNotification', { chargePointVendor: 'V', chargePointModel: 'M' });
    await c2.ok('StatusNotification', { connectorId: 1, status: 'Available', errorCode: 'NoError', timestamp: iso() });
    await c2.ok('StatusNotification', fault(1));
    await c2.close();
    expect(
      await db
        .select()
        .from(workOrder)
        .where(and(eq(workOrder.chargePointId, x.p.point.id), eq(workOrder.status, 'new'))),
    ).toHaveLength(1);
  });

  it('refuses a leader of no area, an order whose station is in no area, and a second open order for the same fault', async () => {
    const x = await site();
    const made = await s.call<WorkOrderDto>('POST', api.workOrder.add.path, {
      token: x.t.op,
      body: {
        serialNumber: x.p.serialNumber,
        connectorNo: 0,
        faultCode: 'Vendor-42',
        description: 'Screen stays black after boot',
        priority: 'normal',
      },
    });
    expect(made.code).toBe(200);
    expect(made.data).toMatchObject({ source: 'manual', status: 'new', faultCode: 'Vendor-42' });
    const again = await s.call('POST', api.workOrder.add.path, {
      token: x.t.op,
      body: {
        serialNumber: x.p.serialNumber,
        connectorNo: 0,
        faultCode: 'Vendor-42',
        description: 'Screen stays black again',
        priority: 'high',
      },
      lang: 'en',
    });
    expect(again).toMatchObject({ code: 409 });
    expect(again.msg).toContain(made.data.taskId);

    // Another provider's leader: the order does not exist for it.
    const y = await site();
    expect(
      (await s.call('POST', api.workOrder.assign.path, { token: y.t.leader, body: { taskId: made.data.taskId, serviceManId: y.man.id } }))
        .code,
    ).toBe(404);

    // A leader role without the area: refused.
    const lone = await createUser(db, {
      providerId: x.op.providerId,
      roleId: (
        await createRole(db, {
          providerId: x.op.providerId,
          permissions: ['workOrder:list:assign', 'workOrder:list:list', 'workOrder:list:query'],
        })
      ).id,
    });
    const refused = await s.call('POST', api.workOrder.assign.path, {
      token: await s.login(lone.username, lone.password),
      body: { taskId: made.data.taskId, serviceManId: x.man.id },
      lang: 'en',
    });
    expect(refused).toMatchObject({ code: 403 });
    expect(refused.msg).toContain('not a leader');

    // The station leaves the area: nobody can assign until it is in one.
    await s.call('POST', api.workOrder.saveArea.path, {
      token: x.t.op,
      body: { id: x.area.id, name: x.area.name, stationIds: [], leaderIds: [x.leader.id], serviceManIds: [x.man.id], archivistIds: [] },
    });
    const noArea = await s.call('POST', api.workOrder.assign.path, {
      token: x.t.leader,
      body: { taskId: made.data.taskId, serviceManId: x.man.id },
      lang: 'en',
    });
    expect(noArea.code).toBe(409);
    expect(noArea.msg).toContain('in no service area');
    const unchanged = (await detail(x.t.op, made.data.taskId)).data;
    expect(unchanged).toMatchObject({ status: 'new', serviceManId: null });
  });

  it('keeps a station in one area, and an area’s people and stations within its provider', async () => {
    const x = await site();
    const y = await site();
    const taken = await s.call('POST', api.workOrder.saveArea.path, {
      token: x.t.op,
      body: { name: 'Second', stationIds: [x.p.stationId], leaderIds: [x.leader.id], serviceManIds: [x.man.id], archivistIds: [] },
      lang: 'en',
    });
    expect(taken.code).toBe(400);
    expect(taken.msg).toContain(`is in service area "${x.area.name}" already`);
    const foreign = await s.call('POST', api.workOrder.saveArea.path, {
      token: x.t.op,
      body: { name: 'Third', stationIds: [], leaderIds: [y.leader.id], serviceManIds: [x.man.id], archivistIds: [] },
    });
    expect(foreign.code).toBe(400);
    // Nor the people of the super provider above it, whom a common provider's editor does not see: the area
    // would show their names, and its orders could be given to them.
    const above = await createUser(db, { providerId: 1, roleId: x.op.role.id, name: 'Root team' });
    const rootPeople = await s.call('POST', api.workOrder.saveArea.path, {
      token: x.t.op,
      body: { name: 'Fifth', stationIds: [], leaderIds: [x.leader.id], serviceManIds: [above.id], archivistIds: [] },
      lang: 'en',
    });
    expect(rootPeople).toMatchObject({ code: 400, data: { field: 'leaderIds' } });
    const noLeader = await s.call('POST', api.workOrder.saveArea.path, {
      token: x.t.op,
      body: { name: 'Fourth', stationIds: [], leaderIds: [], serviceManIds: [x.man.id], archivistIds: [] },
      lang: 'zh',
    });
    expect(noLeader).toMatchObject({ code: 400, msg: '请输入区域负责人' });
    // The station lookups of the list and the create form stay within the provider.
    const named = await s.call<{ stationIds: number[] }>('GET', `${api.workOrder.stationIds.path}?stationName=`, { token: x.t.op });
    expect(named.data.stationIds).toEqual([x.p.stationId]);
    expect((await s.call<{ stationIds: number[] }>('GET', api.workOrder.stationIds.path, { token: y.t.op })).data.stationIds).toEqual([
      y.p.stationId,
    ]);

    const areas = await s.call<ServiceAreaDto[]>('POST', api.workOrder.areas.path, { token: x.t.op });
    expect(areas.data.map((a) => a.id)).toEqual([x.area.id]);
    expect(areas.data[0]!.members.map((m) => m.role).sort()).toEqual(['archivist', 'leader', 'serviceMan', 'serviceMan']);

    // An editor bound to another station of the provider sees the area, but neither rewrites its stations nor removes it.
    const own = await createPoint(db, { providerId: x.op.providerId });
    const boundUser = await createUser(db, { providerId: x.op.providerId, roleId: x.op.role.id, stationIds: [own.stationId] });
    const tb = await s.login(boundUser.username, boundUser.password);
    const rewrite = await s.call('POST', api.workOrder.saveArea.path, {
      token: tb,
      body: {
        id: x.area.id,
        name: x.area.name,
        stationIds: [own.stationId],
        leaderIds: [x.leader.id],
        serviceManIds: [x.man.id],
        archivistIds: [],
      },
      lang: 'en',
    });
    expect(rewrite).toMatchObject({ code: 403, msg: expect.stringContaining('stations you are not bound to') });
    expect((await s.call('POST', api.workOrder.removeArea.path, { token: tb, body: { id: x.area.id }, lang: 'zh' })).msg).toBe(
      '该区域包含您未绑定的场站：只有能看到其全部场站的用户才能修改或删除',
    );
    const after = (await s.call<ServiceAreaDto[]>('POST', api.workOrder.areas.path, { token: x.t.op })).data.find(
      (a) => a.id === x.area.id,
    );
    expect(after!.stations.map((st) => st.id)).toEqual([x.p.stationId]);
    // An area of the bound editor's own station is theirs to change.
    const mine = await s.call<ServiceAreaDto>('POST', api.workOrder.saveArea.path, {
      token: tb,
      body: { name: 'Bound', stationIds: [own.stationId], leaderIds: [x.leader.id], serviceManIds: [x.man.id], archivistIds: [] },
    });
    expect(mine.code).toBe(200);
    const renamed = await s.call<ServiceAreaDto>('POST', api.workOrder.saveArea.path, {
      token: tb,
      body: {
        id: mine.data.id,
        name: 'Bound 2',
        stationIds: [own.stationId],
        leaderIds: [x.leader.id],
        serviceManIds: [x.man.id],
        archivistIds: [],
      },
    });
    expect(renamed.data.name).toBe('Bound 2');
  });

  it('turns anyone’s feedback into one order per point, with pictures that cannot be removed once filed', async () => {
    const x = await site();
    // A user with no work-order permission at all, who sees the point's station.
    const driverRole = await createRole(db, {
      providerId: x.op.providerId,
      permissions: [],
      rolePaths: ['/workOrder', '/workOrder/create'],
    });
    const filer = await createUser(db, { providerId: x.op.providerId, roleId: driverRole.id, name: 'Fay' });
    const tf = await s.login(filer.username, filer.password);
    const a = await upload(tf, 'cable.png');
    const b = await upload(tf, 'screen.png');
    const stray = await upload(tf, 'wrong.png');
    const body = {
      serialNumber: x.p.serialNumber,
      connectorNo: 1,
      description: 'The cable holder is broken off',
      pictures: `${a.url},${b.fileName}`,
    };

    const short = await s.call('POST', api.workOrder.feedback.path, { token: tf, body: { ...body, description: 'broken' }, lang: 'zh' });
    expect(short.code).toBe(400);
    expect(short.msg).toContain('10');
    const foreignUrl = await s.call('POST', api.workOrder.feedback.path, {
      token: tf,
      body: { ...body, pictures: 'https://example.com/x.png' },
      lang: 'en',
    });
    expect(foreignUrl).toMatchObject({ code: 400, msg: 'Pictures must be images uploaded here, at most 5' });
    const noConnector = await s.call('POST', api.workOrder.feedback.path, { token: tf, body: { ...body, connectorNo: 9 }, lang: 'en' });
    expect(noConnector).toMatchObject({ code: 400, msg: `Point ${x.p.serialNumber} has no connector 9` });
    expect(await db.select().from(workOrder).where(eq(workOrder.chargePointId, x.p.point.id))).toHaveLength(0);

    const filed = await s.call<WorkOrderDto>('POST', api.workOrder.feedback.path, { token: tf, body });
    expect(filed.code).toBe(200);
    expect(filed.data).toMatchObject({ source: 'feedback', faultCode: 'Feedback', status: 'new', pictures: [a.fileName, b.fileName] });
    // A second feedback on the point attaches to the open one.
    const second = await s.call<WorkOrderDto>('POST', api.workOrder.feedback.path, {
      token: x.t.man,
      body: { serialNumber: x.p.serialNumber, connectorNo: 0, description: 'Display shows nothing at all' },
    });
    expect(second.data).toMatchObject({ taskId: filed.data.taskId, repeats: 1 });
    const mine = await s.call<{ rows: WorkOrderDto[]; total: number }>('GET', api.workOrder.myFeedback.path, { token: tf });
    expect(mine.data).toMatchObject({ total: 1, rows: [{ taskId: filed.data.taskId }] });
    // The filer cannot list orders; the leader sees it with the feedback's steps.
    expect((await s.call('GET', api.workOrder.list.path, { token: tf })).code).toBe(403);
    const seen = (await detail(x.t.leader, filed.data.taskId)).data;
    expect(seen.steps.map((st) => [st.kind, st.actorName, st.note])).toEqual([
      ['created', 'Fay', null],
      ['repeated', 'Sam', 'Display shows nothing at all'],
    ]);
    // The scheme of a feedback.
    const scheme = await s.call<FaultScheme>('POST', api.workOrder.scheme.path, {
      token: x.t.man,
      body: { faultCode: 'Feedback' },
      lang: 'en',
    });
    expect(scheme.data).toMatchObject({ known: true, title: 'Problem reported by a user', vendor: null });

    // deleteFile: a filed picture stays; a stray one goes, only for its uploader.
    const held = await s.call('POST', api.workOrder.deleteFile.path, { token: tf, body: { clearFile: a.fileName }, lang: 'en' });
    expect(held.code).toBe(409);
    expect(held.msg).toContain(filed.data.taskId);
    const notMine = await s.call('POST', api.workOrder.deleteFile.path, { token: x.t.man, body: { clearFile: stray.url } });
    expect(notMine.code).toBe(403);
    const gone = await s.call<{ removed: number }>('POST', api.workOrder.deleteFile.path, { token: tf, body: { clearFile: stray.url } });
    expect(gone.data.removed).toBe(1);
    expect(await db.select().from(storedFile).where(eq(storedFile.fileName, stray.fileName))).toHaveLength(0);
    expect(await db.select().from(storedFile).where(eq(storedFile.fileName, a.fileName))).toHaveLength(1);

    // The filer is named by the order: deleting the account is refused with a reason, and changes nothing.
    const admin = await s.login();
    const del = await s.call('POST', api.systemUser.remove.path, { token: admin, body: { ids: [filer.id] }, lang: 'en' });
    expect(del).toMatchObject({
      code: 409,
      msg: `User "${filer.username}" is named by work orders and cannot be deleted; disable the account instead`,
    });
    expect((await s.call('GET', api.workOrder.myFeedback.path, { token: tf })).code).toBe(200);

    // Another provider's point does not exist for the filer.
    const y = await site();
    expect(
      (await s.call('POST', api.workOrder.feedback.path, { token: tf, body: { ...body, serialNumber: y.p.serialNumber, pictures: '' } }))
        .code,
    ).toBe(404);
  });

  it('records the components of a resolved repair as the point’s maintenance history, and shows the affected session', async () => {
    const x = await site();
    const tx = await insertTransaction(db, { id: x.p.point.id, providerId: x.op.providerId, stationId: x.p.stationId });
    const made = await s.call<WorkOrderDto>('POST', api.workOrder.add.path, {
      token: x.t.op,
      body: {
        serialNumber: x.p.serialNumber,
        connectorNo: 1,
        faultCode: 'E-301',
        description: 'Contactor welded, session aborted',
        priority: 'urgent',
        transactionId: tx.id,
      },
    });
    expect(made.code).toBe(200);
    const taskId = made.data.taskId;
    // The session the order names: the service man may read its process data once it is his, no other session.
    const curves = () => s.call('POST', api.chargeRecord.processData.path, { token: x.t.man, body: { transactionId: tx.id } });
    expect((await curves()).code).toBe(404);
    await s.call('POST', api.workOrder.assign.path, { token: x.t.leader, body: { taskId, serviceManId: x.man.id } });
    expect((await curves()).code).toBe(200);
    await s.call('POST', api.workOrder.accept.path, { token: x.t.man, body: { taskId } });

    // The vendor's own fix for its code, kept by the provider.
    const code = await s.call<FaultCodeDto>('POST', api.workOrder.saveFaultCode.path, {
      token: x.t.op,
      body: { code: 'E-301', title: 'Main contactor welded', steps: 'Isolate the point\nReplace the main contactor\nTest a session' },
    });
    expect(code.code).toBe(403);
    const admin = await s.login();
    const saved = await s.call<FaultCodeDto>('POST', api.workOrder.saveFaultCode.path, {
      token: admin,
      body: {
        providerId: x.op.providerId,
        code: 'E-301',
        title: 'Main contactor welded',
        steps: 'Isolate the point\nReplace the main contactor\nTest a session',
      },
    });
    expect(saved.data).toMatchObject({ code: 'E-301', providerId: x.op.providerId });
    const dup = await s.call('POST', api.workOrder.saveFaultCode.path, {
      token: admin,
      body: { providerId: x.op.providerId, code: 'E-301', title: 'Again', steps: 'x' },
      lang: 'en',
    });
    expect(dup).toMatchObject({ code: 400, msg: 'Vendor fault code E-301 already exists' });
    const scheme = await s.call<FaultScheme>('POST', api.workOrder.scheme.path, { token: x.t.man, body: { faultCode: 'E-301', taskId } });
    expect(scheme.data.vendor).toEqual({
      code: 'E-301',
      title: 'Main contactor welded',
      steps: ['Isolate the point', 'Replace the main contactor', 'Test a session'],
    });
    // Another provider's order does not get this provider's entry.
    const y = await site();
    const theirs = await s.call<FaultScheme>('POST', api.workOrder.scheme.path, { token: y.t.op, body: { faultCode: 'E-301' } });
    expect(theirs.data.vendor).toBeNull();

    const parts = [
      { component: 'contactor', action: 'replaced', quantity: 1, note: 'welded contacts' },
      { component: 'Busbar clamp', action: 'repaired', quantity: 2 },
    ];
    const failedWithParts = await s.call('POST', api.workOrder.report.path, {
      token: x.t.man,
      body: { taskId, result: 'failed', description: 'Could not get the part today', components: parts },
      lang: 'en',
    });
    expect(failedWithParts.code).toBe(400);
    expect((await detail(x.t.man, taskId)).data.status).toBe('processing');
    const resolved = await s.call('POST', api.workOrder.report.path, {
      token: x.t.man,
      body: { taskId, result: 'resolved', description: 'Replaced the contactor and tested', components: parts },
    });
    expect(resolved.code).toBe(200);

    const viewer = await createUser(db, {
      providerId: x.op.providerId,
      roleId: (await createRole(db, { providerId: x.op.providerId, permissions: ['workOrder:maintain:list', 'workOrder:maintain:export'] }))
        .id,
    });
    const tv = await s.login(viewer.username, viewer.password);
    const history = await s.call<{ list: ComponentUseDto[]; total: number }>(
      'GET',
      `${api.component.list.path}?serialNumber=${x.p.serialNumber}`,
      { token: tv },
    );
    expect(history.data.total).toBe(2);
    expect(history.data.list.map((r) => [r.component, r.action, r.quantity, r.taskId, r.faultCode, r.actorName]).sort()).toEqual([
      ['Busbar clamp', 'repaired', 2, taskId, 'E-301', 'Sam'],
      ['contactor', 'replaced', 1, taskId, 'E-301', 'Sam'],
    ]);
    const searched = await s.call<{ total: number }>('POST', api.component.search.path, {
      token: tv,
      body: { component: 'contactor', taskId },
    });
    expect(searched.data.total).toBe(1);
    // Another provider's viewer sees none of it.
    const yViewer = await createUser(db, {
      providerId: y.op.providerId,
      roleId: (await createRole(db, { providerId: y.op.providerId, permissions: ['workOrder:maintain:list'] })).id,
    });
    const ty = await s.login(yViewer.username, yViewer.password);
    expect((await s.call<{ total: number }>('POST', api.component.search.path, { token: ty, body: { taskId } })).data.total).toBe(0);
    const names = await s.call<{ value: string; common: boolean }[]>('GET', `${api.component.names.path}?name=`, { token: x.t.man });
    expect(names.data.filter((n) => !n.common).map((n) => n.value)).toEqual(['Busbar clamp']);
    expect(names.data.find((n) => n.value === 'contactor')).toEqual({ value: 'contactor', common: true });
    const zhNames = await s.call<{ value: string }[]>('GET', `${api.component.names.path}?name=${encodeURIComponent('接触')}`, {
      token: x.t.man,
      lang: 'zh',
    });
    expect(zhNames.data.map((n) => n.value)).toEqual(['contactor']);
  });
});

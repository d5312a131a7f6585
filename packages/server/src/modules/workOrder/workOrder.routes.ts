import {
  ALL_PERMISSION,
  checkPermi,
  Code,
  chargePointErrorCodes,
  faultSchemeEn,
  faultSchemeZh,
  MAX_FEEDBACK_PICTURES,
  ADMIN_ROLE,
  taskIdOf,
  translate,
  workOrderFlowEdges,
  workOrderStatuses,
  type WorkOrderStepKind,
  type AreaRole,
  type WorkOrderDetail,
  type WorkOrderDto,
  type WorkOrderStatus,
  type workOrderApi,
} from '@csms/contract';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { storedFile } from '../../db/schema.js';
import type { Principal, RequestCtx } from '../../http/context.js';
import { AppError, badField, conflict, notFound } from '../../http/errors.js';
import type { Handlers } from '../../http/mount.js';
import type { DayZone } from '../../lib/day-zone.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import { canSeeProvider, isUniqueViolation } from '../../lib/scope.js';
import { storedFileNameOf, type StoredImages } from '../../lib/stored-images.js';
import { financeHolds } from '../finance/stored-upload.js';
import type { ComponentRepo } from './component.repo.js';
import { idOfTask, type WorkOrderRepo } from './workOrder.repo.js';

interface Deps {
  db: Db;
  repo: WorkOrderRepo;
  components: ComponentRepo;
  images: StoredImages;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows' | 'dataDir'>;
  dayZone: DayZone;
}

/** The fault code of a feedback: one open feedback per point, later ones attach to it. */
export const FEEDBACK_CODE = 'Feedback';

/** The administrator role and wildcard holders act as any area's leader and archive person. */
const overseer = (p: Principal) => p.roleKey === 'admin' || p.permissions.includes(ALL_PERMISSION);

/**
 * A user bound to stations sees every area of their provider, but changes or removes only an area
 * whose stations are all theirs: saving an area rewrites its whole station list, which would drop
 * the stations they cannot see.
 */
function outsideBinding(p: Principal, area: { stations: { id: number }[] }) {
  if (p.stationIds !== null && area.stations.some((s) => !p.stationIds!.includes(s.id)))
    throw new AppError(Code.FORBIDDEN, 'errors.serviceArea.outsideBinding');
}

/**
 * A service man sees his own orders: whoever may process orders but neither assign nor archive them
 * sees only the orders given to them. Others with the list permission see every order in their scope.
 */
export const ownOnly = (p: Principal) =>
  !overseer(p) &&
  checkPermi(p.permissions, 'workOrder:list:process') &&
  !checkPermi(p.permissions, ['workOrder:list:assign', 'workOrder:list:archive']);

/**
 * Work orders, fault treatment (issue 17 item 1; DESIGN.md §10 work-order flow). Every step is a
 * conditional update from the state it leaves, with its history row, in the request's transaction:
 * two people acting on one order at once cannot both move it.
 */
export function workOrderRoutes({ db, repo, components, images, events, columns, config, dayZone }: Deps): Handlers<typeof workOrderApi> {
  const uploadDir = path.join(config.dataDir, 'uploads');
  const statusWord = (ctx: RequestCtx, s: WorkOrderStatus) => translate(ctx.lang, `enums.workOrderStatus.${s}`);

  async function order(p: Principal, taskId: string): Promise<WorkOrderDto> {
    const id = idOfTask(taskId);
    const w = id === undefined ? undefined : await repo.get(p, ownOnly(p), id);
    if (!w) throw notFound();
    return w;
  }

  /** What the caller may do with the order now, by its state, the caller's permissions and parts in its area. */
  async function abilities(p: Principal, w: WorkOrderDto) {
    const roles = await repo.rolesIn(w.areaId, p.userId);
    const may = (permi: string) => p.roleKey === 'admin' || checkPermi(p.permissions, permi);
    const leads = w.areaId !== null && (overseer(p) || roles.has('leader'));
    const archives = w.areaId !== null && (overseer(p) || roles.has('archivist'));
    const mine = w.serviceManId === p.userId;
    return {
      assign: may('workOrder:list:assign') && leads && (w.status === 'new' || w.status === 'failed'),
      accept: may('workOrder:list:process') && mine && w.status === 'assigned',
      report: may('workOrder:list:process') && mine && w.status === 'processing',
      archive: may('workOrder:list:archive') && archives && w.status === 'resolved',
    };
  }

  function wrongState(ctx: RequestCtx, w: WorkOrderDto, operation: string) {
    return conflict(
      'errors.workOrder.wrongState',
      { taskId: w.taskId, status: statusWord(ctx, w.status), action: translate(ctx.lang, `enums.operation.${operation}`) },
      'taskId',
    );
  }

  /** The area's part the caller needs (leader or archive person), unless an overseer. */
  async function mustHold(ctx: RequestCtx & { principal: Principal }, w: WorkOrderDto, role: AreaRole) {
    if (w.areaId === null) throw conflict('errors.workOrder.noArea', {}, 'taskId');
    if (overseer(ctx.principal)) return;
    if (!(await repo.rolesIn(w.areaId, ctx.principal.userId)).has(role))
      throw new AppError(Code.FORBIDDEN, role === 'leader' ? 'errors.workOrder.notLeader' : 'errors.workOrder.notArchivist');
  }

  async function give(
    ctx: RequestCtx & { principal: Principal },
    taskId: string,
    serviceManId: number,
    note: string | undefined,
    again: boolean,
  ) {
    const w = await order(ctx.principal, taskId);
    const from: WorkOrderStatus = again ? 'failed' : 'new';
    if (w.status !== from) throw wrongState(ctx, w, again ? 'reassign' : 'assign');
    await mustHold(ctx, w, 'leader');
    const men = await repo.serviceMen(w.areaId!);
    if (!men.some((m) => m.id === serviceManId)) throw badField('serviceManId', 'errors.workOrder.serviceManNotInArea');
    const moved = await repo.move(
      w.id,
      from,
      'assigned',
      { kind: again ? 'reassigned' : 'assigned', actorId: ctx.principal.userId, serviceManId, note },
      { serviceManId },
    );
    if (!moved) throw wrongState(ctx, await order(ctx.principal, taskId), again ? 'reassign' : 'assign');
    return order(ctx.principal, taskId);
  }

  /** The service man's own steps: only on an order given to him. */
  async function ownStep(
    ctx: RequestCtx & { principal: Principal },
    taskId: string,
    from: WorkOrderStatus,
    to: WorkOrderStatus,
    operation: string,
    step: { kind: 'accepted' | 'resolved' | 'failed'; note?: string },
  ) {
    const p = ctx.principal;
    const w = await order(p, taskId);
    if (w.serviceManId !== p.userId) throw new AppError(Code.FORBIDDEN, 'errors.workOrder.notServiceMan');
    if (w.status !== from) throw wrongState(ctx, w, operation);
    if (!(await repo.move(w.id, from, to, { ...step, actorId: p.userId }, { serviceManOf: p.userId })))
      throw wrongState(ctx, await order(p, taskId), operation);
    return order(p, taskId);
  }

  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      const p = ctx.principal;
      return repo.list(p, ownOnly(p), await dayZone.bound(p, f), page, limit);
    },
    async search({ body, ctx }) {
      const { page, limit, ...f } = body;
      const p = ctx.principal;
      return repo.list(p, ownOnly(p), await dayZone.bound(p, f), page, limit);
    },
    async detail({ body, ctx, audit }) {
      const w = await order(ctx.principal, body.taskId);
      audit.operand = `workOrder:${w.taskId}`;
      const detail: WorkOrderDetail = { ...w, steps: await repo.steps(w.id), can: await abilities(ctx.principal, w) };
      return detail;
    },
    async add({ body, ctx, audit }) {
      const p = ctx.principal;
      const point = await repo.point(p, body.serialNumber);
      if (!point) throw notFound();
      // 0 is the point as a whole; any other number must be one of its connectors.
      if (body.connectorNo !== 0 && !point.connectorNos.includes(body.connectorNo))
        throw badField('connectorNo', 'errors.workOrder.noSuchConnector', { n: body.connectorNo, serial: point.serialNumber });
      if (body.transactionId !== undefined) {
        const t = await repo.transactionOf(body.transactionId);
        if (!t || t.chargePointId !== point.id)
          throw badField('transactionId', 'errors.workOrder.transactionNotOfPoint', { id: body.transactionId });
      }
      const open = await repo.openOf(point.id, body.faultCode);
      if (open) throw conflict('errors.workOrder.openExists', { faultCode: body.faultCode, taskId: taskIdOf(open.id) }, 'faultCode');
      let id: number;
      try {
        id = await repo.insert(
          {
            providerId: point.providerId,
            stationId: point.stationId,
            chargePointId: point.id,
            connectorNo: body.connectorNo,
            transactionId: body.transactionId ?? null,
            faultCode: body.faultCode,
            source: 'manual',
            description: body.description,
            priority: body.priority,
            createdBy: p.userId,
          },
          p.userId,
        );
      } catch (err) {
        // The charger's own report of the same fault came first.
        if (isUniqueViolation(err)) throw conflict('errors.workOrder.openExists', { faultCode: body.faultCode, taskId: '' }, 'faultCode');
        throw err;
      }
      const w = await repo.get(p, false, id);
      audit.operand = `workOrder:${w!.taskId}`;
      return w!;
    },
    async assign({ body, ctx, audit }) {
      audit.operand = `workOrder:${body.taskId}`;
      return give(ctx, body.taskId, body.serviceManId, body.note, false);
    },
    async reassign({ body, ctx, audit }) {
      audit.operand = `workOrder:${body.taskId}`;
      return give(ctx, body.taskId, body.serviceManId, body.note, true);
    },
    async accept({ body, ctx, audit }) {
      audit.operand = `workOrder:${body.taskId}`;
      return ownStep(ctx, body.taskId, 'assigned', 'processing', 'accept', { kind: 'accepted' });
    },
    async report({ body, ctx, audit }) {
      audit.operand = `workOrder:${body.taskId}`;
      if (body.result !== 'resolved' && body.components.length > 0) throw badField('components', 'errors.workOrder.componentsOnlyResolved');
      const w = await ownStep(ctx, body.taskId, 'processing', body.result, 'report', { kind: body.result, note: body.description });
      // The point's maintenance records, in the same transaction as the report.
      await components.record(w, ctx.principal.userId, body.components);
      return w;
    },
    async archive({ body, ctx, audit }) {
      audit.operand = `workOrder:${body.taskId}`;
      const w = await order(ctx.principal, body.taskId);
      if (w.status !== 'resolved') throw wrongState(ctx, w, 'archive');
      await mustHold(ctx, w, 'archivist');
      if (!(await repo.move(w.id, 'resolved', 'archived', { kind: 'archived', actorId: ctx.principal.userId, note: body.note })))
        throw wrongState(ctx, await order(ctx.principal, body.taskId), 'archive');
      return order(ctx.principal, body.taskId);
    },
    async flowChart({ query, ctx }) {
      const w = await order(ctx.principal, query.taskId);
      const steps = await repo.steps(w.id);
      const moves: Partial<Record<WorkOrderStepKind, [WorkOrderStatus, WorkOrderStatus]>> = {
        assigned: ['new', 'assigned'],
        reassigned: ['failed', 'assigned'],
        accepted: ['assigned', 'processing'],
        resolved: ['processing', 'resolved'],
        failed: ['processing', 'failed'],
        archived: ['resolved', 'archived'],
      };
      const made = steps.flatMap((st) => (moves[st.kind] ? [moves[st.kind]!] : []));
      const passed = new Set<WorkOrderStatus>(['new', ...made.map(([, to]) => to)]);
      return {
        taskId: w.taskId,
        nodes: workOrderStatuses.map((status) => ({
          status,
          state: status === w.status ? ('current' as const) : passed.has(status) ? ('done' as const) : ('todo' as const),
        })),
        edges: workOrderFlowEdges.map(([from, to]) => {
          const times = made.filter(([f, t]) => f === from && t === to).length;
          return { from, to, done: times > 0, times };
        }),
        steps,
      };
    },
    async scheme({ body, ctx }) {
      const p = ctx.principal;
      // The OCPP codes, NoError (a Faulted status without a code) and a user's feedback.
      const known =
        (chargePointErrorCodes as readonly string[]).includes(body.faultCode) ||
        body.faultCode === 'NoError' ||
        body.faultCode === FEEDBACK_CODE;
      // The schemes are the server's to phrase: kept out of the console's catalogue (they are long), chosen by language.
      const scheme = (ctx.lang === 'zh' ? faultSchemeZh : faultSchemeEn)[(known ? body.faultCode : 'other') as keyof typeof faultSchemeZh];
      // The vendor's own fix: for the charger's vendor code, or for a code outside OCPP's list, from the catalogue of
      // the order's provider (or the caller's own) and the providers above it.
      const providerId = body.taskId ? (await order(p, body.taskId)).providerId : p.providerId;
      const vendorCode = body.vendorErrorCode || (known ? undefined : body.faultCode);
      const entry = vendorCode ? await repo.vendorCode(providerId, vendorCode) : undefined;
      return {
        faultCode: body.faultCode,
        known,
        title: scheme.title,
        steps: scheme.steps.split('\n'),
        vendor: entry ? { code: entry.code, title: entry.title, steps: entry.steps.split('\n').filter((l) => l.trim()) } : null,
      };
    },
    async feedback({ body, ctx, audit }) {
      const p = ctx.principal;
      const point = await repo.point(p, body.serialNumber);
      if (!point) throw notFound();
      // 0 is the point as a whole; any other number must be one of its connectors.
      if (body.connectorNo !== 0 && !point.connectorNos.includes(body.connectorNo))
        throw badField('connectorNo', 'errors.workOrder.noSuchConnector', { n: body.connectorNo, serial: point.serialNumber });
      const values = (body.pictures ?? '')
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
      const rule = { field: 'pictures', key: 'errors.workOrder.picturesInvalid', maxMb: 5, params: { n: MAX_FEEDBACK_PICTURES } };
      if (values.length > MAX_FEEDBACK_PICTURES) throw badField('pictures', rule.key, rule.params);
      for (const v of values) await images.check(p, v, rule);
      const pictures = [...new Set(values.map((v) => storedFileNameOf(v)!))];
      // A point with an open feedback gets the new one attached (as a charger's repeated fault is).
      const open = await repo.openOf(point.id, FEEDBACK_CODE);
      let id = open?.id;
      if (id !== undefined) {
        if (!(await repo.attachFeedback(id, p.userId, body.description, pictures))) id = undefined;
      }
      if (id === undefined) {
        try {
          id = await repo.insert(
            {
              providerId: point.providerId,
              stationId: point.stationId,
              chargePointId: point.id,
              connectorNo: body.connectorNo,
              faultCode: FEEDBACK_CODE,
              source: 'feedback',
              description: body.description,
              pictures,
              priority: 'normal',
              createdBy: p.userId,
            },
            p.userId,
          );
        } catch (err) {
          // Another feedback on the point opened one a moment before: try it again, it attaches.
          if (isUniqueViolation(err))
            throw conflict('errors.workOrder.openExists', { faultCode: FEEDBACK_CODE, taskId: '' }, 'serialNumber');
          throw err;
        }
      }
      audit.operand = `workOrder:${taskIdOf(id)}`;
      // The point is in the filer's scope, so the order is too (whether or not they may list orders).
      return (await repo.get(p, false, id))!;
    },
    async myFeedback({ query, ctx }) {
      return repo.mine(ctx.principal, query.page, query.limit);
    },
    async deleteFile({ body, ctx, audit }) {
      const p = ctx.principal;
      const name = storedFileNameOf(body.clearFile);
      const [row] = name ? await db.select().from(storedFile).where(eq(storedFile.fileName, name)).limit(1) : [];
      if (!row || (row.providerId !== null && !canSeeProvider(p, row.providerId))) throw notFound();
      audit.operand = `file:${row.originalName}`;
      if (row.uploadedBy !== p.userId && p.roleKey !== ADMIN_ROLE) throw new AppError(Code.FORBIDDEN, 'errors.workOrderFile.notUploader');
      const holder = await repo.holdingPicture(row.fileName);
      if (holder) throw conflict('errors.workOrderFile.inUse', { taskId: taskIdOf(holder.id) }, 'clearFile');
      // The same rule as the common download's delete: an issued invoice's PDF and a transfer's receipt are kept.
      if (await financeHolds(db, row.fileName)) throw conflict('errors.invoice.fileKept', {}, 'clearFile');
      const removed = (await db.delete(storedFile).where(eq(storedFile.id, row.id)).returning({ id: storedFile.id })).length;
      await fs.promises.rm(path.join(uploadDir, row.fileName), { force: true });
      return { removed };
    },

    async faultCodes({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.faultCodes(ctx.principal, f, page, limit);
    },
    async saveFaultCode({ body, ctx, audit }) {
      const p = ctx.principal;
      let providerId: number;
      if (body.id !== undefined) {
        const existing = await repo.faultCode(p, body.id);
        if (!existing) throw notFound();
        providerId = existing.providerId;
      } else {
        providerId = body.providerId ?? p.providerId;
        if (!canSeeProvider(p, providerId)) throw notFound();
      }
      let id: number;
      try {
        id = await repo.saveFaultCode(body.id, { providerId, code: body.code, title: body.title, steps: body.steps });
      } catch (err) {
        if (isUniqueViolation(err)) throw badField('code', 'errors.faultCode.duplicate', { code: body.code });
        throw err;
      }
      audit.operand = `faultCode:${body.code}`;
      const saved = (await repo.faultCodes(p, { code: body.code, providerId }, 1, 100)).list.find((c) => c.id === id);
      return saved!;
    },
    async removeFaultCode({ body, ctx, audit }) {
      const c = await repo.faultCode(ctx.principal, body.id);
      if (!c) throw notFound();
      audit.operand = `faultCode:${c.code}`;
      return { removed: await repo.removeFaultCode(c.id) };
    },
    async stationIds({ query, ctx }) {
      return { stationIds: await repo.stationIdsNamed(ctx.principal, query.stationName) };
    },
    async serviceMen({ query, ctx }) {
      const w = await order(ctx.principal, query.taskId);
      return w.areaId === null ? [] : repo.serviceMen(w.areaId);
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...f } = body;
      const filter = await dayZone.bound(p, f);
      const word = (group: string) => (v: unknown) => translate(ctx.lang, `enums.${group}.${String(v)}`);
      const defaults: ExportColumn<WorkOrderDto & Record<string, unknown>>[] = [
        { key: 'taskId' },
        { key: 'status', value: (r) => word('workOrderStatus')(r.status) },
        { key: 'priority', value: (r) => word('workOrderPriority')(r.priority) },
        { key: 'source', value: (r) => word('workOrderSource')(r.source) },
        { key: 'faultCode' },
        { key: 'vendorErrorCode' },
        { key: 'stationName' },
        { key: 'serialNumber' },
        { key: 'connectorNo' },
        { key: 'transactionId' },
        { key: 'description' },
        { key: 'areaName' },
        { key: 'serviceManName' },
        { key: 'repeats' },
        { key: 'faultClearedAt' },
        { key: 'providerName' },
        { key: 'createdByName' },
        { key: 'createTime' },
        { key: 'updateTime' },
      ];
      const own = ownOnly(p);
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'workOrder',
        fileBase: 'work-orders',
        format,
        columns: await columns.columnsFor('workOrder', defaults, ctx),
        total: await repo.count(p, own, filter),
        batches: keysetBatches((after, size) => repo.page(p, own, filter, after, size)) as AsyncIterable<
          (WorkOrderDto & Record<string, unknown>)[]
        >,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },

    async areas({ ctx }) {
      return repo.areas(ctx.principal);
    },
    async saveArea({ body, ctx, audit }) {
      const p = ctx.principal;
      let providerId: number;
      if (body.id !== undefined) {
        const existing = await repo.area(p, body.id);
        if (!existing) throw notFound();
        outsideBinding(p, existing);
        providerId = existing.providerId;
      } else {
        providerId = body.providerId ?? p.providerId;
        if (p.providerIds !== 'all' && !p.providerIds.includes(providerId)) throw notFound();
      }
      const stationIds = [...new Set(body.stationIds)];
      if (p.stationIds !== null && stationIds.some((s) => !p.stationIds!.includes(s))) throw notFound();
      if ((await repo.countOf(p, 'station', providerId, stationIds)) !== stationIds.length)
        throw badField('stationIds', 'errors.serviceArea.stationNotOfProvider');
      const members = [
        ...body.leaderIds.map((userId) => ({ userId, role: 'leader' as const })),
        ...body.serviceManIds.map((userId) => ({ userId, role: 'serviceMan' as const })),
        ...body.archivistIds.map((userId) => ({ userId, role: 'archivist' as const })),
      ].filter((m, i, all) => all.findIndex((x) => x.userId === m.userId && x.role === m.role) === i);
      const userIds = [...new Set(members.map((m) => m.userId))];
      if ((await repo.countOf(p, 'user', providerId, userIds)) !== userIds.length)
        throw badField('leaderIds', 'errors.serviceArea.userNotOfProvider');
      const taken = await repo.stationAreas(stationIds, body.id);
      if (taken[0])
        throw badField('stationIds', 'errors.serviceArea.stationTaken', { station: taken[0].stationName, area: taken[0].areaName });
      let id: number;
      try {
        id = await repo.saveArea(body.id, { providerId, name: body.name, stationIds, members });
      } catch (err) {
        if (isUniqueViolation(err)) throw badField('name', 'errors.serviceArea.duplicateName', { name: body.name });
        throw err;
      }
      audit.operand = `serviceArea:${id}`;
      return (await repo.area(p, id))!;
    },
    async removeArea({ body, ctx, audit }) {
      const area = await repo.area(ctx.principal, body.id);
      if (!area) throw notFound();
      outsideBinding(ctx.principal, area);
      audit.operand = `serviceArea:${area.id}`;
      return { removed: await repo.removeArea(area.id) };
    },
    async userOptions({ query, ctx }) {
      const p = ctx.principal;
      const providerId = query.providerId ?? p.providerId;
      if (p.providerIds !== 'all' && !p.providerIds.includes(providerId)) return [];
      return repo.users(p, providerId);
    },
  };
}

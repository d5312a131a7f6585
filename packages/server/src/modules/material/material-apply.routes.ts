import {
  Code,
  materialApplyFlowEdges,
  materialApplyStatuses,
  openWorkOrderStatuses,
  taskIdOf,
  translate,
  type MaterialApplyDto,
  type MaterialApplyStatus,
  type materialApplyApi,
} from '@csms/contract';
import type { Config } from '../../config.js';
import type { Principal, RequestCtx } from '../../http/context.js';
import { AppError, badField, conflict, notFound } from '../../http/errors.js';
import type { Handlers } from '../../http/mount.js';
import type { DayZone } from '../../lib/day-zone.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { keysetBatches, streamExport, type ExportColumn } from '../../lib/export.js';
import { idOfTaskText, type MaterialApplyRepo } from './material-apply.repo.js';
import { ownOnly } from '../workOrder/workOrder.routes.js';

interface Deps {
  repo: MaterialApplyRepo;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows'>;
  dayZone: DayZone;
}

/**
 * Apply orders for spare parts (issue 17 item 4; DESIGN.md §10: applied → agreed | not agreed). The
 * decision is a conditional update from `applied` in the request's transaction, with the stock taken
 * in the same one: two approvers cannot both decide, and a short stock refuses the agreement whole.
 */
export function materialApplyRoutes({ repo, events, columns, config, dayZone }: Deps): Handlers<typeof materialApplyApi> {
  const statusWord = (ctx: RequestCtx, s: MaterialApplyStatus) => translate(ctx.lang, `enums.materialApplyStatus.${s}`);

  async function order(p: Principal, taskId: string): Promise<MaterialApplyDto> {
    const id = idOfTaskText(taskId, 'MA');
    const a = id === undefined ? undefined : await repo.get(p, id);
    if (!a) throw notFound();
    return a;
  }

  return {
    async list({ query, ctx }) {
      const { page, limit, ...f } = query;
      return repo.list(ctx.principal, await dayZone.bound(ctx.principal, f), page, limit);
    },
    async search({ body, ctx }) {
      const { page, limit, ...f } = body;
      return repo.list(ctx.principal, await dayZone.bound(ctx.principal, f), page, limit);
    },
    async add({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `workOrder:${body.workOrderTaskId}`;
      const woId = idOfTaskText(body.workOrderTaskId, 'WO');
      // A service man applies for his own orders only, as he sees only those (workOrder.routes.ts).
      const w = woId === undefined ? undefined : await repo.workOrder(p, woId, ownOnly(p));
      if (!w) throw notFound();
      if (!(openWorkOrderStatuses as readonly string[]).includes(w.status))
        throw conflict(
          'errors.materialApply.workOrderClosed',
          { taskId: taskIdOf(w.id), status: translate(ctx.lang, `enums.workOrderStatus.${w.status}`) },
          'workOrderTaskId',
        );
      const parts = await repo.materials(
        w.providerId,
        body.lines.map((l) => l.materialId),
      );
      for (const l of body.lines) {
        const m = parts.find((x) => x.id === l.materialId);
        if (!m) throw badField('lines', 'errors.materialApply.partNotOfProvider', { taskId: taskIdOf(w.id) });
        // Told now rather than at the approval: the stock is checked again when it is agreed.
        if (m.stock < l.count)
          throw badField('lines', 'errors.materialApply.stockShort', {
            partsNumber: m.partsNumber,
            name: m.name,
            count: l.count,
            stock: m.stock,
          });
      }
      const id = await repo.insert(
        {
          providerId: w.providerId,
          stationId: w.stationId,
          workOrderId: w.id,
          receiver: body.receiver,
          receiverPhone: body.receiverPhone,
          logisticsType: body.logisticsType,
          deliveryAddress: body.deliveryAddress,
          note: body.note || null,
          applicantId: p.userId,
        },
        body.lines,
        p.userId,
      );
      const a = (await repo.get(p, id))!;
      audit.operand = `materialApply:${a.taskId}`;
      return a;
    },
    async confirm({ body, ctx, audit }) {
      const p = ctx.principal;
      audit.operand = `materialApply:${body.taskId}`;
      const a = await order(p, body.taskId);
      const decided = () => conflict('errors.materialApply.decided', { taskId: a.taskId, status: statusWord(ctx, a.status) }, 'taskId');
      if (a.status !== 'applied') throw decided();
      if (!(await repo.decide(a.id, body.result, p.userId, body.auditOpinion || null))) {
        const now = await order(p, body.taskId);
        throw conflict('errors.materialApply.decided', { taskId: now.taskId, status: statusWord(ctx, now.status) }, 'taskId');
      }
      if (body.result === 'agreed') {
        const short = await repo.takeStock(a.id);
        // Thrown, the request's transaction undoes the decision and every line already taken.
        if (short) throw new AppError(Code.CONFLICT, 'errors.materialApply.stockShort', short);
      }
      return order(p, body.taskId);
    },
    async flowChart({ query, ctx }) {
      const a = await order(ctx.principal, query.taskId);
      const steps = await repo.steps(a.id);
      const made = steps.filter((s) => s.kind !== 'applied').map((s) => ['applied', s.kind] as const);
      return {
        taskId: a.taskId,
        nodes: materialApplyStatuses.map((status) => ({
          status,
          state:
            status === a.status
              ? ('current' as const)
              : status === 'applied' || made.some(([, to]) => to === status)
                ? ('done' as const)
                : ('todo' as const),
        })),
        edges: materialApplyFlowEdges.map(([from, to]) => {
          const times = made.filter(([f, t]) => f === from && t === to).length;
          return { from, to, done: times > 0, times };
        }),
        steps,
      };
    },
    async workOrders({ query, ctx }) {
      return repo.workOrderOptions(ctx.principal, query.text, query.limit ?? 50, ownOnly(ctx.principal));
    },
    async export({ body, ctx, reply }) {
      const p = ctx.principal;
      const { format, exportId, ...f } = body;
      const filter = await dayZone.bound(p, f);
      const word = (group: string) => (v: unknown) => translate(ctx.lang, `enums.${group}.${String(v)}`);
      const defaults: ExportColumn<MaterialApplyDto & Record<string, unknown>>[] = [
        { key: 'taskId' },
        { key: 'status', value: (r) => word('materialApplyStatus')(r.status) },
        { key: 'workOrderTaskId' },
        { key: 'stationName' },
        { key: 'serialNumber' },
        { key: 'summary' },
        { key: 'receiver' },
        { key: 'receiverPhone' },
        { key: 'logisticsType', value: (r) => word('logisticsType')(r.logisticsType) },
        { key: 'deliveryAddress' },
        { key: 'note' },
        { key: 'applicantName' },
        { key: 'approverName' },
        { key: 'auditOpinion' },
        { key: 'decideTime' },
        { key: 'providerName' },
        { key: 'createTime' },
      ];
      await streamExport(reply, {
        lang: ctx.lang,
        resource: 'materialApply',
        fileBase: 'apply-orders',
        format,
        columns: await columns.columnsFor('materialApply', defaults, ctx),
        total: await repo.count(p, filter),
        batches: keysetBatches((after, size) => repo.page(p, filter, after, size)) as AsyncIterable<
          (MaterialApplyDto & Record<string, unknown>)[]
        >,
        maxRows: config.exportMaxRows,
        progress: { hub: events, userId: p.userId, exportId },
      });
    },
  };
}

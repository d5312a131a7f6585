import { taskIdOf, type ComponentAction, type ComponentUseDto } from '@csms/contract';
import { and, asc, desc, eq, gt, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { chargePoint, componentUse, provider, station, systemUser, workOrder } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { contains, lowerLike } from '../../lib/text-search.js';
import { stationScope } from '../monitor/scope.js';
import { idOfTask } from './workOrder.repo.js';

export interface ComponentUseFilter {
  serialNumber?: string | undefined;
  component?: string | undefined;
  action?: ComponentAction | undefined;
  taskId?: string | undefined;
  stationId?: number | undefined;
  providerId?: number | undefined;
  startTime?: Date | undefined;
  endTime?: Date | undefined;
}

/**
 * Maintenance records (issue 17 item 5): components replaced or repaired on a point, written with a work
 * order's resolved report; scoped like the orders, by provider and bound stations.
 */
export function createComponentRepo({ db }: { db: Db }) {
  const filterSql = (p: Principal, f: ComponentUseFilter): SQL | undefined => {
    const id = f.taskId ? idOfTask(f.taskId.toUpperCase().startsWith('WO') ? f.taskId : `WO${f.taskId}`) : undefined;
    return and(
      stationScope(p, componentUse.providerId, componentUse.stationId),
      f.serialNumber ? lowerLike(chargePoint.serialNumber, contains(f.serialNumber)) : undefined,
      f.component ? eq(componentUse.component, f.component) : undefined,
      f.action ? eq(componentUse.action, f.action) : undefined,
      f.taskId ? (id ? eq(componentUse.workOrderId, id) : sql`false`) : undefined,
      f.stationId ? eq(componentUse.stationId, f.stationId) : undefined,
      f.providerId ? eq(componentUse.providerId, f.providerId) : undefined,
      f.startTime ? gte(componentUse.createdAt, f.startTime) : undefined,
      f.endTime ? lte(componentUse.createdAt, f.endTime) : undefined,
    );
  };
  const head = () =>
    db
      .select({
        c: componentUse,
        providerName: provider.name,
        stationName: station.name,
        serialNumber: chargePoint.serialNumber,
        pointName: chargePoint.name,
        faultCode: workOrder.faultCode,
        actorName: sql<string | null>`coalesce(nullif(${systemUser.name}, ''), ${systemUser.username})`,
      })
      .from(componentUse)
      .innerJoin(provider, eq(provider.id, componentUse.providerId))
      .innerJoin(station, eq(station.id, componentUse.stationId))
      .innerJoin(chargePoint, eq(chargePoint.id, componentUse.chargePointId))
      .leftJoin(workOrder, eq(workOrder.id, componentUse.workOrderId))
      .leftJoin(systemUser, eq(systemUser.id, componentUse.actorId));
  type Head = Awaited<ReturnType<ReturnType<typeof head>['where']>>[number];
  const dto = ({ c, ...j }: Head): ComponentUseDto => ({
    id: c.id,
    providerId: c.providerId,
    providerName: j.providerName,
    stationId: c.stationId,
    stationName: j.stationName,
    serialNumber: j.serialNumber,
    pointName: j.pointName,
    connectorNo: c.connectorNo,
    component: c.component,
    action: c.action,
    quantity: c.quantity,
    note: c.note,
    taskId: c.workOrderId === null ? null : taskIdOf(c.workOrderId),
    faultCode: j.faultCode,
    actorName: c.actorId === null ? null : j.actorName,
    createTime: c.createdAt.toISOString(),
  });
  const counted = (cond: SQL | undefined) =>
    db
      .select({ id: componentUse.id })
      .from(componentUse)
      .innerJoin(chargePoint, eq(chargePoint.id, componentUse.chargePointId))
      .where(cond);

  return {
    async list(p: Principal, f: ComponentUseFilter, page: number, limit: number) {
      const cond = filterSql(p, f);
      const offset = (page - 1) * limit;
      const rows = await head().where(cond).orderBy(desc(componentUse.createdAt), desc(componentUse.id)).limit(limit).offset(offset);
      return { list: rows.map(dto), ...(await pageTotal(db, { offset, size: limit, rows: rows.length }, counted(cond))) };
    },
    async count(p: Principal, f: ComponentUseFilter) {
      const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(counted(filterSql(p, f)).as('c'));
      return r?.n ?? 0;
    },
    async page(p: Principal, f: ComponentUseFilter, afterId: number, size: number) {
      const rows = await head()
        .where(and(filterSql(p, f), gt(componentUse.id, afterId)))
        .orderBy(asc(componentUse.id))
        .limit(size);
      return rows.map(dto);
    },
    /** Names recorded in the caller's scope (containing `text`), most used first, at most 50. */
    async names(p: Principal, text: string | undefined) {
      const rows = await db
        .select({ component: componentUse.component })
        .from(componentUse)
        .where(
          and(
            stationScope(p, componentUse.providerId, componentUse.stationId),
            text ? lowerLike(componentUse.component, contains(text)) : undefined,
          ),
        )
        .groupBy(componentUse.component)
        .orderBy(desc(sql`count(*)`), asc(componentUse.component))
        .limit(50);
      return rows.map((r) => r.component);
    },
    /** The records of a resolved repair, in the report's transaction. */
    async record(
      order: { id: number; providerId: number; stationId: number; pointId: number; connectorNo: number },
      actorId: number,
      lines: { component: string; action: ComponentAction; quantity: number; note?: string | undefined }[],
    ) {
      if (lines.length === 0) return;
      await db.insert(componentUse).values(
        lines.map((l) => ({
          providerId: order.providerId,
          stationId: order.stationId,
          chargePointId: order.pointId,
          connectorNo: order.connectorNo,
          workOrderId: order.id,
          component: l.component,
          action: l.action,
          quantity: l.quantity,
          note: l.note || null,
          actorId,
        })),
      );
    },
  };
}

export type ComponentRepo = ReturnType<typeof createComponentRepo>;

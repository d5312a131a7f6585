import {
  applyTaskIdOf,
  openWorkOrderStatuses,
  taskIdOf,
  type MaterialApplyDto,
  type MaterialApplyStatus,
  type MaterialApplyStepDto,
  type MaterialApplyStepKind,
  type LogisticsType,
} from '@csms/contract';
import { and, asc, desc, eq, exists, gt, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import {
  chargePoint,
  material,
  materialApply,
  materialApplyLine,
  materialApplyStep,
  provider,
  station,
  systemUser,
  workOrder,
} from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { contains, lowerLike } from '../../lib/text-search.js';
import { stationScope } from '../monitor/scope.js';

export interface MaterialApplyFilter {
  taskId?: string | undefined;
  workOrderTaskId?: string | undefined;
  partsNumber?: string | undefined;
  status?: MaterialApplyStatus | undefined;
  logisticsType?: LogisticsType | undefined;
  stationId?: number | undefined;
  providerId?: number | undefined;
  startTime?: Date | undefined;
  endTime?: Date | undefined;
}

/** `MA00000012` (or `WO…` for a work order, or the bare number) → 12; anything else → undefined. */
export const idOfTaskText = (text: string, prefix: 'MA' | 'WO'): number | undefined => {
  const m = new RegExp(`^(?:${prefix})?(\\d{1,12})$`, 'i').exec(text.trim());
  const n = m ? Number(m[1]) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

const applicant = alias(systemUser, 'applicant');
const approver = alias(systemUser, 'approver');
const displayName = (u: { name: PgColumn; username: PgColumn }) => sql<string>`coalesce(nullif(${u.name}, ''), ${u.username})`;

/**
 * Apply orders, scoped as the work orders they are for: the caller's providers, narrowed to the bound
 * stations of a station-bound user.
 */
export function createMaterialApplyRepo({ db }: { db: Db }) {
  const where = (p: Principal, ...more: (SQL | undefined)[]) =>
    and(stationScope(p, materialApply.providerId, materialApply.stationId), ...more);
  const byTask = (text: string | undefined, prefix: 'MA' | 'WO', column: PgColumn) => {
    if (!text) return undefined;
    const id = idOfTaskText(text, prefix);
    return id === undefined ? sql`false` : eq(column, id);
  };
  const filterSql = (f: MaterialApplyFilter) =>
    and(
      byTask(f.taskId, 'MA', materialApply.id),
      byTask(f.workOrderTaskId, 'WO', materialApply.workOrderId),
      f.partsNumber
        ? exists(
            db
              .select({ one: sql`1` })
              .from(materialApplyLine)
              .innerJoin(material, eq(material.id, materialApplyLine.materialId))
              .where(and(eq(materialApplyLine.applyId, materialApply.id), lowerLike(material.partsNumber, contains(f.partsNumber)))),
          )
        : undefined,
      f.status ? eq(materialApply.status, f.status) : undefined,
      f.logisticsType ? eq(materialApply.logisticsType, f.logisticsType) : undefined,
      f.stationId ? eq(materialApply.stationId, f.stationId) : undefined,
      f.providerId ? eq(materialApply.providerId, f.providerId) : undefined,
      f.startTime ? gte(materialApply.createdAt, f.startTime) : undefined,
      f.endTime ? lte(materialApply.createdAt, f.endTime) : undefined,
    );
  const head = () =>
    db
      .select({
        a: materialApply,
        providerName: provider.name,
        stationName: station.name,
        serialNumber: chargePoint.serialNumber,
        applicantName: displayName(applicant),
        approverName: displayName(approver),
      })
      .from(materialApply)
      .innerJoin(provider, eq(provider.id, materialApply.providerId))
      .innerJoin(station, eq(station.id, materialApply.stationId))
      .innerJoin(workOrder, eq(workOrder.id, materialApply.workOrderId))
      .innerJoin(chargePoint, eq(chargePoint.id, workOrder.chargePointId))
      .leftJoin(applicant, eq(applicant.id, materialApply.applicantId))
      .leftJoin(approver, eq(approver.id, materialApply.approverId));
  type Head = Awaited<ReturnType<ReturnType<typeof head>['where']>>[number];

  /** The rows as DTOs, with their lines (one query for the page). */
  async function dtos(rows: Head[]): Promise<MaterialApplyDto[]> {
    if (rows.length === 0) return [];
    const lines = await db
      .select({
        applyId: materialApplyLine.applyId,
        materialId: material.id,
        partsNumber: material.partsNumber,
        name: material.name,
        model: material.model,
        unit: material.unit,
        count: materialApplyLine.count,
      })
      .from(materialApplyLine)
      .innerJoin(material, eq(material.id, materialApplyLine.materialId))
      .where(
        inArray(
          materialApplyLine.applyId,
          rows.map((r) => r.a.id),
        ),
      )
      .orderBy(asc(material.partsNumber));
    return rows.map(({ a, ...j }) => {
      const mine = lines.filter((l) => l.applyId === a.id).map(({ applyId: _, ...l }) => l);
      return {
        id: a.id,
        taskId: applyTaskIdOf(a.id),
        providerId: a.providerId,
        providerName: j.providerName,
        workOrderTaskId: taskIdOf(a.workOrderId),
        stationId: a.stationId,
        stationName: j.stationName,
        serialNumber: j.serialNumber,
        lines: mine,
        summary: mine.map((l) => `${l.partsNumber} ×${l.count}`).join(', '),
        receiver: a.receiver,
        receiverPhone: a.receiverPhone,
        logisticsType: a.logisticsType,
        deliveryAddress: a.deliveryAddress,
        note: a.note,
        status: a.status,
        applicantName: a.applicantId === null ? null : j.applicantName,
        approverName: a.approverId === null ? null : j.approverName,
        auditOpinion: a.auditOpinion,
        decideTime: a.decidedAt?.toISOString() ?? null,
        createTime: a.createdAt.toISOString(),
        updateTime: a.updatedAt.toISOString(),
      };
    });
  }
  const counted = (cond: SQL | undefined) => db.select({ id: materialApply.id }).from(materialApply).where(cond);

  return {
    async list(p: Principal, f: MaterialApplyFilter, page: number, limit: number) {
      const cond = where(p, filterSql(f));
      const offset = (page - 1) * limit;
      const rows = await head().where(cond).orderBy(desc(materialApply.id)).limit(limit).offset(offset);
      return { list: await dtos(rows), ...(await pageTotal(db, { offset, size: limit, rows: rows.length }, counted(cond))) };
    },
    async count(p: Principal, f: MaterialApplyFilter) {
      const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(counted(where(p, filterSql(f))).as('c'));
      return r?.n ?? 0;
    },
    async page(p: Principal, f: MaterialApplyFilter, afterId: number, size: number) {
      const rows = await head()
        .where(where(p, filterSql(f), gt(materialApply.id, afterId)))
        .orderBy(asc(materialApply.id))
        .limit(size);
      return dtos(rows);
    },
    async get(p: Principal, id: number) {
      const rows = await head()
        .where(where(p, eq(materialApply.id, id)))
        .limit(1);
      return (await dtos(rows))[0];
    },
    /** A work order the caller sees (as the work-order list scopes them: with `ownOnly`, a service man's own). */
    async workOrder(p: Principal, id: number, ownOnly = false) {
      const [w] = await db
        .select({ id: workOrder.id, providerId: workOrder.providerId, stationId: workOrder.stationId, status: workOrder.status })
        .from(workOrder)
        .where(
          and(
            eq(workOrder.id, id),
            stationScope(p, workOrder.providerId, workOrder.stationId),
            ownOnly ? eq(workOrder.serviceManId, p.userId) : undefined,
          ),
        );
      return w;
    },
    /** Open work orders of the caller's scope, the newest first, by task id. */
    async workOrderOptions(p: Principal, text: string | undefined, limit: number, ownOnly = false) {
      const rows = await db
        .select({
          id: workOrder.id,
          providerId: workOrder.providerId,
          stationName: station.name,
          serialNumber: chargePoint.serialNumber,
          faultCode: workOrder.faultCode,
        })
        .from(workOrder)
        .innerJoin(station, eq(station.id, workOrder.stationId))
        .innerJoin(chargePoint, eq(chargePoint.id, workOrder.chargePointId))
        .where(
          and(
            stationScope(p, workOrder.providerId, workOrder.stationId),
            inArray(workOrder.status, [...openWorkOrderStatuses]),
            ownOnly ? eq(workOrder.serviceManId, p.userId) : undefined,
            // Part of the task id as shown (`WO00000012`, `0012`, `12`).
            text ? lowerLike(sql`'WO' || lpad(${workOrder.id}::text, 8, '0')`, contains(text)) : undefined,
          ),
        )
        .orderBy(desc(workOrder.id))
        .limit(limit);
      return rows.map(({ id: woId, ...r }) => ({ taskId: taskIdOf(woId), ...r }));
    },
    /** Parts of a provider by id, with their stock. */
    async materials(providerId: number, ids: number[]) {
      return db
        .select({ id: material.id, partsNumber: material.partsNumber, name: material.name, stock: material.stock })
        .from(material)
        .where(and(eq(material.providerId, providerId), inArray(material.id, ids)));
    },
    async insert(values: typeof materialApply.$inferInsert, lines: { materialId: number; count: number }[], actorId: number) {
      const [row] = await db.insert(materialApply).values(values).returning({ id: materialApply.id });
      const id = row!.id;
      await db.insert(materialApplyLine).values(lines.map((l) => ({ ...l, applyId: id })));
      await db.insert(materialApplyStep).values({ applyId: id, kind: 'applied', actorId, note: values.note ?? null });
      return id;
    },
    /** Decides an order still `applied`, with its step; whether it did (another approver may have been first). */
    async decide(id: number, to: 'agreed' | 'notAgreed', actorId: number, opinion: string | null) {
      const now = new Date();
      const rows = await db
        .update(materialApply)
        .set({ status: to, approverId: actorId, auditOpinion: opinion, decidedAt: now, updatedAt: now })
        .where(and(eq(materialApply.id, id), eq(materialApply.status, 'applied')))
        .returning({ id: materialApply.id });
      if (rows.length === 0) return false;
      await db.insert(materialApplyStep).values({ applyId: id, kind: to, actorId, note: opinion });
      return true;
    },
    /**
     * Takes the order's parts from stock, each by a conditional update that leaves it at zero at least,
     * in part-id order (two approvals never wait on each other crosswise); the first short line, if any.
     * The caller's transaction undoes the lines already taken when one is short.
     */
    async takeStock(applyId: number) {
      const lines = await db
        .select({ materialId: materialApplyLine.materialId, count: materialApplyLine.count })
        .from(materialApplyLine)
        .where(eq(materialApplyLine.applyId, applyId))
        .orderBy(asc(materialApplyLine.materialId));
      const now = new Date();
      for (const l of lines) {
        const done = await db
          .update(material)
          .set({ stock: sql`${material.stock} - ${l.count}`, updatedAt: now })
          .where(and(eq(material.id, l.materialId), gte(material.stock, l.count)))
          .returning({ id: material.id });
        if (done.length === 0) {
          const [m] = await db
            .select({ partsNumber: material.partsNumber, name: material.name, stock: material.stock })
            .from(material)
            .where(eq(material.id, l.materialId));
          return { ...m!, count: l.count };
        }
      }
      return undefined;
    },
    async steps(id: number): Promise<MaterialApplyStepDto[]> {
      const actor = alias(systemUser, 'actor');
      const rows = await db
        .select({ s: materialApplyStep, actorName: displayName(actor) })
        .from(materialApplyStep)
        .leftJoin(actor, eq(actor.id, materialApplyStep.actorId))
        .where(eq(materialApplyStep.applyId, id))
        .orderBy(asc(materialApplyStep.id));
      return rows.map(({ s, actorName }) => ({
        kind: s.kind as MaterialApplyStepKind,
        actorName: s.actorId === null ? null : actorName,
        note: s.note,
        at: s.at.toISOString(),
      }));
    },
  };
}

export type MaterialApplyRepo = ReturnType<typeof createMaterialApplyRepo>;

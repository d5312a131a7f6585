import {
  taskIdOf,
  type AreaRole,
  type ServiceAreaDto,
  type WorkOrderDto,
  type WorkOrderPriority,
  type WorkOrderSource,
  type WorkOrderStatus,
  type WorkOrderStepDto,
  type WorkOrderStepKind,
} from '@csms/contract';
import { and, asc, desc, eq, gt, gte, inArray, lte, ne, sql, type SQL } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import {
  chargePoint,
  chargingTransaction,
  connector,
  faultCode,
  provider,
  serviceArea,
  serviceAreaMember,
  serviceAreaStation,
  station,
  systemUser,
  workOrder,
  workOrderStep,
} from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { providerScope } from '../../lib/scope.js';
import { contains, lowerLike } from '../../lib/text-search.js';
import { stationScope } from '../monitor/scope.js';

export interface WorkOrderFilter {
  taskId?: string | undefined;
  faultCode?: string | undefined;
  serialNumber?: string | undefined;
  status?: WorkOrderStatus | undefined;
  priority?: WorkOrderPriority | undefined;
  source?: WorkOrderSource | undefined;
  stationId?: number | undefined;
  providerId?: number | undefined;
  startTime?: Date | undefined;
  endTime?: Date | undefined;
}

/** `WO00000012` → 12; anything else → undefined (the contract checks the shape). */
export const idOfTask = (taskId: string): number | undefined => {
  const n = Number(taskId.slice(2));
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

const serviceMan = alias(systemUser, 'service_man');
const creator = alias(systemUser, 'creator');
const displayName = (u: { name: PgColumn; username: PgColumn }) => sql<string>`coalesce(nullif(${u.name}, ''), ${u.username})`;

/** A provider and its parents up to the root, as a sub-select of ids. */
const lineage = (providerId: number) =>
  sql`(with recursive up(id, parent_id) as (
         select ${provider.id}, ${provider.parentId} from ${provider} where ${provider.id} = ${providerId}
         union select p.id, p.parent_id from ${provider} p join up on p.id = up.parent_id)
       select id from up)`;

/**
 * Work orders and service areas, scoped to the caller's providers and bound stations. `ownOnly`
 * narrows the orders to the caller's own as service man (a service man sees his own orders).
 */
export function createWorkOrderRepo({ db }: { db: Db }) {
  const where = (p: Principal, ownOnly: boolean, ...more: (SQL | undefined)[]) =>
    and(stationScope(p, workOrder.providerId, workOrder.stationId), ownOnly ? eq(workOrder.serviceManId, p.userId) : undefined, ...more);
  const filterSql = (f: WorkOrderFilter) => {
    const id = f.taskId ? idOfTask(f.taskId.toUpperCase().startsWith('WO') ? f.taskId : `WO${f.taskId}`) : undefined;
    return and(
      f.taskId ? (id ? eq(workOrder.id, id) : sql`false`) : undefined,
      f.faultCode ? lowerLike(workOrder.faultCode, contains(f.faultCode)) : undefined,
      f.serialNumber ? lowerLike(chargePoint.serialNumber, contains(f.serialNumber)) : undefined,
      f.status ? eq(workOrder.status, f.status) : undefined,
      f.priority ? eq(workOrder.priority, f.priority) : undefined,
      f.source ? eq(workOrder.source, f.source) : undefined,
      f.stationId ? eq(workOrder.stationId, f.stationId) : undefined,
      f.providerId ? eq(workOrder.providerId, f.providerId) : undefined,
      f.startTime ? gte(workOrder.createdAt, f.startTime) : undefined,
      f.endTime ? lte(workOrder.createdAt, f.endTime) : undefined,
    );
  };
  const head = () =>
    db
      .select({
        w: workOrder,
        providerName: provider.name,
        stationName: station.name,
        serialNumber: chargePoint.serialNumber,
        pointName: chargePoint.name,
        areaId: serviceArea.id,
        areaName: serviceArea.name,
        serviceManName: displayName(serviceMan),
        createdByName: creator.username,
      })
      .from(workOrder)
      .innerJoin(provider, eq(provider.id, workOrder.providerId))
      .innerJoin(station, eq(station.id, workOrder.stationId))
      .innerJoin(chargePoint, eq(chargePoint.id, workOrder.chargePointId))
      .leftJoin(serviceAreaStation, eq(serviceAreaStation.stationId, workOrder.stationId))
      .leftJoin(serviceArea, eq(serviceArea.id, serviceAreaStation.areaId))
      .leftJoin(serviceMan, eq(serviceMan.id, workOrder.serviceManId))
      .leftJoin(creator, eq(creator.id, workOrder.createdBy));
  type Head = Awaited<ReturnType<ReturnType<typeof head>['where']>>[number];
  const dto = ({ w, ...j }: Head): WorkOrderDto => ({
    id: w.id,
    taskId: taskIdOf(w.id),
    providerId: w.providerId,
    providerName: j.providerName,
    stationId: w.stationId,
    stationName: j.stationName,
    pointId: w.chargePointId,
    serialNumber: j.serialNumber,
    pointName: j.pointName,
    connectorNo: w.connectorNo,
    transactionId: w.transactionId,
    faultCode: w.faultCode,
    vendorErrorCode: w.vendorErrorCode,
    source: w.source,
    description: w.description,
    pictures: w.pictures,
    priority: w.priority,
    status: w.status,
    areaId: j.areaId,
    areaName: j.areaName,
    serviceManId: w.serviceManId,
    serviceManName: w.serviceManId === null ? null : j.serviceManName,
    repeats: w.repeats,
    faultClearedAt: w.faultClearedAt?.toISOString() ?? null,
    createdByName: j.createdByName,
    createTime: w.createdAt.toISOString(),
    updateTime: w.updatedAt.toISOString(),
  });
  const counted = (cond: SQL | undefined) =>
    db.select({ id: workOrder.id }).from(workOrder).innerJoin(chargePoint, eq(chargePoint.id, workOrder.chargePointId)).where(cond);

  const areasQuery = async (cond: SQL | undefined): Promise<ServiceAreaDto[]> => {
    const areas = await db
      .select({ a: serviceArea, providerName: provider.name })
      .from(serviceArea)
      .innerJoin(provider, eq(provider.id, serviceArea.providerId))
      .where(cond)
      .orderBy(asc(serviceArea.name), asc(serviceArea.id));
    if (areas.length === 0) return [];
    const ids = areas.map((x) => x.a.id);
    const stations = await db
      .select({ areaId: serviceAreaStation.areaId, id: station.id, name: station.name })
      .from(serviceAreaStation)
      .innerJoin(station, eq(station.id, serviceAreaStation.stationId))
      .where(inArray(serviceAreaStation.areaId, ids))
      .orderBy(asc(station.name));
    const members = await db
      .select({
        areaId: serviceAreaMember.areaId,
        userId: serviceAreaMember.userId,
        role: serviceAreaMember.role,
        name: displayName(systemUser),
      })
      .from(serviceAreaMember)
      .innerJoin(systemUser, eq(systemUser.id, serviceAreaMember.userId))
      .where(inArray(serviceAreaMember.areaId, ids))
      .orderBy(asc(serviceAreaMember.role), asc(systemUser.username));
    return areas.map(({ a, providerName }) => ({
      id: a.id,
      providerId: a.providerId,
      providerName,
      name: a.name,
      stations: stations.filter((s) => s.areaId === a.id).map(({ id, name }) => ({ id, name })),
      members: members.filter((m) => m.areaId === a.id).map(({ userId, name, role }) => ({ userId, name, role })),
    }));
  };

  return {
    async list(p: Principal, ownOnly: boolean, f: WorkOrderFilter, page: number, limit: number) {
      const cond = where(p, ownOnly, filterSql(f));
      const offset = (page - 1) * limit;
      const rows = await head().where(cond).orderBy(desc(workOrder.id)).limit(limit).offset(offset);
      return { list: rows.map(dto), ...(await pageTotal(db, { offset, size: limit, rows: rows.length }, counted(cond))) };
    },
    async count(p: Principal, ownOnly: boolean, f: WorkOrderFilter) {
      const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(counted(where(p, ownOnly, filterSql(f))).as('c'));
      return r?.n ?? 0;
    },
    async page(p: Principal, ownOnly: boolean, f: WorkOrderFilter, afterId: number, size: number) {
      const rows = await head()
        .where(where(p, ownOnly, filterSql(f), gt(workOrder.id, afterId)))
        .orderBy(asc(workOrder.id))
        .limit(size);
      return rows.map(dto);
    },
    async get(p: Principal, ownOnly: boolean, id: number) {
      const [row] = await head()
        .where(where(p, ownOnly, eq(workOrder.id, id)))
        .limit(1);
      return row ? dto(row) : undefined;
    },
    async steps(id: number): Promise<WorkOrderStepDto[]> {
      const actor = alias(systemUser, 'actor');
      const rows = await db
        .select({ s: workOrderStep, actorName: displayName(actor), serviceManName: displayName(serviceMan) })
        .from(workOrderStep)
        .leftJoin(actor, eq(actor.id, workOrderStep.actorId))
        .leftJoin(serviceMan, eq(serviceMan.id, workOrderStep.serviceManId))
        .where(eq(workOrderStep.workOrderId, id))
        .orderBy(asc(workOrderStep.id));
      return rows.map(({ s, actorName, serviceManName }) => ({
        kind: s.kind,
        actorName: s.actorId === null ? null : actorName,
        serviceManName: s.serviceManId === null ? null : serviceManName,
        note: s.note,
        at: s.at.toISOString(),
      }));
    },
    /** The caller's own feedback, newest first. */
    async mine(p: Principal, page: number, limit: number) {
      const cond = and(eq(workOrder.createdBy, p.userId), eq(workOrder.source, 'feedback'));
      const rows = await head()
        .where(cond)
        .orderBy(desc(workOrder.id))
        .limit(limit)
        .offset((page - 1) * limit);
      const [n] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(workOrder)
        .where(cond);
      return { rows: rows.map(dto), total: n?.n ?? 0 };
    },
    /** The order whose pictures hold a stored file, if one does. */
    async holdingPicture(fileName: string) {
      const [w] = await db
        .select({ id: workOrder.id })
        .from(workOrder)
        .where(sql`${workOrder.pictures} @> ${JSON.stringify([fileName])}::jsonb`)
        .limit(1);
      return w;
    },
    /** Whether an order the caller sees names the session (the order's view of the affected session). */
    async showsTransaction(p: Principal, ownOnly: boolean, transactionId: number) {
      const [w] = await db
        .select({ id: workOrder.id })
        .from(workOrder)
        .where(where(p, ownOnly, eq(workOrder.transactionId, transactionId)))
        .limit(1);
      return w !== undefined;
    },

    // Vendor fault codes.
    async faultCodes(p: Principal, f: { code?: string | undefined; providerId?: number | undefined }, page: number, limit: number) {
      const cond = and(
        providerScope(p, faultCode.providerId),
        f.code ? lowerLike(faultCode.code, contains(f.code)) : undefined,
        f.providerId ? eq(faultCode.providerId, f.providerId) : undefined,
      );
      const offset = (page - 1) * limit;
      const rows = await db
        .select({ c: faultCode, providerName: provider.name })
        .from(faultCode)
        .innerJoin(provider, eq(provider.id, faultCode.providerId))
        .where(cond)
        .orderBy(asc(faultCode.code), asc(faultCode.id))
        .limit(limit)
        .offset(offset);
      return {
        list: rows.map(({ c, providerName }) => ({
          id: c.id,
          providerId: c.providerId,
          providerName,
          code: c.code,
          title: c.title,
          steps: c.steps,
          updateTime: c.updatedAt.toISOString(),
        })),
        ...(await pageTotal(db, { offset, size: limit, rows: rows.length }, db.select({ id: faultCode.id }).from(faultCode).where(cond))),
      };
    },
    async faultCode(p: Principal, id: number) {
      const [c] = await db
        .select()
        .from(faultCode)
        .where(and(eq(faultCode.id, id), providerScope(p, faultCode.providerId)));
      return c;
    },
    async saveFaultCode(id: number | undefined, v: { providerId: number; code: string; title: string; steps: string }) {
      if (id === undefined) return (await db.insert(faultCode).values(v).returning({ id: faultCode.id }))[0]!.id;
      await db.update(faultCode).set({ code: v.code, title: v.title, steps: v.steps, updatedAt: new Date() }).where(eq(faultCode.id, id));
      return id;
    },
    async removeFaultCode(id: number) {
      return (await db.delete(faultCode).where(eq(faultCode.id, id)).returning({ id: faultCode.id })).length;
    },
    /** A provider's entry for a code, else its nearest parent's (a super provider may keep its children's vendors' codes). */
    async vendorCode(providerId: number, code: string) {
      const [c] = await db
        .select({ code: faultCode.code, title: faultCode.title, steps: faultCode.steps })
        .from(faultCode)
        .where(and(eq(faultCode.code, code), inArray(faultCode.providerId, lineage(providerId))))
        .orderBy(sql`${faultCode.providerId} = ${providerId} desc`, asc(faultCode.id))
        .limit(1);
      return c;
    },

    /** The caller's parts in the order's area (none when the station is in no area). */
    async rolesIn(areaId: number | null, userId: number): Promise<Set<AreaRole>> {
      if (areaId === null) return new Set();
      const rows = await db
        .select({ role: serviceAreaMember.role })
        .from(serviceAreaMember)
        .where(and(eq(serviceAreaMember.areaId, areaId), eq(serviceAreaMember.userId, userId)));
      return new Set(rows.map((r) => r.role));
    },
    /** Service men of an area, for the assignment picker. */
    async serviceMen(areaId: number) {
      return db
        .select({ id: systemUser.id, name: displayName(systemUser), username: systemUser.username })
        .from(serviceAreaMember)
        .innerJoin(systemUser, eq(systemUser.id, serviceAreaMember.userId))
        .where(and(eq(serviceAreaMember.areaId, areaId), eq(serviceAreaMember.role, 'serviceMan'), eq(systemUser.status, 1)))
        .orderBy(asc(systemUser.username));
    },
    /** A point of the caller's scope by serial number, with its connector numbers. */
    async point(p: Principal, serialNumber: string) {
      const [pt] = await db
        .select({
          id: chargePoint.id,
          providerId: chargePoint.providerId,
          stationId: chargePoint.stationId,
          serialNumber: chargePoint.serialNumber,
        })
        .from(chargePoint)
        .where(and(eq(chargePoint.serialNumber, serialNumber), stationScope(p, chargePoint.providerId, chargePoint.stationId)));
      if (!pt) return undefined;
      const connectors = await db.select({ no: connector.connectorNo }).from(connector).where(eq(connector.chargePointId, pt.id));
      return { ...pt, connectorNos: connectors.map((c) => c.no) };
    },
    /** Stations of the caller's scope whose name contains `text` (all of them without one), at most 500. */
    async stationIdsNamed(p: Principal, text: string | undefined) {
      const rows = await db
        .select({ id: station.id })
        .from(station)
        .where(and(stationScope(p, station.providerId, station.id), text ? lowerLike(station.name, contains(text)) : undefined))
        .orderBy(asc(station.id))
        .limit(500);
      return rows.map((r) => r.id);
    },
    async transactionOf(id: number) {
      const [t] = await db
        .select({ id: chargingTransaction.id, chargePointId: chargingTransaction.chargePointId })
        .from(chargingTransaction)
        .where(eq(chargingTransaction.id, id));
      return t;
    },
    /** The open order of a point's fault code, if any. */
    async openOf(chargePointId: number, faultCode: string) {
      const [w] = await db
        .select({ id: workOrder.id })
        .from(workOrder)
        .where(
          and(
            eq(workOrder.chargePointId, chargePointId),
            eq(workOrder.faultCode, faultCode),
            inArray(workOrder.status, ['new', 'assigned', 'processing', 'failed']),
          ),
        );
      return w;
    },
    async insert(values: typeof workOrder.$inferInsert, actorId: number): Promise<number> {
      const [row] = await db.insert(workOrder).values(values).returning({ id: workOrder.id });
      await db.insert(workOrderStep).values({ workOrderId: row!.id, kind: 'created', actorId });
      return row!.id;
    },
    /** Attaches another feedback to an open order: counted as a repeat, its pictures added, its text a step. */
    async attachFeedback(id: number, actorId: number, description: string, pictures: string[]): Promise<boolean> {
      const rows = await db
        .update(workOrder)
        .set({
          repeats: sql`${workOrder.repeats} + 1`,
          pictures: sql`${workOrder.pictures} || ${JSON.stringify(pictures)}::jsonb`,
          updatedAt: new Date(),
        })
        .where(and(eq(workOrder.id, id), inArray(workOrder.status, ['new', 'assigned', 'processing', 'failed'])))
        .returning({ id: workOrder.id });
      if (rows.length === 0) return false;
      await db.insert(workOrderStep).values({ workOrderId: id, kind: 'repeated', actorId, note: description });
      return true;
    },
    /**
     * Moves an order from `from` to `to` with its step, when it is still in `from` (and, with `serviceManOf`,
     * still that service man's); whether it did.
     */
    async move(
      id: number,
      from: WorkOrderStatus,
      to: WorkOrderStatus,
      step: { kind: WorkOrderStepKind; actorId: number; serviceManId?: number; note?: string | undefined },
      opts: { serviceManId?: number; serviceManOf?: number } = {},
    ): Promise<boolean> {
      const rows = await db
        .update(workOrder)
        .set({ status: to, updatedAt: new Date(), ...(opts.serviceManId !== undefined ? { serviceManId: opts.serviceManId } : {}) })
        .where(
          and(
            eq(workOrder.id, id),
            eq(workOrder.status, from),
            opts.serviceManOf !== undefined ? eq(workOrder.serviceManId, opts.serviceManOf) : undefined,
          ),
        )
        .returning({ id: workOrder.id });
      if (rows.length === 0) return false;
      await db.insert(workOrderStep).values({
        workOrderId: id,
        kind: step.kind,
        actorId: step.actorId,
        serviceManId: step.serviceManId ?? null,
        note: step.note || null,
      });
      return true;
    },

    // Service areas.
    areas: (p: Principal) => areasQuery(providerScope(p, serviceArea.providerId)),
    async area(p: Principal, id: number) {
      return (await areasQuery(and(eq(serviceArea.id, id), providerScope(p, serviceArea.providerId))))[0];
    },
    /** The area already holding a station, other than `exceptArea`. */
    async stationAreas(stationIds: number[], exceptArea: number | undefined) {
      if (stationIds.length === 0) return [];
      return db
        .select({ stationName: station.name, areaName: serviceArea.name })
        .from(serviceAreaStation)
        .innerJoin(station, eq(station.id, serviceAreaStation.stationId))
        .innerJoin(serviceArea, eq(serviceArea.id, serviceAreaStation.areaId))
        .where(and(inArray(serviceAreaStation.stationId, stationIds), exceptArea ? ne(serviceAreaStation.areaId, exceptArea) : undefined));
    },
    /**
     * How many of these ids are the area provider's stations, or people who may serve it: of its own
     * provider or one above it, and of those the caller sees (a common provider's editor cannot name
     * the people of the super provider above it, whose names the area would then show).
     */
    async countOf(p: Principal, table: 'station' | 'user', providerId: number, ids: number[]) {
      if (ids.length === 0) return 0;
      const [r] =
        table === 'station'
          ? await db
              .select({ n: sql<number>`count(*)::int` })
              .from(station)
              .where(and(inArray(station.id, ids), eq(station.providerId, providerId)))
          : await db
              .select({ n: sql<number>`count(*)::int` })
              .from(systemUser)
              .where(
                and(
                  inArray(systemUser.id, ids),
                  inArray(systemUser.providerId, lineage(providerId)),
                  providerScope(p, systemUser.providerId),
                ),
              );
      return r?.n ?? 0;
    },
    async saveArea(
      id: number | undefined,
      v: { providerId: number; name: string; stationIds: number[]; members: { userId: number; role: AreaRole }[] },
    ): Promise<number> {
      let areaId = id;
      if (areaId === undefined) {
        const [row] = await db.insert(serviceArea).values({ providerId: v.providerId, name: v.name }).returning({ id: serviceArea.id });
        areaId = row!.id;
      } else {
        await db.update(serviceArea).set({ name: v.name }).where(eq(serviceArea.id, areaId));
        await db.delete(serviceAreaStation).where(eq(serviceAreaStation.areaId, areaId));
        await db.delete(serviceAreaMember).where(eq(serviceAreaMember.areaId, areaId));
      }
      if (v.stationIds.length)
        await db.insert(serviceAreaStation).values(v.stationIds.map((stationId) => ({ areaId: areaId!, stationId })));
      if (v.members.length) await db.insert(serviceAreaMember).values(v.members.map((m) => ({ ...m, areaId: areaId! })));
      return areaId;
    },
    async removeArea(id: number) {
      const rows = await db.delete(serviceArea).where(eq(serviceArea.id, id)).returning({ id: serviceArea.id });
      return rows.length;
    },
    /**
     * Enabled system users who may serve a provider's area: its own and its parent providers' (a super
     * provider's team may serve its children), of those the caller sees.
     */
    async users(p: Principal, providerId: number) {
      return db
        .select({ id: systemUser.id, name: displayName(systemUser), username: systemUser.username })
        .from(systemUser)
        .where(and(inArray(systemUser.providerId, lineage(providerId)), providerScope(p, systemUser.providerId), eq(systemUser.status, 1)))
        .orderBy(asc(systemUser.username))
        .limit(1000);
    },
  };
}

export type WorkOrderRepo = ReturnType<typeof createWorkOrderRepo>;

import type { ControllerLive, ControllerSample, LocalControllerDto } from '@csms/contract';
import { and, asc, desc, eq, gt, gte, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  chargePoint,
  chargingLimit,
  chargingTransaction,
  controllerAllocation,
  controllerSample,
  localController,
  localControllerPoint,
  provider,
  station,
  userGroup,
} from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { contains, lowerLike } from '../../lib/text-search.js';
import type { ChargingLimitRow } from '../chargingProfile/external-limit.js';
import { providerScope } from '../../lib/scope.js';
import { stationScope } from '../monitor/scope.js';

export interface ControllerFilter {
  name?: string | undefined;
  stationId?: number | undefined;
  providerId?: number | undefined;
}

export type ControllerValues = Omit<typeof localController.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;
export type ControllerRow = typeof localController.$inferSelect;

/** A session of a controller's point, with what the planner needs. */
export interface SessionRow {
  chargePointId: number;
  serialNumber: string;
  connectorNo: number;
  transactionId: number;
  startedAt: Date;
  ratedPowerW: number;
  online: boolean;
  priority: boolean;
  lastPowerW: number | null;
  /** External limits its point reported (OCPP 2.0.1 NotifyChargingLimit), of every EVSE. */
  limits: ChargingLimitRow[];
}

export type AllocationRow = typeof controllerAllocation.$inferSelect;

/** Local controllers, their points, plans and samples, scoped to the caller's providers and bound stations. */
export function createLocalControllerRepo({ db }: { db: Db }) {
  const where = (p: Principal, ...more: (SQL | undefined)[]) =>
    and(stationScope(p, localController.providerId, localController.stationId), ...more);
  const filterSql = (f: ControllerFilter) =>
    and(
      f.name ? lowerLike(localController.name, contains(f.name)) : undefined,
      f.stationId ? eq(localController.stationId, f.stationId) : undefined,
      f.providerId ? eq(localController.providerId, f.providerId) : undefined,
    );
  const head = () =>
    db
      .select({ c: localController, providerName: provider.name, stationName: station.name })
      .from(localController)
      .innerJoin(provider, eq(provider.id, localController.providerId))
      .innerJoin(station, eq(station.id, localController.stationId));

  async function dtos(rows: Awaited<ReturnType<ReturnType<typeof head>['where']>>): Promise<LocalControllerDto[]> {
    if (rows.length === 0) return [];
    const points = await db
      .select({
        controllerId: localControllerPoint.controllerId,
        serialNumber: chargePoint.serialNumber,
        priority: localControllerPoint.priority,
        ratedPowerW: chargePoint.ratedPowerW,
      })
      .from(localControllerPoint)
      .innerJoin(chargePoint, eq(chargePoint.id, localControllerPoint.chargePointId))
      .where(
        inArray(
          localControllerPoint.controllerId,
          rows.map((r) => r.c.id),
        ),
      )
      .orderBy(asc(chargePoint.serialNumber));
    const groupIds = [...new Set(rows.flatMap((r) => r.c.priorityGroupIds))];
    const groups = groupIds.length
      ? await db.select({ id: userGroup.id, name: userGroup.name }).from(userGroup).where(inArray(userGroup.id, groupIds))
      : [];
    const groupName = new Map(groups.map((g) => [g.id, g.name]));
    return rows.map(({ c, providerName, stationName }) => {
      const mine = points.filter((x) => x.controllerId === c.id);
      // A group removed since keeps no priority (and drops out of the list).
      const priorityGroupIds = c.priorityGroupIds.filter((id) => groupName.has(id));
      return {
        id: c.id,
        name: c.name,
        description: c.description,
        providerId: c.providerId,
        providerName,
        stationId: c.stationId,
        stationName,
        limitW: c.limitW,
        minCurrentA: c.minCurrentA,
        serialNumbers: mine.map((x) => x.serialNumber),
        prioritySerialNumbers: mine.filter((x) => x.priority).map((x) => x.serialNumber),
        priorityGroupIds,
        priorityGroupNames: priorityGroupIds.map((id) => groupName.get(id)!),
        ratedSumW: mine.reduce((a, x) => a + x.ratedPowerW, 0),
        createTime: c.createdAt.toISOString(),
        updateTime: c.updatedAt.toISOString(),
      };
    });
  }

  return {
    async list(p: Principal, f: ControllerFilter, page: number, limit: number) {
      const cond = where(p, filterSql(f));
      const offset = (page - 1) * limit;
      const rows = await head().where(cond).orderBy(desc(localController.id)).limit(limit).offset(offset);
      const total = await pageTotal(
        db,
        { offset, size: limit, rows: rows.length },
        db.select({ id: localController.id }).from(localController).where(cond),
      );
      return { list: await dtos(rows), ...total };
    },
    async count(p: Principal, f: ControllerFilter) {
      const [r] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(localController)
        .where(where(p, filterSql(f)));
      return r?.n ?? 0;
    },
    async page(p: Principal, f: ControllerFilter, afterId: number, size: number) {
      const rows = await head()
        .where(where(p, filterSql(f), gt(localController.id, afterId)))
        .orderBy(asc(localController.id))
        .limit(size);
      return dtos(rows);
    },
    async get(p: Principal, id: number) {
      const rows = await head()
        .where(where(p, eq(localController.id, id)))
        .limit(1);
      return (await dtos(rows))[0];
    },
    async visible(p: Principal, ids: number[]) {
      return db
        .select({ id: localController.id, name: localController.name })
        .from(localController)
        .where(where(p, inArray(localController.id, ids)));
    },
    /** Ids of the controllers the caller sees (for the live view), optionally of one station. */
    async visibleIds(p: Principal, stationId?: number) {
      const rows = await db
        .select({ id: localController.id })
        .from(localController)
        .where(where(p, stationId ? eq(localController.stationId, stationId) : undefined))
        .orderBy(asc(localController.id));
      return rows.map((r) => r.id);
    },
    /** User groups among `ids` the caller may see, with their providers. */
    async groups(p: Principal, ids: number[]) {
      if (ids.length === 0) return [];
      return db
        .select({ id: userGroup.id, providerId: userGroup.providerId, name: userGroup.name })
        .from(userGroup)
        .where(and(inArray(userGroup.id, ids), providerScope(p, userGroup.providerId)));
    },
    /** The controller (other than `exceptId`) a point already belongs to. */
    async owners(pointIds: number[], exceptId?: number) {
      if (pointIds.length === 0) return [];
      return db
        .select({ chargePointId: localControllerPoint.chargePointId, name: localController.name })
        .from(localControllerPoint)
        .innerJoin(localController, eq(localController.id, localControllerPoint.controllerId))
        .where(
          and(
            inArray(localControllerPoint.chargePointId, pointIds),
            exceptId ? sql`${localControllerPoint.controllerId} <> ${exceptId}` : undefined,
          ),
        );
    },
    async insert(values: ControllerValues, points: { chargePointId: number; priority: boolean }[]) {
      return db.transaction(async (q) => {
        const [row] = await q.insert(localController).values(values).returning({ id: localController.id });
        await q.insert(localControllerPoint).values(points.map((x) => ({ ...x, controllerId: row!.id })));
        return row!.id;
      });
    },
    async update(id: number, values: ControllerValues, points: { chargePointId: number; priority: boolean }[]) {
      await db.transaction(async (q) => {
        await q
          .update(localController)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(localController.id, id));
        await q.delete(localControllerPoint).where(eq(localControllerPoint.controllerId, id));
        await q.insert(localControllerPoint).values(points.map((x) => ({ ...x, controllerId: id })));
        // Allocations of points that left the controller go with them.
        await q
          .delete(controllerAllocation)
          .where(
            and(
              eq(controllerAllocation.controllerId, id),
              sql`${controllerAllocation.chargePointId} not in (select charge_point_id from local_controller_point where controller_id = ${id})`,
            ),
          );
      });
    },
    async remove(ids: number[]) {
      const rows = await db.delete(localController).where(inArray(localController.id, ids)).returning({ id: localController.id });
      return rows.length;
    },

    // --- the balancer ---

    /** Every controller with its points (the balancer's map from point to controller). */
    async memberships() {
      return db
        .select({ controllerId: localControllerPoint.controllerId, chargePointId: localControllerPoint.chargePointId })
        .from(localControllerPoint);
    },
    async controller(id: number): Promise<ControllerRow | undefined> {
      const [r] = await db.select().from(localController).where(eq(localController.id, id)).limit(1);
      return r;
    },
    /** The running sessions on a controller's points. */
    async sessions(controllerId: number): Promise<SessionRow[]> {
      const rows = await db
        .select({
          chargePointId: chargePoint.id,
          serialNumber: chargePoint.serialNumber,
          connectorNo: chargingTransaction.connectorNo,
          transactionId: chargingTransaction.id,
          startedAt: chargingTransaction.startedAt,
          ratedPowerW: chargePoint.ratedPowerW,
          online: chargePoint.online,
          // A priority point, or a charge user of one of the controller's priority groups.
          priority: sql<boolean>`(local_controller_point.priority or coalesce((select cu.group_id = any(lc.priority_group_ids)
            from charge_user cu, local_controller lc
            where cu.id = charging_transaction.charge_user_id and lc.id = local_controller_point.controller_id), false))`,
          lastPowerW: chargingTransaction.lastPowerW,
        })
        .from(localControllerPoint)
        .innerJoin(chargePoint, eq(chargePoint.id, localControllerPoint.chargePointId))
        .innerJoin(chargingTransaction, and(eq(chargingTransaction.chargePointId, chargePoint.id), isNull(chargingTransaction.stoppedAt)))
        .where(eq(localControllerPoint.controllerId, controllerId))
        .orderBy(asc(chargingTransaction.startedAt));
      const pointIds = [...new Set(rows.map((r) => r.chargePointId))];
      const limits = pointIds.length ? await db.select().from(chargingLimit).where(inArray(chargingLimit.chargePointId, pointIds)) : [];
      return rows.map((r) => ({ ...r, limits: limits.filter((l) => l.chargePointId === r.chargePointId) }));
    },
    async allocations(controllerId: number): Promise<AllocationRow[]> {
      return db.select().from(controllerAllocation).where(eq(controllerAllocation.controllerId, controllerId));
    },
    /** The plan replaces the last one: rows of sessions that ended go. */
    /**
     * Stores the plans of several controllers (the balancer batches them) in one transaction: each
     * controller's allocations replaced, and a sample of each.
     */
    async savePlans(
      plans: { controllerId: number; rows: Omit<AllocationRow, 'controllerId' | 'updatedAt'>[]; sample: Omit<ControllerSample, 'at'> }[],
    ) {
      if (plans.length === 0) return;
      const now = new Date();
      const ids = plans.map((x) => x.controllerId);
      const rows = plans.flatMap((x) => x.rows.map((r) => ({ ...r, controllerId: x.controllerId, updatedAt: now })));
      await db.transaction(async (q) => {
        await q.delete(controllerAllocation).where(inArray(controllerAllocation.controllerId, ids));
        if (rows.length > 0) await q.insert(controllerAllocation).values(rows);
        await q.insert(controllerSample).values(plans.map((x) => ({ controllerId: x.controllerId, at: now, ...x.sample })));
      });
    },
    /** The live view shows one hour; a day of samples is kept. */
    async pruneSamples(before: Date) {
      await db.delete(controllerSample).where(sql`${controllerSample.at} < ${before.toISOString()}::timestamptz`);
    },
    async live(ids: number[]): Promise<ControllerLive[]> {
      if (ids.length === 0) return [];
      const controllers = await db.select().from(localController).where(inArray(localController.id, ids)).orderBy(asc(localController.id));
      // The measured power is the session's latest, not the one the last plan saw: plans are rarer than meter values.
      const rows = await db
        .select({ a: controllerAllocation, serialNumber: chargePoint.serialNumber, nowW: chargingTransaction.lastPowerW })
        .from(controllerAllocation)
        .innerJoin(chargePoint, eq(chargePoint.id, controllerAllocation.chargePointId))
        .leftJoin(chargingTransaction, eq(chargingTransaction.id, controllerAllocation.transactionId))
        .where(inArray(controllerAllocation.controllerId, ids))
        .orderBy(asc(chargePoint.serialNumber), asc(controllerAllocation.connectorNo));
      return controllers.map((c) => {
        const mine = rows.filter((r) => r.a.controllerId === c.id);
        return {
          id: c.id,
          name: c.name,
          limitW: c.limitW,
          allocatedW: mine.reduce((a, r) => a + r.a.allocatedW, 0),
          measuredW: mine.reduce((a, r) => a + (r.nowW ?? r.a.measuredW ?? 0), 0),
          plannedTime: mine.length ? new Date(Math.max(...mine.map((r) => r.a.updatedAt.getTime()))).toISOString() : null,
          connectors: mine.map(({ a, serialNumber, nowW }) => ({
            serialNumber,
            connectorNo: a.connectorNo,
            transactionId: a.transactionId,
            state: a.state,
            priority: a.priority,
            allocatedW: a.allocatedW,
            measuredW: nowW ?? a.measuredW,
            answer: a.answer,
          })),
        };
      });
    },
    async history(controllerId: number, since: Date): Promise<ControllerSample[]> {
      const rows = await db
        .select()
        .from(controllerSample)
        .where(and(eq(controllerSample.controllerId, controllerId), gte(controllerSample.at, since)))
        .orderBy(asc(controllerSample.at));
      return rows.map((r) => ({ at: r.at.toISOString(), limitW: r.limitW, allocatedW: r.allocatedW, measuredW: r.measuredW }));
    },
  };
}

export type LocalControllerRepo = ReturnType<typeof createLocalControllerRepo>;

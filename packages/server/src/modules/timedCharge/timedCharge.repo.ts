import type { TimedChargeDto, TimedChargeRunDto, TimedChargeStatus } from '@csms/contract';
import { and, asc, desc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { card, chargePoint, chargeUser, provider, station, systemUser, timedCharge, timedChargeRun } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { providerScope } from '../../lib/scope.js';
import { contains, lowerLike } from '../../lib/text-search.js';
import { stationScope } from '../monitor/scope.js';

export interface TimedChargeFilter {
  serialNumber?: string | undefined;
  chargeUserAccount?: string | undefined;
  status?: TimedChargeStatus | undefined;
  stationId?: number | undefined;
  providerId?: number | undefined;
}

export type TimedChargeRow = typeof timedCharge.$inferSelect;
export type TimedChargeValues = Omit<typeof timedCharge.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

/** Timed charges and their daily runs, scoped to the caller's providers and bound stations. */
/** Longer than any day's starts take (one RemoteStartTransaction per connector, each with its timeout). */
const RUN_ANSWER_LIMIT_MS = 10 * 60_000;

export function createTimedChargeRepo({ db }: { db: Db }) {
  const where = (p: Principal, ...more: (SQL | undefined)[]) =>
    and(stationScope(p, timedCharge.providerId, timedCharge.stationId), ...more);
  const filterSql = (f: TimedChargeFilter) =>
    and(
      f.serialNumber ? lowerLike(chargePoint.serialNumber, contains(f.serialNumber)) : undefined,
      f.chargeUserAccount ? lowerLike(chargeUser.account, contains(f.chargeUserAccount)) : undefined,
      f.status ? eq(timedCharge.status, f.status) : undefined,
      f.stationId ? eq(timedCharge.stationId, f.stationId) : undefined,
      f.providerId ? eq(timedCharge.providerId, f.providerId) : undefined,
    );
  const head = () =>
    db
      .select({
        t: timedCharge,
        providerName: provider.name,
        stationName: station.name,
        timeZone: station.timeZone,
        serialNumber: chargePoint.serialNumber,
        pointName: chargePoint.name,
        chargeUserAccount: chargeUser.account,
        createdByName: systemUser.username,
      })
      .from(timedCharge)
      .innerJoin(provider, eq(provider.id, timedCharge.providerId))
      .innerJoin(station, eq(station.id, timedCharge.stationId))
      .innerJoin(chargePoint, eq(chargePoint.id, timedCharge.chargePointId))
      .innerJoin(chargeUser, eq(chargeUser.id, timedCharge.chargeUserId))
      .leftJoin(systemUser, eq(systemUser.id, timedCharge.createdBy));
  type Head = Awaited<ReturnType<ReturnType<typeof head>['where']>>[number];
  const dto = ({ t, ...j }: Head): TimedChargeDto => ({
    id: t.id,
    providerId: t.providerId,
    providerName: j.providerName,
    stationId: t.stationId,
    stationName: j.stationName,
    timeZone: j.timeZone,
    serialNumber: j.serialNumber,
    pointName: j.pointName,
    connectors: t.connectors,
    chargeUserId: t.chargeUserId,
    chargeUserAccount: j.chargeUserAccount,
    validFrom: t.validFrom,
    validTo: t.validTo,
    startTime: t.startTime,
    status: t.status,
    nextRunTime: t.nextRunAt?.toISOString() ?? null,
    lastRunDay: t.lastRunDay,
    lastReason: t.lastReason,
    createdByName: j.createdByName,
    createTime: t.createdAt.toISOString(),
    updateTime: t.updatedAt.toISOString(),
  });
  const counted = () =>
    db
      .select({ id: timedCharge.id })
      .from(timedCharge)
      .innerJoin(chargePoint, eq(chargePoint.id, timedCharge.chargePointId))
      .innerJoin(chargeUser, eq(chargeUser.id, timedCharge.chargeUserId));

  return {
    async list(p: Principal, f: TimedChargeFilter, page: number, limit: number) {
      const cond = where(p, filterSql(f));
      const offset = (page - 1) * limit;
      const rows = await head().where(cond).orderBy(desc(timedCharge.id)).limit(limit).offset(offset);
      const total = await pageTotal(db, { offset, size: limit, rows: rows.length }, counted().where(cond));
      return { list: rows.map(dto), ...total };
    },
    async count(p: Principal, f: TimedChargeFilter) {
      const res = (await db.execute(sql`select count(*)::int as n from (${counted().where(where(p, filterSql(f)))}) c`)) as unknown as {
        rows: { n: number }[];
      };
      return Number(res.rows[0]?.n ?? 0);
    },
    async page(p: Principal, f: TimedChargeFilter, afterId: number, size: number) {
      const rows = await head()
        .where(where(p, filterSql(f), gt(timedCharge.id, afterId)))
        .orderBy(asc(timedCharge.id))
        .limit(size);
      return rows.map(dto);
    },
    async get(p: Principal, id: number) {
      const [row] = await head()
        .where(where(p, eq(timedCharge.id, id)))
        .limit(1);
      return row ? dto(row) : undefined;
    },
    async visible(p: Principal, ids: number[]) {
      return db
        .select({ id: timedCharge.id, status: timedCharge.status })
        .from(timedCharge)
        .where(where(p, inArray(timedCharge.id, ids)));
    },
    async chargeUser(p: Principal, id: number) {
      const [u] = await db
        .select({ id: chargeUser.id, providerId: chargeUser.providerId, account: chargeUser.account })
        .from(chargeUser)
        .where(and(eq(chargeUser.id, id), providerScope(p, chargeUser.providerId)));
      return u;
    },
    async timeZone(stationId: number) {
      const [s] = await db.select({ timeZone: station.timeZone }).from(station).where(eq(station.id, stationId));
      return s?.timeZone ?? 'UTC';
    },
    async insert(values: TimedChargeValues) {
      const [row] = await db.insert(timedCharge).values(values).returning();
      return row!;
    },
    async update(id: number, values: Partial<TimedChargeValues>) {
      const [row] = await db
        .update(timedCharge)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(timedCharge.id, id))
        .returning();
      return row;
    },
    /** Cancels those not yet finished or cancelled; returns their ids. */
    async cancel(ids: number[]) {
      const rows = await db
        .update(timedCharge)
        .set({ status: 'cancelled', nextRunAt: null, updatedAt: new Date() })
        .where(and(inArray(timedCharge.id, ids), inArray(timedCharge.status, ['waiting', 'started', 'failed'])))
        .returning({ id: timedCharge.id });
      return rows.map((r) => r.id);
    },
    /** What a run needs: the row, its point's serial number and provider, its station's zone and the user's account. */
    async forRun(id: number) {
      const [row] = await db
        .select({
          t: timedCharge,
          serialNumber: chargePoint.serialNumber,
          pointProviderId: chargePoint.providerId,
          pointStationId: chargePoint.stationId,
          timeZone: station.timeZone,
          account: chargeUser.account,
        })
        .from(timedCharge)
        .innerJoin(chargePoint, eq(chargePoint.id, timedCharge.chargePointId))
        .innerJoin(station, eq(station.id, timedCharge.stationId))
        .innerJoin(chargeUser, eq(chargeUser.id, timedCharge.chargeUserId))
        .where(eq(timedCharge.id, id));
      return row;
    },
    /** Every timed charge with a start ahead (to put it in the queue again at start-up). */
    async scheduled() {
      return db
        .select({ id: timedCharge.id, nextRunAt: timedCharge.nextRunAt })
        .from(timedCharge)
        .where(and(inArray(timedCharge.status, ['waiting', 'started', 'failed']), sql`${timedCharge.nextRunAt} is not null`));
    },
    /** Claims a day's connectors: only those not claimed before come back. */
    async claim(id: number, day: string, connectors: number[]) {
      const rows = await db
        .insert(timedChargeRun)
        .values(connectors.map((connectorNo) => ({ timedChargeId: id, day, connectorNo, status: 'running' as const })))
        .onConflictDoNothing()
        .returning({ connectorNo: timedChargeRun.connectorNo });
      return rows.map((r) => r.connectorNo);
    },
    async ran(
      id: number,
      day: string,
      connectorNo: number,
      v: { status: 'started' | 'failed'; reason: TimedChargeRunDto['reason']; chargerStatus: string | null; cardId: number | null },
    ) {
      await db
        .update(timedChargeRun)
        .set({ ...v, runAt: new Date() })
        .where(and(eq(timedChargeRun.timedChargeId, id), eq(timedChargeRun.day, day), eq(timedChargeRun.connectorNo, connectorNo)));
    },
    async runs(id: number): Promise<TimedChargeRunDto[]> {
      const rows = await db
        .select({ r: timedChargeRun, cardNumber: card.cardNumber })
        .from(timedChargeRun)
        .leftJoin(card, eq(card.id, timedChargeRun.cardId))
        .where(eq(timedChargeRun.timedChargeId, id))
        .orderBy(desc(timedChargeRun.day), asc(timedChargeRun.connectorNo))
        .limit(400);
      // A connector's start still waiting for the charger is not listed yet; one that waited longer than any
      // answer can take was interrupted (a crash before the answer was stored) and shows as failed.
      const since = Date.now() - RUN_ANSWER_LIMIT_MS;
      return rows
        .filter(({ r }) => r.status !== 'running' || r.runAt.getTime() < since)
        .map(({ r, cardNumber }) => ({
          day: r.day,
          connectorNo: r.connectorNo,
          status: r.status === 'started' ? 'started' : 'failed',
          reason: r.status === 'running' ? 'error' : r.reason,
          chargerStatus: r.chargerStatus,
          cardNumber,
          runTime: r.runAt.toISOString(),
        }));
    },
  };
}

export type TimedChargeRepo = ReturnType<typeof createTimedChargeRepo>;

import type { ReservationDto, ReservationStatus } from '@csms/contract';
import { and, asc, desc, eq, gt, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { card, chargePoint, chargeUser, provider, reservation, station, systemUser } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { contains, lowerLike } from '../../lib/text-search.js';
import { providerScope } from '../../lib/scope.js';
import { stationScope } from '../monitor/scope.js';

export interface ReservationFilter {
  serialNumber?: string | undefined;
  chargeUserAccount?: string | undefined;
  status?: ReservationStatus | undefined;
  stationId?: number | undefined;
  providerId?: number | undefined;
  /** Reserved in [startTime, endTime]. */
  startTime?: Date | undefined;
  endTime?: Date | undefined;
}

export type ReservationRow = typeof reservation.$inferSelect;

/** Reservations, scoped to the caller's providers and bound stations. */
export function createReservationRepo({ db }: { db: Db }) {
  const where = (p: Principal, ...more: (SQL | undefined)[]) =>
    and(stationScope(p, reservation.providerId, reservation.stationId), ...more);
  const filterSql = (f: ReservationFilter) =>
    and(
      f.serialNumber ? lowerLike(chargePoint.serialNumber, contains(f.serialNumber)) : undefined,
      f.chargeUserAccount ? lowerLike(chargeUser.account, contains(f.chargeUserAccount)) : undefined,
      f.status ? eq(reservation.status, f.status) : undefined,
      f.stationId ? eq(reservation.stationId, f.stationId) : undefined,
      f.providerId ? eq(reservation.providerId, f.providerId) : undefined,
      f.startTime ? gte(reservation.createdAt, f.startTime) : undefined,
      f.endTime ? lte(reservation.createdAt, f.endTime) : undefined,
    );
  const head = () =>
    db
      .select({
        r: reservation,
        providerName: provider.name,
        stationName: station.name,
        serialNumber: chargePoint.serialNumber,
        pointName: chargePoint.name,
        chargeUserAccount: chargeUser.account,
        cardNumber: card.cardNumber,
        createdByName: systemUser.username,
      })
      .from(reservation)
      .innerJoin(provider, eq(provider.id, reservation.providerId))
      .innerJoin(station, eq(station.id, reservation.stationId))
      .innerJoin(chargePoint, eq(chargePoint.id, reservation.chargePointId))
      .innerJoin(chargeUser, eq(chargeUser.id, reservation.chargeUserId))
      .innerJoin(card, eq(card.id, reservation.cardId))
      .leftJoin(systemUser, eq(systemUser.id, reservation.createdBy));
  type Head = Awaited<ReturnType<ReturnType<typeof head>['where']>>[number];
  const dto = ({ r, ...j }: Head): ReservationDto => ({
    id: r.id,
    providerId: r.providerId,
    providerName: j.providerName,
    stationId: r.stationId,
    stationName: j.stationName,
    serialNumber: j.serialNumber,
    pointName: j.pointName,
    connectorNo: r.connectorNo,
    chargeUserId: r.chargeUserId,
    chargeUserAccount: j.chargeUserAccount,
    cardNumber: j.cardNumber,
    expiryTime: r.expiryAt.toISOString(),
    status: r.status,
    chargerStatus: r.chargerStatus,
    transactionId: r.transactionId,
    feeCents: r.feeCents,
    createdByName: j.createdByName,
    createTime: r.createdAt.toISOString(),
    updateTime: r.updatedAt.toISOString(),
  });

  return {
    async list(p: Principal, f: ReservationFilter, page: number, limit: number) {
      const cond = where(p, filterSql(f));
      const offset = (page - 1) * limit;
      const rows = await head().where(cond).orderBy(desc(reservation.id)).limit(limit).offset(offset);
      const total = await pageTotal(
        db,
        { offset, size: limit, rows: rows.length },
        db
          .select({ id: reservation.id })
          .from(reservation)
          .innerJoin(chargePoint, eq(chargePoint.id, reservation.chargePointId))
          .innerJoin(chargeUser, eq(chargeUser.id, reservation.chargeUserId))
          .where(cond),
      );
      return { list: rows.map(dto), ...total };
    },
    async count(p: Principal, f: ReservationFilter) {
      const [r] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(reservation)
        .innerJoin(chargePoint, eq(chargePoint.id, reservation.chargePointId))
        .innerJoin(chargeUser, eq(chargeUser.id, reservation.chargeUserId))
        .where(where(p, filterSql(f)));
      return r?.n ?? 0;
    },
    async page(p: Principal, f: ReservationFilter, afterId: number, size: number) {
      const rows = await head()
        .where(where(p, filterSql(f), gt(reservation.id, afterId)))
        .orderBy(asc(reservation.id))
        .limit(size);
      return rows.map(dto);
    },
    async get(p: Principal, id: number) {
      const [row] = await head()
        .where(where(p, eq(reservation.id, id)))
        .limit(1);
      return row ? dto(row) : undefined;
    },
    /** The charge user, when the caller may see its provider. */
    async chargeUser(p: Principal, id: number) {
      const [u] = await db
        .select({ id: chargeUser.id, providerId: chargeUser.providerId, account: chargeUser.account })
        .from(chargeUser)
        .where(and(eq(chargeUser.id, id), providerScope(p, chargeUser.providerId)));
      return u;
    },
    /** The next reservation id: sent to the charger before the row (with the charger's answer) is written. */
    async nextId(): Promise<number> {
      const res = (await db.execute(sql`select nextval(pg_get_serial_sequence('reservation', 'id'))::int as id`)) as unknown as {
        rows: { id: number }[];
      };
      return Number(res.rows[0]!.id);
    },
    async insert(values: typeof reservation.$inferInsert) {
      await db.insert(reservation).values(values);
    },
    /** Moves a reservation from `from` to `to`; whether it did (another change may have come first). */
    async move(id: number, from: ReservationStatus, to: ReservationStatus, extra: Partial<ReservationRow> = {}): Promise<boolean> {
      const rows = await db
        .update(reservation)
        .set({ ...extra, status: to, updatedAt: new Date() })
        .where(and(eq(reservation.id, id), eq(reservation.status, from)))
        .returning({ id: reservation.id });
      return rows.length > 0;
    },
  };
}

export type ReservationRepo = ReturnType<typeof createReservationRepo>;

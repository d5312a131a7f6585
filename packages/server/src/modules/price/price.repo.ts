import { and, asc, count, desc, eq, gt, ilike, inArray, isNotNull, isNull, max, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { billLine, chargingTransaction, price, provider, station, systemUser, userGroup } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { providerScope, stationScope } from '../../lib/scope.js';
import { contains } from '../../lib/text-search.js';

export type PriceRow = typeof price.$inferSelect;
export type PriceValues = Omit<typeof price.$inferInsert, 'id' | 'createdAt'>;
export type VersionValues = Pick<
  PriceValues,
  | 'effectiveFrom'
  | 'sharpElec'
  | 'sharpService'
  | 'peakElec'
  | 'peakService'
  | 'flatElec'
  | 'flatService'
  | 'valleyElec'
  | 'valleyService'
  | 'reserveFeeCents'
  | 'slots'
>;

/** A version with how many sessions its bills cover and who made it. */
export type VersionRow = PriceRow & { billedCount: number; createdByName: string | null };

export interface StationHead {
  stationId: number;
  stationName: string;
  providerId: number;
  providerName: string;
  timeZone: string;
}
export interface PriceHead extends StationHead {
  groupId: number | null;
  groupName: string | null;
}

const billedCount = sql<number>`(select count(distinct bl.transaction_id)::int from "bill_line" bl where bl.price_id = "price"."id")`;

const stationHead = {
  stationId: station.id,
  stationName: station.name,
  providerId: station.providerId,
  providerName: provider.name,
  timeZone: station.timeZone,
};

/** Prices and their versions, scoped through their station (provider and bound stations). */
export function createPriceRepo({ db }: { db: Db }) {
  const visibleStation = (p: Principal, ...more: (SQL | undefined)[]) =>
    and(providerScope(p, station.providerId), stationScope(p, station.id), ...more);
  const samePrice = (stationId: number, groupId: number | null) =>
    and(eq(price.stationId, stationId), groupId === null ? isNull(price.groupId) : eq(price.groupId, groupId));

  return {
    /** One page of the stations the caller sees (the station price list). */
    async stations(p: Principal, f: { stationName?: string | undefined }, page: number, limit: number) {
      const cond = visibleStation(p, f.stationName ? ilike(station.name, contains(f.stationName)) : undefined);
      const [rows, [total]] = await Promise.all([
        db
          .select(stationHead)
          .from(station)
          .innerJoin(provider, eq(provider.id, station.providerId))
          .where(cond)
          .orderBy(asc(station.name), asc(station.id))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ n: count() }).from(station).where(cond),
      ]);
      return { rows: rows.map((r): PriceHead => ({ ...r, groupId: null, groupName: null })), total: total?.n ?? 0 };
    },

    /** One page of the station × group pairs that have a group price. */
    async groupPairs(p: Principal, f: { stationName?: string | undefined; groupName?: string | undefined }, page: number, limit: number) {
      const cond = visibleStation(
        p,
        isNotNull(price.groupId),
        f.stationName ? ilike(station.name, contains(f.stationName)) : undefined,
        f.groupName ? ilike(userGroup.name, contains(f.groupName)) : undefined,
      );
      const [rows, [total]] = await Promise.all([
        db
          .selectDistinct({ ...stationHead, groupId: userGroup.id, groupName: userGroup.name })
          .from(price)
          .innerJoin(station, eq(station.id, price.stationId))
          .innerJoin(provider, eq(provider.id, station.providerId))
          .innerJoin(userGroup, eq(userGroup.id, price.groupId))
          .where(cond)
          .orderBy(asc(station.name), asc(station.id), asc(userGroup.name), asc(userGroup.id))
          .limit(limit)
          .offset((page - 1) * limit),
        db
          .select({ n: sql<number>`count(distinct (${price.stationId}, ${price.groupId}))::int` })
          .from(price)
          .innerJoin(station, eq(station.id, price.stationId))
          .innerJoin(userGroup, eq(userGroup.id, price.groupId))
          .where(cond),
      ]);
      return { rows: rows as PriceHead[], total: Number(total?.n ?? 0) };
    },

    /** Every version of some prices, newest first. */
    async versionsOf(heads: { stationId: number; groupId: number | null }[]): Promise<VersionRow[]> {
      if (heads.length === 0) return [];
      const rows = await db
        .select({ price, billedCount, createdByName: systemUser.username })
        .from(price)
        .leftJoin(systemUser, eq(systemUser.id, price.createdBy))
        .where(or(...heads.map((h) => samePrice(h.stationId, h.groupId))))
        .orderBy(desc(price.effectiveFrom), desc(price.id));
      return rows.map((r) => ({ ...r.price, billedCount: Number(r.billedCount), createdByName: r.createdByName }));
    },

    async station(p: Principal, stationId: number): Promise<StationHead | undefined> {
      const [row] = await db
        .select(stationHead)
        .from(station)
        .innerJoin(provider, eq(provider.id, station.providerId))
        .where(visibleStation(p, eq(station.id, stationId)))
        .limit(1);
      return row;
    },

    /** A user group the caller's providers own. */
    async group(p: Principal, groupId: number) {
      const [row] = await db
        .select()
        .from(userGroup)
        .where(and(providerScope(p, userGroup.providerId), eq(userGroup.id, groupId)))
        .limit(1);
      return row;
    },

    /** The user groups of a provider, and whether each has a price at the station. */
    async groupsAt(providerId: number, stationId: number) {
      const rows = await db
        .select({
          id: userGroup.id,
          name: userGroup.name,
          // Spelled out: a correlated subquery needs the qualified outer column.
          hasPrice: sql<boolean>`exists (select 1 from "price" pr where pr.group_id = "user_group"."id" and pr.station_id = ${stationId})`,
        })
        .from(userGroup)
        .where(eq(userGroup.providerId, providerId))
        .orderBy(asc(userGroup.name), asc(userGroup.id));
      return rows.map((r) => ({ ...r, hasPrice: Boolean(r.hasPrice) }));
    },

    /** Versions among `ids` whose station the caller sees. */
    async visibleVersions(p: Principal, ids: number[]): Promise<VersionRow[]> {
      const rows = await db
        .select({ price, billedCount, createdByName: systemUser.username })
        .from(price)
        .innerJoin(station, eq(station.id, price.stationId))
        .leftJoin(systemUser, eq(systemUser.id, price.createdBy))
        .where(visibleStation(p, inArray(price.id, ids)));
      return rows.map((r) => ({ ...r.price, billedCount: Number(r.billedCount), createdByName: r.createdByName }));
    },

    async version(id: number): Promise<VersionRow | undefined> {
      const [row] = await db
        .select({ price, billedCount, createdByName: systemUser.username })
        .from(price)
        .leftJoin(systemUser, eq(systemUser.id, price.createdBy))
        .where(eq(price.id, id));
      return row && { ...row.price, billedCount: Number(row.billedCount), createdByName: row.createdByName };
    },

    /** Another version of the same price taking effect at exactly that instant. */
    async sameTime(stationId: number, groupId: number | null, at: Date, exceptId?: number) {
      const [row] = await db
        .select({ id: price.id })
        .from(price)
        .where(and(samePrice(stationId, groupId), eq(price.effectiveFrom, at), exceptId ? ne(price.id, exceptId) : undefined))
        .limit(1);
      return row !== undefined;
    },

    /** When the last billed session at the station ended: no version may take effect before it. */
    async lastBilledStop(stationId: number): Promise<Date | null> {
      const [row] = await db
        .select({ at: max(chargingTransaction.stoppedAt) })
        .from(chargingTransaction)
        .where(and(eq(chargingTransaction.stationId, stationId), isNotNull(chargingTransaction.billedAt)));
      return row?.at ?? null;
    },

    async insert(values: PriceValues) {
      const [row] = await db.insert(price).values(values).returning({ id: price.id });
      return row!.id;
    },

    /**
     * Updates a version unless a bill uses it. The row lock makes a concurrent bill line (whose
     * foreign key check takes a share lock on the version) wait until this commits.
     */
    async updateUnused(id: number, values: Partial<VersionValues>): Promise<'updated' | 'used'> {
      return db.transaction(async (tx) => {
        await tx.select({ id: price.id }).from(price).where(eq(price.id, id)).for('update');
        const [used] = await tx.select({ id: billLine.id }).from(billLine).where(eq(billLine.priceId, id)).limit(1);
        if (used) return 'used';
        await tx.update(price).set(values).where(eq(price.id, id));
        return 'updated';
      });
    },

    /** Removes versions unless a bill uses one of them (then nothing is removed). */
    async removeUnused(ids: number[]): Promise<number | 'used'> {
      return db.transaction(async (tx) => {
        await tx.select({ id: price.id }).from(price).where(inArray(price.id, ids)).for('update');
        const [used] = await tx.select({ id: billLine.id }).from(billLine).where(inArray(billLine.priceId, ids)).limit(1);
        if (used) return 'used';
        const rows = await tx.delete(price).where(inArray(price.id, ids)).returning({ id: price.id });
        return rows.length;
      });
    },

    /**
     * Sessions at the station a version taking effect at `since` may price: not billed, and
     * running or stopped after it (finished ones waiting for a price or for a confirmation).
     */
    async unbilledSince(stationId: number, since: Date) {
      return db
        .select()
        .from(chargingTransaction)
        .where(
          and(
            eq(chargingTransaction.stationId, stationId),
            isNull(chargingTransaction.billedAt),
            // Sessions of a refused idTag are billed to nobody, whatever the price says.
            eq(chargingTransaction.authStatus, 'Accepted'),
            or(isNull(chargingTransaction.stoppedAt), gt(chargingTransaction.stoppedAt, since)),
          ),
        )
        .orderBy(asc(chargingTransaction.id));
    },

    /** Finished sessions at the station still waiting for a bill (no price until now, among others). */
    async unbilledAt(stationId: number, limit: number) {
      const rows = await db
        .select({ id: chargingTransaction.id })
        .from(chargingTransaction)
        .where(
          and(
            eq(chargingTransaction.stationId, stationId),
            isNotNull(chargingTransaction.stoppedAt),
            isNull(chargingTransaction.billedAt),
            or(eq(chargingTransaction.valid, true), isNotNull(chargingTransaction.confirmedAt)),
          ),
        )
        .orderBy(asc(chargingTransaction.id))
        .limit(limit);
      return rows.map((r) => r.id);
    },
  };
}

export type PriceRepo = ReturnType<typeof createPriceRepo>;

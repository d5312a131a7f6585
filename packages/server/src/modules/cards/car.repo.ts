import type { CarDto } from '@csms/contract';
import { and, asc, count, desc, eq, gt, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { car, chargeUser, provider } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { providerScope } from '../../lib/scope.js';
import { contains, lowerLike } from '../../lib/text-search.js';

export interface CarFilter {
  plate?: string | undefined;
  vin?: string | undefined;
  account?: string | undefined;
  brand?: string | undefined;
  providerId?: number | undefined;
  chargeUserId?: number | undefined;
}

const columns = {
  id: car.id,
  plate: car.plate,
  vin: car.vin,
  alias: car.alias,
  brand: car.brand,
  model: car.model,
  chargeUserId: car.chargeUserId,
  account: chargeUser.account,
  providerId: car.providerId,
  providerName: provider.name,
  createdAt: car.createdAt,
};

export type CarRow = Omit<CarDto, 'createTime'> & { createdAt: Date };

export const toCarDto = ({ createdAt, ...r }: CarRow): CarDto => ({ ...r, createTime: createdAt.toISOString() });

/** Cars, scoped to the caller's providers. */
export function createCarRepo({ db }: { db: Db }) {
  const where = (p: Principal, ...more: (SQL | undefined)[]) => and(providerScope(p, car.providerId), ...more);
  const filterSql = (f: CarFilter) =>
    and(
      f.plate ? lowerLike(car.plate, contains(f.plate)) : undefined,
      f.vin ? lowerLike(car.vin, contains(f.vin)) : undefined,
      f.account ? lowerLike(chargeUser.account, contains(f.account)) : undefined,
      f.brand ? lowerLike(car.brand, contains(f.brand)) : undefined,
      f.providerId ? eq(car.providerId, f.providerId) : undefined,
      f.chargeUserId ? eq(car.chargeUserId, f.chargeUserId) : undefined,
    );
  const base = () =>
    db
      .select(columns)
      .from(car)
      .innerJoin(provider, eq(provider.id, car.providerId))
      .leftJoin(chargeUser, eq(chargeUser.id, car.chargeUserId));
  const counted = (cond: SQL | undefined) =>
    db.select({ n: count() }).from(car).leftJoin(chargeUser, eq(chargeUser.id, car.chargeUserId)).where(cond);

  return {
    async list(p: Principal, f: CarFilter, page: number, limit: number) {
      const cond = where(p, filterSql(f));
      const offset = (page - 1) * limit;
      const rows = await base().where(cond).orderBy(desc(car.id)).limit(limit).offset(offset);
      const total = await pageTotal(
        db,
        { offset, size: limit, rows: rows.length },
        db.select({ id: car.id }).from(car).leftJoin(chargeUser, eq(chargeUser.id, car.chargeUserId)).where(cond),
      );
      return { list: rows.map(toCarDto), ...total };
    },
    /** Exact, for exports. */
    async count(p: Principal, f: CarFilter) {
      const [r] = await counted(where(p, filterSql(f)));
      return r?.n ?? 0;
    },
    async page(p: Principal, f: CarFilter, afterId: number, size: number): Promise<CarRow[]> {
      return base()
        .where(where(p, filterSql(f), gt(car.id, afterId)))
        .orderBy(asc(car.id))
        .limit(size);
    },
    async get(p: Principal, id: number): Promise<CarRow | undefined> {
      const [r] = await base()
        .where(where(p, eq(car.id, id)))
        .limit(1);
      return r;
    },
    async visible(p: Principal, ids: number[]) {
      return db
        .select({ id: car.id, plate: car.plate })
        .from(car)
        .where(where(p, inArray(car.id, ids)));
    },
    /** Plates are unique within a provider, regardless of case. */
    async plateTaken(providerId: number, plate: string, exceptId?: number) {
      const [r] = await db
        .select({ id: car.id })
        .from(car)
        .where(and(eq(car.providerId, providerId), sql`upper(${car.plate}) = upper(${plate})`, exceptId ? ne(car.id, exceptId) : undefined))
        .limit(1);
      return r !== undefined;
    },
    /** The upper-cased plates among `plates` that a provider already has. */
    async existingPlates(providerId: number, plates: string[]) {
      if (plates.length === 0) return new Set<string>();
      const rows = await db
        .select({ plate: sql<string>`upper(${car.plate})` })
        .from(car)
        .where(
          and(
            eq(car.providerId, providerId),
            inArray(
              sql`upper(${car.plate})`,
              plates.map((x) => x.toUpperCase()),
            ),
          ),
        );
      return new Set(rows.map((r) => r.plate));
    },
    async insert(values: typeof car.$inferInsert) {
      const [r] = await db.insert(car).values(values).returning({ id: car.id });
      return r!.id;
    },
    /** Many rows in one transaction, in chunks that keep each statement small. */
    async insertMany(tx: Tx, values: (typeof car.$inferInsert)[]) {
      for (let i = 0; i < values.length; i += 500) await tx.insert(car).values(values.slice(i, i + 500));
    },
    async update(id: number, values: Partial<typeof car.$inferInsert>) {
      await db.update(car).set(values).where(eq(car.id, id));
    },
    async remove(ids: number[]) {
      const rows = await db.delete(car).where(inArray(car.id, ids)).returning({ id: car.id });
      return rows.length;
    },
  };
}

export type CarRepo = ReturnType<typeof createCarRepo>;

import type { MaterialDto } from '@csms/contract';
import { and, asc, count, desc, eq, gt, inArray, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { material, materialApplyLine, provider } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { providerScope } from '../../lib/scope.js';
import { contains, lowerLike } from '../../lib/text-search.js';

export interface MaterialFilter {
  partsNumber?: string | undefined;
  name?: string | undefined;
  model?: string | undefined;
  providerId?: number | undefined;
  maxStock?: number | undefined;
}

const columns = {
  id: material.id,
  providerId: material.providerId,
  providerName: provider.name,
  partsNumber: material.partsNumber,
  name: material.name,
  model: material.model,
  unit: material.unit,
  stock: material.stock,
  note: material.note,
  createdAt: material.createdAt,
  updatedAt: material.updatedAt,
};
export type MaterialRow = Omit<MaterialDto, 'createTime' | 'updateTime'> & { createdAt: Date; updatedAt: Date };
export const toMaterialDto = ({ createdAt, updatedAt, ...r }: MaterialRow): MaterialDto => ({
  ...r,
  createTime: createdAt.toISOString(),
  updateTime: updatedAt.toISOString(),
});

/** The parts catalogue, scoped to the caller's providers (parts are the provider's, at any of its stations). */
export function createMaterialRepo({ db }: { db: Db }) {
  const where = (p: Principal, ...more: (SQL | undefined)[]) => and(providerScope(p, material.providerId), ...more);
  const filterSql = (f: MaterialFilter) =>
    and(
      f.partsNumber ? lowerLike(material.partsNumber, contains(f.partsNumber)) : undefined,
      f.name ? lowerLike(material.name, contains(f.name)) : undefined,
      f.model ? lowerLike(material.model, contains(f.model)) : undefined,
      f.providerId ? eq(material.providerId, f.providerId) : undefined,
      f.maxStock !== undefined ? lte(material.stock, f.maxStock) : undefined,
    );
  const base = () => db.select(columns).from(material).innerJoin(provider, eq(provider.id, material.providerId));

  return {
    async list(p: Principal, f: MaterialFilter, page: number, limit: number) {
      const cond = where(p, filterSql(f));
      const offset = (page - 1) * limit;
      const rows = await base().where(cond).orderBy(desc(material.id)).limit(limit).offset(offset);
      const total = await pageTotal(
        db,
        { offset, size: limit, rows: rows.length },
        db.select({ id: material.id }).from(material).where(cond),
      );
      return { list: rows.map(toMaterialDto), ...total };
    },
    async count(p: Principal, f: MaterialFilter) {
      const [r] = await db
        .select({ n: count() })
        .from(material)
        .where(where(p, filterSql(f)));
      return r?.n ?? 0;
    },
    async page(p: Principal, f: MaterialFilter, afterId: number, size: number): Promise<MaterialRow[]> {
      return base()
        .where(where(p, filterSql(f), gt(material.id, afterId)))
        .orderBy(asc(material.id))
        .limit(size);
    },
    async get(p: Principal, id: number): Promise<MaterialRow | undefined> {
      const [r] = await base()
        .where(where(p, eq(material.id, id)))
        .limit(1);
      return r;
    },
    async visible(p: Principal, ids: number[]) {
      return db
        .select({ id: material.id, partsNumber: material.partsNumber })
        .from(material)
        .where(where(p, inArray(material.id, ids)));
    },
    /** A provider's parts by parts number or name, for the apply dialog's picker. */
    async options(p: Principal, providerId: number, text: string | undefined, ids: number[], limit: number) {
      const pick = {
        id: material.id,
        partsNumber: material.partsNumber,
        name: material.name,
        model: material.model,
        unit: material.unit,
        stock: material.stock,
      };
      const cond = where(p, eq(material.providerId, providerId));
      const found = await db
        .select(pick)
        .from(material)
        .where(and(cond, text ? or(lowerLike(material.partsNumber, contains(text)), lowerLike(material.name, contains(text))) : undefined))
        .orderBy(asc(material.partsNumber))
        .limit(limit);
      const missing = ids.filter((id) => !found.some((r) => r.id === id));
      const shown = missing.length
        ? await db
            .select(pick)
            .from(material)
            .where(and(cond, inArray(material.id, missing)))
        : [];
      return [...shown, ...found];
    },
    /** Parts numbers are unique within a provider, regardless of case. */
    async partsNumberTaken(providerId: number, partsNumber: string, exceptId?: number) {
      const [r] = await db
        .select({ id: material.id })
        .from(material)
        .where(
          and(
            eq(material.providerId, providerId),
            sql`upper(${material.partsNumber}) = upper(${partsNumber})`,
            exceptId ? ne(material.id, exceptId) : undefined,
          ),
        )
        .limit(1);
      return r !== undefined;
    },
    /** The parts a provider already has among `numbers`, by upper-cased parts number. */
    async byPartsNumbers(providerId: number, numbers: string[]) {
      const map = new Map<string, { id: number; stock: number }>();
      for (let i = 0; i < numbers.length; i += 1000) {
        const rows = await db
          .select({ id: material.id, stock: material.stock, key: sql<string>`upper(${material.partsNumber})` })
          .from(material)
          .where(
            and(
              eq(material.providerId, providerId),
              inArray(
                sql`upper(${material.partsNumber})`,
                numbers.slice(i, i + 1000).map((x) => x.toUpperCase()),
              ),
            ),
          );
        for (const r of rows) map.set(r.key, { id: r.id, stock: r.stock });
      }
      return map;
    },
    async insert(values: typeof material.$inferInsert) {
      const [r] = await db.insert(material).values(values).returning({ id: material.id });
      return r!.id;
    },
    /** New parts and restocks of an import, in the import's transaction. */
    async importMany(tx: Tx, fresh: (typeof material.$inferInsert)[], restock: { id: number; count: number }[], max: number) {
      for (let i = 0; i < fresh.length; i += 500) await tx.insert(material).values(fresh.slice(i, i + 500));
      const now = new Date();
      for (const r of restock) {
        // Conditional: a stock that grew meanwhile past the maximum refuses the whole import.
        const done = await tx
          .update(material)
          .set({ stock: sql`${material.stock} + ${r.count}`, updatedAt: now })
          .where(and(eq(material.id, r.id), lte(material.stock, max - r.count)))
          .returning({ id: material.id });
        if (done.length === 0) return r.id;
      }
      return undefined;
    },
    async update(id: number, values: Partial<typeof material.$inferInsert>) {
      await db
        .update(material)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(material.id, id));
    },
    /** The first of `ids` on an apply order, if any. */
    async firstInUse(ids: number[]) {
      const [r] = await db
        .select({ partsNumber: material.partsNumber })
        .from(materialApplyLine)
        .innerJoin(material, eq(material.id, materialApplyLine.materialId))
        .where(inArray(materialApplyLine.materialId, ids))
        .limit(1);
      return r?.partsNumber;
    },
    async remove(ids: number[]) {
      const rows = await db.delete(material).where(inArray(material.id, ids)).returning({ id: material.id });
      return rows.length;
    },
  };
}

export type MaterialRepo = ReturnType<typeof createMaterialRepo>;

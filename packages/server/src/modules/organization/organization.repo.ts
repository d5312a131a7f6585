import type { Organization } from '@csms/contract';
import { and, asc, count, desc, eq, gt, ilike, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { organization, provider } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { providerScope } from '../../lib/scope.js';
import { contains } from '../../lib/text-search.js';

export interface OrganizationFilter {
  orgName?: string | undefined;
}

// Spelled out: drizzle leaves columns unqualified in a single-table select, which a correlated subquery cannot afford.
const roleCount = sql<number>`(select count(*)::int from "role" r where r.org_id = "organization"."id")`;

const columns = {
  id: organization.id,
  orgName: organization.orgName,
  description: organization.description,
  providerId: organization.providerId,
  providerName: provider.name,
  roleCount,
  createdAt: organization.createdAt,
};

type Row = {
  id: number;
  orgName: string;
  description: string | null;
  providerId: number;
  providerName: string;
  roleCount: number;
  createdAt: Date;
};

export const toDto = (r: Row): Organization => ({
  id: r.id,
  orgName: r.orgName,
  description: r.description,
  providerId: r.providerId,
  providerName: r.providerName,
  roleCount: Number(r.roleCount),
  createTime: r.createdAt.toISOString(),
});

/** Organisations, always scoped to the caller's providers. */
export function createOrganizationRepo({ db }: { db: Db }) {
  const where = (p: Principal, ...more: (SQL | undefined)[]) => and(providerScope(p, organization.providerId), ...more);
  const filterSql = (f: OrganizationFilter) => (f.orgName ? ilike(organization.orgName, contains(f.orgName)) : undefined);
  const base = () => db.select(columns).from(organization).innerJoin(provider, eq(provider.id, organization.providerId));

  return {
    async list(p: Principal, f: OrganizationFilter, page: number, limit: number) {
      const cond = where(p, filterSql(f));
      const [rows, [total]] = await Promise.all([
        base()
          .where(cond)
          .orderBy(desc(organization.id))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ n: count() }).from(organization).where(cond),
      ]);
      return { list: rows.map(toDto), total: total?.n ?? 0 };
    },
    async count(p: Principal, f: OrganizationFilter) {
      const [row] = await db
        .select({ n: count() })
        .from(organization)
        .where(where(p, filterSql(f)));
      return row?.n ?? 0;
    },
    /** One keyset page for the export engine. */
    async page(p: Principal, f: OrganizationFilter, afterId: number, size: number) {
      return base()
        .where(where(p, filterSql(f), gt(organization.id, afterId)))
        .orderBy(asc(organization.id))
        .limit(size);
    },
    async get(p: Principal, id: number) {
      const [row] = await base()
        .where(where(p, eq(organization.id, id)))
        .limit(1);
      return row ? toDto(row) : undefined;
    },
    async nameTaken(providerId: number, orgName: string, exceptId?: number) {
      const [row] = await db
        .select({ id: organization.id })
        .from(organization)
        .where(
          and(
            eq(organization.providerId, providerId),
            eq(organization.orgName, orgName),
            exceptId ? ne(organization.id, exceptId) : undefined,
          ),
        )
        .limit(1);
      return row !== undefined;
    },
    async insert(values: { providerId: number; orgName: string; description: string | null }) {
      const [row] = await db.insert(organization).values(values).returning({ id: organization.id });
      return row!.id;
    },
    async update(p: Principal, id: number, values: { orgName: string; description: string | null }) {
      const rows = await db
        .update(organization)
        .set(values)
        .where(where(p, eq(organization.id, id)))
        .returning({ id: organization.id });
      return rows.length;
    },
    /** Ids among `ids` that the caller can see, with their names and role counts. */
    async visible(p: Principal, ids: number[]) {
      return db
        .select({ id: organization.id, orgName: organization.orgName, roleCount })
        .from(organization)
        .where(where(p, inArray(organization.id, ids)));
    },
    async remove(ids: number[]) {
      const rows = await db.delete(organization).where(inArray(organization.id, ids)).returning({ id: organization.id });
      return rows.length;
    },
  };
}

export type OrganizationRepo = ReturnType<typeof createOrganizationRepo>;

import type { RoleDto } from '@csms/contract';
import { and, asc, count, desc, eq, ilike, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { organization, provider, role } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { covers } from '../../lib/grants.js';
import { providerScope } from '../../lib/scope.js';
import { contains } from '../../lib/text-search.js';

export interface RoleFilter {
  orgName?: string | undefined;
  roleName?: string | undefined;
}

const parent = alias(role, 'parent_role');
const memberCount = sql<number>`(select count(*)::int from "system_user" u where u.role_id = "role"."id")`;
type Row = { row: typeof role.$inferSelect; parentName: string | null; orgName: string | null; providerName: string; memberCount: number };

/** The reply shape, with whether the caller may change the role (DESIGN.md §5). */
export const toDto = (r: Row, p: Principal): RoleDto => ({
  id: r.row.id,
  roleName: r.row.roleName,
  roleKey: r.row.roleKey,
  description: r.row.description,
  parentId: r.row.parentId,
  parentName: r.parentName,
  orgId: r.row.orgId,
  orgName: r.orgName,
  providerId: r.row.providerId,
  providerName: r.providerName,
  memberCount: Number(r.memberCount),
  enabled: r.row.enabled,
  rolePaths: r.row.rolePaths,
  permissions: r.row.permissions,
  createTime: r.row.createdAt.toISOString(),
  manageable: covers(p, r.row),
});

/** Roles, scoped to the caller's providers. */
export function createRoleRepo({ db }: { db: Db }) {
  const where = (p: Principal, ...more: (SQL | undefined)[]) => and(providerScope(p, role.providerId), ...more);
  const base = () =>
    db
      .select({ row: role, parentName: parent.roleName, orgName: organization.orgName, providerName: provider.name, memberCount })
      .from(role)
      .innerJoin(provider, eq(provider.id, role.providerId))
      .leftJoin(organization, eq(organization.id, role.orgId))
      .leftJoin(parent, eq(parent.id, role.parentId));
  const filterSql = (f: RoleFilter) =>
    and(
      f.orgName ? ilike(organization.orgName, contains(f.orgName)) : undefined,
      f.roleName ? ilike(role.roleName, contains(f.roleName)) : undefined,
    );

  return {
    async list(p: Principal, f: RoleFilter, page: number, limit: number) {
      const cond = where(p, filterSql(f));
      const [rows, [total]] = await Promise.all([
        base()
          .where(cond)
          .orderBy(desc(role.id))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ n: count() }).from(role).leftJoin(organization, eq(organization.id, role.orgId)).where(cond),
      ]);
      return { list: rows.map((r) => toDto(r, p)), total: total?.n ?? 0 };
    },
    /** For selects: by name, the first `limit` (all without one), plus the rows of `ids` (the values shown). */
    async options(p: Principal, roleName?: string, providerId?: number, w: { limit?: number | undefined; ids?: string | undefined } = {}) {
      const cols = {
        id: role.id,
        roleName: role.roleName,
        roleKey: role.roleKey,
        enabled: role.enabled,
        providerId: role.providerId,
        rolePaths: role.rolePaths,
        permissions: role.permissions,
      };
      const q = db
        .select(cols)
        .from(role)
        .where(
          where(
            p,
            roleName ? ilike(role.roleName, contains(roleName)) : undefined,
            providerId ? eq(role.providerId, providerId) : undefined,
          ),
        )
        .orderBy(...(w.limit ? [asc(role.roleName), asc(role.id)] : [asc(role.id)]));
      const first = w.limit ? await q.limit(w.limit) : await q;
      const missing = (w.ids?.split(',').map(Number) ?? []).filter((id) => !first.some((r) => r.id === id));
      const rows =
        missing.length === 0
          ? first
          : [
              ...first,
              ...(await db
                .select(cols)
                .from(role)
                .where(where(p, inArray(role.id, missing)))),
            ];
      return rows.map(({ rolePaths, permissions, ...o }) => ({
        ...o,
        assignable: covers(p, { roleKey: o.roleKey, rolePaths, permissions }),
      }));
    },
    async get(p: Principal, id: number) {
      const [r] = await base()
        .where(where(p, eq(role.id, id)))
        .limit(1);
      return r ? toDto(r, p) : undefined;
    },
    async org(p: Principal, orgId: number) {
      const [r] = await db
        .select({ id: organization.id, providerId: organization.providerId })
        .from(organization)
        .where(and(providerScope(p, organization.providerId), eq(organization.id, orgId)))
        .limit(1);
      return r;
    },
    /** Ids of the role's ancestors, nearest first (bounded: a corrupt chain cannot loop forever). */
    async ancestors(id: number) {
      const out: number[] = [];
      let next: number | null = id;
      while (next !== null && out.length < 50 && !out.includes(next)) {
        out.push(next);
        const [r] = await db.select({ parentId: role.parentId }).from(role).where(eq(role.id, next)).limit(1);
        next = r?.parentId ?? null;
      }
      return out;
    },
    async keyTaken(roleKey: string, exceptId?: number) {
      const [r] = await db
        .select({ id: role.id })
        .from(role)
        .where(and(eq(role.roleKey, roleKey), exceptId ? ne(role.id, exceptId) : undefined))
        .limit(1);
      return r !== undefined;
    },
    async insert(values: typeof role.$inferInsert) {
      const [r] = await db.insert(role).values(values).returning({ id: role.id });
      return r!.id;
    },
    async update(id: number, values: Partial<typeof role.$inferInsert>) {
      await db.update(role).set(values).where(eq(role.id, id));
    },
    async visible(p: Principal, ids: number[]) {
      return db
        .select({
          id: role.id,
          roleName: role.roleName,
          roleKey: role.roleKey,
          rolePaths: role.rolePaths,
          permissions: role.permissions,
          memberCount,
        })
        .from(role)
        .where(where(p, inArray(role.id, ids)));
    },
    async remove(ids: number[]) {
      return db.transaction(async (tx) => {
        await tx.update(role).set({ parentId: null }).where(inArray(role.parentId, ids));
        const rows = await tx.delete(role).where(inArray(role.id, ids)).returning({ id: role.id });
        return rows.length;
      });
    },
  };
}

export type RoleRepo = ReturnType<typeof createRoleRepo>;

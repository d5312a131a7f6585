import type { UserGroupDto } from '@csms/contract';
import { and, asc, count, desc, eq, gt, ilike, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { chargeUser, provider, userGroup } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { providerScope } from '../../lib/scope.js';
import { contains } from '../../lib/text-search.js';

export interface UserGroupFilter {
  name?: string | undefined;
  providerId?: number | undefined;
}

const memberCount = sql<number>`(select count(*)::int from "charge_user" u where u.group_id = "user_group"."id")`;

const columns = {
  id: userGroup.id,
  name: userGroup.name,
  description: userGroup.description,
  providerId: userGroup.providerId,
  providerName: provider.name,
  memberCount,
  monthlyLimitWh: userGroup.monthlyLimitWh,
  createdAt: userGroup.createdAt,
};

export interface UserGroupRow {
  id: number;
  name: string;
  description: string | null;
  providerId: number;
  providerName: string;
  memberCount: number;
  monthlyLimitWh: number | null;
  createdAt: Date;
}

export const toUserGroupDto = (r: UserGroupRow): UserGroupDto => ({
  id: r.id,
  name: r.name,
  description: r.description,
  providerId: r.providerId,
  providerName: r.providerName,
  memberCount: Number(r.memberCount),
  monthlyLimitWh: r.monthlyLimitWh,
  createTime: r.createdAt.toISOString(),
});

/** User groups, scoped to the caller's providers; members are charge users whose `group_id` points here. */
export function createUserGroupRepo({ db }: { db: Db }) {
  const where = (p: Principal, ...more: (SQL | undefined)[]) => and(providerScope(p, userGroup.providerId), ...more);
  const filterSql = (f: UserGroupFilter) =>
    and(f.name ? ilike(userGroup.name, contains(f.name)) : undefined, f.providerId ? eq(userGroup.providerId, f.providerId) : undefined);
  const base = () => db.select(columns).from(userGroup).innerJoin(provider, eq(provider.id, userGroup.providerId));

  return {
    async list(p: Principal, f: UserGroupFilter, page: number, limit: number) {
      const cond = where(p, filterSql(f));
      const [rows, [total]] = await Promise.all([
        base()
          .where(cond)
          .orderBy(desc(userGroup.id))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ n: count() }).from(userGroup).where(cond),
      ]);
      return { list: rows.map(toUserGroupDto), total: total?.n ?? 0 };
    },
    async count(p: Principal, f: UserGroupFilter) {
      const [r] = await db
        .select({ n: count() })
        .from(userGroup)
        .where(where(p, filterSql(f)));
      return r?.n ?? 0;
    },
    async page(p: Principal, f: UserGroupFilter, afterId: number, size: number): Promise<UserGroupRow[]> {
      return base()
        .where(where(p, filterSql(f), gt(userGroup.id, afterId)))
        .orderBy(asc(userGroup.id))
        .limit(size);
    },
    async get(p: Principal, id: number): Promise<UserGroupRow | undefined> {
      const [r] = await base()
        .where(where(p, eq(userGroup.id, id)))
        .limit(1);
      return r;
    },
    async visible(p: Principal, ids: number[]) {
      return db
        .select({ id: userGroup.id, name: userGroup.name, memberCount })
        .from(userGroup)
        .where(where(p, inArray(userGroup.id, ids)));
    },
    async options(p: Principal, providerId: number | undefined) {
      return db
        .select({ id: userGroup.id, name: userGroup.name, providerId: userGroup.providerId })
        .from(userGroup)
        .where(where(p, providerId ? eq(userGroup.providerId, providerId) : undefined))
        .orderBy(asc(userGroup.name))
        .limit(1000);
    },
    /** Group names are unique within a provider. */
    async nameTaken(providerId: number, name: string, exceptId?: number) {
      const [r] = await db
        .select({ id: userGroup.id })
        .from(userGroup)
        .where(and(eq(userGroup.providerId, providerId), eq(userGroup.name, name), exceptId ? ne(userGroup.id, exceptId) : undefined))
        .limit(1);
      return r !== undefined;
    },
    async insert(values: typeof userGroup.$inferInsert) {
      const [r] = await db.insert(userGroup).values(values).returning({ id: userGroup.id });
      return r!.id;
    },
    async update(id: number, values: Partial<typeof userGroup.$inferInsert>) {
      await db.update(userGroup).set(values).where(eq(userGroup.id, id));
    },
    async remove(ids: number[]) {
      // In a savepoint of its own: the caller reads again after a foreign-key refusal.
      const rows = await db.transaction((tx) => tx.delete(userGroup).where(inArray(userGroup.id, ids)).returning({ id: userGroup.id }));
      return rows.length;
    },
    async setGroup(chargeUserIds: number[], groupId: number) {
      await db.update(chargeUser).set({ groupId }).where(inArray(chargeUser.id, chargeUserIds));
    },
    async clearGroup(chargeUserIds: number[], groupId: number) {
      await db
        .update(chargeUser)
        .set({ groupId: null })
        .where(and(inArray(chargeUser.id, chargeUserIds), eq(chargeUser.groupId, groupId)));
    },
  };
}

export type UserGroupRepo = ReturnType<typeof createUserGroupRepo>;

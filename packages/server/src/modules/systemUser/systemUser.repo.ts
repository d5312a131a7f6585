import type { SystemUserDto } from '@csms/contract';
import { and, asc, count, desc, eq, gt, ilike, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { chargeUser, provider, role, station, systemUser } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { providerSubtree } from '../../http/sessions.js';
import { userRefusal } from '../../lib/grants.js';
import { providerScope } from '../../lib/scope.js';
import { contains } from '../../lib/text-search.js';

export interface SystemUserFilter {
  username?: string | undefined;
  name?: string | undefined;
  phone?: string | undefined;
  status?: 0 | 1 | undefined;
  providerId?: number | undefined;
  roleId?: number | undefined;
}

const columns = {
  id: systemUser.id,
  username: systemUser.username,
  name: systemUser.name,
  phone: systemUser.phone,
  email: systemUser.email,
  avatar: systemUser.avatar,
  status: systemUser.status,
  roleId: systemUser.roleId,
  roleName: role.roleName,
  roleKey: role.roleKey,
  rolePaths: role.rolePaths,
  rolePermissions: role.permissions,
  providerId: systemUser.providerId,
  providerName: provider.name,
  stationIds: systemUser.stationIds,
  isChargeUser: systemUser.isChargeUser,
  lastLoginAt: systemUser.lastLoginAt,
  createdAt: systemUser.createdAt,
};
export interface UserRow {
  id: number;
  username: string;
  name: string | null;
  phone: string | null;
  email: string | null;
  avatar: string | null;
  status: number;
  roleId: number;
  roleName: string;
  roleKey: string;
  rolePaths: string[];
  rolePermissions: string[];
  providerId: number;
  providerName: string;
  stationIds: number[];
  isChargeUser: boolean;
  lastLoginAt: Date | null;
  createdAt: Date;
}

/** The reply shape, with whether the caller may change the user (DESIGN.md §5). */
export const toDto = (r: UserRow, p: Principal): SystemUserDto => ({
  id: r.id,
  username: r.username,
  name: r.name,
  phone: r.phone,
  email: r.email,
  avatar: r.avatar,
  status: r.status,
  roleId: r.roleId,
  roleName: r.roleName,
  providerId: r.providerId,
  providerName: r.providerName,
  stationIds: r.stationIds,
  isChargeUser: r.isChargeUser,
  lastLoginTime: r.lastLoginAt?.toISOString() ?? null,
  createTime: r.createdAt.toISOString(),
  manageable: userRefusal(p, r) === undefined,
});

/** System users, scoped to the caller's providers; never selects the password hash into a reply. */
export function createSystemUserRepo({ db }: { db: Db }) {
  const where = (p: Principal, ...more: (SQL | undefined)[]) => and(providerScope(p, systemUser.providerId), ...more);
  const filterSql = (f: SystemUserFilter) =>
    and(
      f.username ? ilike(systemUser.username, contains(f.username)) : undefined,
      f.name ? ilike(systemUser.name, contains(f.name)) : undefined,
      f.phone ? ilike(systemUser.phone, contains(f.phone)) : undefined,
      f.status !== undefined ? eq(systemUser.status, f.status) : undefined,
      f.providerId ? eq(systemUser.providerId, f.providerId) : undefined,
      f.roleId ? eq(systemUser.roleId, f.roleId) : undefined,
    );
  const base = () =>
    db
      .select(columns)
      .from(systemUser)
      .innerJoin(role, eq(role.id, systemUser.roleId))
      .innerJoin(provider, eq(provider.id, systemUser.providerId));

  return {
    async list(p: Principal, f: SystemUserFilter, page: number, limit: number) {
      const cond = where(p, filterSql(f));
      const [rows, [total]] = await Promise.all([
        base()
          .where(cond)
          .orderBy(desc(systemUser.id))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ n: count() }).from(systemUser).where(cond),
      ]);
      return { list: rows.map((r) => toDto(r, p)), total: total?.n ?? 0 };
    },
    async count(p: Principal, f: SystemUserFilter) {
      const [r] = await db
        .select({ n: count() })
        .from(systemUser)
        .where(where(p, filterSql(f)));
      return r?.n ?? 0;
    },
    async page(p: Principal, f: SystemUserFilter, afterId: number, size: number) {
      return base()
        .where(where(p, filterSql(f), gt(systemUser.id, afterId)))
        .orderBy(asc(systemUser.id))
        .limit(size);
    },
    async get(p: Principal, id: number): Promise<UserRow | undefined> {
      const [r] = await base()
        .where(where(p, eq(systemUser.id, id)))
        .limit(1);
      return r;
    },
    async visible(p: Principal, ids: number[]) {
      return base().where(where(p, inArray(systemUser.id, ids)));
    },
    /** A role the caller can see (404 otherwise), with what it grants. */
    async role(p: Principal, id: number) {
      const [r] = await db
        .select({ id: role.id, roleName: role.roleName, roleKey: role.roleKey, rolePaths: role.rolePaths, permissions: role.permissions })
        .from(role)
        .where(and(providerScope(p, role.providerId), eq(role.id, id)))
        .limit(1);
      return r;
    },
    /**
     * Usernames identify at sign-in, so they are unique system-wide; with `scope`, only the
     * caller's providers are searched (what the console's check may learn, issue 12 item 9).
     */
    async usernameTaken(username: string, scope?: Principal) {
      const [r] = await db
        .select({ id: systemUser.id })
        .from(systemUser)
        .where(
          and(sql`lower(${systemUser.username}) = lower(${username})`, scope ? providerScope(scope, systemUser.providerId) : undefined),
        )
        .limit(1);
      return r !== undefined;
    },
    /** Phones are unique among system users system-wide; `scope` as for usernames. */
    async phoneTaken(phone: string, opts: { exceptId?: number; scope?: Principal } = {}) {
      const [r] = await db
        .select({ id: systemUser.id })
        .from(systemUser)
        .where(
          and(
            eq(systemUser.phone, phone),
            opts.exceptId ? ne(systemUser.id, opts.exceptId) : undefined,
            opts.scope ? providerScope(opts.scope, systemUser.providerId) : undefined,
          ),
        )
        .limit(1);
      return r !== undefined;
    },
    async insert(values: typeof systemUser.$inferInsert) {
      const [r] = await db.insert(systemUser).values(values).returning({ id: systemUser.id });
      return r!.id;
    },
    async update(id: number, values: Partial<typeof systemUser.$inferInsert>) {
      await db.update(systemUser).set(values).where(eq(systemUser.id, id));
    },
    /** The charge user of the provider with this phone, whom `setChargeUser` would enable or disable. */
    async chargeUserByPhone(providerId: number, phone: string) {
      const [c] = await db
        .select({ id: chargeUser.id, account: chargeUser.account })
        .from(chargeUser)
        .where(and(eq(chargeUser.providerId, providerId), eq(chargeUser.phone, phone)))
        .limit(1);
      return c;
    },
    /**
     * Set as charging user: the system user gets (or gets back) a charge user of type `platform`
     * in its provider, found by phone, so staff can charge on the platform account. Unsetting
     * disables that charge user; it is never deleted (its ledger history stays).
     */
    async setChargeUser(id: number, on: boolean) {
      return db.transaction(async (tx) => {
        const [u] = await tx.select().from(systemUser).where(eq(systemUser.id, id)).for('update');
        if (!u) return;
        await tx.update(systemUser).set({ isChargeUser: on }).where(eq(systemUser.id, id));
        if (!u.phone) return;
        const [linked] = await tx
          .select({ id: chargeUser.id })
          .from(chargeUser)
          .where(and(eq(chargeUser.providerId, u.providerId), eq(chargeUser.phone, u.phone)))
          .limit(1);
        if (linked) {
          await tx
            .update(chargeUser)
            .set({ status: on ? 1 : 0 })
            .where(eq(chargeUser.id, linked.id));
          return;
        }
        if (!on) return;
        // Accounts are unique system-wide and at most 20 characters (they travel as OCPP parent id tags).
        const base = u.username.slice(0, 16);
        let account = base;
        for (let n = 2; ; n++) {
          const [taken] = await tx
            .select({ id: chargeUser.id })
            .from(chargeUser)
            .where(sql`lower(${chargeUser.account}) = lower(${account})`);
          if (!taken) break;
          account = `${base}-${n}`;
        }
        await tx.insert(chargeUser).values({ providerId: u.providerId, account, phone: u.phone, email: u.email, userType: 'platform' });
      });
    },
    /** Names of the given stations that lie outside a provider's subtree (a user of it could never see them). */
    async stationsOutside(providerId: number, ids: number[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const subtree = await providerSubtree(db, providerId);
      const rows = await db.select({ name: station.name, providerId: station.providerId }).from(station).where(inArray(station.id, ids));
      return rows.filter((r) => !subtree.includes(r.providerId)).map((r) => r.name);
    },
    async remove(ids: number[]) {
      const rows = await db.delete(systemUser).where(inArray(systemUser.id, ids)).returning({ id: systemUser.id });
      return rows.length;
    },
  };
}

export type SystemUserRepo = ReturnType<typeof createSystemUserRepo>;

import type { MemberDto, MemberLevelDto } from '@csms/contract';
import { and, asc, count, desc, eq, gt, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { chargeUser, memberLevel, memberStatus, provider } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { providerScope } from '../../lib/scope.js';
import { contains, lowerLike } from '../../lib/text-search.js';
import { effectiveLevelOf } from './membership.js';

export interface LevelFilter {
  name?: string | undefined;
  providerId?: number | undefined;
}
export interface MemberFilter {
  account?: string | undefined;
  levelId?: number | undefined;
  providerId?: number | undefined;
}

const memberCount = sql<number>`(select count(*)::int from member_status s where ${effectiveLevelOf('s')} = "member_level"."id")`;
const levelColumns = {
  id: memberLevel.id,
  providerId: memberLevel.providerId,
  providerName: provider.name,
  name: memberLevel.name,
  sortOrder: memberLevel.sortOrder,
  basis: memberLevel.basis,
  threshold: memberLevel.threshold,
  discountPercent: memberLevel.discountPercent,
  validityDays: memberLevel.validityDays,
  memberCount,
  createdAt: memberLevel.createdAt,
  updatedAt: memberLevel.updatedAt,
};
export type LevelRow = Omit<MemberLevelDto, 'createTime' | 'updateTime'> & { createdAt: Date; updatedAt: Date };
export const toLevelDto = ({ createdAt, updatedAt, ...r }: LevelRow): MemberLevelDto => ({
  ...r,
  memberCount: Number(r.memberCount),
  createTime: createdAt.toISOString(),
  updateTime: updatedAt.toISOString(),
});

const levelName = (id: SQL) => sql<string | null>`(select l.name from member_level l where l.id = ${id})`;
const effective = sql<number | null>`${effectiveLevelOf('"member_status"')}`;
const memberColumns = {
  id: chargeUser.id,
  account: chargeUser.account,
  phone: chargeUser.phone,
  providerId: chargeUser.providerId,
  providerName: provider.name,
  levelId: effective,
  levelName: levelName(effective),
  computedLevelName: levelName(sql`"member_status"."level_id"`),
  validUntil: memberStatus.validUntil,
  spendCents: memberStatus.spendCents,
  energyWh: memberStatus.energyWh,
  computedAt: memberStatus.computedAt,
  overrideLevelName: levelName(sql`"member_status"."override_level_id"`),
  overrideReason: memberStatus.overrideReason,
  overrideUntil: memberStatus.overrideUntil,
};
export interface MemberRow {
  id: number;
  account: string;
  phone: string | null;
  providerId: number;
  providerName: string;
  levelId: number | null;
  levelName: string | null;
  computedLevelName: string | null;
  validUntil: Date | null;
  spendCents: number | null;
  energyWh: number | null;
  computedAt: Date | null;
  overrideLevelName: string | null;
  overrideReason: string | null;
  overrideUntil: Date | null;
}
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
export const toMemberDto = (r: MemberRow): MemberDto => ({
  id: r.id,
  account: r.account,
  phone: r.phone,
  providerId: r.providerId,
  providerName: r.providerName,
  levelId: r.levelId === null ? null : Number(r.levelId),
  levelName: r.levelName,
  computedLevelName: r.computedLevelName,
  validUntil: iso(r.validUntil),
  spendCents: Number(r.spendCents ?? 0),
  energyWh: Number(r.energyWh ?? 0),
  computeTime: iso(r.computedAt),
  // An override that has ended is history, not shown.
  ...(r.overrideUntil && new Date(r.overrideUntil) > new Date()
    ? { overrideLevelName: r.overrideLevelName, overrideReason: r.overrideReason, overrideUntil: iso(r.overrideUntil) }
    : { overrideLevelName: null, overrideReason: null, overrideUntil: null }),
});

/** Membership levels and members (charge users with their membership), scoped to the caller's providers. */
export function createMembershipRepo({ db }: { db: Db }) {
  const levelWhere = (p: Principal, f: LevelFilter, ...more: (SQL | undefined)[]) =>
    and(
      providerScope(p, memberLevel.providerId),
      f.name ? lowerLike(memberLevel.name, contains(f.name)) : undefined,
      f.providerId ? eq(memberLevel.providerId, f.providerId) : undefined,
      ...more,
    );
  const levels = () => db.select(levelColumns).from(memberLevel).innerJoin(provider, eq(provider.id, memberLevel.providerId));
  const memberWhere = (p: Principal, f: MemberFilter, ...more: (SQL | undefined)[]) =>
    and(
      providerScope(p, chargeUser.providerId),
      f.account ? lowerLike(chargeUser.account, contains(f.account)) : undefined,
      f.levelId ? sql`${effective} = ${f.levelId}` : undefined,
      f.providerId ? eq(chargeUser.providerId, f.providerId) : undefined,
      ...more,
    );
  const members = () =>
    db
      .select(memberColumns)
      .from(chargeUser)
      .innerJoin(provider, eq(provider.id, chargeUser.providerId))
      .leftJoin(memberStatus, eq(memberStatus.chargeUserId, chargeUser.id));

  return {
    async listLevels(p: Principal, f: LevelFilter, page: number, limit: number) {
      const cond = levelWhere(p, f);
      const offset = (page - 1) * limit;
      const rows = await levels().where(cond).orderBy(asc(memberLevel.providerId), asc(memberLevel.sortOrder)).limit(limit).offset(offset);
      const total = await pageTotal(
        db,
        { offset, size: limit, rows: rows.length },
        db.select({ id: memberLevel.id }).from(memberLevel).where(cond),
      );
      return { list: rows.map(toLevelDto), ...total };
    },
    async countLevels(p: Principal, f: LevelFilter) {
      const [r] = await db.select({ n: count() }).from(memberLevel).where(levelWhere(p, f));
      return r?.n ?? 0;
    },
    pageLevels: (p: Principal, f: LevelFilter, afterId: number, size: number): Promise<LevelRow[]> =>
      levels()
        .where(levelWhere(p, f, gt(memberLevel.id, afterId)))
        .orderBy(asc(memberLevel.id))
        .limit(size),
    async getLevel(p: Principal, id: number): Promise<LevelRow | undefined> {
      const [r] = await levels().where(levelWhere(p, {}, eq(memberLevel.id, id)));
      return r;
    },
    async levelOptions(p: Principal, providerId: number | undefined, text: string | undefined, limit: number) {
      return db
        .select({ id: memberLevel.id, name: memberLevel.name, sortOrder: memberLevel.sortOrder })
        .from(memberLevel)
        .where(levelWhere(p, { providerId, name: text }))
        .orderBy(asc(memberLevel.sortOrder))
        .limit(limit);
    },
    /** The provider's level of that name or order other than `exceptId`, if any. */
    async clash(providerId: number, name: string, sortOrder: number, exceptId?: number) {
      const [r] = await db
        .select({ name: memberLevel.name, sortOrder: memberLevel.sortOrder })
        .from(memberLevel)
        .where(
          and(
            eq(memberLevel.providerId, providerId),
            sql`(lower(${memberLevel.name}) = lower(${name}) or ${memberLevel.sortOrder} = ${sortOrder})`,
            exceptId ? ne(memberLevel.id, exceptId) : undefined,
          ),
        )
        .limit(1);
      return r;
    },
    async insertLevel(values: typeof memberLevel.$inferInsert) {
      const [r] = await db.insert(memberLevel).values(values).returning({ id: memberLevel.id });
      return r!.id;
    },
    async updateLevel(id: number, values: Partial<typeof memberLevel.$inferInsert>) {
      await db
        .update(memberLevel)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(memberLevel.id, id));
    },
    async visibleLevels(p: Principal, ids: number[]) {
      return db
        .select({ id: memberLevel.id, name: memberLevel.name })
        .from(memberLevel)
        .where(levelWhere(p, {}, inArray(memberLevel.id, ids)));
    },
    /** The first of `ids` some user holds (computed or overridden), by name. */
    async levelInUse(ids: number[]) {
      const [r] = await db
        .select({ name: memberLevel.name })
        .from(memberStatus)
        .innerJoin(memberLevel, sql`${memberLevel.id} in (${memberStatus.levelId}, ${memberStatus.overrideLevelId})`)
        .where(inArray(memberLevel.id, ids))
        .limit(1);
      return r?.name;
    },
    async removeLevels(ids: number[]) {
      return (await db.delete(memberLevel).where(inArray(memberLevel.id, ids)).returning({ id: memberLevel.id })).length;
    },

    async listMembers(p: Principal, f: MemberFilter, page: number, limit: number) {
      const cond = memberWhere(p, f);
      const offset = (page - 1) * limit;
      const rows = await members().where(cond).orderBy(desc(chargeUser.id)).limit(limit).offset(offset);
      const total = await pageTotal(
        db,
        { offset, size: limit, rows: rows.length },
        db.select({ id: chargeUser.id }).from(chargeUser).leftJoin(memberStatus, eq(memberStatus.chargeUserId, chargeUser.id)).where(cond),
      );
      return { list: rows.map(toMemberDto), ...total };
    },
    async countMembers(p: Principal, f: MemberFilter) {
      const [r] = await db
        .select({ n: count() })
        .from(chargeUser)
        .leftJoin(memberStatus, eq(memberStatus.chargeUserId, chargeUser.id))
        .where(memberWhere(p, f));
      return r?.n ?? 0;
    },
    pageMembers: (p: Principal, f: MemberFilter, afterId: number, size: number): Promise<MemberRow[]> =>
      members()
        .where(memberWhere(p, f, gt(chargeUser.id, afterId)))
        .orderBy(asc(chargeUser.id))
        .limit(size),
    async getMember(p: Principal, id: number): Promise<MemberRow | undefined> {
      const [r] = await members().where(memberWhere(p, {}, eq(chargeUser.id, id)));
      return r;
    },
    async setOverride(
      user: { id: number; providerId: number },
      o: { levelId: number | null; reason: string | null; until: Date | null; by: number | null },
    ) {
      const set = { overrideLevelId: o.levelId, overrideReason: o.reason, overrideUntil: o.until, overrideBy: o.by };
      await db
        .insert(memberStatus)
        .values({ chargeUserId: user.id, providerId: user.providerId, ...set })
        .onConflictDoUpdate({ target: memberStatus.chargeUserId, set });
    },
  };
}

export type MembershipRepo = ReturnType<typeof createMembershipRepo>;

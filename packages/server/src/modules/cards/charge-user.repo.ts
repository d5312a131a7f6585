import type { ChargeUserDto, ChargeUserType } from '@csms/contract';
import { and, asc, count, desc, eq, gt, gte, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { car, card, chargeUser, chargingTransaction, ledger, provider, userGroup } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { providerScope } from '../../lib/scope.js';
import { contains, lowerLike } from '../../lib/text-search.js';
import { memberLevelNameOf } from '../operations/membership.js';

export interface ChargeUserFilter {
  account?: string | undefined;
  phone?: string | undefined;
  email?: string | undefined;
  userType?: ChargeUserType | undefined;
  status?: 0 | 1 | undefined;
  providerId?: number | undefined;
  groupId?: number | undefined;
  startTime?: Date | undefined;
  endTime?: Date | undefined;
}

// Spelled out: correlated subqueries need the outer table qualified.
const cardCount = sql<number>`(select count(*)::int from "card" c where c.charge_user_id = "charge_user"."id")`;
const cardBalance = sql<number>`(select coalesce(sum(c.balance_cents), 0)::int from "card" c where c.charge_user_id = "charge_user"."id")`;

const columns = {
  id: chargeUser.id,
  account: chargeUser.account,
  phone: chargeUser.phone,
  email: chargeUser.email,
  userType: chargeUser.userType,
  status: chargeUser.status,
  groupId: chargeUser.groupId,
  groupName: userGroup.name,
  memberLevel: chargeUser.memberLevel,
  memberLevelName: memberLevelNameOf('"charge_user"."id"'),
  providerId: chargeUser.providerId,
  providerName: provider.name,
  cardCount,
  cardBalanceCents: cardBalance,
  mobileBalanceCents: chargeUser.mobileBalanceCents,
  createdAt: chargeUser.createdAt,
};

export interface ChargeUserRow {
  id: number;
  account: string;
  phone: string | null;
  email: string | null;
  userType: ChargeUserType;
  status: number;
  groupId: number | null;
  groupName: string | null;
  memberLevel: number;
  memberLevelName: string | null;
  providerId: number;
  providerName: string;
  cardCount: number;
  cardBalanceCents: number;
  mobileBalanceCents: number;
  createdAt: Date;
}

export const toChargeUserDto = (r: ChargeUserRow): ChargeUserDto => ({
  id: r.id,
  account: r.account,
  phone: r.phone,
  email: r.email,
  userType: r.userType,
  status: r.status,
  groupId: r.groupId,
  groupName: r.groupName,
  memberLevel: r.memberLevel,
  memberLevelName: r.memberLevelName,
  providerId: r.providerId,
  providerName: r.providerName,
  cardCount: Number(r.cardCount),
  cardBalanceCents: Number(r.cardBalanceCents),
  mobileBalanceCents: r.mobileBalanceCents,
  registerTime: r.createdAt.toISOString(),
});

/** Charge users, scoped to the caller's providers. Balances are read here and changed only by the ledger. */
export function createChargeUserRepo({ db }: { db: Db }) {
  const where = (p: Principal, ...more: (SQL | undefined)[]) => and(providerScope(p, chargeUser.providerId), ...more);
  const filterSql = (f: ChargeUserFilter) =>
    and(
      f.account ? lowerLike(chargeUser.account, contains(f.account)) : undefined,
      f.phone ? lowerLike(chargeUser.phone, contains(f.phone)) : undefined,
      f.email ? lowerLike(chargeUser.email, contains(f.email)) : undefined,
      f.userType ? eq(chargeUser.userType, f.userType) : undefined,
      f.status !== undefined ? eq(chargeUser.status, f.status) : undefined,
      f.providerId ? eq(chargeUser.providerId, f.providerId) : undefined,
      f.groupId ? eq(chargeUser.groupId, f.groupId) : undefined,
      f.startTime ? gte(chargeUser.createdAt, f.startTime) : undefined,
      f.endTime ? lte(chargeUser.createdAt, f.endTime) : undefined,
    );
  const base = () =>
    db
      .select(columns)
      .from(chargeUser)
      .innerJoin(provider, eq(provider.id, chargeUser.providerId))
      .leftJoin(userGroup, eq(userGroup.id, chargeUser.groupId));

  return {
    async list(p: Principal, f: ChargeUserFilter, page: number, limit: number) {
      const cond = where(p, filterSql(f));
      const offset = (page - 1) * limit;
      const rows = await base().where(cond).orderBy(desc(chargeUser.id)).limit(limit).offset(offset);
      const total = await pageTotal(
        db,
        { offset, size: limit, rows: rows.length },
        db.select({ id: chargeUser.id }).from(chargeUser).where(cond),
      );
      return { list: rows.map(toChargeUserDto), ...total };
    },
    /** Exact, for exports. */
    async count(p: Principal, f: ChargeUserFilter) {
      const [r] = await db
        .select({ n: count() })
        .from(chargeUser)
        .where(where(p, filterSql(f)));
      return r?.n ?? 0;
    },
    async page(p: Principal, f: ChargeUserFilter, afterId: number, size: number): Promise<ChargeUserRow[]> {
      return base()
        .where(where(p, filterSql(f), gt(chargeUser.id, afterId)))
        .orderBy(asc(chargeUser.id))
        .limit(size);
    },
    async get(p: Principal, id: number): Promise<ChargeUserRow | undefined> {
      const [r] = await base()
        .where(where(p, eq(chargeUser.id, id)))
        .limit(1);
      return r;
    },
    async visible(p: Principal, ids: number[]) {
      return db
        .select({ id: chargeUser.id, account: chargeUser.account, providerId: chargeUser.providerId, groupId: chargeUser.groupId })
        .from(chargeUser)
        .where(where(p, inArray(chargeUser.id, ids)));
    },
    /** For selects: at most 50, by account. */
    async options(p: Principal, keyword: string | undefined, providerId: number | undefined) {
      return db
        .select({ id: chargeUser.id, account: chargeUser.account, phone: chargeUser.phone, providerId: chargeUser.providerId })
        .from(chargeUser)
        .where(
          where(
            p,
            keyword ? or(lowerLike(chargeUser.account, contains(keyword)), lowerLike(chargeUser.phone, contains(keyword))) : undefined,
            providerId ? eq(chargeUser.providerId, providerId) : undefined,
          ),
        )
        .orderBy(asc(chargeUser.account))
        .limit(50);
    },
    /** Registered since each instant, in the caller's scope. */
    async registeredSince(p: Principal, since: Date) {
      const [r] = await db
        .select({ n: count() })
        .from(chargeUser)
        .where(where(p, gte(chargeUser.createdAt, since)));
      return r?.n ?? 0;
    },
    /** Whether anything still refers to the user: cards, cars, ledger rows or charging records. */
    async inUse(id: number) {
      const refs = await Promise.all([
        db.select({ id: card.id }).from(card).where(eq(card.chargeUserId, id)).limit(1),
        db.select({ id: car.id }).from(car).where(eq(car.chargeUserId, id)).limit(1),
        db.select({ id: ledger.id }).from(ledger).where(eq(ledger.chargeUserId, id)).limit(1),
        db.select({ id: chargingTransaction.id }).from(chargingTransaction).where(eq(chargingTransaction.chargeUserId, id)).limit(1),
      ]);
      return refs.some((r) => r.length > 0);
    },
    async insert(values: typeof chargeUser.$inferInsert) {
      const [r] = await db.insert(chargeUser).values(values).returning({ id: chargeUser.id });
      return r!.id;
    },
    async update(id: number, values: Partial<typeof chargeUser.$inferInsert>) {
      await db.update(chargeUser).set(values).where(eq(chargeUser.id, id));
    },
    async remove(ids: number[]) {
      const rows = await db.delete(chargeUser).where(inArray(chargeUser.id, ids)).returning({ id: chargeUser.id });
      return rows.length;
    },
  };
}

export type ChargeUserRepo = ReturnType<typeof createChargeUserRepo>;

import type { CardDto, CardState } from '@csms/contract';
import { and, asc, count, desc, eq, gt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { card, chargeUser, provider } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { providerScope } from '../../lib/scope.js';
import { contains, lowerLike } from '../../lib/text-search.js';

export interface CardFilter {
  cardNumber?: string | undefined;
  physicalId?: string | undefined;
  account?: string | undefined;
  state?: CardState | undefined;
  providerId?: number | undefined;
  chargeUserId?: number | undefined;
}

const columns = {
  id: card.id,
  cardNumber: card.cardNumber,
  physicalId: card.physicalId,
  providerId: card.providerId,
  providerName: provider.name,
  chargeUserId: card.chargeUserId,
  account: chargeUser.account,
  phone: chargeUser.phone,
  email: card.email,
  balanceCents: card.balanceCents,
  expireAt: card.expireAt,
  status: card.status,
  masterPass: card.masterPass,
  createdAt: card.createdAt,
};

export interface CardRow {
  id: number;
  cardNumber: string;
  physicalId: string;
  providerId: number;
  providerName: string;
  chargeUserId: number | null;
  account: string | null;
  phone: string | null;
  email: string | null;
  balanceCents: number;
  expireAt: Date;
  status: 'valid' | 'lost' | 'expired';
  masterPass: boolean;
  createdAt: Date;
}

/**
 * Spec §4 states from the stored mark and the expiry: lost; expired when marked so or past its
 * expiry; else valid. Moving the expiry into the future revives only a card expired by date.
 */
export function cardState(
  r: Pick<CardRow, 'status' | 'expireAt'>,
  now: Date = new Date(),
): { state: CardState; expiredBy: 'operator' | 'date' | null } {
  if (r.status === 'lost') return { state: 'lost', expiredBy: null };
  if (r.status === 'expired') return { state: 'expired', expiredBy: 'operator' };
  if (r.expireAt.getTime() <= now.getTime()) return { state: 'expired', expiredBy: 'date' };
  return { state: 'valid', expiredBy: null };
}

export const toCardDto = (r: CardRow): CardDto => ({
  id: r.id,
  cardNumber: r.cardNumber,
  physicalId: r.physicalId,
  providerId: r.providerId,
  providerName: r.providerName,
  chargeUserId: r.chargeUserId,
  account: r.account,
  phone: r.phone,
  email: r.email,
  balanceCents: r.balanceCents,
  expireTime: r.expireAt.toISOString(),
  ...cardState(r),
  masterPass: r.masterPass,
  createTime: r.createdAt.toISOString(),
});

function stateSql(state: CardState): SQL | undefined {
  const notPast = gt(card.expireAt, sql`now()`);
  switch (state) {
    case 'lost':
      return eq(card.status, 'lost');
    case 'valid':
      return and(eq(card.status, 'valid'), notPast);
    case 'expired':
      return or(eq(card.status, 'expired'), and(eq(card.status, 'valid'), lte(card.expireAt, sql`now()`)));
  }
}

/** RFID cards, scoped to the caller's providers; `balanceCents` is written only by the ledger. */
export function createCardRepo({ db }: { db: Db }) {
  const where = (p: Principal, ...more: (SQL | undefined)[]) => and(providerScope(p, card.providerId), ...more);
  const filterSql = (f: CardFilter) =>
    and(
      f.cardNumber ? lowerLike(card.cardNumber, contains(f.cardNumber)) : undefined,
      f.physicalId ? lowerLike(card.physicalId, contains(f.physicalId)) : undefined,
      f.account ? lowerLike(chargeUser.account, contains(f.account)) : undefined,
      f.state ? stateSql(f.state) : undefined,
      f.providerId ? eq(card.providerId, f.providerId) : undefined,
      f.chargeUserId ? eq(card.chargeUserId, f.chargeUserId) : undefined,
    );
  const base = () =>
    db
      .select(columns)
      .from(card)
      .innerJoin(provider, eq(provider.id, card.providerId))
      .leftJoin(chargeUser, eq(chargeUser.id, card.chargeUserId));
  const counted = (cond: SQL | undefined) =>
    db.select({ n: count() }).from(card).leftJoin(chargeUser, eq(chargeUser.id, card.chargeUserId)).where(cond);

  return {
    async list(p: Principal, f: CardFilter, page: number, limit: number) {
      const cond = where(p, filterSql(f));
      const offset = (page - 1) * limit;
      const rows = await base().where(cond).orderBy(desc(card.id)).limit(limit).offset(offset);
      const total = await pageTotal(
        db,
        { offset, size: limit, rows: rows.length },
        db.select({ id: card.id }).from(card).leftJoin(chargeUser, eq(chargeUser.id, card.chargeUserId)).where(cond),
      );
      return { list: rows.map(toCardDto), ...total };
    },
    /** Exact, for exports. */
    async count(p: Principal, f: CardFilter) {
      const [r] = await counted(where(p, filterSql(f)));
      return r?.n ?? 0;
    },
    async page(p: Principal, f: CardFilter, afterId: number, size: number): Promise<CardRow[]> {
      return base()
        .where(where(p, filterSql(f), gt(card.id, afterId)))
        .orderBy(asc(card.id))
        .limit(size);
    },
    /** For selects: at most 50 in the caller's scope, by card number. */
    async options(p: Principal, keyword: string | undefined, providerId: number | undefined) {
      const rows = await db
        .select({
          id: card.id,
          cardNumber: card.cardNumber,
          account: chargeUser.account,
          providerId: card.providerId,
          status: card.status,
          expireAt: card.expireAt,
        })
        .from(card)
        .leftJoin(chargeUser, eq(chargeUser.id, card.chargeUserId))
        .where(
          where(
            p,
            keyword ? lowerLike(card.cardNumber, contains(keyword)) : undefined,
            providerId ? eq(card.providerId, providerId) : undefined,
          ),
        )
        .orderBy(asc(card.cardNumber))
        .limit(50);
      return rows.map((r) => ({
        id: r.id,
        cardNumber: r.cardNumber,
        account: r.account,
        providerId: r.providerId,
        state: cardState(r).state,
      }));
    },
    async get(p: Principal, id: number): Promise<CardRow | undefined> {
      const [r] = await base()
        .where(where(p, eq(card.id, id)))
        .limit(1);
      return r;
    },
    /** Card numbers are unique within a provider. */
    async numberTaken(providerId: number, cardNumber: string, exceptId?: number) {
      const [r] = await db
        .select({ id: card.id })
        .from(card)
        .where(and(eq(card.providerId, providerId), eq(card.cardNumber, cardNumber), exceptId ? ne(card.id, exceptId) : undefined))
        .limit(1);
      return r !== undefined;
    },
    /** Physical ids are unique across the system, regardless of case: they identify on the wire. */
    async physicalIdTaken(physicalId: string) {
      const [r] = await db
        .select({ id: card.id })
        .from(card)
        .where(sql`lower(${card.physicalId}) = lower(${physicalId})`)
        .limit(1);
      return r !== undefined;
    },
    async update(id: number, values: Pick<Partial<typeof card.$inferInsert>, 'chargeUserId' | 'expireAt' | 'email' | 'masterPass'>) {
      await db.update(card).set(values).where(eq(card.id, id));
    },
    /** Move a card from one stored status to another; false when it was not in `from` (a concurrent change). */
    async transition(id: number, from: 'valid' | 'lost', to: 'valid' | 'lost' | 'expired') {
      const rows = await db
        .update(card)
        .set({ status: to })
        .where(and(eq(card.id, id), eq(card.status, from)))
        .returning({ id: card.id });
      return rows.length === 1;
    },
  };
}

export type CardRepo = ReturnType<typeof createCardRepo>;

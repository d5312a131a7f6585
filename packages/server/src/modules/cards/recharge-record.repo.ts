import type { LedgerRow, TradeType } from '@csms/contract';
import { and, asc, count, desc, eq, gt, gte, ilike, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { card, chargeUser, ledger, provider, systemUser } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { providerScope } from '../../lib/scope.js';
import { contains } from './common.js';

export interface RechargeRecordFilter {
  startTime?: Date | undefined;
  endTime?: Date | undefined;
  account?: string | undefined;
  cardNumber?: string | undefined;
  tradeType?: TradeType | undefined;
  accountKind?: 'card' | 'mobile' | undefined;
  thirdPartyTxnId?: string | undefined;
  providerId?: number | undefined;
}

const columns = {
  id: ledger.id,
  tradeType: ledger.tradeType,
  accountKind: ledger.accountKind,
  cardId: ledger.cardId,
  cardNumber: card.cardNumber,
  chargeUserId: sql<number | null>`coalesce(${ledger.chargeUserId}, ${card.chargeUserId})`,
  account: chargeUser.account,
  amountCents: ledger.amountCents,
  balanceBeforeCents: ledger.balanceBeforeCents,
  balanceAfterCents: ledger.balanceAfterCents,
  operatorName: systemUser.username,
  source: ledger.source,
  thirdPartyTxnId: ledger.thirdPartyTxnId,
  transactionRef: ledger.transactionRef,
  providerId: ledger.providerId,
  providerName: provider.name,
  createdAt: ledger.createdAt,
};

export type LedgerRowRaw = Omit<LedgerRow, 'createTime'> & { createdAt: Date };

export const toLedgerDto = ({ createdAt, ...r }: LedgerRowRaw): LedgerRow => ({
  ...r,
  chargeUserId: r.chargeUserId === null ? null : Number(r.chargeUserId),
  createTime: createdAt.toISOString(),
});

/**
 * The ledger's rows for reading (recharge records, a card's history). Read-only: rows are written
 * by `createLedger().post` alone. The account shown is the mobile account's user, or the card's owner.
 */
export function createRechargeRecordRepo({ db }: { db: Db }) {
  const where = (p: Principal, ...more: (SQL | undefined)[]) => and(providerScope(p, ledger.providerId), ...more);
  const filterSql = (f: RechargeRecordFilter) =>
    and(
      f.tradeType ? eq(ledger.tradeType, f.tradeType) : inArray(ledger.tradeType, ['recharge', 'refund']),
      f.startTime ? gte(ledger.createdAt, f.startTime) : undefined,
      f.endTime ? lte(ledger.createdAt, f.endTime) : undefined,
      f.account ? ilike(chargeUser.account, contains(f.account)) : undefined,
      f.cardNumber ? ilike(card.cardNumber, contains(f.cardNumber)) : undefined,
      f.accountKind ? eq(ledger.accountKind, f.accountKind) : undefined,
      f.thirdPartyTxnId ? ilike(ledger.thirdPartyTxnId, contains(f.thirdPartyTxnId)) : undefined,
      f.providerId ? eq(ledger.providerId, f.providerId) : undefined,
    );
  const rows = () =>
    db
      .select(columns)
      .from(ledger)
      .innerJoin(provider, eq(provider.id, ledger.providerId))
      .leftJoin(card, eq(card.id, ledger.cardId))
      .leftJoin(chargeUser, eq(chargeUser.id, sql`coalesce(${ledger.chargeUserId}, ${card.chargeUserId})`))
      .leftJoin(systemUser, eq(systemUser.id, ledger.operatorUserId));
  const counted = (cond: SQL | undefined) =>
    db
      .select({ n: count() })
      .from(ledger)
      .leftJoin(card, eq(card.id, ledger.cardId))
      .leftJoin(chargeUser, eq(chargeUser.id, sql`coalesce(${ledger.chargeUserId}, ${card.chargeUserId})`))
      .where(cond);

  return {
    async list(p: Principal, f: RechargeRecordFilter, page: number, limit: number) {
      const cond = where(p, filterSql(f));
      const [list, [total]] = await Promise.all([
        rows()
          .where(cond)
          .orderBy(desc(ledger.id))
          .limit(limit)
          .offset((page - 1) * limit),
        counted(cond),
      ]);
      return { list: list.map((r) => toLedgerDto(r as LedgerRowRaw)), total: total?.n ?? 0 };
    },
    async count(p: Principal, f: RechargeRecordFilter) {
      const [r] = await counted(where(p, filterSql(f)));
      return r?.n ?? 0;
    },
    async page(p: Principal, f: RechargeRecordFilter, afterId: number, size: number) {
      return (await rows()
        .where(where(p, filterSql(f), gt(ledger.id, afterId)))
        .orderBy(asc(ledger.id))
        .limit(size)) as LedgerRowRaw[];
    },
    async get(p: Principal, id: number) {
      const [r] = await rows()
        .where(where(p, eq(ledger.id, id)))
        .limit(1);
      return r ? toLedgerDto(r as LedgerRowRaw) : undefined;
    },
    /** A card's latest rows, newest first (every trade type). */
    async ofCard(cardId: number, limit: number) {
      const list = await rows().where(eq(ledger.cardId, cardId)).orderBy(desc(ledger.id)).limit(limit);
      return list.map((r) => toLedgerDto(r as LedgerRowRaw));
    },
  };
}

export type RechargeRecordRepo = ReturnType<typeof createRechargeRecordRepo>;

import type { LedgerRow, TradeType } from '@csms/contract';
import { and, asc, count, desc, eq, gt, gte, ilike, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { card, chargeUser, ledger, provider, systemUser } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { providerScope } from '../../lib/scope.js';
import { contains } from '../../lib/text-search.js';

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
  // A console request's id is no charging transaction.
  transactionRef: sql<string | null>`(case when ${ledger.transactionRef} like 'console:%' then null else ${ledger.transactionRef} end)`,
  // A charge's discount lines (issue 19); CASE first, so no other row's reference is cast.
  discountCents: sql<number | null>`(case when ${ledger.tradeType} = 'charge' and ${ledger.transactionRef} ~ '^[0-9]+$' then
    (select sum(b.amount_cents)::int from bill_line b where b.transaction_id = ${ledger.transactionRef}::int and b.price_id is null) end)`,
  providerId: ledger.providerId,
  providerName: provider.name,
  transferId: sql<number | null>`(select a.transfer_id from transfer_allocation a where a.ledger_id = ${ledger.id})`,
  invoiceId: sql<number | null>`(select x.invoice_id from invoice_item x where x.ledger_id = ${ledger.id} and x.live)`,
  createdAt: ledger.createdAt,
};

export type LedgerRowRaw = Omit<LedgerRow, 'createTime'> & { createdAt: Date };

export const toLedgerDto = ({ createdAt, ...r }: LedgerRowRaw): LedgerRow => ({
  ...r,
  chargeUserId: r.chargeUserId === null ? null : Number(r.chargeUserId),
  transferId: r.transferId === null ? null : Number(r.transferId),
  invoiceId: r.invoiceId === null ? null : Number(r.invoiceId),
  discountCents: r.discountCents === null ? null : Number(r.discountCents),
  createTime: createdAt.toISOString(),
});

/**
 * The ledger's rows for reading (recharge records, a card's history). Read-only: rows are written
 * by `createLedger().post` alone. The account shown is the mobile account's user, or the card's owner.
 */
export function createRechargeRecordRepo({ db }: { db: Db }) {
  // Spelled out: the subqueries below have columns of the same names.
  const own = (col: string) => sql.raw(`"ledger"."${col}"`);
  const where = (p: Principal, ...more: (SQL | undefined)[]) => and(providerScope(p, ledger.providerId), ...more);
  const filterSql = (f: RechargeRecordFilter) =>
    and(
      f.tradeType ? eq(ledger.tradeType, f.tradeType) : inArray(ledger.tradeType, ['recharge', 'refund', 'bonus']),
      f.startTime ? gte(ledger.createdAt, f.startTime) : undefined,
      f.endTime ? lte(ledger.createdAt, f.endTime) : undefined,
      // The account shown is the mobile account's user, else the card's owner (see `rows`). Both
      // searches match the few users or cards first and read their rows on the ledger's indexes by
      // card and by charge user (`= any(array(…))` under the `or`, each computed once); text is
      // compared as `lower(…) like lower(…)` (lib/text-search.ts).
      f.account
        ? sql`(${own('charge_user_id')} = any(array(select u.id from charge_user u where lower(u.account) like lower(${contains(f.account)})))
            or (${own('charge_user_id')} is null and ${own('card_id')} = any(array(select c.id from card c where c.charge_user_id in (
              select u.id from charge_user u where lower(u.account) like lower(${contains(f.account)}))))))`
        : undefined,
      f.cardNumber
        ? sql`${own('card_id')} in (select c.id from card c where lower(c.card_number) like lower(${contains(f.cardNumber)}))`
        : undefined,
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
  // Every condition is on the ledger's own columns, so counting needs no join.
  const counted = (cond: SQL | undefined) => db.select({ n: count() }).from(ledger).where(cond);

  return {
    async list(p: Principal, f: RechargeRecordFilter, page: number, limit: number) {
      const cond = where(p, filterSql(f));
      const offset = (page - 1) * limit;
      const list = await rows().where(cond).orderBy(desc(ledger.id)).limit(limit).offset(offset);
      const total = await pageTotal(db, { offset, size: limit, rows: list.length }, db.select({ id: ledger.id }).from(ledger).where(cond));
      return { list: list.map((r) => toLedgerDto(r as LedgerRowRaw)), ...total };
    },
    /** Exact, for exports. */
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

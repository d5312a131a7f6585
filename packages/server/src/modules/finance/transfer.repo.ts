import type { TransferAllocationDto, TransferDto, TransferState } from '@csms/contract';
import { and, asc, desc, eq, gt, gte, inArray, lte, ne, sql, type SQL } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { card, chargeUser, corporateTransfer, ledger, provider, systemUser, transferAllocation } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { API_PREFIX } from '../../http/mount.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { providerScope } from '../../lib/scope.js';
import { contains, lowerLike } from '../../lib/text-search.js';

export interface TransferFilter {
  payerName?: string | undefined;
  bankReference?: string | undefined;
  state?: TransferState | undefined;
  /** Transfer dates (a day, or an instant whose UTC day is taken). */
  startTime?: string | Date | undefined;
  endTime?: string | Date | undefined;
  providerId?: number | undefined;
  id?: number | undefined;
}

const registrar = alias(systemUser, 'registrar');
const decider = alias(systemUser, 'decider');
const displayName = (u: { name: PgColumn; username: PgColumn }) => sql<string>`coalesce(nullif(${u.name}, ''), ${u.username})`;
const dayOf = (v: string | Date) => (typeof v === 'string' ? v : v.toISOString().slice(0, 10));
export const fileUrl = (fileName: string | null) =>
  fileName ? `${API_PREFIX}/common/download/resource?resource=${encodeURIComponent(fileName)}` : null;
export const money = (cents: number) => (cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Corporate transfers and their allocations, scoped by provider. Balances are not touched here: the ledger credits them. */
export function createTransferRepo({ db }: { db: Db }) {
  const where = (p: Principal, ...more: (SQL | undefined)[]) => and(providerScope(p, corporateTransfer.providerId), ...more);
  const filterSql = (f: TransferFilter) =>
    and(
      f.payerName ? lowerLike(corporateTransfer.payerName, contains(f.payerName)) : undefined,
      f.bankReference ? lowerLike(corporateTransfer.bankReference, contains(f.bankReference)) : undefined,
      f.state ? eq(corporateTransfer.state, f.state) : undefined,
      f.startTime ? gte(corporateTransfer.transferDate, dayOf(f.startTime)) : undefined,
      f.endTime ? lte(corporateTransfer.transferDate, dayOf(f.endTime)) : undefined,
      f.providerId ? eq(corporateTransfer.providerId, f.providerId) : undefined,
      f.id ? eq(corporateTransfer.id, f.id) : undefined,
    );
  const head = () =>
    db
      .select({
        t: corporateTransfer,
        providerName: provider.name,
        registrarName: displayName(registrar),
        deciderName: displayName(decider),
      })
      .from(corporateTransfer)
      .innerJoin(provider, eq(provider.id, corporateTransfer.providerId))
      .leftJoin(registrar, eq(registrar.id, corporateTransfer.registeredBy))
      .leftJoin(decider, eq(decider.id, corporateTransfer.decidedBy));
  type Head = Awaited<ReturnType<ReturnType<typeof head>['where']>>[number];

  async function dtos(rows: Head[]): Promise<TransferDto[]> {
    if (rows.length === 0) return [];
    const allocations = await db
      .select({
        transferId: transferAllocation.transferId,
        id: transferAllocation.id,
        targetKind: transferAllocation.targetKind,
        chargeUserId: transferAllocation.chargeUserId,
        cardId: transferAllocation.cardId,
        cardNumber: card.cardNumber,
        account: sql<
          string | null
        >`coalesce(${chargeUser.account}, (select u.account from charge_user u where u.id = ${card.chargeUserId}))`,
        amountCents: transferAllocation.amountCents,
        ledgerId: transferAllocation.ledgerId,
        balanceBeforeCents: ledger.balanceBeforeCents,
        balanceAfterCents: ledger.balanceAfterCents,
      })
      .from(transferAllocation)
      .leftJoin(chargeUser, eq(chargeUser.id, transferAllocation.chargeUserId))
      .leftJoin(card, eq(card.id, transferAllocation.cardId))
      .leftJoin(ledger, eq(ledger.id, transferAllocation.ledgerId))
      .where(
        inArray(
          transferAllocation.transferId,
          rows.map((r) => r.t.id),
        ),
      )
      .orderBy(asc(transferAllocation.id));
    return rows.map(({ t, ...j }) => {
      const mine: TransferAllocationDto[] = allocations.filter((a) => a.transferId === t.id).map(({ transferId: _, ...a }) => a);
      return {
        id: t.id,
        providerId: t.providerId,
        providerName: j.providerName,
        payerName: t.payerName,
        payerAccount: t.payerAccount,
        payerBank: t.payerBank,
        amountCents: t.amountCents,
        transferDate: t.transferDate,
        bankReference: t.bankReference,
        receiptFile: t.receiptFile,
        receiptUrl: fileUrl(t.receiptFile),
        remark: t.remark,
        state: t.state,
        rejectReason: t.rejectReason,
        allocations: mine,
        summary: mine.map((a) => `${(a.targetKind === 'card' ? a.cardNumber : a.account) ?? '-'} ${money(a.amountCents)}`).join(', '),
        registrarName: j.registrarName ?? null,
        deciderName: t.decidedBy === null ? null : j.deciderName,
        decideTime: t.decidedAt?.toISOString() ?? null,
        createTime: t.createdAt.toISOString(),
      };
    });
  }
  const counted = (cond: SQL | undefined) => db.select({ id: corporateTransfer.id }).from(corporateTransfer).where(cond);

  return {
    async list(p: Principal, f: TransferFilter, page: number, limit: number) {
      const cond = where(p, filterSql(f));
      const offset = (page - 1) * limit;
      const rows = await head().where(cond).orderBy(desc(corporateTransfer.id)).limit(limit).offset(offset);
      return { list: await dtos(rows), ...(await pageTotal(db, { offset, size: limit, rows: rows.length }, counted(cond))) };
    },
    async count(p: Principal, f: TransferFilter) {
      const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(counted(where(p, filterSql(f))).as('c'));
      return r?.n ?? 0;
    },
    async page(p: Principal, f: TransferFilter, afterId: number, size: number) {
      const rows = await head()
        .where(where(p, filterSql(f), gt(corporateTransfer.id, afterId)))
        .orderBy(asc(corporateTransfer.id))
        .limit(size);
      return dtos(rows);
    },
    async get(p: Principal, id: number) {
      const rows = await head()
        .where(where(p, eq(corporateTransfer.id, id)))
        .limit(1);
      return (await dtos(rows))[0];
    },
    /** A transfer of the provider with this bank reference, whatever its letter case. */
    async byReference(providerId: number, reference: string) {
      const [r] = await db
        .select({ id: corporateTransfer.id })
        .from(corporateTransfer)
        .where(and(eq(corporateTransfer.providerId, providerId), sql`upper(${corporateTransfer.bankReference}) = upper(${reference})`));
      return r;
    },
    async users(providerId: number, ids: number[]) {
      if (ids.length === 0) return [];
      return db
        .select({ id: chargeUser.id })
        .from(chargeUser)
        .where(and(eq(chargeUser.providerId, providerId), inArray(chargeUser.id, ids)));
    },
    async cards(providerId: number, ids: number[]) {
      if (ids.length === 0) return [];
      return db
        .select({ id: card.id })
        .from(card)
        .where(and(eq(card.providerId, providerId), inArray(card.id, ids)));
    },
    async insert(
      values: typeof corporateTransfer.$inferInsert,
      allocations: { chargeUserId?: number | undefined; cardId?: number | undefined; amountCents: number }[],
    ) {
      const [row] = await db.insert(corporateTransfer).values(values).returning({ id: corporateTransfer.id });
      const id = row!.id;
      await db.insert(transferAllocation).values(
        allocations.map((a) => ({
          transferId: id,
          targetKind: a.cardId ? ('card' as const) : ('mobile' as const),
          chargeUserId: a.cardId ? null : (a.chargeUserId ?? null),
          cardId: a.cardId ?? null,
          amountCents: a.amountCents,
        })),
      );
      return id;
    },
    /**
     * Moves a transfer out of `registered`, conditionally: of two concurrent decisions only one finds it
     * there (the other waits on the row and then matches nothing). Confirming also wants a user other than the registrar.
     */
    async decide(id: number, to: 'confirmed' | 'rejected', actorId: number, reason: string | null) {
      const rows = await db
        .update(corporateTransfer)
        .set({ state: to, decidedBy: actorId, decidedAt: new Date(), rejectReason: reason })
        .where(
          and(
            eq(corporateTransfer.id, id),
            eq(corporateTransfer.state, 'registered'),
            to === 'confirmed' ? ne(corporateTransfer.registeredBy, actorId) : undefined,
          ),
        )
        .returning({ id: corporateTransfer.id });
      return rows.length > 0;
    },
    async registrar(id: number) {
      const [r] = await db.select({ by: corporateTransfer.registeredBy }).from(corporateTransfer).where(eq(corporateTransfer.id, id));
      return r?.by;
    },
    async allocations(transferId: number) {
      return db.select().from(transferAllocation).where(eq(transferAllocation.transferId, transferId)).orderBy(asc(transferAllocation.id));
    },
    async setLedger(allocationId: number, ledgerId: number) {
      await db.update(transferAllocation).set({ ledgerId }).where(eq(transferAllocation.id, allocationId));
    },
  };
}

export type TransferRepo = ReturnType<typeof createTransferRepo>;

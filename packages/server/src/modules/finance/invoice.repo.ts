import type { InvoiceDto, InvoiceItemDto, InvoiceItemKind, InvoiceNotifyType, InvoiceStatus } from '@csms/contract';
import { and, asc, desc, eq, gt, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { chargeUser, chargingTransaction, invoice, invoiceItem, ledger, provider, systemUser } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { providerScope, stationScope } from '../../lib/scope.js';
import { contains, lowerLike } from '../../lib/text-search.js';
import { fileUrl } from './transfer.repo.js';

export interface InvoiceFilter {
  account?: string | undefined;
  name?: string | undefined;
  status?: InvoiceStatus | undefined;
  notifyType?: InvoiceNotifyType | undefined;
  startTime?: Date | undefined;
  endTime?: Date | undefined;
  providerId?: number | undefined;
  chargeUserId?: number | undefined;
  id?: number | undefined;
}

const operator = alias(systemUser, 'operator');
const displayName = (u: { name: PgColumn; username: PgColumn }) => sql<string>`coalesce(nullif(${u.name}, ''), ${u.username})`;
/** What a charging record was paid: its bill and any later correction of it. */
const paidCents = sql<number>`(${chargingTransaction.totalCents} + coalesce(${chargingTransaction.adjustmentCents}, 0))::int`;

/**
 * Invoices and the records they cover. "Billable" is a charge user's paid charging records (billed and
 * charged to his card or mobile balance) and his recharges and transfer credits (ledger rows), each not
 * in a live invoice; the partial unique indexes on `invoice_item` make that hold under concurrency too.
 */
export function createInvoiceRepo({ db }: { db: Db }) {
  const where = (p: Principal, ...more: (SQL | undefined)[]) => and(providerScope(p, invoice.providerId), ...more);
  const filterSql = (f: InvoiceFilter) =>
    and(
      f.account ? lowerLike(chargeUser.account, contains(f.account)) : undefined,
      f.name ? lowerLike(invoice.name, contains(f.name)) : undefined,
      f.status ? eq(invoice.status, f.status) : undefined,
      f.notifyType ? eq(invoice.notifyType, f.notifyType) : undefined,
      f.startTime ? gte(invoice.appliedAt, f.startTime) : undefined,
      f.endTime ? lte(invoice.appliedAt, f.endTime) : undefined,
      f.providerId ? eq(invoice.providerId, f.providerId) : undefined,
      f.chargeUserId ? eq(invoice.chargeUserId, f.chargeUserId) : undefined,
      f.id ? eq(invoice.id, f.id) : undefined,
    );
  const head = () =>
    db
      .select({ i: invoice, providerName: provider.name, account: chargeUser.account, operatorName: displayName(operator) })
      .from(invoice)
      .innerJoin(provider, eq(provider.id, invoice.providerId))
      .innerJoin(chargeUser, eq(chargeUser.id, invoice.chargeUserId))
      .leftJoin(operator, eq(operator.id, invoice.decidedBy));
  type Head = Awaited<ReturnType<ReturnType<typeof head>['where']>>[number];

  async function dtos(rows: Head[]): Promise<InvoiceDto[]> {
    if (rows.length === 0) return [];
    const items = await db
      .select({
        invoiceId: invoiceItem.invoiceId,
        kind: invoiceItem.kind,
        refId: sql<number>`coalesce(${invoiceItem.transactionId}, ${invoiceItem.ledgerId})`,
        amountCents: invoiceItem.amountCents,
        time: sql<Date>`coalesce(${chargingTransaction.stoppedAt}, ${ledger.createdAt})`,
      })
      .from(invoiceItem)
      .leftJoin(chargingTransaction, eq(chargingTransaction.id, invoiceItem.transactionId))
      .leftJoin(ledger, eq(ledger.id, invoiceItem.ledgerId))
      .where(
        inArray(
          invoiceItem.invoiceId,
          rows.map((r) => r.i.id),
        ),
      )
      .orderBy(asc(invoiceItem.id));
    return rows.map(({ i, ...j }) => ({
      id: i.id,
      providerId: i.providerId,
      providerName: j.providerName,
      chargeUserId: i.chargeUserId,
      account: j.account,
      amountCents: i.amountCents,
      items: items
        .filter((x) => x.invoiceId === i.id)
        .map((x) => ({ kind: x.kind, refId: Number(x.refId), amountCents: x.amountCents, time: new Date(x.time).toISOString() })),
      principalType: i.principalType,
      name: i.name,
      taxNumber: i.taxNumber,
      recipientName: i.recipientName,
      mobile: i.mobile,
      email: i.email,
      address: i.address,
      notifyType: i.notifyType,
      remark: i.remark,
      status: i.status,
      rejectReason: i.rejectReason,
      fileName: i.fileName,
      fileUrl: fileUrl(i.fileName),
      applyTime: i.appliedAt.toISOString(),
      noticeTime: i.noticedAt?.toISOString() ?? null,
      finishTime: i.finishedAt?.toISOString() ?? null,
      operatorName: i.decidedBy === null ? null : j.operatorName,
    }));
  }
  const counted = (cond: SQL | undefined) =>
    db.select({ id: invoice.id }).from(invoice).innerJoin(chargeUser, eq(chargeUser.id, invoice.chargeUserId)).where(cond);

  /** A user's cards, as a subquery. */
  const cardsOf = (userId: number) => sql`(select c.id from card c where c.charge_user_id = ${userId})`;

  return {
    async list(p: Principal, f: InvoiceFilter, page: number, limit: number) {
      const cond = where(p, filterSql(f));
      const offset = (page - 1) * limit;
      const rows = await head().where(cond).orderBy(desc(invoice.id)).limit(limit).offset(offset);
      return { list: await dtos(rows), ...(await pageTotal(db, { offset, size: limit, rows: rows.length }, counted(cond))) };
    },
    async count(p: Principal, f: InvoiceFilter) {
      const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(counted(where(p, filterSql(f))).as('c'));
      return r?.n ?? 0;
    },
    async page(p: Principal, f: InvoiceFilter, afterId: number, size: number) {
      const rows = await head()
        .where(where(p, filterSql(f), gt(invoice.id, afterId)))
        .orderBy(asc(invoice.id))
        .limit(size);
      return dtos(rows);
    },
    async get(p: Principal, id: number) {
      const rows = await head()
        .where(where(p, eq(invoice.id, id)))
        .limit(1);
      return (await dtos(rows))[0];
    },
    /** A charge user the caller sees. */
    async user(p: Principal, id: number) {
      const [u] = await db
        .select({ id: chargeUser.id, providerId: chargeUser.providerId, account: chargeUser.account })
        .from(chargeUser)
        .where(and(eq(chargeUser.id, id), providerScope(p, chargeUser.providerId)));
      return u;
    },
    /**
     * The user's billable records (all, or only these ids), newest first: charging records of the stations
     * the caller sees (a user bound to stations invoices those only), recharges (the provider's).
     */
    async billable(p: Principal, userId: number, only?: { chargeRecordIds: number[]; rechargeIds: number[] }): Promise<InvoiceItemDto[]> {
      const charges = await db
        .select({ refId: chargingTransaction.id, amountCents: paidCents, time: chargingTransaction.stoppedAt })
        .from(chargingTransaction)
        .where(
          and(
            sql`(${chargingTransaction.chargeUserId} = ${userId} or ${chargingTransaction.cardId} in ${cardsOf(userId)})`,
            sql`${chargingTransaction.billedAt} is not null and ${chargingTransaction.paidFrom} is not null`,
            sql`${paidCents} > 0`,
            stationScope(p, chargingTransaction.stationId),
            sql`not exists (select 1 from invoice_item x where x.transaction_id = ${chargingTransaction.id} and x.live)`,
            only ? (only.chargeRecordIds.length ? inArray(chargingTransaction.id, only.chargeRecordIds) : sql`false`) : undefined,
          ),
        )
        .orderBy(desc(chargingTransaction.id))
        .limit(500);
      const recharges = await db
        .select({ refId: ledger.id, amountCents: ledger.amountCents, time: ledger.createdAt })
        .from(ledger)
        .where(
          and(
            sql`((${ledger.accountKind} = 'mobile' and ${ledger.chargeUserId} = ${userId}) or ${ledger.cardId} in ${cardsOf(userId)})`,
            inArray(ledger.tradeType, ['recharge', 'transfer']),
            sql`${ledger.amountCents} > 0`,
            sql`not exists (select 1 from invoice_item x where x.ledger_id = ${ledger.id} and x.live)`,
            only ? (only.rechargeIds.length ? inArray(ledger.id, only.rechargeIds) : sql`false`) : undefined,
          ),
        )
        .orderBy(desc(ledger.id))
        .limit(500);
      const at = (d: Date | null) => (d ?? new Date(0)).toISOString();
      return [
        ...charges.map((c) => ({ kind: 'charge' as const, refId: c.refId, amountCents: Number(c.amountCents), time: at(c.time) })),
        ...recharges.map((r) => ({ kind: 'recharge' as const, refId: r.refId, amountCents: r.amountCents, time: at(r.time) })),
      ];
    },
    async insert(values: typeof invoice.$inferInsert, items: { kind: InvoiceItemKind; refId: number; amountCents: number }[]) {
      const [row] = await db.insert(invoice).values(values).returning({ id: invoice.id });
      const id = row!.id;
      await db.insert(invoiceItem).values(
        items.map((x) => ({
          invoiceId: id,
          kind: x.kind,
          transactionId: x.kind === 'charge' ? x.refId : null,
          ledgerId: x.kind === 'recharge' ? x.refId : null,
          amountCents: x.amountCents,
        })),
      );
      return id;
    },
    /** Issues an invoice still `applied`, with its PDF; whether it did. */
    async issue(id: number, actorId: number, fileName: string) {
      const rows = await db
        .update(invoice)
        .set({ status: 'issued', fileName, decidedBy: actorId, finishedAt: new Date() })
        .where(and(eq(invoice.id, id), eq(invoice.status, 'applied')))
        .returning({ id: invoice.id });
      return rows.length > 0;
    },
    /** Rejects an invoice still `applied` and frees its records; whether it did. */
    async reject(id: number, actorId: number, reason: string) {
      const rows = await db
        .update(invoice)
        .set({ status: 'rejected', rejectReason: reason, decidedBy: actorId, finishedAt: new Date() })
        .where(and(eq(invoice.id, id), eq(invoice.status, 'applied')))
        .returning({ id: invoice.id });
      if (rows.length === 0) return false;
      await db.update(invoiceItem).set({ live: false }).where(eq(invoiceItem.invoiceId, id));
      return true;
    },
    async noticed(id: number) {
      await db.update(invoice).set({ noticedAt: new Date() }).where(eq(invoice.id, id));
    },
    async mailSettings(providerId: number) {
      const [r] = await db
        .select({
          name: provider.name,
          mailAccount: provider.mailAccount,
          mailAuthCode: provider.mailAuthCode,
          smtpAddress: provider.smtpAddress,
          smtpPort: provider.smtpPort,
        })
        .from(provider)
        .where(eq(provider.id, providerId));
      return r!;
    },
  };
}

export type InvoiceRepo = ReturnType<typeof createInvoiceRepo>;

import type { InvoiceItemKind, InvoiceNotifyType, InvoiceStatus, TransferState, TransferTargetKind } from '@csms/contract';
import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, serial, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { card, chargeUser, chargingTransaction, ledger, provider, systemUser } from '../schema.js';

/**
 * Finance (issue 18, DESIGN.md §3, §10): corporate transfers and invoices. Money moves only through
 * the ledger: a confirmed transfer's allocations point at the ledger rows that credited them. A bank
 * reference is one transfer within a provider; a charging record or a ledger row is in at most one
 * live (not rejected) invoice, which partial unique indexes on the invoice lines guarantee.
 */
export const corporateTransfer = pgTable(
  'corporate_transfer',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    payerName: varchar('payer_name', { length: 100 }).notNull(),
    payerAccount: varchar('payer_account', { length: 64 }).notNull(),
    payerBank: varchar('payer_bank', { length: 100 }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    transferDate: date('transfer_date', { mode: 'string' }).notNull(),
    bankReference: varchar('bank_reference', { length: 64 }).notNull(),
    /** The stored file name of the uploaded receipt (image or PDF). */
    receiptFile: varchar('receipt_file', { length: 255 }),
    remark: varchar('remark', { length: 500 }),
    state: varchar('state', { length: 12 }).$type<TransferState>().notNull().default('registered'),
    rejectReason: varchar('reject_reason', { length: 500 }),
    /** Without a foreign key (as the ledger's operator): four eyes compares it even after the user is deleted. */
    registeredBy: integer('registered_by').notNull(),
    decidedBy: integer('decided_by').references(() => systemUser.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('corporate_transfer_reference').on(t.providerId, sql`upper(${t.bankReference})`),
    index('corporate_transfer_date').on(t.transferDate, t.id),
    index('corporate_transfer_provider').on(t.providerId, t.id),
    check('corporate_transfer_amount_positive', sql`${t.amountCents} > 0`),
  ],
);

/** Where a transfer's money goes: one charge user's mobile balance or one card, and the ledger row once credited. */
export const transferAllocation = pgTable(
  'transfer_allocation',
  {
    id: serial('id').primaryKey(),
    transferId: integer('transfer_id')
      .notNull()
      .references(() => corporateTransfer.id, { onDelete: 'cascade' }),
    targetKind: varchar('target_kind', { length: 8 }).$type<TransferTargetKind>().notNull(),
    chargeUserId: integer('charge_user_id').references(() => chargeUser.id),
    cardId: integer('card_id').references(() => card.id),
    amountCents: integer('amount_cents').notNull(),
    ledgerId: integer('ledger_id').references(() => ledger.id),
  },
  (t) => [
    index('transfer_allocation_transfer').on(t.transferId, t.id),
    uniqueIndex('transfer_allocation_ledger').on(t.ledgerId),
    check('transfer_allocation_amount_positive', sql`${t.amountCents} > 0`),
    check(
      'transfer_allocation_target',
      sql`(${t.targetKind} = 'mobile' and ${t.chargeUserId} is not null and ${t.cardId} is null) or (${t.targetKind} = 'card' and ${t.cardId} is not null and ${t.chargeUserId} is null)`,
    ),
  ],
);

export const invoice = pgTable(
  'invoice',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    chargeUserId: integer('charge_user_id')
      .notNull()
      .references(() => chargeUser.id),
    amountCents: integer('amount_cents').notNull(),
    principalType: varchar('principal_type', { length: 8 }).$type<'person' | 'company'>().notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    taxNumber: varchar('tax_number', { length: 32 }),
    recipientName: varchar('recipient_name', { length: 50 }).notNull(),
    mobile: varchar('mobile', { length: 32 }).notNull(),
    email: varchar('email', { length: 100 }).notNull(),
    address: varchar('address', { length: 255 }),
    notifyType: varchar('notify_type', { length: 8 }).$type<InvoiceNotifyType>().notNull(),
    remark: varchar('remark', { length: 500 }),
    status: varchar('status', { length: 10 }).$type<InvoiceStatus>().notNull().default('applied'),
    rejectReason: varchar('reject_reason', { length: 500 }),
    /** The issued PDF's stored file name (kept: the upload is not deleted while an invoice names it). */
    fileName: varchar('file_name', { length: 255 }),
    appliedBy: integer('applied_by').references(() => systemUser.id, { onDelete: 'set null' }),
    decidedBy: integer('decided_by').references(() => systemUser.id, { onDelete: 'set null' }),
    appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
    noticedAt: timestamp('noticed_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('invoice_provider').on(t.providerId, t.id),
    index('invoice_charge_user').on(t.chargeUserId, t.id),
    check('invoice_amount_not_negative', sql`${t.amountCents} >= 0`),
  ],
);

/** The records an invoice covers; `live` is false once the invoice is rejected, which frees them. */
export const invoiceItem = pgTable(
  'invoice_item',
  {
    id: serial('id').primaryKey(),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoice.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 8 }).$type<InvoiceItemKind>().notNull(),
    transactionId: integer('transaction_id').references(() => chargingTransaction.id),
    ledgerId: integer('ledger_id').references(() => ledger.id),
    amountCents: integer('amount_cents').notNull(),
    live: boolean('live').notNull().default(true),
  },
  (t) => [
    index('invoice_item_invoice').on(t.invoiceId),
    uniqueIndex('invoice_item_live_transaction')
      .on(t.transactionId)
      .where(sql`${t.live} and ${t.transactionId} is not null`),
    uniqueIndex('invoice_item_live_ledger')
      .on(t.ledgerId)
      .where(sql`${t.live} and ${t.ledgerId} is not null`),
    check(
      'invoice_item_ref',
      sql`(${t.kind} = 'charge' and ${t.transactionId} is not null and ${t.ledgerId} is null) or (${t.kind} = 'recharge' and ${t.ledgerId} is not null and ${t.transactionId} is null)`,
    ),
  ],
);

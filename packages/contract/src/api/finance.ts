import { z } from 'zod';
import { crud, dayFilter, endpoint, optText, phoneNumber } from '../endpoint.js';

/**
 * Finance (issue 18; spec §1, §2 `/financialManagement` corporateTransfer, transferRecord (hidden),
 * invoiceRecordManage, §3 invoice and invoice info; DESIGN.md §3, §10).
 *
 * A corporate transfer is registered (registered) and then confirmed by another user — which credits
 * every allocation through the ledger, in one transaction, source `transfer` and the bank reference as
 * third-party id — or rejected with a reason. An invoice request covers paid charging records and
 * recharges of one charge user that no other live invoice covers; it is issued with a PDF (the user is
 * told by mail with it attached) or rejected (the records are free again).
 */
export const transferStates = ['registered', 'confirmed', 'rejected'] as const;
export type TransferState = (typeof transferStates)[number];
export const transferTargetKinds = ['mobile', 'card'] as const;
export type TransferTargetKind = (typeof transferTargetKinds)[number];

export const invoiceStatuses = ['applied', 'issued', 'rejected'] as const;
export type InvoiceStatus = (typeof invoiceStatuses)[number];
export const invoicePrincipalTypes = ['person', 'company'] as const;
export const invoiceNotifyTypes = ['mail', 'sms'] as const;
export type InvoiceNotifyType = (typeof invoiceNotifyTypes)[number];
/** What an invoice line covers: a charging record (its bill) or a ledger row (a recharge or a transfer credit). */
export const invoiceItemKinds = ['charge', 'recharge'] as const;
export type InvoiceItemKind = (typeof invoiceItemKinds)[number];

/** The most one transfer may carry (20,000,000.00): balances are 32-bit cents. */
export const TRANSFER_MAX_CENTS = 2_000_000_000;
/** The most targets one transfer is split over, and the most records one invoice covers. */
export const TRANSFER_MAX_ALLOCATIONS = 50;
export const INVOICE_MAX_ITEMS = 500;

const id = z.number().int().positive();
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const bankReference = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/);

export const transferAllocationDto = z.object({
  id: z.number(),
  targetKind: z.enum(transferTargetKinds),
  chargeUserId: z.number().nullable(),
  account: z.string().nullable(),
  cardId: z.number().nullable(),
  cardNumber: z.string().nullable(),
  amountCents: z.number(),
  /** The ledger row of the credit, once confirmed. */
  ledgerId: z.number().nullable(),
  balanceBeforeCents: z.number().nullable(),
  balanceAfterCents: z.number().nullable(),
});
export type TransferAllocationDto = z.infer<typeof transferAllocationDto>;

export const transferDto = z.object({
  id: z.number(),
  providerId: z.number(),
  providerName: z.string(),
  payerName: z.string(),
  payerAccount: z.string(),
  payerBank: z.string(),
  amountCents: z.number(),
  transferDate: z.string(),
  bankReference: z.string(),
  /** The receipt (image or PDF) as uploaded: its stored file name, and a link to it. */
  receiptFile: z.string().nullable(),
  receiptUrl: z.string().nullable(),
  remark: z.string().nullable(),
  state: z.enum(transferStates),
  rejectReason: z.string().nullable(),
  allocations: z.array(transferAllocationDto),
  /** "account or card number amount" of every allocation, for the table and the export. */
  summary: z.string(),
  registrarName: z.string().nullable(),
  deciderName: z.string().nullable(),
  decideTime: z.string().nullable(),
  createTime: z.string(),
});
export type TransferDto = z.infer<typeof transferDto>;

export const transferAllocationInput = z
  .object({ chargeUserId: id.optional(), cardId: id.optional(), amountCents: z.number().int().min(1).max(TRANSFER_MAX_CENTS) })
  .refine((a) => (a.chargeUserId === undefined) !== (a.cardId === undefined), {
    message: 'validation.transferTarget',
    path: ['chargeUserId'],
  });

export const transferCreate = z
  .object({
    providerId: id,
    payerName: z.string().trim().min(1).max(100),
    payerAccount: z.string().trim().min(1).max(64),
    payerBank: z.string().trim().min(1).max(100),
    amountCents: z.number().int().min(1).max(TRANSFER_MAX_CENTS),
    transferDate: day,
    bankReference,
    receiptFile: optText(255),
    remark: optText(500),
    allocations: z.array(transferAllocationInput).min(1).max(TRANSFER_MAX_ALLOCATIONS),
  })
  .refine(
    (b) => {
      const keys = b.allocations.map((a) => (a.cardId ? `c${a.cardId}` : `u${a.chargeUserId}`));
      return new Set(keys).size === keys.length;
    },
    { message: 'validation.transferTargetTwice', path: ['allocations'] },
  );

export const transferReject = z.object({ id, reason: z.string().trim().min(1).max(500) });

export const transferFilter = z.object({
  payerName: optText(100),
  bankReference: optText(64),
  state: z.enum(transferStates).optional(),
  /** Transfer dates from and to (days). */
  startTime: dayFilter,
  endTime: dayFilter,
  providerId: z.coerce.number().int().positive().optional(),
  /** The transfer a ledger row came from (opened from the recharge records). */
  id: z.coerce.number().int().positive().optional(),
});

export const invoiceItemDto = z.object({
  kind: z.enum(invoiceItemKinds),
  /** The charging record's transaction id, or the ledger row's id. */
  refId: z.number(),
  amountCents: z.number(),
  time: z.string(),
});
export type InvoiceItemDto = z.infer<typeof invoiceItemDto>;

const invoiceInfo = {
  principalType: z.enum(invoicePrincipalTypes),
  name: z.string().trim().min(1).max(100),
  taxNumber: optText(32),
  recipientName: z.string().trim().min(1).max(50),
  mobile: phoneNumber,
  email: z.email().max(100),
  address: optText(255),
};

export const invoiceDto = z.object({
  id: z.number(),
  providerId: z.number(),
  providerName: z.string(),
  chargeUserId: z.number(),
  /** The receiver (spec §3): the charge user's account. */
  account: z.string(),
  amountCents: z.number(),
  items: z.array(invoiceItemDto),
  principalType: z.enum(invoicePrincipalTypes),
  name: z.string(),
  taxNumber: z.string().nullable(),
  recipientName: z.string(),
  mobile: z.string(),
  email: z.string(),
  address: z.string().nullable(),
  notifyType: z.enum(invoiceNotifyTypes),
  remark: z.string().nullable(),
  status: z.enum(invoiceStatuses),
  rejectReason: z.string().nullable(),
  /** The issued invoice (PDF): stored file name and link. */
  fileName: z.string().nullable(),
  fileUrl: z.string().nullable(),
  applyTime: z.string(),
  /** When the user was told (the mail server or the SMS webhook accepted the notice); null while not told. */
  noticeTime: z.string().nullable(),
  finishTime: z.string().nullable(),
  operatorName: z.string().nullable(),
});
export type InvoiceDto = z.infer<typeof invoiceDto>;

export const invoiceCreate = z
  .object({
    chargeUserId: id,
    chargeRecordIds: z.array(id).max(INVOICE_MAX_ITEMS).default([]),
    rechargeIds: z.array(id).max(INVOICE_MAX_ITEMS).default([]),
    ...invoiceInfo,
    notifyType: z.enum(invoiceNotifyTypes),
    remark: optText(500),
  })
  .refine((b) => b.chargeRecordIds.length + b.rechargeIds.length > 0, { message: 'validation.invoiceNoItems', path: ['chargeRecordIds'] });

export const invoiceIssue = z.object({ id, fileName: z.string().trim().min(1).max(255) });
export const invoiceReject = z.object({ id, reason: z.string().trim().min(1).max(500) });

export const invoiceFilter = z.object({
  account: optText(64),
  name: optText(100),
  status: z.enum(invoiceStatuses).optional(),
  notifyType: z.enum(invoiceNotifyTypes).optional(),
  startTime: dayFilter,
  endTime: dayFilter,
  providerId: z.coerce.number().int().positive().optional(),
  chargeUserId: z.coerce.number().int().positive().optional(),
  /** One invoice (opened from the recharge records). */
  id: z.coerce.number().int().positive().optional(),
});

/** What a charge user may still be invoiced for: paid and in no live invoice. */
export const billableDto = z.object({ kind: z.enum(invoiceItemKinds), refId: z.number(), amountCents: z.number(), time: z.string() });

const t = crud('corporateTransfer', 'finance:transfer');
const r = crud('transferRecord', 'finance:transferRecord');
const i = crud('invoice', 'finance:invoice');

/** Corporate transfers: register and confirm are separate permissions (four eyes). */
export const corporateTransferApi = {
  list: t.list(transferFilter, transferDto),
  get: t.get(transferDto),
  add: t.add(transferCreate, transferDto, {
    path: 'register',
    access: t.permi('register'),
    operation: 'register',
    summary: 'Register an incoming bank transfer and how it is split; the allocations must add up to the amount, to the cent',
  }),
  confirm: t.action('confirm', z.object({ id }), transferDto, {
    summary:
      'Confirm a registered transfer (by another user than its registrar): every allocation is credited through the ledger in one transaction',
  }),
  reject: t.action('reject', transferReject, transferDto, { summary: 'Reject a registered transfer, with a reason' }),
  export: t.export(transferFilter),
};

/** Transfer records (hidden route): every transfer with its allocations and their ledger rows. */
export const transferRecordApi = {
  list: r.list(transferFilter, transferDto),
  export: r.export(transferFilter, { summary: 'One row per allocation, with its ledger row' }),
};

/** Invoices (`invoiceRecordManage`). */
export const invoiceApi = {
  list: i.list(invoiceFilter, invoiceDto),
  get: i.get(invoiceDto),
  add: i.add(invoiceCreate, invoiceDto, {
    path: 'apply',
    access: i.permi('apply'),
    operation: 'apply',
    summary: "Request an invoice for a charge user's paid charging records and recharges; the amount is their sum",
  }),
  issue: i.action('issue', invoiceIssue, invoiceDto, {
    summary: 'Issue with the uploaded PDF; the user is notified (mail with the PDF attached, or SMS through the SMS webhook)',
  }),
  reject: i.action('reject', invoiceReject, invoiceDto, { summary: 'Reject with a reason; the covered records are free again' }),
  billable: endpoint({
    method: 'GET',
    path: i.path('billable'),
    access: i.permi('apply'),
    resource: 'invoice',
    query: z.object({ chargeUserId: z.coerce.number().int().positive() }),
    data: z.array(billableDto),
    summary: "A charge user's paid charging records and recharges that no live invoice covers (newest 500)",
  }),
  export: i.export(invoiceFilter),
};

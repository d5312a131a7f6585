import { z } from 'zod';
import { crud, optText, dayFilter } from '../endpoint.js';

export const tradeTypes = ['recharge', 'refund', 'charge', 'transfer', 'adjustment', 'bonus'] as const;
export type TradeType = (typeof tradeTypes)[number];
export const accountKinds = ['card', 'mobile'] as const;
/** Where a ledger row came from; others may appear (the ledger takes any source name). */
export const ledgerSources = ['console', 'ocpp', 'app', 'import', 'demo', 'transfer', 'activity'] as const;

/** One ledger row (DESIGN.md §3): signed amount, balance before and after, operator and source. */
export const ledgerRow = z.object({
  id: z.number(),
  tradeType: z.enum(tradeTypes),
  accountKind: z.enum(accountKinds),
  cardId: z.number().nullable(),
  cardNumber: z.string().nullable(),
  chargeUserId: z.number().nullable(),
  /** The charge user: the card's owner, or the mobile account's user. */
  account: z.string().nullable(),
  amountCents: z.number(),
  balanceBeforeCents: z.number(),
  balanceAfterCents: z.number(),
  operatorName: z.string().nullable(),
  source: z.string(),
  thirdPartyTxnId: z.string().nullable(),
  transactionRef: z.string().nullable(),
  /** A session's charge: the member, activity and voucher discounts its bill carried (cents, ≤ 0; issue 19). */
  discountCents: z.number().nullable(),
  providerId: z.number(),
  providerName: z.string(),
  /** The corporate transfer a `transfer` row credited, and the live invoice covering the row (issue 18). */
  transferId: z.number().nullable(),
  invoiceId: z.number().nullable(),
  createTime: z.string(),
});
export type LedgerRow = z.infer<typeof ledgerRow>;

/** Without a trade type the screen lists recharges, their bonuses (issue 19) and refunds; charges and transfers when asked for. */
export const rechargeRecordFilter = z.object({
  startTime: dayFilter,
  endTime: dayFilter,
  account: optText(64),
  cardNumber: optText(64),
  tradeType: z.enum(tradeTypes).optional(),
  accountKind: z.enum(accountKinds).optional(),
  thirdPartyTxnId: optText(128),
  providerId: z.coerce.number().int().positive().optional(),
});

const c = crud('rechargeRecord', 'finance:recharge');

/** Recharge records (finance): the ledger's rows, read-only. */
export const rechargeRecordApi = {
  list: c.list(rechargeRecordFilter, ledgerRow),
  get: c.get(ledgerRow),
  export: c.export(rechargeRecordFilter),
};

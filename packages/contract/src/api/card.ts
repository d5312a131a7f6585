import { z } from 'zod';
import { crud, endpoint, idBody, optText } from '../endpoint.js';
import { idToken } from './id-token.js';
import { MAX_AMOUNT_CENTS, moneyMove } from './charge-user.js';
import { ledgerRow } from './recharge-record.js';

/** Spec §4: a card is valid, lost or expired. */
export const cardStates = ['valid', 'lost', 'expired'] as const;
export type CardState = (typeof cardStates)[number];

export const cardDto = z.object({
  id: z.number(),
  cardNumber: z.string(),
  physicalId: z.string(),
  providerId: z.number(),
  providerName: z.string(),
  chargeUserId: z.number().nullable(),
  account: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  balanceCents: z.number(),
  expireTime: z.string(),
  /** What the card is now: lost, expired (marked, or past its expiry) or valid. */
  state: z.enum(cardStates),
  /** Why an expired card is expired: marked by an operator, or by its date. */
  expiredBy: z.enum(['operator', 'date']).nullable(),
  /** A master pass (OCPP 2.0.1 C16): stops any session at its provider's chargers, starts none. */
  masterPass: z.boolean(),
  createTime: z.string(),
});
export type CardDto = z.infer<typeof cardDto>;

/** The detail view: the card with its latest ledger rows, newest first. */
export const cardDetail = cardDto.extend({ ledger: z.array(ledgerRow) });
export const CARD_DETAIL_LEDGER_ROWS = 50;

/** An instant from a form or a client, ISO 8601 with a zone ("…Z" or "+08:00"). */
const instant = z.iso.datetime({ offset: true });

/**
 * The charger's idTag: an OCPP IdToken as issued (a contract id such as `NL-TNM-C12345678-X`, an
 * app token, or the upper-case hex UID the card reader reports); unique without regard to case.
 */
export const physicalId = idToken;

export const cardCreate = z.object({
  cardNumber: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[\p{L}\p{N}_-]+$/u),
  physicalId,
  providerId: z.number().int().positive(),
  chargeUserId: z.number().int().positive().nullable().optional(),
  expireTime: instant.refine((s) => Date.parse(s) > Date.now(), { message: 'validation.futureTime' }),
  /** Paid when the card is issued: the first ledger row (none when 0). */
  prepaidCents: z.number().int().min(0).max(MAX_AMOUNT_CENTS),
  email: z.email().max(100),
  masterPass: z.boolean().optional(),
  thirdPartyTxnId: optText(128),
});

/** Card number, physical id and provider are fixed once issued (the ledger and chargers refer to them). */
export const cardEdit = z.object({
  id: z.number().int().positive(),
  chargeUserId: z.number().int().positive().nullable().optional(),
  expireTime: instant,
  email: z.email().max(100),
  masterPass: z.boolean().optional(),
});

export const cardFilter = z.object({
  cardNumber: optText(64),
  physicalId: optText(20),
  account: optText(64),
  state: z.enum(cardStates).optional(),
  providerId: z.coerce.number().int().positive().optional(),
  chargeUserId: z.coerce.number().int().positive().optional(),
});

/** A card for selects: its number, its holder's account and what it is now. */
export const cardOption = z.object({
  id: z.number(),
  cardNumber: z.string(),
  account: z.string().nullable(),
  state: z.enum(cardStates),
  providerId: z.number(),
});
export type CardOption = z.infer<typeof cardOption>;

const resource = 'card';
const c = crud(resource, 'user:card');
const stateChange = (action: string, operation: string, summary: string) =>
  c.action(action, idBody, cardDto, { access: c.permi(operation), operation, summary });

/** RFID cards: `/web/card/{action}` (DESIGN.md §4); every balance change is a ledger row. */
export const cardApi = {
  list: c.list(cardFilter, cardDto),
  get: c.get(cardDetail),
  add: c.add(cardCreate, cardDto, { operation: 'issue', summary: 'Issue a card; a prepaid amount becomes its first recharge' }),
  edit: c.edit(cardEdit, cardDto),
  reportLoss: stateChange('reportLoss', 'lost', 'Report a valid card lost'),
  cancelLoss: stateChange('cancelLoss', 'cancelLoss', 'Cancel the loss of a lost card'),
  expire: stateChange('expire', 'expire', 'Mark a card expired (stays expired whatever its expiry date)'),
  recharge: c.action('recharge', moneyMove, cardDto),
  refund: c.action('refund', moneyMove, cardDto, {
    summary: 'Refund: the amount is entered positive and stored negative; at most the balance',
  }),
  export: c.export(cardFilter),
  options: endpoint({
    method: 'GET',
    path: c.path('options'),
    // Card numbers for those who list cards or credit one (a corporate transfer's allocation).
    access: { anyPermi: ['user:card:list', 'user:card:query', 'finance:transfer:register'] },
    resource,
    query: z.object({ keyword: optText(64), providerId: z.coerce.number().int().positive().optional() }),
    data: z.array(cardOption),
    summary: 'At most 50 cards the caller can see whose card number contains the keyword, for selects',
  }),
};

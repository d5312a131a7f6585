import { z } from 'zod';
import { crud, dayFilter, endpoint, optEmail, optText, phoneNumber } from '../endpoint.js';

export const chargeUserTypes = ['card', 'phone', 'platform'] as const;
export type ChargeUserType = (typeof chargeUserTypes)[number];

/** Most cents one recharge or refund may move (1,000,000.00): a typo guard, not a business rule. */
export const MAX_AMOUNT_CENTS = 100_000_000;

export const chargeUserDto = z.object({
  id: z.number(),
  account: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  userType: z.enum(chargeUserTypes),
  /** 1 enabled, 0 disabled. */
  status: z.number(),
  groupId: z.number().nullable(),
  groupName: z.string().nullable(),
  memberLevel: z.number(),
  /** The membership level in force now (issue 19): an override while it lasts, else the computed one. */
  memberLevelName: z.string().nullable(),
  providerId: z.number(),
  providerName: z.string(),
  cardCount: z.number(),
  /** Sum of the user's cards' balances (derived; each card keeps its own). */
  cardBalanceCents: z.number(),
  /** Pays app and platform starts; changes only through the ledger. */
  mobileBalanceCents: z.number(),
  registerTime: z.string(),
});
export type ChargeUserDto = z.infer<typeof chargeUserDto>;

/**
 * The account is the parent id tag every card of the user shares on the wire (OCPP IdToken,
 * at most 20 characters), and unique across the system regardless of case.
 */
export const chargeAccount = z
  .string()
  .trim()
  .min(1)
  .max(20)
  .regex(/^[\p{L}\p{N}_.@+-]+$/u);

const status = z.union([z.literal(0), z.literal(1)]);
const userType = z.enum(chargeUserTypes);
const groupRef = z.number().int().positive().nullable().optional();

/** A phone account needs its phone number. */
const phoneForPhoneUsers = (b: { userType?: ChargeUserType | undefined; phone?: string | undefined }) =>
  b.userType !== 'phone' || Boolean(b.phone);

const userFields = {
  phone: z.union([z.literal(''), phoneNumber]).optional(),
  email: optEmail,
  userType,
  groupId: groupRef,
  memberLevel: z.number().int().min(0).max(99).optional(),
};

export const chargeUserCreate = z
  .object({ account: chargeAccount, providerId: z.number().int().positive(), ...userFields, status: status.optional() })
  .refine(phoneForPhoneUsers, { message: 'validation.required', path: ['phone'] });

/** The provider of a charge user is fixed: its cards and ledger rows belong to it. */
export const chargeUserEdit = z
  .object({ id: z.number().int().positive(), account: chargeAccount, ...userFields })
  .refine(phoneForPhoneUsers, { message: 'validation.required', path: ['phone'] });

export const chargeUserFilter = z.object({
  /** Registered in [startTime, endTime] (days of CSMS_TIME_ZONE, or instants): the dashboard's new members drill into it. */
  startTime: dayFilter,
  endTime: dayFilter,
  account: optText(64),
  phone: optText(30),
  email: optText(100),
  userType: z.enum(chargeUserTypes).optional(),
  status: z.coerce.number().pipe(status).optional(),
  providerId: z.coerce.number().int().positive().optional(),
  groupId: z.coerce.number().int().positive().optional(),
});

/** A recharge or refund as the operator types it: a positive amount (a refund is stored negative). */
export const moneyMove = z.object({
  id: z.number().int().positive(),
  amountCents: z.number().int().min(1).max(MAX_AMOUNT_CENTS),
  thirdPartyTxnId: optText(128),
  /**
   * The console's id of this request, the same when it is sent again (a retry after an answer that never
   * came): a recharge or refund already made with it is answered again, not made twice.
   */
  requestId: z.uuid().optional(),
});

export const chargeUserOption = z.object({ id: z.number(), account: z.string(), phone: z.string().nullable(), providerId: z.number() });

const resource = 'chargeUser';
const c = crud(resource, 'user:chargeUser');

/** Charge users (drivers): `/web/chargeUser/{action}` (DESIGN.md §4). */
export const chargeUserApi = {
  list: c.list(chargeUserFilter, chargeUserDto),
  get: c.get(chargeUserDto),
  add: c.add(chargeUserCreate, chargeUserDto),
  edit: c.edit(chargeUserEdit, chargeUserDto),
  status: c.action('status', z.object({ id: z.number().int().positive(), status }), chargeUserDto),
  remove: c.remove(),
  recharge: c.action('recharge', moneyMove, chargeUserDto, { summary: "Recharge the user's mobile account (a ledger row)" }),
  refund: c.action('refund', moneyMove, chargeUserDto, {
    summary: "Refund from the user's mobile account: the amount is entered positive and stored negative; at most the balance",
  }),
  export: c.export(chargeUserFilter),
  options: endpoint({
    method: 'GET',
    path: c.path('options'),
    // Accounts and phones of drivers: for those who list them or pick an owner (card, car, group member).
    access: {
      anyPermi: [
        'user:chargeUser:list',
        'user:chargeUser:query',
        'user:card:add',
        'user:card:edit',
        'config:car:add',
        'config:car:edit',
        'user:group:members',
        'smart:timedCharge:add',
        'smart:timedCharge:edit',
        'smart:reservation:add',
        'finance:transfer:register',
        'finance:invoice:apply',
      ],
    },
    resource,
    query: z.object({ keyword: optText(64), providerId: z.coerce.number().int().positive().optional() }),
    data: z.array(chargeUserOption),
    summary: 'At most 50 charge users the caller can see whose account or phone contains the keyword, for selects',
  }),
  newMembers: endpoint({
    method: 'GET',
    path: c.path('newMembers'),
    access: c.permi('list'),
    resource,
    query: z.object({ tz: optText(64) }),
    data: z.object({ today: z.number(), month: z.number() }),
    summary: 'Charge users registered today and this month in the time zone `tz` (IANA; default UTC), in the caller’s scope',
  }),
};

import { z } from 'zod';
import { crud, endpoint, optText, optionsWindow } from '../endpoint.js';

/**
 * Operations (issue 19; spec §2 `/operateManagement` membershipManage; §3 charge user's member level;
 * DESIGN.md §10 "Money").
 *
 * Membership levels per provider: a charge user holds the highest level whose threshold (settled spend
 * in cents, or energy in Wh, over the rolling 12 months) he meets; it is recomputed when one of his
 * sessions settles and every night, and a reached level is kept for its validity in days before it
 * may fall. An operator may override a user's level with a reason until a date. The level's discount
 * (percent of the service fee) is a bill line of its own at settlement.
 */
export const memberBases = ['spend', 'energy'] as const;
export type MemberBasis = (typeof memberBases)[number];

/** Threshold limits: 10 million currency units, or 10 GWh. */
export const MEMBER_MAX_THRESHOLD = 1_000_000_000;

export const memberLevelDto = z.object({
  id: z.number(),
  providerId: z.number(),
  providerName: z.string(),
  name: z.string(),
  sortOrder: z.number(),
  basis: z.enum(memberBases),
  /** Cents for `spend`, Wh for `energy`. */
  threshold: z.number(),
  discountPercent: z.number(),
  validityDays: z.number(),
  /** Charge users holding it now (computed or overridden). */
  memberCount: z.number(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type MemberLevelDto = z.infer<typeof memberLevelDto>;

const levelFields = {
  name: z.string().trim().min(1).max(50),
  sortOrder: z.number().int().min(1).max(99),
  basis: z.enum(memberBases),
  threshold: z.number().int().min(0).max(MEMBER_MAX_THRESHOLD),
  discountPercent: z.number().int().min(0).max(100),
  validityDays: z.number().int().min(1).max(3650),
};
export const memberLevelCreate = z.object({ ...levelFields, providerId: z.number().int().positive() });
export const memberLevelEdit = z.object({ id: z.number().int().positive(), ...levelFields });
export const memberLevelFilter = z.object({
  name: optText(50),
  providerId: z.coerce.number().int().positive().optional(),
});

/** A charge user's membership as the members list shows it. */
export const memberDto = z.object({
  /** The charge user's id. */
  id: z.number(),
  account: z.string(),
  phone: z.string().nullable(),
  providerId: z.number(),
  providerName: z.string(),
  /** The level in force now: the override while it lasts, else the computed one. */
  levelId: z.number().nullable(),
  levelName: z.string().nullable(),
  computedLevelName: z.string().nullable(),
  validUntil: z.string().nullable(),
  spendCents: z.number(),
  energyWh: z.number(),
  computeTime: z.string().nullable(),
  overrideLevelName: z.string().nullable(),
  overrideReason: z.string().nullable(),
  overrideUntil: z.string().nullable(),
});
export type MemberDto = z.infer<typeof memberDto>;

export const memberFilter = z.object({
  account: optText(64),
  levelId: z.coerce.number().int().positive().optional(),
  providerId: z.coerce.number().int().positive().optional(),
});

/** An operator's override: a level of the user's provider, why, and until when (a future day). */
export const memberOverride = z.object({
  id: z.number().int().positive(),
  overrideLevelId: z.number().int().positive(),
  overrideReason: z.string().trim().min(1).max(200),
  overrideUntil: z.coerce.date(),
});

export const memberLevelOption = z.object({ id: z.number(), name: z.string(), sortOrder: z.number() });

const lv = crud('memberLevel', 'operate:memberLevel', '/web/memberLevel');
const mb = crud('member', 'operate:member', '/web/member');

export const memberLevelApi = {
  list: lv.list(memberLevelFilter, memberLevelDto),
  get: lv.get(memberLevelDto),
  add: lv.add(memberLevelCreate, memberLevelDto),
  edit: lv.edit(memberLevelEdit, memberLevelDto),
  remove: lv.remove(),
  export: lv.export(memberLevelFilter),
  options: endpoint({
    method: 'GET',
    path: lv.path('options'),
    access: { anyPermi: ['operate:memberLevel:list', 'operate:member:override'] },
    resource: 'memberLevel',
    query: z.object({ providerId: z.coerce.number().int().positive().optional(), text: optText(50), ...optionsWindow }),
    data: z.array(memberLevelOption),
    summary: "A provider's levels by name (the override dialog's picker)",
  }),
};

export const memberApi = {
  list: mb.list(memberFilter, memberDto),
  get: mb.get(memberDto),
  override: mb.action('override', memberOverride, memberDto, {
    summary: "Sets a user's level until a date, with a reason; the computed level returns after it",
  }),
  clearOverride: mb.action('clearOverride', z.object({ id: z.number().int().positive() }), memberDto, {
    access: mb.permi('override'),
    summary: 'Ends an override now',
  }),
  recompute: mb.action('recompute', z.object({ providerId: z.number().int().positive().optional() }), z.object({ users: z.number() }), {
    summary: "Recomputes the levels of the caller's providers now (as the nightly job does)",
  }),
  export: mb.export(memberFilter),
};

/**
 * Vouchers (issue 19 item 3): templates (amount or percent off the service fee, a minimum bill,
 * stations, validity in days from issue or between fixed dates) and vouchers issued from them to
 * users by hand, to a whole user group, or by an activity. Statuses unused, used, expired (an unused
 * one past its end, evaluated when read) and revoked. At settlement the best applicable voucher is
 * used, at most once.
 */
export const voucherKinds = ['amount', 'percent'] as const;
export type VoucherKind = (typeof voucherKinds)[number];
export const voucherStatuses = ['unused', 'used', 'expired', 'revoked'] as const;
export type VoucherStatus = (typeof voucherStatuses)[number];
/** Most vouchers one issue creates (a group's members, or the users chosen). */
export const VOUCHER_MAX_ISSUE = 10_000;

export const voucherTemplateDto = z.object({
  id: z.number(),
  providerId: z.number(),
  providerName: z.string(),
  name: z.string(),
  kind: z.enum(voucherKinds),
  /** Cents off (`amount`) or percent off (`percent`). */
  value: z.number(),
  minBillCents: z.number(),
  /** Empty: every station of the provider. */
  stationIds: z.array(z.number()),
  validDays: z.number().nullable(),
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
  issuedCount: z.number(),
  usedCount: z.number(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type VoucherTemplateDto = z.infer<typeof voucherTemplateDto>;

const templateFields = {
  name: z.string().trim().min(1).max(50),
  kind: z.enum(voucherKinds),
  value: z.number().int().min(1).max(100_000_000),
  minBillCents: z.number().int().min(0).max(100_000_000),
  stationIds: z.array(z.number().int().positive()).max(500).default([]),
  validDays: z.number().int().min(1).max(3650).nullable().optional(),
  validFrom: z.coerce.date().nullable().optional(),
  validTo: z.coerce.date().nullable().optional(),
};
type TemplateShape = { kind: VoucherKind; value: number; validDays?: number | null; validFrom?: Date | null; validTo?: Date | null };
/** A percent is at most 100; validity is days, or both fixed dates in order. */
const templateRules = <T extends z.ZodType<TemplateShape>>(s: T) =>
  s
    .refine((b) => b.kind !== 'percent' || b.value <= 100, { message: 'validation.voucherPercent', path: ['value'] })
    .refine((b) => (b.validDays ?? null) !== null || (b.validFrom && b.validTo), {
      message: 'validation.voucherValidity',
      path: ['validDays'],
    })
    .refine((b) => !b.validFrom || !b.validTo || b.validFrom < b.validTo, { message: 'validation.voucherDates', path: ['validTo'] });
export const voucherTemplateCreate = templateRules(z.object({ ...templateFields, providerId: z.number().int().positive() }));
export const voucherTemplateEdit = templateRules(z.object({ id: z.number().int().positive(), ...templateFields }));
export const voucherTemplateFilter = z.object({
  name: optText(50),
  providerId: z.coerce.number().int().positive().optional(),
});

export const voucherDto = z.object({
  id: z.number(),
  providerId: z.number(),
  providerName: z.string(),
  templateId: z.number(),
  name: z.string(),
  kind: z.enum(voucherKinds),
  value: z.number(),
  minBillCents: z.number(),
  chargeUserId: z.number(),
  account: z.string(),
  status: z.enum(voucherStatuses),
  validFrom: z.string(),
  validUntil: z.string(),
  issuedByName: z.string().nullable(),
  activityId: z.number().nullable(),
  /** The session it was chosen for, if any (issue 19 item 4). */
  chosenFor: z.number().nullable(),
  usedTime: z.string().nullable(),
  transactionId: z.number().nullable(),
  discountCents: z.number().nullable(),
  revokeReason: z.string().nullable(),
  createTime: z.string(),
});
export type VoucherDto = z.infer<typeof voucherDto>;

export const voucherFilter = z.object({
  account: optText(64),
  status: z.enum(voucherStatuses).optional(),
  templateId: z.coerce.number().int().positive().optional(),
  transactionId: z.coerce.number().int().positive().optional(),
  providerId: z.coerce.number().int().positive().optional(),
});

/** Issue by hand to chosen users, or in bulk to every member of a user group. */
export const voucherIssue = z
  .object({
    templateId: z.number().int().positive(),
    chargeUserIds: z.array(z.number().int().positive()).max(VOUCHER_MAX_ISSUE).optional(),
    groupId: z.number().int().positive().nullable().optional(),
  })
  .refine((b) => (b.chargeUserIds?.length ?? 0) > 0 || b.groupId, { message: 'validation.required', path: ['chargeUserIds'] });

/**
 * The voucher a session is to use (issue 19 item 4), chosen before it is settled: one of its payer's
 * unused vouchers, or none (`voucherId` null) to let settlement pick the best one again.
 */
export const voucherChoose = z.object({
  transactionId: z.number().int().positive(),
  voucherId: z.number().int().positive().nullable(),
});
export const voucherChoice = z.object({ transactionId: z.number(), voucherId: z.number().nullable() });

export const voucherRevoke = z.object({ id: z.number().int().positive(), revokeReason: z.string().trim().min(1).max(200) });

export const voucherTemplateOption = z.object({ id: z.number(), name: z.string(), providerId: z.number() });

const vt = crud('voucherTemplate', 'operate:voucherTemplate', '/web/voucherTemplate');
const vc = crud('voucher', 'operate:voucher', '/web/voucher');

export const voucherTemplateApi = {
  list: vt.list(voucherTemplateFilter, voucherTemplateDto),
  get: vt.get(voucherTemplateDto),
  add: vt.add(voucherTemplateCreate, voucherTemplateDto),
  edit: vt.edit(voucherTemplateEdit, voucherTemplateDto, {
    summary: 'Changes the terms of vouchers issued from now on; issued ones keep theirs',
  }),
  remove: vt.remove(),
  export: vt.export(voucherTemplateFilter),
  options: endpoint({
    method: 'GET',
    path: vt.path('options'),
    access: { anyPermi: ['operate:voucherTemplate:list', 'operate:voucher:issue', 'operate:activity:add', 'operate:activity:edit'] },
    resource: 'voucherTemplate',
    query: z.object({ text: optText(50), ...optionsWindow }),
    data: z.array(voucherTemplateOption),
    summary: 'Templates by name (the issue dialog’s and a voucher-grant activity’s picker)',
  }),
};

export const voucherApi = {
  list: vc.list(voucherFilter, voucherDto),
  get: vc.get(voucherDto),
  issue: vc.add(voucherIssue, z.object({ issued: z.number() }), {
    path: 'issue',
    access: vc.permi('issue'),
    operation: 'issueVoucher',
    summary: 'Issues one voucher of the template to each chosen user, or to each member of a group (of the template’s provider)',
  }),
  revoke: vc.action('revoke', voucherRevoke, voucherDto, {
    operation: 'revokeVoucher',
    summary: 'Revokes an unused voucher, with a reason',
  }),
  choose: vc.action('choose', voucherChoose, voucherChoice, {
    operation: 'chooseVoucher',
    summary:
      "Chooses the voucher an unsettled session uses (one of its payer's unused ones), or none for the best; settlement uses the chosen one when it applies, else the best",
  }),
  export: vc.export(voucherFilter),
};

/**
 * Activities (issue 19 item 2): a period, user groups (none: everyone) and one of three types:
 * - `serviceDiscount`: at stations (none: all), percent or fixed per kWh off the service fee,
 *   optionally only in chosen local hours (the energy charged in them);
 * - `rechargeBonus`: a recharge of at least `minRechargeCents` credits `bonusCents` through the
 *   ledger as a row of its own (trade type `bonus`), once per recharge;
 * - `voucherGrant`: one voucher of `templateId` to each user registered while it is active
 *   (`grantTo` `newUsers`), or to each member of its groups at its start (`groups`), once per user.
 * Draft → active → ended; a draft is edited freely, an active one only ended early.
 */
export const activityTypes = ['serviceDiscount', 'rechargeBonus', 'voucherGrant'] as const;
export type ActivityType = (typeof activityTypes)[number];
export const activityStatuses = ['draft', 'active', 'ended'] as const;
export type ActivityStatus = (typeof activityStatuses)[number];
export const activityDiscountKinds = ['percent', 'perKwh'] as const;
export type ActivityDiscountKind = (typeof activityDiscountKinds)[number];
export const grantTargets = ['newUsers', 'groups'] as const;
export type GrantTarget = (typeof grantTargets)[number];
/** The largest recharge threshold and bonus: 1 million currency units. */
export const ACTIVITY_MAX_CENTS = 100_000_000;

export const activityDto = z.object({
  id: z.number(),
  providerId: z.number(),
  providerName: z.string(),
  name: z.string(),
  type: z.enum(activityTypes),
  status: z.enum(activityStatuses),
  startTime: z.string(),
  endTime: z.string(),
  stationIds: z.array(z.number()),
  groupIds: z.array(z.number()),
  discountKind: z.enum(activityDiscountKinds).nullable(),
  /** Percent, or 1/10,000 of the currency per kWh. */
  discountValue: z.number().nullable(),
  hours: z.array(z.number()),
  minRechargeCents: z.number().nullable(),
  bonusCents: z.number().nullable(),
  templateId: z.number().nullable(),
  templateName: z.string().nullable(),
  grantTo: z.enum(grantTargets).nullable(),
  activatedTime: z.string().nullable(),
  endedTime: z.string().nullable(),
  /** Sessions it discounted, recharges it gave a bonus or vouchers it granted. */
  sessionCount: z.number(),
  /** Service-fee discounts given (cents, ≤ 0), or bonuses credited (cents, ≥ 0). */
  discountCents: z.number(),
  createTime: z.string(),
});
export type ActivityDto = z.infer<typeof activityDto>;

const activityFields = {
  name: z.string().trim().min(1).max(50),
  type: z.enum(activityTypes),
  startTime: z.coerce.date(),
  endTime: z.coerce.date(),
  stationIds: z.array(z.number().int().positive()).max(500).default([]),
  groupIds: z.array(z.number().int().positive()).max(500).default([]),
  discountKind: z.enum(activityDiscountKinds).nullable().optional(),
  discountValue: z.number().int().min(1).max(100_000_000).nullable().optional(),
  hours: z.array(z.number().int().min(0).max(23)).max(24).default([]),
  minRechargeCents: z.number().int().min(1).max(ACTIVITY_MAX_CENTS).nullable().optional(),
  bonusCents: z.number().int().min(1).max(ACTIVITY_MAX_CENTS).nullable().optional(),
  templateId: z.number().int().positive().nullable().optional(),
  grantTo: z.enum(grantTargets).nullable().optional(),
};
type ActivityShape = {
  type: ActivityType;
  startTime: Date;
  endTime: Date;
  groupIds: number[];
  discountKind?: ActivityDiscountKind | null | undefined;
  discountValue?: number | null | undefined;
  minRechargeCents?: number | null | undefined;
  bonusCents?: number | null | undefined;
  templateId?: number | null | undefined;
  grantTo?: GrantTarget | null | undefined;
};
const given = (v: unknown) => v !== null && v !== undefined;
/** Each type's own terms are required (naming the missing field). */
const activityRules = <T extends z.ZodType<ActivityShape>>(s: T) =>
  s
    .refine((b) => b.startTime < b.endTime, { message: 'validation.activityPeriod', path: ['endTime'] })
    .refine((b) => b.type !== 'serviceDiscount' || given(b.discountKind), { message: 'validation.required', path: ['discountKind'] })
    .refine((b) => b.type !== 'serviceDiscount' || given(b.discountValue), { message: 'validation.required', path: ['discountValue'] })
    .refine((b) => b.discountKind !== 'percent' || (b.discountValue ?? 0) <= 100, {
      message: 'validation.voucherPercent',
      path: ['discountValue'],
    })
    .refine((b) => b.type !== 'rechargeBonus' || given(b.minRechargeCents), { message: 'validation.required', path: ['minRechargeCents'] })
    .refine((b) => b.type !== 'rechargeBonus' || given(b.bonusCents), { message: 'validation.required', path: ['bonusCents'] })
    .refine((b) => b.type !== 'voucherGrant' || given(b.templateId), { message: 'validation.required', path: ['templateId'] })
    .refine((b) => b.type !== 'voucherGrant' || given(b.grantTo), { message: 'validation.required', path: ['grantTo'] })
    .refine((b) => b.type !== 'voucherGrant' || b.grantTo !== 'groups' || b.groupIds.length > 0, {
      message: 'validation.required',
      path: ['groupIds'],
    });
export const activityCreate = activityRules(z.object({ ...activityFields, providerId: z.number().int().positive() }));
export const activityEdit = activityRules(z.object({ id: z.number().int().positive(), ...activityFields }));
export const activityFilter = z.object({
  name: optText(50),
  status: z.enum(activityStatuses).optional(),
  providerId: z.coerce.number().int().positive().optional(),
});

const ac = crud('activity', 'operate:activity', '/web/activity');
const byId = z.object({ id: z.number().int().positive() });

export const activityApi = {
  list: ac.list(activityFilter, activityDto),
  get: ac.get(activityDto),
  add: ac.add(activityCreate, activityDto),
  edit: ac.edit(activityEdit, activityDto, { summary: 'Changes a draft; an active or ended activity’s terms never change' }),
  remove: ac.remove({ summary: 'Removes drafts only' }),
  activate: ac.action('activate', byId, activityDto, { summary: 'Draft → active: its discount applies to sessions ending in its period' }),
  end: ac.action('end', byId, activityDto, {
    operation: 'endActivity',
    summary: 'Active → ended now: sessions ending afterwards get no discount from it, those ended before keep theirs',
  }),
  export: ac.export(activityFilter),
};

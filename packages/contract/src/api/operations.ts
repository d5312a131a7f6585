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

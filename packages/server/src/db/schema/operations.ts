import type {
  ActivityDiscountKind,
  ActivityStatus,
  ActivityType,
  GrantTarget,
  MemberBasis,
  VoucherKind,
  VoucherStatus,
} from '@csms/contract';
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, serial, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { chargeUser, chargingTransaction, ledger, provider, systemUser } from '../schema.js';

/**
 * Operations (issue 19): membership levels. Money never lives here: a level's discount is a bill
 * line of the session it lowered (`bill_line`, kind `member`), written by settlement.
 */
export const memberLevel = pgTable(
  'member_level',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    name: varchar('name', { length: 50 }).notNull(),
    /** Higher is better; a user holds the highest level whose threshold he meets. */
    sortOrder: integer('sort_order').notNull(),
    /** What the threshold counts over the rolling 12 months: settled spend (cents) or energy (Wh). */
    basis: varchar('basis', { length: 8 }).$type<MemberBasis>().notNull(),
    threshold: bigint('threshold', { mode: 'number' }).notNull(),
    /** Off the service fee, in whole percent. */
    discountPercent: integer('discount_percent').notNull(),
    /** Days a reached level is kept before a recompute may lower it. */
    validityDays: integer('validity_days').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('member_level_name').on(t.providerId, sql`lower(${t.name})`),
    uniqueIndex('member_level_order').on(t.providerId, t.sortOrder),
    check('member_level_discount', sql`${t.discountPercent} between 0 and 100`),
  ],
);

/** A charge user's membership: the level last computed, and an operator's override with its reason and end. */
export const memberStatus = pgTable(
  'member_status',
  {
    chargeUserId: integer('charge_user_id')
      .primaryKey()
      .references(() => chargeUser.id, { onDelete: 'cascade' }),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    levelId: integer('level_id').references(() => memberLevel.id, { onDelete: 'set null' }),
    /** The computed level holds at least until then (its validity from when it was reached or re-reached). */
    validUntil: timestamp('valid_until', { withTimezone: true }),
    spendCents: bigint('spend_cents', { mode: 'number' }).notNull().default(0),
    energyWh: bigint('energy_wh', { mode: 'number' }).notNull().default(0),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
    overrideLevelId: integer('override_level_id').references(() => memberLevel.id, { onDelete: 'set null' }),
    overrideReason: varchar('override_reason', { length: 200 }),
    overrideUntil: timestamp('override_until', { withTimezone: true }),
    overrideBy: integer('override_by').references(() => systemUser.id),
  },
  (t) => [index('member_status_provider').on(t.providerId), index('member_status_level').on(t.levelId)],
);

/** A voucher template (issue 19 item 3): what its vouchers take off the service fee, where, from what bill, for how long. */
export const voucherTemplate = pgTable(
  'voucher_template',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    name: varchar('name', { length: 50 }).notNull(),
    kind: varchar('kind', { length: 8 }).$type<VoucherKind>().notNull(),
    /** Cents off (`amount`) or percent off (`percent`) the service fee. */
    value: integer('value').notNull(),
    /** The bill (before discounts) a voucher needs, in cents. */
    minBillCents: integer('min_bill_cents').notNull().default(0),
    /** Stations it is valid at; empty: all of the provider's. */
    stationIds: jsonb('station_ids').$type<number[]>().notNull().default([]),
    /** Valid for this many days from issue, or between two fixed instants. */
    validDays: integer('valid_days'),
    validFrom: timestamp('valid_from', { withTimezone: true }),
    validTo: timestamp('valid_to', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('voucher_template_name').on(t.providerId, sql`lower(${t.name})`)],
);

/**
 * An issued voucher: the template's terms copied at issue, so a later edit of the template changes no
 * voucher already held. Stored status unused, used or revoked; "expired" is an unused one past its
 * end, evaluated when read (and never used by settlement, which checks the session's end against it).
 * Used once: settlement claims it by a conditional update (`status = 'unused'`) in its transaction.
 */
export const voucher = pgTable(
  'voucher',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    templateId: integer('template_id')
      .notNull()
      .references(() => voucherTemplate.id),
    chargeUserId: integer('charge_user_id')
      .notNull()
      .references(() => chargeUser.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 50 }).notNull(),
    kind: varchar('kind', { length: 8 }).$type<VoucherKind>().notNull(),
    value: integer('value').notNull(),
    minBillCents: integer('min_bill_cents').notNull(),
    stationIds: jsonb('station_ids').$type<number[]>().notNull(),
    validFrom: timestamp('valid_from', { withTimezone: true }).notNull(),
    validUntil: timestamp('valid_until', { withTimezone: true }).notNull(),
    status: varchar('status', { length: 8 }).$type<Exclude<VoucherStatus, 'expired'>>().notNull().default('unused'),
    issuedBy: integer('issued_by').references(() => systemUser.id),
    /** The activity that granted it, if one did. */
    activityId: integer('activity_id'),
    /** The session an operator or the user chose it for (issue 19 item 4): settlement uses it there when it applies. */
    chosenFor: integer('chosen_for').references(() => chargingTransaction.id),
    usedAt: timestamp('used_at', { withTimezone: true }),
    transactionId: integer('transaction_id').references(() => chargingTransaction.id),
    discountCents: integer('discount_cents'),
    revokeReason: varchar('revoke_reason', { length: 200 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('voucher_user').on(t.chargeUserId, t.status),
    index('voucher_provider').on(t.providerId),
    // A session uses one voucher at most.
    uniqueIndex('voucher_transaction').on(t.transactionId),
    // A session has one chosen voucher at most.
    uniqueIndex('voucher_chosen').on(t.chosenFor),
    // An activity grants each user one voucher at most.
    uniqueIndex('voucher_activity_user')
      .on(t.activityId, t.chargeUserId)
      .where(sql`${t.activityId} is not null`),
  ],
);

/**
 * An activity (issue 19 item 2) over a period, for some user groups (none: everyone), of one type: a
 * service-fee discount at some stations (none: all), percent or fixed per kWh, optionally only in
 * chosen local hours; a recharge bonus (a recharge of at least `min_recharge_cents` credits
 * `bonus_cents`); or a voucher grant (one voucher of a template to each new user, or to each member of
 * its groups at its start). Draft → active → ended: an active activity's terms never change, it can only end early
 * (`ended_at`); a session counts by its end, so ending stops the discount for sessions that end
 * afterwards and not before.
 */
export const activity = pgTable(
  'activity',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    name: varchar('name', { length: 50 }).notNull(),
    type: varchar('type', { length: 16 }).$type<ActivityType>().notNull(),
    status: varchar('status', { length: 8 }).$type<ActivityStatus>().notNull().default('draft'),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true }).notNull(),
    stationIds: jsonb('station_ids').$type<number[]>().notNull().default([]),
    groupIds: jsonb('group_ids').$type<number[]>().notNull().default([]),
    discountKind: varchar('discount_kind', { length: 8 }).$type<ActivityDiscountKind>(),
    /** Percent off the service fee, or 1/10,000 of the currency off per kWh. */
    discountValue: integer('discount_value'),
    /** Recharge bonus: the least recharge that earns it, and the bonus, in cents. */
    minRechargeCents: integer('min_recharge_cents'),
    bonusCents: integer('bonus_cents'),
    /** Voucher grant: the template, and who gets one (users registered while it is active, or its groups' members at its start). */
    templateId: integer('template_id').references(() => voucherTemplate.id),
    grantTo: varchar('grant_to', { length: 8 }).$type<GrantTarget>(),
    /** Local hours (0–23, the station's clock) the discount holds in; empty: all day. */
    hours: jsonb('hours').$type<number[]>().notNull().default([]),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('activity_provider').on(t.providerId, t.status)],
);

/**
 * A recharge's bonus (issue 19 item 2): the recharge's ledger row, the activity and the bonus's own
 * ledger row, written in the recharge's transaction. Keyed by the recharge: one bonus per recharge.
 */
export const rechargeBonus = pgTable(
  'recharge_bonus',
  {
    rechargeLedgerId: integer('recharge_ledger_id')
      .primaryKey()
      .references(() => ledger.id),
    bonusLedgerId: integer('bonus_ledger_id')
      .notNull()
      .references(() => ledger.id),
    activityId: integer('activity_id')
      .notNull()
      .references(() => activity.id),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    amountCents: integer('amount_cents').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('recharge_bonus_activity').on(t.activityId), uniqueIndex('recharge_bonus_ledger').on(t.bonusLedgerId)],
);

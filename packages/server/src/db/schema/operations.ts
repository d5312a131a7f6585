import type { MemberBasis } from '@csms/contract';
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, serial, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { chargeUser, provider, systemUser } from '../schema.js';

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

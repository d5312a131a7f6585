import type { ProfilePeriod, ProfilePurpose, ProfileTargetStatus } from '@csms/contract';
import { doublePrecision, index, integer, jsonb, pgTable, primaryKey, serial, timestamp, varchar } from 'drizzle-orm/pg-core';
import { chargePoint, chargingTransaction, provider, station } from '../schema.js';

/**
 * Smart charging (issue 15): the central system's charging profiles (OCPP 1.6 csChargingProfiles)
 * and, per point and connector, what the charger answered. DESIGN.md §10: one schema file per
 * module, re-exported from ../schema.ts.
 */
export const chargingProfile = pgTable(
  'charging_profile',
  {
    /** Also the OCPP chargingProfileId. */
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    stationId: integer('station_id')
      .notNull()
      .references(() => station.id, { onDelete: 'cascade' }),
    purpose: varchar('purpose', { length: 24 }).$type<ProfilePurpose>().notNull(),
    stackLevel: integer('stack_level').notNull(),
    validFrom: timestamp('valid_from', { withTimezone: true }),
    validTo: timestamp('valid_to', { withTimezone: true }),
    kind: varchar('kind', { length: 12 }).$type<'Absolute' | 'Recurring' | 'Relative'>().notNull(),
    recurrencyKind: varchar('recurrency_kind', { length: 8 }).$type<'Daily' | 'Weekly'>(),
    rateUnit: varchar('rate_unit', { length: 1 }).$type<'A' | 'W'>().notNull(),
    startSchedule: timestamp('start_schedule', { withTimezone: true }),
    durationSec: integer('duration_sec'),
    minChargingRate: doublePrecision('min_charging_rate'),
    periods: jsonb('periods').$type<ProfilePeriod[]>().notNull(),
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('charging_profile_station').on(t.stationId, t.id)],
);

/** One point and connector of a profile, with the charger's last answer for it. */
export const chargingProfileTarget = pgTable(
  'charging_profile_target',
  {
    profileId: integer('profile_id')
      .notNull()
      .references(() => chargingProfile.id, { onDelete: 'cascade' }),
    chargePointId: integer('charge_point_id')
      .notNull()
      .references(() => chargePoint.id, { onDelete: 'cascade' }),
    connectorNo: integer('connector_no').notNull(),
    status: varchar('status', { length: 16 }).$type<ProfileTargetStatus>().notNull().default('notSent'),
    chargerStatus: varchar('charger_status', { length: 32 }),
    transactionId: integer('transaction_id').references(() => chargingTransaction.id),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.profileId, t.chargePointId, t.connectorNo] }),
    index('charging_profile_target_point').on(t.chargePointId),
  ],
);

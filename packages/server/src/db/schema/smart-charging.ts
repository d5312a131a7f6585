import type { ProfilePeriod, ProfilePurpose, ProfileTargetStatus } from '@csms/contract';
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
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

/** A power budget the server enforces over points of one station (spec §3 local controller; issue 15 item 2). */
export const localController = pgTable(
  'local_controller',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    stationId: integer('station_id')
      .notNull()
      .references(() => station.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 50 }).notNull(),
    description: varchar('description', { length: 255 }),
    limitW: integer('limit_w').notNull(),
    minCurrentA: doublePrecision('min_current_a').notNull().default(6),
    /** Sessions of charge users in these groups are served first, like those of priority points. */
    priorityGroupIds: integer('priority_group_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('local_controller_station').on(t.stationId)],
);

/** The points of a controller; a point belongs to at most one. */
export const localControllerPoint = pgTable(
  'local_controller_point',
  {
    controllerId: integer('controller_id')
      .notNull()
      .references(() => localController.id, { onDelete: 'cascade' }),
    chargePointId: integer('charge_point_id')
      .notNull()
      .references(() => chargePoint.id, { onDelete: 'cascade' }),
    /** Its sessions are served first. */
    priority: boolean('priority').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.controllerId, t.chargePointId] }), uniqueIndex('local_controller_point_once').on(t.chargePointId)],
);

/** The last plan of a controller, per connector with a session (what the live view shows). */
export const controllerAllocation = pgTable(
  'controller_allocation',
  {
    controllerId: integer('controller_id')
      .notNull()
      .references(() => localController.id, { onDelete: 'cascade' }),
    chargePointId: integer('charge_point_id')
      .notNull()
      .references(() => chargePoint.id, { onDelete: 'cascade' }),
    connectorNo: integer('connector_no').notNull(),
    transactionId: integer('transaction_id'),
    state: varchar('state', { length: 8 }).$type<'charging' | 'waiting' | 'offline'>().notNull(),
    priority: boolean('priority').notNull().default(false),
    allocatedW: integer('allocated_w').notNull(),
    measuredW: integer('measured_w'),
    /** The allocation the charger last accepted in a profile; null: none sent yet. */
    sentW: integer('sent_w'),
    answer: varchar('answer', { length: 16 }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.controllerId, t.chargePointId, t.connectorNo] })],
);

/** A controller's totals at each plan (at least every minute): the live view's last hour. */
export const controllerSample = pgTable(
  'controller_sample',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    controllerId: integer('controller_id')
      .notNull()
      .references(() => localController.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
    limitW: integer('limit_w').notNull(),
    allocatedW: integer('allocated_w').notNull(),
    measuredW: integer('measured_w').notNull(),
  },
  (t) => [index('controller_sample_at').on(t.controllerId, t.at)],
);

import type {
  Lang,
  ProfilePeriod,
  ProfilePurpose,
  ProfileTargetStatus,
  ReservationStatus,
  TimedChargeReason,
  TimedChargeStatus,
} from '@csms/contract';
import { sql } from 'drizzle-orm';
import {
  bigserial,
  date,
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
import { card, chargePoint, chargeUser, chargingTransaction, provider, station } from '../schema.js';

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

/**
 * Timed charging (issue 15 item 3): a daily remote start on a point's connectors for a charge user,
 * from `validFrom` to `validTo` at `startTime` on the station's wall clock. The job queue holds the
 * next start (lib/jobs.ts); this row is what it reads when it runs.
 */
export const timedCharge = pgTable(
  'timed_charge',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    stationId: integer('station_id')
      .notNull()
      .references(() => station.id),
    chargePointId: integer('charge_point_id')
      .notNull()
      .references(() => chargePoint.id),
    connectors: integer('connectors').array().notNull(),
    chargeUserId: integer('charge_user_id')
      .notNull()
      .references(() => chargeUser.id),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    validTo: date('valid_to', { mode: 'string' }).notNull(),
    /** `HH:mm`, station's wall clock. */
    startTime: varchar('start_time', { length: 5 }).notNull(),
    status: varchar('status', { length: 10 }).$type<TimedChargeStatus>().notNull().default('waiting'),
    /** The next start the queue holds; null when none is left. */
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    lastRunDay: date('last_run_day', { mode: 'string' }),
    lastReason: varchar('last_reason', { length: 16 }).$type<TimedChargeReason>(),
    /** The creator's language: the system message of a failed day is written in it. */
    lang: varchar('lang', { length: 2 }).$type<Lang>().notNull().default('zh'),
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('timed_charge_provider').on(t.providerId), index('timed_charge_due').on(t.status, t.nextRunAt)],
);

/** One connector's start of one day: written first (claiming the day), so a job that runs twice starts once. */
export const timedChargeRun = pgTable(
  'timed_charge_run',
  {
    timedChargeId: integer('timed_charge_id')
      .notNull()
      .references(() => timedCharge.id),
    day: date('day', { mode: 'string' }).notNull(),
    connectorNo: integer('connector_no').notNull(),
    status: varchar('status', { length: 8 }).$type<'running' | 'started' | 'failed'>().notNull(),
    reason: varchar('reason', { length: 16 }).$type<TimedChargeReason>(),
    chargerStatus: varchar('charger_status', { length: 40 }),
    cardId: integer('card_id').references(() => card.id),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.timedChargeId, t.day, t.connectorNo] })],
);

/**
 * Reservations (issue 15 item 4). `id` is the OCPP reservationId. A refused ReserveNow is kept with
 * the charger's refusal as its status; `feeCents` is set once the reservation fee is charged.
 */
export const reservation = pgTable(
  'reservation',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    stationId: integer('station_id')
      .notNull()
      .references(() => station.id),
    chargePointId: integer('charge_point_id')
      .notNull()
      .references(() => chargePoint.id),
    /** 0: any connector. */
    connectorNo: integer('connector_no').notNull(),
    chargeUserId: integer('charge_user_id')
      .notNull()
      .references(() => chargeUser.id),
    cardId: integer('card_id')
      .notNull()
      .references(() => card.id),
    /** The idTag sent (the card's physical id as issued). */
    idTag: varchar('id_tag', { length: 20 }).notNull(),
    expiryAt: timestamp('expiry_at', { withTimezone: true }).notNull(),
    status: varchar('status', { length: 12 }).$type<ReservationStatus>().notNull(),
    chargerStatus: varchar('charger_status', { length: 40 }),
    transactionId: integer('transaction_id').references(() => chargingTransaction.id),
    feeCents: integer('fee_cents'),
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('reservation_provider').on(t.providerId, t.id),
    // A StartTransaction looks up the point's live reservations.
    index('reservation_live')
      .on(t.chargePointId)
      .where(sql`status = 'reserved'`),
    index('reservation_transaction').on(t.transactionId),
  ],
);

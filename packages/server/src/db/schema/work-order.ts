import type { AreaRole, ComponentAction, WorkOrderPriority, WorkOrderSource, WorkOrderStatus, WorkOrderStepKind } from '@csms/contract';
import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, primaryKey, serial, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { alarm, chargePoint, chargingTransaction, provider, station, systemUser } from '../schema.js';

/**
 * Work orders, fault treatment (issue 17, DESIGN.md §10). A service area groups stations of one provider
 * with the system users who lead, repair and archive there; a station is in one area at most.
 */
export const serviceArea = pgTable(
  'service_area',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    name: varchar('name', { length: 50 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('service_area_name').on(t.providerId, t.name)],
);

export const serviceAreaStation = pgTable(
  'service_area_station',
  {
    areaId: integer('area_id')
      .notNull()
      .references(() => serviceArea.id, { onDelete: 'cascade' }),
    stationId: integer('station_id')
      .notNull()
      .references(() => station.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.stationId] }), index('service_area_station_area').on(t.areaId)],
);

export const serviceAreaMember = pgTable(
  'service_area_member',
  {
    areaId: integer('area_id')
      .notNull()
      .references(() => serviceArea.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => systemUser.id, { onDelete: 'cascade' }),
    role: varchar('role', { length: 16 }).$type<AreaRole>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.areaId, t.userId, t.role] }), index('service_area_member_user').on(t.userId)],
);

/**
 * One fault to fix. Orders from a charger's serious alarm are opened by a trigger on `alarm` in the
 * alarm's own transaction (migration 0020), so none is lost to a crash; at most one is open per point
 * and fault code, and a repeat of the fault attaches to it.
 */
export const workOrder = pgTable(
  'work_order',
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
    connectorNo: integer('connector_no').notNull(),
    transactionId: integer('transaction_id').references(() => chargingTransaction.id),
    alarmId: integer('alarm_id').references(() => alarm.id),
    faultCode: varchar('fault_code', { length: 50 }).notNull(),
    vendorErrorCode: varchar('vendor_error_code', { length: 50 }),
    source: varchar('source', { length: 8 }).$type<WorkOrderSource>().notNull(),
    description: varchar('description', { length: 1000 }).notNull(),
    /** Stored images (file names) filed with a feedback. */
    pictures: jsonb('pictures').$type<string[]>().notNull().default([]),
    priority: varchar('priority', { length: 8 }).$type<WorkOrderPriority>().notNull().default('normal'),
    status: varchar('status', { length: 12 }).$type<WorkOrderStatus>().notNull().default('new'),
    serviceManId: integer('service_man_id').references(() => systemUser.id),
    repeats: integer('repeats').notNull().default(0),
    faultClearedAt: timestamp('fault_cleared_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => systemUser.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('work_order_open')
      .on(t.chargePointId, t.faultCode)
      .where(sql`${t.status} in ('new', 'assigned', 'processing', 'failed')`),
    index('work_order_created').on(t.createdAt, t.id),
    index('work_order_station').on(t.stationId, t.id),
    index('work_order_service_man').on(t.serviceManId, t.id),
  ],
);

/** An order's history: who did what, when. */
export const workOrderStep = pgTable(
  'work_order_step',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    workOrderId: integer('work_order_id')
      .notNull()
      .references(() => workOrder.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 16 }).$type<WorkOrderStepKind>().notNull(),
    /** Null for the charger or the system. */
    actorId: integer('actor_id').references(() => systemUser.id, { onDelete: 'set null' }),
    /** The service man an assignment named. */
    serviceManId: integer('service_man_id').references(() => systemUser.id, { onDelete: 'set null' }),
    note: varchar('note', { length: 1000 }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('work_order_step_order').on(t.workOrderId, t.id)],
);

/** A vendor's fault code and its fix, per provider; the OCPP codes' fixes are built in (issue 17 item 1). */
export const faultCode = pgTable(
  'fault_code',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    code: varchar('code', { length: 50 }).notNull(),
    title: varchar('title', { length: 100 }).notNull(),
    /** One step per line. */
    steps: varchar('steps', { length: 2000 }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('fault_code_provider_code').on(t.providerId, t.code)],
);

/**
 * A maintenance record (spec §7 "Components"): a component replaced or repaired on a point, by whom and
 * when, written with the resolved report of the work order that did it, in its transaction.
 */
export const componentUse = pgTable(
  'component_use',
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
      .references(() => chargePoint.id, { onDelete: 'cascade' }),
    connectorNo: integer('connector_no').notNull(),
    workOrderId: integer('work_order_id').references(() => workOrder.id, { onDelete: 'set null' }),
    component: varchar('component', { length: 50 }).notNull(),
    action: varchar('action', { length: 8 }).$type<ComponentAction>().notNull(),
    quantity: integer('quantity').notNull(),
    note: varchar('note', { length: 200 }),
    actorId: integer('actor_id').references(() => systemUser.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('component_use_created').on(t.createdAt, t.id),
    index('component_use_point').on(t.chargePointId, t.id),
    index('component_use_order').on(t.workOrderId),
  ],
);

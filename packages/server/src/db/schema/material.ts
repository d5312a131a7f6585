import type { LogisticsType, MaterialApplyStatus, MaterialApplyStepKind } from '@csms/contract';
import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, pgTable, primaryKey, serial, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { provider, station, systemUser } from '../schema.js';
import { workOrder } from './work-order.js';

/**
 * Spare parts (issue 17 item 4, DESIGN.md §10): each provider's catalogue of parts with its stock,
 * and the apply orders service men make for work orders. The stock never goes below zero: agreeing
 * takes it by a conditional update, and the check is the database's last word.
 */
export const material = pgTable(
  'material',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    partsNumber: varchar('parts_number', { length: 50 }).notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    model: varchar('model', { length: 100 }),
    unit: varchar('unit', { length: 20 }),
    stock: integer('stock').notNull().default(0),
    note: varchar('note', { length: 500 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A parts number is one part within a provider, whatever its letter case.
    uniqueIndex('material_parts_number').on(t.providerId, sql`upper(${t.partsNumber})`),
    check('material_stock_not_negative', sql`${t.stock} >= 0`),
  ],
);

/** An apply order: parts for one work order, to one receiver; decided once. */
export const materialApply = pgTable(
  'material_apply',
  {
    id: serial('id').primaryKey(),
    /** The work order's provider and station (a station-bound user sees the orders of his stations). */
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    stationId: integer('station_id')
      .notNull()
      .references(() => station.id),
    workOrderId: integer('work_order_id')
      .notNull()
      .references(() => workOrder.id),
    receiver: varchar('receiver', { length: 50 }).notNull(),
    receiverPhone: varchar('receiver_phone', { length: 32 }).notNull(),
    logisticsType: varchar('logistics_type', { length: 16 }).$type<LogisticsType>().notNull(),
    deliveryAddress: varchar('delivery_address', { length: 255 }).notNull(),
    note: varchar('note', { length: 500 }),
    status: varchar('status', { length: 12 }).$type<MaterialApplyStatus>().notNull().default('applied'),
    applicantId: integer('applicant_id').references(() => systemUser.id, { onDelete: 'set null' }),
    approverId: integer('approver_id').references(() => systemUser.id, { onDelete: 'set null' }),
    auditOpinion: varchar('audit_opinion', { length: 500 }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('material_apply_created').on(t.createdAt, t.id),
    index('material_apply_work_order').on(t.workOrderId, t.id),
    index('material_apply_station').on(t.stationId, t.id),
  ],
);

/** The parts of an apply order; a part on an order is not removed from the catalogue. */
export const materialApplyLine = pgTable(
  'material_apply_line',
  {
    applyId: integer('apply_id')
      .notNull()
      .references(() => materialApply.id, { onDelete: 'cascade' }),
    materialId: integer('material_id')
      .notNull()
      .references(() => material.id),
    count: integer('count').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.applyId, t.materialId] }),
    index('material_apply_line_material').on(t.materialId),
    check('material_apply_line_count_positive', sql`${t.count} > 0`),
  ],
);

/** An apply order's history: who applied, who decided and with what opinion. */
export const materialApplyStep = pgTable(
  'material_apply_step',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    applyId: integer('apply_id')
      .notNull()
      .references(() => materialApply.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 12 }).$type<MaterialApplyStepKind>().notNull(),
    actorId: integer('actor_id').references(() => systemUser.id, { onDelete: 'set null' }),
    note: varchar('note', { length: 500 }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('material_apply_step_apply').on(t.applyId, t.id)],
);

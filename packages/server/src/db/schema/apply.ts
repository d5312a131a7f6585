import type { ApplyStatus } from '@csms/contract';
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, timestamp, varchar } from 'drizzle-orm/pg-core';
import { provider, systemUser } from '../schema.js';

/**
 * Applications to join the platform (issue 21). Platform-level: no provider owns one (only the super
 * provider's reviewers see them). Decided once: approve and reject are conditional updates on `pending`.
 */
export const application = pgTable(
  'application',
  {
    id: serial('id').primaryKey(),
    companyName: varchar('company_name', { length: 100 }).notNull(),
    contact: varchar('contact', { length: 50 }).notNull(),
    phone: varchar('phone', { length: 30 }).notNull(),
    email: varchar('email', { length: 100 }).notNull(),
    licenseNumber: varchar('license_number', { length: 30 }).notNull(),
    /** The stored image's name (`stored_file.file_name`). */
    licenseImage: varchar('license_image', { length: 255 }).notNull().unique(),
    address: varchar('address', { length: 255 }).notNull(),
    expectedPoints: integer('expected_points').notNull(),
    expectedStations: integer('expected_stations').notNull(),
    remark: varchar('remark', { length: 500 }),
    ip: varchar('ip', { length: 64 }).notNull(),
    /** The form's language: the applicant's mails are written in it. */
    lang: varchar('lang', { length: 5 }).$type<'zh' | 'en'>().notNull(),
    status: varchar('status', { length: 10 }).$type<ApplyStatus>().notNull().default('pending'),
    reviewerId: integer('reviewer_id').references(() => systemUser.id),
    rejectReason: varchar('reject_reason', { length: 500 }),
    providerId: integer('provider_id').references(() => provider.id),
    username: varchar('username', { length: 64 }),
    validity: integer('validity'),
    authCount: integer('auth_count'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('application_status_created').on(t.status, t.createdAt),
    check('application_status', sql`${t.status} in ('pending', 'approved', 'rejected')`),
  ],
);

import type { DiagnosticsState, FirmwarePointState } from '@csms/contract';
import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, primaryKey, serial, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { chargePoint, provider, station } from '../schema.js';

/**
 * Remote maintenance (issue 16): firmware packages kept in the file store (`CSMS_DATA_DIR/uploads`)
 * and offered to chargers under an unguessable token; upgrades and, per point, how far each got.
 */
export const firmwareVersion = pgTable(
  'firmware_version',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    version: varchar('version', { length: 50 }).notNull(),
    applicationType: varchar('application_type', { length: 50 }).notNull(),
    communicationType: varchar('communication_type', { length: 50 }).notNull(),
    note: varchar('note', { length: 500 }),
    /** Path under the uploads directory. */
    storedName: varchar('stored_name', { length: 255 }).notNull(),
    /** The uploaded file's name, the last segment of the URL chargers are sent. */
    fileName: varchar('file_name', { length: 255 }).notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: varchar('sha256', { length: 64 }).notNull(),
    /** 32 random bytes, hex: the URL's secret. */
    token: varchar('token', { length: 64 }).notNull(),
    uploadedBy: integer('uploaded_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('firmware_version_token').on(t.token),
    uniqueIndex('firmware_version_provider_version').on(t.providerId, sql`lower(${t.version})`),
  ],
);

export const firmwareUpgrade = pgTable(
  'firmware_upgrade',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    versionId: integer('version_id').references(() => firmwareVersion.id),
    /** UpdateFirmware's location, as sent. */
    location: varchar('location', { length: 600 }).notNull(),
    retrieveAt: timestamp('retrieve_at', { withTimezone: true }).notNull(),
    retries: integer('retries'),
    retryInterval: integer('retry_interval'),
    description: varchar('description', { length: 500 }),
    /** Rollout in waves: points per wave, and the minutes a sent point has to finish; null: all at once. */
    waveSize: integer('wave_size'),
    waveTimeoutMinutes: integer('wave_timeout_minutes'),
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('firmware_upgrade_provider').on(t.providerId, t.id), index('firmware_upgrade_version').on(t.versionId)],
);

/** A point's part is over for its wave: it installed the package or failed (`firmwareWaveDoneStates`). */
const WAVE_DONE_SQL = sql.raw(`('Installed', 'confirmed', 'rejected', 'DownloadFailed', 'InstallationFailed', 'notInstalled', 'timedOut')`);

export const firmwareUpgradePoint = pgTable(
  'firmware_upgrade_point',
  {
    upgradeId: integer('upgrade_id')
      .notNull()
      .references(() => firmwareUpgrade.id),
    chargePointId: integer('charge_point_id')
      .notNull()
      .references(() => chargePoint.id),
    state: varchar('state', { length: 20 }).$type<FirmwarePointState>().notNull(),
    reason: varchar('reason', { length: 200 }),
    fromVersion: varchar('from_version', { length: 50 }),
    reportedVersion: varchar('reported_version', { length: 50 }),
    /**
     * Its wave (1 for an upgrade sent all at once). A point of a later wave waits as `queued`; its
     * wave is released (`pending`, `released_at`) once every point released before is done, so the
     * progress of a rollout is these rows alone and survives a restart.
     */
    wave: integer('wave').notNull().default(1),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    reportedAt: timestamp('reported_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.upgradeId, t.chargePointId] }),
    index('firmware_upgrade_point_point').on(t.chargePointId, t.upgradeId),
    // The sweep's points still in play (most rows end done and drop out of it).
    index('firmware_upgrade_point_open')
      .on(t.upgradeId, t.wave)
      .where(sql`${t.state} not in ${WAVE_DONE_SQL}`),
  ],
);

/**
 * Diagnostics requests (issue 16 item 3): one per point, each with its own upload target: a token for
 * HTTP, credentials for FTP (the token is the password). The received file lives under the uploads
 * directory.
 */
export const diagnosticsRequest = pgTable(
  'diagnostics_request',
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
    /** GetDiagnostics' location as sent. */
    location: varchar('location', { length: 600 }).notNull(),
    /** The secret of the server's own target (HTTP path, FTP password); null for a typed location. */
    token: varchar('token', { length: 64 }),
    startTime: timestamp('start_time', { withTimezone: true }),
    stopTime: timestamp('stop_time', { withTimezone: true }),
    retries: integer('retries'),
    retryInterval: integer('retry_interval'),
    state: varchar('state', { length: 16 }).$type<DiagnosticsState>().notNull(),
    fileName: varchar('file_name', { length: 255 }),
    reason: varchar('reason', { length: 200 }),
    /** Path of the received file under the uploads directory. */
    storedName: varchar('stored_name', { length: 255 }),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    reportedAt: timestamp('reported_at', { withTimezone: true }),
  },
  (t) => [
    index('diagnostics_request_provider').on(t.providerId, t.id),
    index('diagnostics_request_point').on(t.chargePointId, t.id),
    uniqueIndex('diagnostics_request_token').on(t.token),
  ],
);

import type { WarningKind, WarningLevel, WarningSource } from '@csms/contract';
import { sql } from 'drizzle-orm';
import {
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { provider, station, systemUser } from '../schema.js';

/**
 * Warning management (issue 17 item 3): each station's forecast per day, fetched from the forecast
 * service (`CSMS_WEATHER_URL`); each provider's warning rules; the warnings the rules raise and the
 * ones operators enter by hand.
 */
export const weatherForecast = pgTable(
  'weather_forecast',
  {
    stationId: integer('station_id')
      .notNull()
      .references(() => station.id, { onDelete: 'cascade' }),
    /** On the station's clock. */
    day: date('day', { mode: 'string' }).notNull(),
    tempMaxC: doublePrecision('temp_max_c'),
    tempMinC: doublePrecision('temp_min_c'),
    precipitationMm: doublePrecision('precipitation_mm'),
    windMaxKmh: doublePrecision('wind_max_kmh'),
    /** WMO weather interpretation code. */
    weatherCode: smallint('weather_code'),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.stationId, t.day] })],
);

/** A provider's thresholds; null turns a rule off. A provider without a row has the defaults (`defaultWarningRules`). */
export const weatherRule = pgTable('weather_rule', {
  providerId: integer('provider_id')
    .primaryKey()
    .references(() => provider.id),
  heatMaxC: doublePrecision('heat_max_c'),
  frostMinC: doublePrecision('frost_min_c'),
  stormWindKmh: doublePrecision('storm_wind_kmh'),
  heavyRainMm: doublePrecision('heavy_rain_mm'),
  updatedBy: integer('updated_by').references(() => systemUser.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A warning for one station and day. The forecast raises at most one per station, kind and day (the
 * unique index): a later fetch updates it, ends it when the forecast no longer crosses the threshold
 * and opens it again when it does, unless an operator ended it (`ended_by`).
 */
export const weatherWarning = pgTable(
  'weather_warning',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    stationId: integer('station_id')
      .notNull()
      .references(() => station.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 16 }).$type<WarningKind>().notNull(),
    level: varchar('level', { length: 8 }).$type<WarningLevel>().notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    source: varchar('source', { length: 8 }).$type<WarningSource>().notNull(),
    /** What the forecast gave and the threshold it crossed (°C, km/h or mm by kind); null for manual warnings. */
    value: doublePrecision('value'),
    threshold: doublePrecision('threshold'),
    note: varchar('note', { length: 500 }),
    createdBy: integer('created_by').references(() => systemUser.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endedBy: integer('ended_by').references(() => systemUser.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('weather_warning_forecast')
      .on(t.stationId, t.kind, t.day)
      .where(sql`${t.source} = 'forecast'`),
    index('weather_warning_station_day').on(t.stationId, t.day),
    index('weather_warning_provider').on(t.providerId, t.id),
  ],
);

/** The feed's last run, one row (id 1) for all nodes: what the screen's banner shows. */
export const weatherFeed = pgTable('weather_feed', {
  id: integer('id').primaryKey(),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  /** The error as a vocabulary key and its parameters (JSON), shown in the reader's language. */
  lastError: varchar('last_error', { length: 1000 }),
  lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
  stations: integer('stations').notNull().default(0),
  failedLocations: integer('failed_locations').notNull().default(0),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }),
});

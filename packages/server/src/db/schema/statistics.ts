import { bigint, date, index, integer, pgTable, primaryKey, varchar } from 'drizzle-orm/pg-core';

/**
 * The finished sessions' totals per provider, station and local start day (the dashboard's revenue trend,
 * issue 14 item 6): kept by triggers on `charging_transaction` in the same transaction as every write, so
 * it can never drift from the records. Running sessions are not in it; the trend reads them live. Days
 * are cut in `chargingDayZone`'s time zone; the server rebuilds both when `CSMS_TIME_ZONE` changes.
 */
export const chargingDay = pgTable(
  'charging_day',
  {
    providerId: integer('provider_id').notNull(),
    stationId: integer('station_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    chargeCount: integer('charge_count').notNull().default(0),
    energyWh: bigint('energy_wh', { mode: 'number' }).notNull().default(0),
    /** Settled bills with their late-Stop corrections, as the ledger charged them. */
    incomeCents: bigint('income_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.providerId, t.stationId, t.day] }), index('charging_day_day').on(t.day)],
);

/** The one time zone `chargingDay` cuts days in; null until the server first builds it. */
export const chargingDayZone = pgTable('charging_day_zone', {
  id: integer('id').primaryKey().default(1),
  timeZone: varchar('time_zone', { length: 64 }),
});

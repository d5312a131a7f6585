-- Issue 14: the statistics' rollup functions in PL/pgSQL instead of SQL. A SQL function called from a trigger
-- is parsed, analysed and planned again at every call (PostgreSQL before 18 keeps no plan of it between calls):
-- profiled under billed transactions, that was 17 % of the database's CPU once the server's own statements were
-- prepared (src/db/named-statements.ts). PL/pgSQL keeps the plan of its statement for the session. Same
-- statements, same arguments; only the language changes.

CREATE OR REPLACE FUNCTION "charging_day_add"(p integer, st integer, d date, n integer, wh bigint, cents bigint, secs bigint, h integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "charging_day" AS x ("provider_id", "station_id", "day", "charge_count", "energy_wh", "income_cents", "charging_seconds", "starts_by_hour")
    VALUES (p, st, d, n, wh, cents, secs, (SELECT array_agg(CASE WHEN i = h THEN n ELSE 0 END ORDER BY i) FROM generate_series(0, 23) i))
    ON CONFLICT ("provider_id", "station_id", "day") DO UPDATE
    SET "charge_count" = x."charge_count" + excluded."charge_count", "energy_wh" = x."energy_wh" + excluded."energy_wh",
        "income_cents" = x."income_cents" + excluded."income_cents", "charging_seconds" = x."charging_seconds" + excluded."charging_seconds",
        "starts_by_hour"[h + 1] = x."starts_by_hour"[h + 1] + n;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "point_month_add"(cp integer, m date, p integer, st integer, n integer, wh bigint, secs bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "point_month" AS x ("charge_point_id", "month", "provider_id", "station_id", "charge_count", "energy_wh", "charging_seconds")
    VALUES (cp, m, p, st, n, wh, secs)
    ON CONFLICT ("charge_point_id", "month", "provider_id", "station_id") DO UPDATE
    SET "charge_count" = x."charge_count" + excluded."charge_count", "energy_wh" = x."energy_wh" + excluded."energy_wh",
        "charging_seconds" = x."charging_seconds" + excluded."charging_seconds";
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "start_month_add"(p integer, st integer, m date, slot integer, n integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "start_month" AS x ("provider_id", "station_id", "month", "starts_by_week_hour")
    VALUES (p, st, m, (SELECT array_agg(CASE WHEN i = slot THEN n ELSE 0 END ORDER BY i) FROM generate_series(0, 167) i))
    ON CONFLICT ("provider_id", "station_id", "month") DO UPDATE
    SET "starts_by_week_hour"[slot + 1] = x."starts_by_week_hour"[slot + 1] + n;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "settlement_day_add"(p integer, st integer, d date, n integer, elec bigint, service bigint, reserve bigint, discount bigint, adj bigint, income bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "settlement_day" AS x ("provider_id", "station_id", "day", "bill_count", "elec_fee_cents", "service_fee_cents", "reserve_fee_cents",
      "discount_cents", "adjustment_cents", "income_cents")
    VALUES (p, st, d, n, elec, service, reserve, discount, adj, income)
    ON CONFLICT ("provider_id", "station_id", "day") DO UPDATE
    SET "bill_count" = x."bill_count" + excluded."bill_count", "elec_fee_cents" = x."elec_fee_cents" + excluded."elec_fee_cents",
        "service_fee_cents" = x."service_fee_cents" + excluded."service_fee_cents", "reserve_fee_cents" = x."reserve_fee_cents" + excluded."reserve_fee_cents",
        "discount_cents" = x."discount_cents" + excluded."discount_cents", "adjustment_cents" = x."adjustment_cents" + excluded."adjustment_cents",
        "income_cents" = x."income_cents" + excluded."income_cents";
END;
$$;

CREATE TABLE "ledger_day" (
	"provider_id" integer NOT NULL,
	"day" date NOT NULL,
	"trade_type" varchar(10) NOT NULL,
	"entry_count" integer DEFAULT 0 NOT NULL,
	"amount_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "ledger_day_provider_id_day_trade_type_pk" PRIMARY KEY("provider_id","day","trade_type")
);
--> statement-breakpoint
CREATE TABLE "settlement_day" (
	"provider_id" integer NOT NULL,
	"station_id" integer NOT NULL,
	"day" date NOT NULL,
	"bill_count" integer DEFAULT 0 NOT NULL,
	"elec_fee_cents" bigint DEFAULT 0 NOT NULL,
	"service_fee_cents" bigint DEFAULT 0 NOT NULL,
	"reserve_fee_cents" bigint DEFAULT 0 NOT NULL,
	"discount_cents" bigint DEFAULT 0 NOT NULL,
	"adjustment_cents" bigint DEFAULT 0 NOT NULL,
	"income_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "settlement_day_provider_id_station_id_day_pk" PRIMARY KEY("provider_id","station_id","day")
);
--> statement-breakpoint
ALTER TABLE "charging_day" ADD COLUMN "charging_seconds" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "charging_day" ADD COLUMN "starts_by_hour" integer[] DEFAULT array_fill(0, array[24]) NOT NULL;--> statement-breakpoint
CREATE INDEX "ledger_day_day" ON "ledger_day" USING btree ("day");--> statement-breakpoint
CREATE INDEX "settlement_day_day" ON "settlement_day" USING btree ("day");--> statement-breakpoint
-- Operation statistics (issue 20 item 3): each finished session also adds its connector time and its start
-- hour to its start day. Replaces the functions and the update trigger of 0019_charging_day.
DROP TRIGGER "charging_day_update" ON "charging_transaction";--> statement-breakpoint
DROP FUNCTION "charging_day_add"(integer, integer, date, integer, bigint, bigint);--> statement-breakpoint
CREATE FUNCTION "charging_day_add"(p integer, st integer, d date, n integer, wh bigint, cents bigint, secs bigint, h integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "charging_day" AS x ("provider_id", "station_id", "day", "charge_count", "energy_wh", "income_cents", "charging_seconds", "starts_by_hour")
    VALUES (p, st, d, n, wh, cents, secs, (SELECT array_agg(CASE WHEN i = h THEN n ELSE 0 END ORDER BY i) FROM generate_series(0, 23) i))
    ON CONFLICT ("provider_id", "station_id", "day") DO UPDATE
    SET "charge_count" = x."charge_count" + excluded."charge_count", "energy_wh" = x."energy_wh" + excluded."energy_wh",
        "income_cents" = x."income_cents" + excluded."income_cents", "charging_seconds" = x."charging_seconds" + excluded."charging_seconds",
        "starts_by_hour"[h + 1] = x."starts_by_hour"[h + 1] + n;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "charging_day_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tz text;
  was_day date;
  now_day date;
  was_income bigint := 0;
  now_income bigint := 0;
  was_secs bigint := 0;
  now_secs bigint := 0;
BEGIN
  SELECT "time_zone" INTO tz FROM "charging_day_zone" WHERE "id" = 1;
  IF tz IS NULL THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' AND OLD."stopped_at" IS NOT NULL THEN
    was_day := (OLD."started_at" AT TIME ZONE tz)::date;
    was_secs := greatest(0, extract(epoch FROM OLD."stopped_at" - OLD."started_at"))::bigint;
    IF OLD."billed_at" IS NOT NULL THEN
      was_income := coalesce(OLD."total_cents", 0) + coalesce(OLD."adjustment_cents", 0);
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW."stopped_at" IS NOT NULL THEN
    now_day := (NEW."started_at" AT TIME ZONE tz)::date;
    now_secs := greatest(0, extract(epoch FROM NEW."stopped_at" - NEW."started_at"))::bigint;
    IF NEW."billed_at" IS NOT NULL THEN
      now_income := coalesce(NEW."total_cents", 0) + coalesce(NEW."adjustment_cents", 0);
    END IF;
  END IF;
  -- The same start of the same station (a settlement, a late Stop): one change by the difference.
  IF was_day IS NOT NULL AND now_day IS NOT NULL AND OLD."started_at" = NEW."started_at"
     AND OLD."provider_id" = NEW."provider_id" AND OLD."station_id" = NEW."station_id" THEN
    IF NEW."energy_wh" <> OLD."energy_wh" OR now_income <> was_income OR now_secs <> was_secs THEN
      PERFORM "charging_day_add"(NEW."provider_id", NEW."station_id", now_day, 0, NEW."energy_wh" - OLD."energy_wh",
        now_income - was_income, now_secs - was_secs, 0);
    END IF;
    RETURN NULL;
  END IF;
  IF was_day IS NOT NULL THEN
    PERFORM "charging_day_add"(OLD."provider_id", OLD."station_id", was_day, -1, -OLD."energy_wh", -was_income, -was_secs,
      extract(hour FROM OLD."started_at" AT TIME ZONE tz)::integer);
  END IF;
  IF now_day IS NOT NULL THEN
    PERFORM "charging_day_add"(NEW."provider_id", NEW."station_id", now_day, 1, NEW."energy_wh", now_income, now_secs,
      extract(hour FROM NEW."started_at" AT TIME ZONE tz)::integer);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- As in 0019, and now also when a late Stop moves the end (the connector time changes).
CREATE CONSTRAINT TRIGGER "charging_day_update" AFTER UPDATE OF "provider_id", "station_id", "started_at", "stopped_at", "energy_wh", "total_cents", "adjustment_cents", "billed_at" ON "charging_transaction" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD."stopped_at" IS NOT NULL OR NEW."stopped_at" IS NOT NULL)
    AND (OLD."provider_id", OLD."station_id", OLD."started_at", OLD."stopped_at", OLD."energy_wh", OLD."total_cents", OLD."adjustment_cents", OLD."billed_at" IS NULL)
      IS DISTINCT FROM (NEW."provider_id", NEW."station_id", NEW."started_at", NEW."stopped_at", NEW."energy_wh", NEW."total_cents", NEW."adjustment_cents", NEW."billed_at" IS NULL))
  EXECUTE FUNCTION "charging_day_apply"();--> statement-breakpoint
-- Financial statistics (issue 20 item 4): a settled bill on the local day it was settled, with its discount lines.
CREATE FUNCTION "settlement_day_add"(p integer, st integer, d date, n integer, elec bigint, service bigint, reserve bigint, discount bigint, adj bigint, income bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "settlement_day" AS x ("provider_id", "station_id", "day", "bill_count", "elec_fee_cents", "service_fee_cents", "reserve_fee_cents",
      "discount_cents", "adjustment_cents", "income_cents")
    VALUES (p, st, d, n, elec, service, reserve, discount, adj, income)
    ON CONFLICT ("provider_id", "station_id", "day") DO UPDATE
    SET "bill_count" = x."bill_count" + excluded."bill_count", "elec_fee_cents" = x."elec_fee_cents" + excluded."elec_fee_cents",
        "service_fee_cents" = x."service_fee_cents" + excluded."service_fee_cents", "reserve_fee_cents" = x."reserve_fee_cents" + excluded."reserve_fee_cents",
        "discount_cents" = x."discount_cents" + excluded."discount_cents", "adjustment_cents" = x."adjustment_cents" + excluded."adjustment_cents",
        "income_cents" = x."income_cents" + excluded."income_cents";
$$;--> statement-breakpoint
CREATE FUNCTION "settlement_day_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tz text;
  discount bigint;
BEGIN
  SELECT "time_zone" INTO tz FROM "charging_day_zone" WHERE "id" = 1;
  IF tz IS NULL THEN
    RETURN NULL;
  END IF;
  -- Discount lines are written with the bill and never changed after (a late Stop re-prices the energy only).
  IF TG_OP <> 'INSERT' AND OLD."billed_at" IS NOT NULL THEN
    SELECT coalesce(sum("amount_cents"), 0) INTO discount FROM "bill_line" WHERE "transaction_id" = OLD."id" AND "price_id" IS NULL;
    PERFORM "settlement_day_add"(OLD."provider_id", OLD."station_id", (OLD."billed_at" AT TIME ZONE tz)::date, -1,
      -coalesce(OLD."elec_fee_cents", 0), -coalesce(OLD."service_fee_cents", 0), -coalesce(OLD."reserve_fee_cents", 0), -discount,
      -coalesce(OLD."adjustment_cents", 0), -(coalesce(OLD."total_cents", 0) + coalesce(OLD."adjustment_cents", 0)));
  END IF;
  IF TG_OP <> 'DELETE' AND NEW."billed_at" IS NOT NULL THEN
    SELECT coalesce(sum("amount_cents"), 0) INTO discount FROM "bill_line" WHERE "transaction_id" = NEW."id" AND "price_id" IS NULL;
    PERFORM "settlement_day_add"(NEW."provider_id", NEW."station_id", (NEW."billed_at" AT TIME ZONE tz)::date, 1,
      coalesce(NEW."elec_fee_cents", 0), coalesce(NEW."service_fee_cents", 0), coalesce(NEW."reserve_fee_cents", 0), discount,
      coalesce(NEW."adjustment_cents", 0), coalesce(NEW."total_cents", 0) + coalesce(NEW."adjustment_cents", 0));
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "settlement_day_insert" AFTER INSERT ON "charging_transaction" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW."billed_at" IS NOT NULL) EXECUTE FUNCTION "settlement_day_apply"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "settlement_day_update" AFTER UPDATE OF "provider_id", "station_id", "billed_at", "elec_fee_cents", "service_fee_cents", "reserve_fee_cents", "total_cents", "adjustment_cents" ON "charging_transaction" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD."billed_at" IS NOT NULL OR NEW."billed_at" IS NOT NULL)
    AND (OLD."provider_id", OLD."station_id", OLD."billed_at", OLD."elec_fee_cents", OLD."service_fee_cents", OLD."reserve_fee_cents", OLD."total_cents", OLD."adjustment_cents")
      IS DISTINCT FROM (NEW."provider_id", NEW."station_id", NEW."billed_at", NEW."elec_fee_cents", NEW."service_fee_cents", NEW."reserve_fee_cents", NEW."total_cents", NEW."adjustment_cents"))
  EXECUTE FUNCTION "settlement_day_apply"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "settlement_day_delete" AFTER DELETE ON "charging_transaction" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."billed_at" IS NOT NULL) EXECUTE FUNCTION "settlement_day_apply"();--> statement-breakpoint
-- The ledger per provider, local day and trade type (append-only; a delete is undone for completeness).
CREATE FUNCTION "ledger_day_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tz text;
  r record;
  n integer := 1;
BEGIN
  SELECT "time_zone" INTO tz FROM "charging_day_zone" WHERE "id" = 1;
  IF tz IS NULL THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    r := OLD;
    n := -1;
  ELSE
    r := NEW;
  END IF;
  INSERT INTO "ledger_day" AS x ("provider_id", "day", "trade_type", "entry_count", "amount_cents")
    VALUES (r."provider_id", (r."created_at" AT TIME ZONE tz)::date, r."trade_type", n, n * r."amount_cents")
    ON CONFLICT ("provider_id", "day", "trade_type") DO UPDATE
    SET "entry_count" = x."entry_count" + excluded."entry_count", "amount_cents" = x."amount_cents" + excluded."amount_cents";
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- Deferred like the day totals: a provider's day row is locked only while its writers commit.
CREATE CONSTRAINT TRIGGER "ledger_day_insert" AFTER INSERT ON "ledger" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "ledger_day_apply"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ledger_day_delete" AFTER DELETE ON "ledger" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "ledger_day_apply"();--> statement-breakpoint
-- The new columns and tables are filled from the records and the ledger at the next start (ensureDayTotals
-- rebuilds all three when the zone is unset), before any request.
UPDATE "charging_day_zone" SET "time_zone" = NULL;

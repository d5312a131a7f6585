CREATE TABLE "point_month" (
	"charge_point_id" integer NOT NULL,
	"month" date NOT NULL,
	"provider_id" integer NOT NULL,
	"station_id" integer NOT NULL,
	"charge_count" integer DEFAULT 0 NOT NULL,
	"energy_wh" bigint DEFAULT 0 NOT NULL,
	"charging_seconds" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "point_month_charge_point_id_month_provider_id_station_id_pk" PRIMARY KEY("charge_point_id","month","provider_id","station_id")
);
--> statement-breakpoint
CREATE INDEX "point_month_month" ON "point_month" USING btree ("month");--> statement-breakpoint
-- Operation statistics' points ranking (issue 20 item 6): each finished session also adds to its point's
-- local start month, in the same deferred trigger as the day totals. Replaces the function and the update
-- trigger of 0030_statistics_rollups (the update trigger now also fires when a record's point changes).
CREATE FUNCTION "point_month_add"(cp integer, m date, p integer, st integer, n integer, wh bigint, secs bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "point_month" AS x ("charge_point_id", "month", "provider_id", "station_id", "charge_count", "energy_wh", "charging_seconds")
    VALUES (cp, m, p, st, n, wh, secs)
    ON CONFLICT ("charge_point_id", "month", "provider_id", "station_id") DO UPDATE
    SET "charge_count" = x."charge_count" + excluded."charge_count", "energy_wh" = x."energy_wh" + excluded."energy_wh",
        "charging_seconds" = x."charging_seconds" + excluded."charging_seconds";
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
  -- The same start of the same point and station (a settlement, a late Stop): one change by the difference.
  IF was_day IS NOT NULL AND now_day IS NOT NULL AND OLD."started_at" = NEW."started_at" AND OLD."provider_id" = NEW."provider_id"
     AND OLD."station_id" = NEW."station_id" AND OLD."charge_point_id" = NEW."charge_point_id" THEN
    IF NEW."energy_wh" <> OLD."energy_wh" OR now_income <> was_income OR now_secs <> was_secs THEN
      PERFORM "charging_day_add"(NEW."provider_id", NEW."station_id", now_day, 0, NEW."energy_wh" - OLD."energy_wh",
        now_income - was_income, now_secs - was_secs, 0);
    END IF;
    IF NEW."energy_wh" <> OLD."energy_wh" OR now_secs <> was_secs THEN
      PERFORM "point_month_add"(NEW."charge_point_id", date_trunc('month', now_day)::date, NEW."provider_id", NEW."station_id", 0,
        NEW."energy_wh" - OLD."energy_wh", now_secs - was_secs);
    END IF;
    RETURN NULL;
  END IF;
  IF was_day IS NOT NULL THEN
    PERFORM "charging_day_add"(OLD."provider_id", OLD."station_id", was_day, -1, -OLD."energy_wh", -was_income, -was_secs,
      extract(hour FROM OLD."started_at" AT TIME ZONE tz)::integer);
    PERFORM "point_month_add"(OLD."charge_point_id", date_trunc('month', was_day)::date, OLD."provider_id", OLD."station_id", -1,
      -OLD."energy_wh", -was_secs);
  END IF;
  IF now_day IS NOT NULL THEN
    PERFORM "charging_day_add"(NEW."provider_id", NEW."station_id", now_day, 1, NEW."energy_wh", now_income, now_secs,
      extract(hour FROM NEW."started_at" AT TIME ZONE tz)::integer);
    PERFORM "point_month_add"(NEW."charge_point_id", date_trunc('month', now_day)::date, NEW."provider_id", NEW."station_id", 1,
      NEW."energy_wh", now_secs);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
DROP TRIGGER "charging_day_update" ON "charging_transaction";--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "charging_day_update" AFTER UPDATE OF "provider_id", "station_id", "charge_point_id", "started_at", "stopped_at", "energy_wh", "total_cents", "adjustment_cents", "billed_at" ON "charging_transaction" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD."stopped_at" IS NOT NULL OR NEW."stopped_at" IS NOT NULL)
    AND (OLD."provider_id", OLD."station_id", OLD."charge_point_id", OLD."started_at", OLD."stopped_at", OLD."energy_wh", OLD."total_cents", OLD."adjustment_cents", OLD."billed_at" IS NULL)
      IS DISTINCT FROM (NEW."provider_id", NEW."station_id", NEW."charge_point_id", NEW."started_at", NEW."stopped_at", NEW."energy_wh", NEW."total_cents", NEW."adjustment_cents", NEW."billed_at" IS NULL))
  EXECUTE FUNCTION "charging_day_apply"();--> statement-breakpoint
-- The point months are filled from the records at the next start (ensureDayTotals rebuilds every rollup when the zone is unset).
UPDATE "charging_day_zone" SET "time_zone" = NULL;

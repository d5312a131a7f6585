CREATE TABLE "start_month" (
	"provider_id" integer NOT NULL,
	"station_id" integer NOT NULL,
	"month" date NOT NULL,
	"starts_by_week_hour" integer[] DEFAULT array_fill(0, array[168]) NOT NULL,
	CONSTRAINT "start_month_provider_id_station_id_month_pk" PRIMARY KEY("provider_id","station_id","month")
);
--> statement-breakpoint
CREATE INDEX "start_month_month" ON "start_month" USING btree ("month");--> statement-breakpoint
-- Operation statistics' heat map (issue 20 item 6): each finished session also adds its start to its station's
-- local start month, in the cell of its local weekday and hour, in the same deferred trigger as the day totals.
-- Replaces the function of 0031_point_month (its update trigger already fires on every column this reads).
CREATE FUNCTION "start_month_add"(p integer, st integer, m date, slot integer, n integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "start_month" AS x ("provider_id", "station_id", "month", "starts_by_week_hour")
    VALUES (p, st, m, (SELECT array_agg(CASE WHEN i = slot THEN n ELSE 0 END ORDER BY i) FROM generate_series(0, 167) i))
    ON CONFLICT ("provider_id", "station_id", "month") DO UPDATE
    SET "starts_by_week_hour"[slot + 1] = x."starts_by_week_hour"[slot + 1] + n;
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
  h integer;
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
  -- The same start of the same point and station (a settlement, a late Stop): one change by the difference
  -- (the start and its hour stay where they were).
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
    h := extract(hour FROM OLD."started_at" AT TIME ZONE tz)::integer;
    PERFORM "charging_day_add"(OLD."provider_id", OLD."station_id", was_day, -1, -OLD."energy_wh", -was_income, -was_secs, h);
    PERFORM "point_month_add"(OLD."charge_point_id", date_trunc('month', was_day)::date, OLD."provider_id", OLD."station_id", -1,
      -OLD."energy_wh", -was_secs);
    PERFORM "start_month_add"(OLD."provider_id", OLD."station_id", date_trunc('month', was_day)::date,
      (extract(isodow FROM was_day)::integer - 1) * 24 + h, -1);
  END IF;
  IF now_day IS NOT NULL THEN
    h := extract(hour FROM NEW."started_at" AT TIME ZONE tz)::integer;
    PERFORM "charging_day_add"(NEW."provider_id", NEW."station_id", now_day, 1, NEW."energy_wh", now_income, now_secs, h);
    PERFORM "point_month_add"(NEW."charge_point_id", date_trunc('month', now_day)::date, NEW."provider_id", NEW."station_id", 1,
      NEW."energy_wh", now_secs);
    PERFORM "start_month_add"(NEW."provider_id", NEW."station_id", date_trunc('month', now_day)::date,
      (extract(isodow FROM now_day)::integer - 1) * 24 + h, 1);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- The start months are filled from the records at the next start (ensureDayTotals rebuilds every rollup when the zone is unset).
UPDATE "charging_day_zone" SET "time_zone" = NULL;

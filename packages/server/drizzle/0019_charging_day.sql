CREATE TABLE "charging_day" (
	"provider_id" integer NOT NULL,
	"station_id" integer NOT NULL,
	"day" date NOT NULL,
	"charge_count" integer DEFAULT 0 NOT NULL,
	"energy_wh" bigint DEFAULT 0 NOT NULL,
	"income_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "charging_day_provider_id_station_id_day_pk" PRIMARY KEY("provider_id","station_id","day")
);
--> statement-breakpoint
CREATE TABLE "charging_day_zone" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"time_zone" varchar(64)
);
--> statement-breakpoint
CREATE INDEX "charging_day_day" ON "charging_day" USING btree ("day");--> statement-breakpoint
-- Not built until the server's first start names the time zone (`CSMS_TIME_ZONE`) and adds the existing records.
INSERT INTO "charging_day_zone" ("id", "time_zone") VALUES (1, NULL);--> statement-breakpoint
CREATE FUNCTION "charging_day_add"(p integer, st integer, d date, n integer, wh bigint, cents bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "charging_day" AS x ("provider_id", "station_id", "day", "charge_count", "energy_wh", "income_cents")
    VALUES (p, st, d, n, wh, cents)
    ON CONFLICT ("provider_id", "station_id", "day") DO UPDATE
    SET "charge_count" = x."charge_count" + excluded."charge_count", "energy_wh" = x."energy_wh" + excluded."energy_wh",
        "income_cents" = x."income_cents" + excluded."income_cents";
$$;--> statement-breakpoint
-- A finished session's share of its start day: one session, its energy, and its bill with the bill's
-- correction once settled. A running one has none (the trend reads running sessions live).
CREATE FUNCTION "charging_day_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tz text;
  was_day date;
  now_day date;
  was_income bigint := 0;
  now_income bigint := 0;
BEGIN
  SELECT "time_zone" INTO tz FROM "charging_day_zone" WHERE "id" = 1;
  IF tz IS NULL THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' AND OLD."stopped_at" IS NOT NULL THEN
    was_day := (OLD."started_at" AT TIME ZONE tz)::date;
    IF OLD."billed_at" IS NOT NULL THEN
      was_income := coalesce(OLD."total_cents", 0) + coalesce(OLD."adjustment_cents", 0);
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW."stopped_at" IS NOT NULL THEN
    now_day := (NEW."started_at" AT TIME ZONE tz)::date;
    IF NEW."billed_at" IS NOT NULL THEN
      now_income := coalesce(NEW."total_cents", 0) + coalesce(NEW."adjustment_cents", 0);
    END IF;
  END IF;
  -- The same day of the same station (a settlement, a late Stop): one change by the difference.
  IF was_day = now_day AND OLD."provider_id" = NEW."provider_id" AND OLD."station_id" = NEW."station_id" THEN
    IF NEW."energy_wh" <> OLD."energy_wh" OR now_income <> was_income THEN
      PERFORM "charging_day_add"(NEW."provider_id", NEW."station_id", now_day, 0, NEW."energy_wh" - OLD."energy_wh", now_income - was_income);
    END IF;
    RETURN NULL;
  END IF;
  IF was_day IS NOT NULL THEN
    PERFORM "charging_day_add"(OLD."provider_id", OLD."station_id", was_day, -1, -OLD."energy_wh", -was_income);
  END IF;
  IF now_day IS NOT NULL THEN
    PERFORM "charging_day_add"(NEW."provider_id", NEW."station_id", now_day, 1, NEW."energy_wh", now_income);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- Deferred to the commit: a day's row of a busy station is locked only while its writers commit, not
-- while a Stop's transaction goes on to settle the bill (each event keeps its own old and new row).
CREATE CONSTRAINT TRIGGER "charging_day_insert" AFTER INSERT ON "charging_transaction" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW."stopped_at" IS NOT NULL) EXECUTE FUNCTION "charging_day_apply"();--> statement-breakpoint
-- Meter values on a running session change none of this: the condition skips them without queueing an event.
CREATE CONSTRAINT TRIGGER "charging_day_update" AFTER UPDATE OF "provider_id", "station_id", "started_at", "stopped_at", "energy_wh", "total_cents", "adjustment_cents", "billed_at" ON "charging_transaction" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD."stopped_at" IS NOT NULL OR NEW."stopped_at" IS NOT NULL)
    AND (OLD."provider_id", OLD."station_id", OLD."started_at", OLD."stopped_at" IS NULL, OLD."energy_wh", OLD."total_cents", OLD."adjustment_cents", OLD."billed_at" IS NULL)
      IS DISTINCT FROM (NEW."provider_id", NEW."station_id", NEW."started_at", NEW."stopped_at" IS NULL, NEW."energy_wh", NEW."total_cents", NEW."adjustment_cents", NEW."billed_at" IS NULL))
  EXECUTE FUNCTION "charging_day_apply"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "charging_day_delete" AFTER DELETE ON "charging_transaction" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."stopped_at" IS NOT NULL) EXECUTE FUNCTION "charging_day_apply"();

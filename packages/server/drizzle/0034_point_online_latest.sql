CREATE TABLE "point_online_latest" (
	"charge_point_id" integer PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"cum_before" double precision NOT NULL
);
--> statement-breakpoint
-- A span inserted, or closed, becomes its point's latest unless a later one is there already.
CREATE FUNCTION "point_online_latest_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "point_online_latest" ("charge_point_id", "started_at", "ended_at", "cum_before")
    VALUES (NEW."charge_point_id", NEW."started_at", NEW."ended_at", NEW."cum_before")
    ON CONFLICT ("charge_point_id") DO UPDATE
      SET "started_at" = excluded."started_at", "ended_at" = excluded."ended_at", "cum_before" = excluded."cum_before"
      WHERE "point_online_latest"."started_at" <= excluded."started_at";
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "point_online_latest_apply" AFTER INSERT OR UPDATE OF "ended_at" ON "point_online_span" FOR EACH ROW
  EXECUTE FUNCTION "point_online_latest_apply"();--> statement-breakpoint
INSERT INTO "point_online_latest" ("charge_point_id", "started_at", "ended_at", "cum_before")
  SELECT DISTINCT ON ("charge_point_id") "charge_point_id", "started_at", "ended_at", "cum_before"
  FROM "point_online_span" ORDER BY "charge_point_id", "started_at" DESC, "id" DESC;

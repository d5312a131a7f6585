CREATE TABLE "point_online_span" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"charge_point_id" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "point_online_span_point" ON "point_online_span" USING btree ("charge_point_id","started_at");--> statement-breakpoint
CREATE INDEX "point_online_span_open" ON "point_online_span" USING btree ("charge_point_id") WHERE "point_online_span"."ended_at" is null;--> statement-breakpoint
-- A point marked online opens a span (from its connection time); marked offline, closes its open one.
CREATE FUNCTION "point_online_span_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."online" THEN
    INSERT INTO "point_online_span" ("charge_point_id", "started_at") VALUES (NEW."id", coalesce(NEW."connected_at", now()));
  ELSE
    UPDATE "point_online_span" SET "ended_at" = greatest("started_at", now())
      WHERE "charge_point_id" = NEW."id" AND "ended_at" IS NULL;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "point_online_span_update" AFTER UPDATE OF "online" ON "charge_point" FOR EACH ROW
  WHEN (OLD."online" IS DISTINCT FROM NEW."online") EXECUTE FUNCTION "point_online_span_apply"();--> statement-breakpoint
CREATE TRIGGER "point_online_span_insert" AFTER INSERT ON "charge_point" FOR EACH ROW
  WHEN (NEW."online") EXECUTE FUNCTION "point_online_span_apply"();--> statement-breakpoint
-- Points online when this runs: their spans start at their connection.
INSERT INTO "point_online_span" ("charge_point_id", "started_at")
  SELECT "id", coalesce("connected_at", now()) FROM "charge_point" WHERE "online";

ALTER TABLE "point_online_span" ADD COLUMN "cum_before" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "point_online_span_ended" ON "point_online_span" USING btree ("ended_at");--> statement-breakpoint
-- Each span's online seconds before it: the lengths of the point's earlier spans (an earlier span never closed counts 0).
UPDATE "point_online_span" s SET "cum_before" = x.cum
  FROM (SELECT "id", coalesce(sum(extract(epoch FROM coalesce("ended_at", "started_at") - "started_at")) OVER (
          PARTITION BY "charge_point_id" ORDER BY "started_at", "id" ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS cum
        FROM "point_online_span") x
  WHERE x."id" = s."id";--> statement-breakpoint
-- A new span continues from the point's latest one (spans of a point are inserted in time order: the point's row is
-- locked by the update that opens one).
CREATE FUNCTION "point_online_span_cumulate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."cum_before" := coalesce((
    SELECT "cum_before" + extract(epoch FROM coalesce("ended_at", "started_at") - "started_at")
      FROM "point_online_span"
      WHERE "charge_point_id" = NEW."charge_point_id" AND "started_at" <= NEW."started_at"
      ORDER BY "started_at" DESC LIMIT 1), 0);
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "point_online_span_cumulate" BEFORE INSERT ON "point_online_span" FOR EACH ROW
  EXECUTE FUNCTION "point_online_span_cumulate"();

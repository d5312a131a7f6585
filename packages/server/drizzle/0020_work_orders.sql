CREATE TABLE "service_area" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"name" varchar(50) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_area_member" (
	"area_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" varchar(16) NOT NULL,
	CONSTRAINT "service_area_member_area_id_user_id_role_pk" PRIMARY KEY("area_id","user_id","role")
);
--> statement-breakpoint
CREATE TABLE "service_area_station" (
	"area_id" integer NOT NULL,
	"station_id" integer NOT NULL,
	CONSTRAINT "service_area_station_station_id_pk" PRIMARY KEY("station_id")
);
--> statement-breakpoint
CREATE TABLE "work_order" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"station_id" integer NOT NULL,
	"charge_point_id" integer NOT NULL,
	"connector_no" integer NOT NULL,
	"transaction_id" integer,
	"alarm_id" integer,
	"fault_code" varchar(50) NOT NULL,
	"vendor_error_code" varchar(50),
	"source" varchar(8) NOT NULL,
	"description" varchar(1000) NOT NULL,
	"priority" varchar(8) DEFAULT 'normal' NOT NULL,
	"status" varchar(12) DEFAULT 'new' NOT NULL,
	"service_man_id" integer,
	"repeats" integer DEFAULT 0 NOT NULL,
	"fault_cleared_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "work_order_step" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"work_order_id" integer NOT NULL,
	"kind" varchar(16) NOT NULL,
	"actor_id" integer,
	"service_man_id" integer,
	"note" varchar(1000),
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "service_area" ADD CONSTRAINT "service_area_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_area_member" ADD CONSTRAINT "service_area_member_area_id_service_area_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."service_area"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_area_member" ADD CONSTRAINT "service_area_member_user_id_system_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."system_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_area_station" ADD CONSTRAINT "service_area_station_area_id_service_area_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."service_area"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_area_station" ADD CONSTRAINT "service_area_station_station_id_station_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."station"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order" ADD CONSTRAINT "work_order_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order" ADD CONSTRAINT "work_order_station_id_station_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."station"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order" ADD CONSTRAINT "work_order_charge_point_id_charge_point_id_fk" FOREIGN KEY ("charge_point_id") REFERENCES "public"."charge_point"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order" ADD CONSTRAINT "work_order_transaction_id_charging_transaction_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."charging_transaction"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order" ADD CONSTRAINT "work_order_alarm_id_alarm_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarm"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order" ADD CONSTRAINT "work_order_service_man_id_system_user_id_fk" FOREIGN KEY ("service_man_id") REFERENCES "public"."system_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order" ADD CONSTRAINT "work_order_created_by_system_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."system_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_step" ADD CONSTRAINT "work_order_step_work_order_id_work_order_id_fk" FOREIGN KEY ("work_order_id") REFERENCES "public"."work_order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_step" ADD CONSTRAINT "work_order_step_actor_id_system_user_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."system_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_step" ADD CONSTRAINT "work_order_step_service_man_id_system_user_id_fk" FOREIGN KEY ("service_man_id") REFERENCES "public"."system_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "service_area_name" ON "service_area" USING btree ("provider_id","name");--> statement-breakpoint
CREATE INDEX "service_area_member_user" ON "service_area_member" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "service_area_station_area" ON "service_area_station" USING btree ("area_id");--> statement-breakpoint
CREATE UNIQUE INDEX "work_order_open" ON "work_order" USING btree ("charge_point_id","fault_code") WHERE "work_order"."status" in ('new', 'assigned', 'processing', 'failed');--> statement-breakpoint
CREATE INDEX "work_order_created" ON "work_order" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "work_order_station" ON "work_order" USING btree ("station_id","id");--> statement-breakpoint
CREATE INDEX "work_order_service_man" ON "work_order" USING btree ("service_man_id","id");--> statement-breakpoint
CREATE INDEX "work_order_step_order" ON "work_order_step" USING btree ("work_order_id","id");--> statement-breakpoint
-- A charger's serious fault opens a work order in the alarm's own transaction (nothing lost to a crash),
-- one open order per point and fault code: a repeat attaches to the open one (and the fault stands again).
CREATE FUNCTION "work_order_from_alarm"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  order_id integer;
  opened boolean;
  session integer;
BEGIN
  SELECT t."id" INTO session FROM "charging_transaction" t
    WHERE t."charge_point_id" = NEW."charge_point_id" AND t."stopped_at" IS NULL
      AND (NEW."connector_no" = 0 OR t."connector_no" = NEW."connector_no")
    ORDER BY t."started_at" DESC LIMIT 1;
  INSERT INTO "work_order" AS w ("provider_id", "station_id", "charge_point_id", "connector_no", "transaction_id", "alarm_id",
      "fault_code", "vendor_error_code", "source", "description", "priority", "status", "created_at", "updated_at")
    VALUES (NEW."provider_id", NEW."station_id", NEW."charge_point_id", NEW."connector_no", session, NEW."id",
      NEW."error_code", NEW."vendor_error_code", 'alarm', coalesce(NEW."info", ''), 'high', 'new', NEW."occurred_at", now())
    ON CONFLICT ("charge_point_id", "fault_code") WHERE "status" IN ('new', 'assigned', 'processing', 'failed')
    DO UPDATE SET "repeats" = w."repeats" + 1, "fault_cleared_at" = NULL, "updated_at" = now()
    RETURNING w."id", (xmax = 0) INTO order_id, opened;
  INSERT INTO "work_order_step" ("work_order_id", "kind", "note", "at")
    VALUES (order_id, CASE WHEN opened THEN 'created' ELSE 'repeated' END,
      nullif(concat_ws(' ', NEW."info", NEW."vendor_error_code"), ''), NEW."occurred_at");
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "work_order_from_alarm" AFTER INSERT ON "alarm" FOR EACH ROW
  WHEN (NEW."level" = 'serious') EXECUTE FUNCTION "work_order_from_alarm"();--> statement-breakpoint
-- The charger reports the fault gone: the open order says so (the service man still closes it).
CREATE FUNCTION "work_order_fault_cleared"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  order_id integer;
BEGIN
  UPDATE "work_order" SET "fault_cleared_at" = NEW."cleared_at", "updated_at" = now()
    WHERE "charge_point_id" = NEW."charge_point_id" AND "fault_code" = NEW."error_code"
      AND "status" IN ('new', 'assigned', 'processing', 'failed') AND "fault_cleared_at" IS NULL
    RETURNING "id" INTO order_id;
  IF order_id IS NOT NULL THEN
    INSERT INTO "work_order_step" ("work_order_id", "kind", "at") VALUES (order_id, 'faultCleared', NEW."cleared_at");
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "work_order_fault_cleared" AFTER UPDATE OF "cleared_at" ON "alarm" FOR EACH ROW
  WHEN (NEW."level" = 'serious' AND OLD."cleared_at" IS NULL AND NEW."cleared_at" IS NOT NULL) EXECUTE FUNCTION "work_order_fault_cleared"();--> statement-breakpoint
-- The serious faults standing when this arrives get their orders too.
INSERT INTO "work_order" ("provider_id", "station_id", "charge_point_id", "connector_no", "alarm_id", "fault_code", "vendor_error_code",
    "source", "description", "priority", "status", "created_at", "updated_at")
  SELECT DISTINCT ON (a."charge_point_id", a."error_code") a."provider_id", a."station_id", a."charge_point_id", a."connector_no", a."id",
    a."error_code", a."vendor_error_code", 'alarm', coalesce(a."info", ''), 'high', 'new', a."occurred_at", now()
  FROM "alarm" a WHERE a."level" = 'serious' AND a."cleared_at" IS NULL
  ORDER BY a."charge_point_id", a."error_code", a."occurred_at";--> statement-breakpoint
INSERT INTO "work_order_step" ("work_order_id", "kind", "at") SELECT "id", 'created', "created_at" FROM "work_order";

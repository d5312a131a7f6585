CREATE TABLE "charging_limit" (
	"charge_point_id" integer NOT NULL,
	"evse_id" integer NOT NULL,
	"source" varchar(8) NOT NULL,
	"grid_critical" boolean DEFAULT false NOT NULL,
	"schedules" jsonb,
	"reported_at" timestamp with time zone NOT NULL,
	CONSTRAINT "charging_limit_charge_point_id_evse_id_source_pk" PRIMARY KEY("charge_point_id","evse_id","source")
);
--> statement-breakpoint
ALTER TABLE "charging_limit" ADD CONSTRAINT "charging_limit_charge_point_id_charge_point_id_fk" FOREIGN KEY ("charge_point_id") REFERENCES "public"."charge_point"("id") ON DELETE cascade ON UPDATE no action;
CREATE TABLE "charging_profile" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"station_id" integer NOT NULL,
	"purpose" varchar(24) NOT NULL,
	"stack_level" integer NOT NULL,
	"valid_from" timestamp with time zone,
	"valid_to" timestamp with time zone,
	"kind" varchar(12) NOT NULL,
	"recurrency_kind" varchar(8),
	"rate_unit" varchar(1) NOT NULL,
	"start_schedule" timestamp with time zone,
	"duration_sec" integer,
	"min_charging_rate" double precision,
	"periods" jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charging_profile_target" (
	"profile_id" integer NOT NULL,
	"charge_point_id" integer NOT NULL,
	"connector_no" integer NOT NULL,
	"status" varchar(16) DEFAULT 'notSent' NOT NULL,
	"charger_status" varchar(32),
	"transaction_id" integer,
	"sent_at" timestamp with time zone,
	CONSTRAINT "charging_profile_target_profile_id_charge_point_id_connector_no_pk" PRIMARY KEY("profile_id","charge_point_id","connector_no")
);
--> statement-breakpoint
ALTER TABLE "charging_profile" ADD CONSTRAINT "charging_profile_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_profile" ADD CONSTRAINT "charging_profile_station_id_station_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."station"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_profile_target" ADD CONSTRAINT "charging_profile_target_profile_id_charging_profile_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."charging_profile"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_profile_target" ADD CONSTRAINT "charging_profile_target_charge_point_id_charge_point_id_fk" FOREIGN KEY ("charge_point_id") REFERENCES "public"."charge_point"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_profile_target" ADD CONSTRAINT "charging_profile_target_transaction_id_charging_transaction_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."charging_transaction"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "charging_profile_station" ON "charging_profile" USING btree ("station_id","id");--> statement-breakpoint
CREATE INDEX "charging_profile_target_point" ON "charging_profile_target" USING btree ("charge_point_id");
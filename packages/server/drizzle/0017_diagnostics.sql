CREATE TABLE "diagnostics_request" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"station_id" integer NOT NULL,
	"charge_point_id" integer NOT NULL,
	"location" varchar(600) NOT NULL,
	"token" varchar(64),
	"start_time" timestamp with time zone,
	"stop_time" timestamp with time zone,
	"retries" integer,
	"retry_interval" integer,
	"state" varchar(16) NOT NULL,
	"file_name" varchar(255),
	"reason" varchar(200),
	"stored_name" varchar(255),
	"size_bytes" bigint,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reported_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "diagnostics_request" ADD CONSTRAINT "diagnostics_request_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diagnostics_request" ADD CONSTRAINT "diagnostics_request_station_id_station_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."station"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diagnostics_request" ADD CONSTRAINT "diagnostics_request_charge_point_id_charge_point_id_fk" FOREIGN KEY ("charge_point_id") REFERENCES "public"."charge_point"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "diagnostics_request_provider" ON "diagnostics_request" USING btree ("provider_id","id");--> statement-breakpoint
CREATE INDEX "diagnostics_request_point" ON "diagnostics_request" USING btree ("charge_point_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "diagnostics_request_token" ON "diagnostics_request" USING btree ("token");
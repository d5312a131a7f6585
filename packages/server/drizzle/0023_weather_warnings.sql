CREATE TABLE "weather_feed" (
	"id" integer PRIMARY KEY NOT NULL,
	"last_run_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_error" varchar(1000),
	"last_error_at" timestamp with time zone,
	"stations" integer DEFAULT 0 NOT NULL,
	"failed_locations" integer DEFAULT 0 NOT NULL,
	"next_run_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "weather_forecast" (
	"station_id" integer NOT NULL,
	"day" date NOT NULL,
	"temp_max_c" double precision,
	"temp_min_c" double precision,
	"precipitation_mm" double precision,
	"wind_max_kmh" double precision,
	"weather_code" smallint,
	"fetched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "weather_forecast_station_id_day_pk" PRIMARY KEY("station_id","day")
);
--> statement-breakpoint
CREATE TABLE "weather_rule" (
	"provider_id" integer PRIMARY KEY NOT NULL,
	"heat_max_c" double precision,
	"frost_min_c" double precision,
	"storm_wind_kmh" double precision,
	"heavy_rain_mm" double precision,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "weather_warning" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"station_id" integer NOT NULL,
	"kind" varchar(16) NOT NULL,
	"level" varchar(8) NOT NULL,
	"day" date NOT NULL,
	"source" varchar(8) NOT NULL,
	"value" double precision,
	"threshold" double precision,
	"note" varchar(500),
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_by" integer
);
--> statement-breakpoint
ALTER TABLE "weather_forecast" ADD CONSTRAINT "weather_forecast_station_id_station_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."station"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weather_rule" ADD CONSTRAINT "weather_rule_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weather_rule" ADD CONSTRAINT "weather_rule_updated_by_system_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."system_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weather_warning" ADD CONSTRAINT "weather_warning_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weather_warning" ADD CONSTRAINT "weather_warning_station_id_station_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."station"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weather_warning" ADD CONSTRAINT "weather_warning_created_by_system_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."system_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weather_warning" ADD CONSTRAINT "weather_warning_ended_by_system_user_id_fk" FOREIGN KEY ("ended_by") REFERENCES "public"."system_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "weather_warning_forecast" ON "weather_warning" USING btree ("station_id","kind","day") WHERE "weather_warning"."source" = 'forecast';--> statement-breakpoint
CREATE INDEX "weather_warning_station_day" ON "weather_warning" USING btree ("station_id","day");--> statement-breakpoint
CREATE INDEX "weather_warning_provider" ON "weather_warning" USING btree ("provider_id","id");--> statement-breakpoint
-- hand-written: the feed's one status row, so that every node updates it in place.
INSERT INTO "weather_feed" ("id") VALUES (1) ON CONFLICT DO NOTHING;

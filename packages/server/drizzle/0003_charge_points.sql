CREATE TABLE "alarm" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"station_id" integer NOT NULL,
	"charge_point_id" integer NOT NULL,
	"connector_no" integer NOT NULL,
	"level" varchar(8) NOT NULL,
	"status" varchar(16) NOT NULL,
	"error_code" varchar(32) NOT NULL,
	"info" varchar(50),
	"vendor_error_code" varchar(50),
	"occurred_at" timestamp with time zone NOT NULL,
	"cleared_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "car" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"plate" varchar(20) NOT NULL,
	"vin" varchar(17) NOT NULL,
	"alias" varchar(50),
	"brand" varchar(50),
	"model" varchar(50),
	"charge_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charge_point" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"station_id" integer NOT NULL,
	"serial_number" varchar(48) NOT NULL,
	"name" varchar(100) NOT NULL,
	"equipment_type" varchar(16) NOT NULL,
	"rated_power_w" integer NOT NULL,
	"software_version" varchar(50),
	"ocpp_key_hash" varchar(200),
	"needs_placement" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"vendor" varchar(20),
	"model" varchar(20),
	"firmware_version" varchar(50),
	"charge_box_serial" varchar(25),
	"iccid" varchar(20),
	"imsi" varchar(20),
	"meter_type" varchar(25),
	"meter_serial" varchar(25),
	"status" varchar(16),
	"error_code" varchar(32),
	"last_boot_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone,
	"connected_at" timestamp with time zone,
	"online" boolean DEFAULT false NOT NULL,
	"firmware_status" varchar(32),
	"diagnostics_status" varchar(32),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charging_transaction" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"station_id" integer NOT NULL,
	"charge_point_id" integer NOT NULL,
	"connector_no" integer NOT NULL,
	"id_tag" varchar(20) NOT NULL,
	"card_id" integer,
	"charge_user_id" integer,
	"start_type" varchar(8) NOT NULL,
	"auth_status" varchar(16) NOT NULL,
	"auth_reason" varchar(32),
	"reservation_id" integer,
	"meter_start_wh" bigint NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"meter_stop_wh" bigint,
	"stopped_at" timestamp with time zone,
	"stop_reason" varchar(20),
	"stop_id_tag" varchar(20),
	"energy_wh" bigint DEFAULT 0 NOT NULL,
	"last_meter_wh" bigint,
	"last_power_w" integer,
	"last_soc" integer,
	"last_sample_at" timestamp with time zone,
	"valid" boolean DEFAULT true NOT NULL,
	"invalid_reason" varchar(64),
	"late" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "connector" (
	"id" serial PRIMARY KEY NOT NULL,
	"charge_point_id" integer NOT NULL,
	"connector_no" integer NOT NULL,
	"name" varchar(50),
	"standard" varchar(8) NOT NULL,
	"type" varchar(16) NOT NULL,
	"status" varchar(16),
	"error_code" varchar(32),
	"info" varchar(50),
	"vendor_error_code" varchar(50),
	"status_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "meter_value" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"charge_point_id" integer NOT NULL,
	"connector_no" integer NOT NULL,
	"transaction_id" integer,
	"sampled_at" timestamp with time zone NOT NULL,
	"energy_wh" bigint,
	"power_w" integer,
	"current_import_a" real,
	"current_offered_a" real,
	"voltage_v" real,
	"soc" integer,
	"temperature_c" real,
	"raw" jsonb
);
--> statement-breakpoint
CREATE TABLE "ocpp_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider_id" integer,
	"charge_point_id" integer,
	"serial_number" varchar(64) NOT NULL,
	"direction" varchar(8) NOT NULL,
	"message_type" integer,
	"action" varchar(48),
	"message_id" varchar(64),
	"payload" jsonb,
	"latency_ms" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "station" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"name" varchar(100) NOT NULL,
	"country" varchar(2) NOT NULL,
	"address" varchar(255) NOT NULL,
	"longitude" double precision NOT NULL,
	"latitude" double precision NOT NULL,
	"time_zone" varchar(64) NOT NULL,
	"opening_start" varchar(5),
	"opening_end" varchar(5),
	"is_public" boolean DEFAULT true NOT NULL,
	"service_phone" varchar(30),
	"description" varchar(1000),
	"amenities" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"picture" varchar(255),
	"guide" text,
	"status" varchar(16) DEFAULT 'operating' NOT NULL,
	"is_unassigned" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alarm" ADD CONSTRAINT "alarm_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm" ADD CONSTRAINT "alarm_station_id_station_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."station"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm" ADD CONSTRAINT "alarm_charge_point_id_charge_point_id_fk" FOREIGN KEY ("charge_point_id") REFERENCES "public"."charge_point"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "car" ADD CONSTRAINT "car_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "car" ADD CONSTRAINT "car_charge_user_id_charge_user_id_fk" FOREIGN KEY ("charge_user_id") REFERENCES "public"."charge_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charge_point" ADD CONSTRAINT "charge_point_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charge_point" ADD CONSTRAINT "charge_point_station_id_station_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."station"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_transaction" ADD CONSTRAINT "charging_transaction_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_transaction" ADD CONSTRAINT "charging_transaction_station_id_station_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."station"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_transaction" ADD CONSTRAINT "charging_transaction_charge_point_id_charge_point_id_fk" FOREIGN KEY ("charge_point_id") REFERENCES "public"."charge_point"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_transaction" ADD CONSTRAINT "charging_transaction_card_id_card_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."card"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_transaction" ADD CONSTRAINT "charging_transaction_charge_user_id_charge_user_id_fk" FOREIGN KEY ("charge_user_id") REFERENCES "public"."charge_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connector" ADD CONSTRAINT "connector_charge_point_id_charge_point_id_fk" FOREIGN KEY ("charge_point_id") REFERENCES "public"."charge_point"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_value" ADD CONSTRAINT "meter_value_charge_point_id_charge_point_id_fk" FOREIGN KEY ("charge_point_id") REFERENCES "public"."charge_point"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_value" ADD CONSTRAINT "meter_value_transaction_id_charging_transaction_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."charging_transaction"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "station" ADD CONSTRAINT "station_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alarm_provider_occurred" ON "alarm" USING btree ("provider_id","occurred_at");--> statement-breakpoint
CREATE INDEX "alarm_point_open" ON "alarm" USING btree ("charge_point_id","connector_no") WHERE "alarm"."cleared_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "car_provider_plate" ON "car" USING btree ("provider_id",upper("plate"));--> statement-breakpoint
CREATE INDEX "car_vin" ON "car" USING btree ("vin");--> statement-breakpoint
CREATE INDEX "car_charge_user" ON "car" USING btree ("charge_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "charge_point_serial" ON "charge_point" USING btree ("serial_number");--> statement-breakpoint
CREATE INDEX "charge_point_station" ON "charge_point" USING btree ("station_id");--> statement-breakpoint
CREATE INDEX "charge_point_provider" ON "charge_point" USING btree ("provider_id");--> statement-breakpoint
CREATE UNIQUE INDEX "charging_transaction_start" ON "charging_transaction" USING btree ("charge_point_id","connector_no","started_at");--> statement-breakpoint
CREATE INDEX "charging_transaction_provider_started" ON "charging_transaction" USING btree ("provider_id","started_at");--> statement-breakpoint
CREATE INDEX "charging_transaction_active" ON "charging_transaction" USING btree ("charge_point_id") WHERE "charging_transaction"."stopped_at" is null;--> statement-breakpoint
CREATE INDEX "charging_transaction_id_tag" ON "charging_transaction" USING btree ("id_tag");--> statement-breakpoint
CREATE UNIQUE INDEX "connector_point_no" ON "connector" USING btree ("charge_point_id","connector_no");--> statement-breakpoint
CREATE INDEX "meter_value_transaction" ON "meter_value" USING btree ("transaction_id","sampled_at");--> statement-breakpoint
CREATE INDEX "meter_value_point" ON "meter_value" USING btree ("charge_point_id","sampled_at");--> statement-breakpoint
CREATE INDEX "ocpp_log_point_created" ON "ocpp_log" USING btree ("serial_number","created_at");--> statement-breakpoint
CREATE INDEX "ocpp_log_created" ON "ocpp_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ocpp_log_message" ON "ocpp_log" USING btree ("serial_number","message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "station_provider_name" ON "station" USING btree ("provider_id",lower("name"));--> statement-breakpoint
CREATE INDEX "station_provider" ON "station" USING btree ("provider_id");
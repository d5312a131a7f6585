CREATE TABLE "reservation" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"station_id" integer NOT NULL,
	"charge_point_id" integer NOT NULL,
	"connector_no" integer NOT NULL,
	"charge_user_id" integer NOT NULL,
	"card_id" integer NOT NULL,
	"id_tag" varchar(20) NOT NULL,
	"expiry_at" timestamp with time zone NOT NULL,
	"status" varchar(12) NOT NULL,
	"charger_status" varchar(40),
	"transaction_id" integer,
	"fee_cents" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "timed_charge" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"station_id" integer NOT NULL,
	"charge_point_id" integer NOT NULL,
	"connectors" integer[] NOT NULL,
	"charge_user_id" integer NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date NOT NULL,
	"start_time" varchar(5) NOT NULL,
	"status" varchar(10) DEFAULT 'waiting' NOT NULL,
	"next_run_at" timestamp with time zone,
	"last_run_day" date,
	"last_reason" varchar(16),
	"lang" varchar(2) DEFAULT 'zh' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "timed_charge_run" (
	"timed_charge_id" integer NOT NULL,
	"day" date NOT NULL,
	"connector_no" integer NOT NULL,
	"status" varchar(8) NOT NULL,
	"reason" varchar(16),
	"charger_status" varchar(40),
	"card_id" integer,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "timed_charge_run_timed_charge_id_day_connector_no_pk" PRIMARY KEY("timed_charge_id","day","connector_no")
);
--> statement-breakpoint
ALTER TABLE "reservation" ADD CONSTRAINT "reservation_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation" ADD CONSTRAINT "reservation_station_id_station_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."station"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation" ADD CONSTRAINT "reservation_charge_point_id_charge_point_id_fk" FOREIGN KEY ("charge_point_id") REFERENCES "public"."charge_point"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation" ADD CONSTRAINT "reservation_charge_user_id_charge_user_id_fk" FOREIGN KEY ("charge_user_id") REFERENCES "public"."charge_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation" ADD CONSTRAINT "reservation_card_id_card_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."card"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation" ADD CONSTRAINT "reservation_transaction_id_charging_transaction_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."charging_transaction"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timed_charge" ADD CONSTRAINT "timed_charge_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timed_charge" ADD CONSTRAINT "timed_charge_station_id_station_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."station"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timed_charge" ADD CONSTRAINT "timed_charge_charge_point_id_charge_point_id_fk" FOREIGN KEY ("charge_point_id") REFERENCES "public"."charge_point"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timed_charge" ADD CONSTRAINT "timed_charge_charge_user_id_charge_user_id_fk" FOREIGN KEY ("charge_user_id") REFERENCES "public"."charge_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timed_charge_run" ADD CONSTRAINT "timed_charge_run_timed_charge_id_timed_charge_id_fk" FOREIGN KEY ("timed_charge_id") REFERENCES "public"."timed_charge"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timed_charge_run" ADD CONSTRAINT "timed_charge_run_card_id_card_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."card"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reservation_provider" ON "reservation" USING btree ("provider_id","id");--> statement-breakpoint
CREATE INDEX "reservation_live" ON "reservation" USING btree ("charge_point_id") WHERE status = 'reserved';--> statement-breakpoint
CREATE INDEX "reservation_transaction" ON "reservation" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "timed_charge_provider" ON "timed_charge" USING btree ("provider_id");--> statement-breakpoint
CREATE INDEX "timed_charge_due" ON "timed_charge" USING btree ("status","next_run_at");
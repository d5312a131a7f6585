CREATE TABLE "bill_line" (
	"id" serial PRIMARY KEY NOT NULL,
	"transaction_id" integer NOT NULL,
	"price_id" integer NOT NULL,
	"tier" varchar(8) NOT NULL,
	"kind" varchar(8) NOT NULL,
	"energy_wh" bigint NOT NULL,
	"unit_price" integer NOT NULL,
	"amount_cents" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "price" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"station_id" integer NOT NULL,
	"group_id" integer,
	"effective_from" timestamp with time zone NOT NULL,
	"sharp_elec" integer NOT NULL,
	"sharp_service" integer NOT NULL,
	"peak_elec" integer NOT NULL,
	"peak_service" integer NOT NULL,
	"flat_elec" integer NOT NULL,
	"flat_service" integer NOT NULL,
	"valley_elec" integer NOT NULL,
	"valley_service" integer NOT NULL,
	"reserve_fee_cents" integer DEFAULT 0 NOT NULL,
	"slots" jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_slots" CHECK (jsonb_typeof("price"."slots") = 'array' and jsonb_array_length("price"."slots") = 48)
);
--> statement-breakpoint
ALTER TABLE "charging_transaction" ADD COLUMN "elec_fee_cents" integer;--> statement-breakpoint
ALTER TABLE "charging_transaction" ADD COLUMN "service_fee_cents" integer;--> statement-breakpoint
ALTER TABLE "charging_transaction" ADD COLUMN "reserve_fee_cents" integer;--> statement-breakpoint
ALTER TABLE "charging_transaction" ADD COLUMN "total_cents" integer;--> statement-breakpoint
ALTER TABLE "charging_transaction" ADD COLUMN "billed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "charging_transaction" ADD COLUMN "paid_from" varchar(8);--> statement-breakpoint
ALTER TABLE "charging_transaction" ADD COLUMN "billing_note" varchar(64);--> statement-breakpoint
ALTER TABLE "charging_transaction" ADD COLUMN "confirmed_by" integer;--> statement-breakpoint
ALTER TABLE "charging_transaction" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bill_line" ADD CONSTRAINT "bill_line_transaction_id_charging_transaction_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."charging_transaction"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bill_line" ADD CONSTRAINT "bill_line_price_id_price_id_fk" FOREIGN KEY ("price_id") REFERENCES "public"."price"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price" ADD CONSTRAINT "price_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price" ADD CONSTRAINT "price_station_id_station_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."station"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price" ADD CONSTRAINT "price_group_id_user_group_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."user_group"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bill_line_unique" ON "bill_line" USING btree ("transaction_id","price_id","tier","kind");--> statement-breakpoint
CREATE INDEX "price_station_effective" ON "price" USING btree ("station_id","group_id","effective_from");
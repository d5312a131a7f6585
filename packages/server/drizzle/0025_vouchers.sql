CREATE TABLE "voucher" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"charge_user_id" integer NOT NULL,
	"name" varchar(50) NOT NULL,
	"kind" varchar(8) NOT NULL,
	"value" integer NOT NULL,
	"min_bill_cents" integer NOT NULL,
	"station_ids" jsonb NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_until" timestamp with time zone NOT NULL,
	"status" varchar(8) DEFAULT 'unused' NOT NULL,
	"issued_by" integer,
	"activity_id" integer,
	"used_at" timestamp with time zone,
	"transaction_id" integer,
	"discount_cents" integer,
	"revoke_reason" varchar(200),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "voucher_template" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"name" varchar(50) NOT NULL,
	"kind" varchar(8) NOT NULL,
	"value" integer NOT NULL,
	"min_bill_cents" integer DEFAULT 0 NOT NULL,
	"station_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"valid_days" integer,
	"valid_from" timestamp with time zone,
	"valid_to" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "voucher" ADD CONSTRAINT "voucher_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher" ADD CONSTRAINT "voucher_template_id_voucher_template_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."voucher_template"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher" ADD CONSTRAINT "voucher_charge_user_id_charge_user_id_fk" FOREIGN KEY ("charge_user_id") REFERENCES "public"."charge_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher" ADD CONSTRAINT "voucher_issued_by_system_user_id_fk" FOREIGN KEY ("issued_by") REFERENCES "public"."system_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher" ADD CONSTRAINT "voucher_transaction_id_charging_transaction_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."charging_transaction"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher_template" ADD CONSTRAINT "voucher_template_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "voucher_user" ON "voucher" USING btree ("charge_user_id","status");--> statement-breakpoint
CREATE INDEX "voucher_provider" ON "voucher" USING btree ("provider_id");--> statement-breakpoint
CREATE UNIQUE INDEX "voucher_transaction" ON "voucher" USING btree ("transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "voucher_template_name" ON "voucher_template" USING btree ("provider_id",lower("name"));
CREATE TABLE "activity" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"name" varchar(50) NOT NULL,
	"type" varchar(16) NOT NULL,
	"status" varchar(8) DEFAULT 'draft' NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"station_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"group_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"discount_kind" varchar(8) NOT NULL,
	"discount_value" integer NOT NULL,
	"hours" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"activated_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_level" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"name" varchar(50) NOT NULL,
	"sort_order" integer NOT NULL,
	"basis" varchar(8) NOT NULL,
	"threshold" bigint NOT NULL,
	"discount_percent" integer NOT NULL,
	"validity_days" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_level_discount" CHECK ("member_level"."discount_percent" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "member_status" (
	"charge_user_id" integer PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"level_id" integer,
	"valid_until" timestamp with time zone,
	"spend_cents" bigint DEFAULT 0 NOT NULL,
	"energy_wh" bigint DEFAULT 0 NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"override_level_id" integer,
	"override_reason" varchar(200),
	"override_until" timestamp with time zone,
	"override_by" integer
);
--> statement-breakpoint
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
ALTER TABLE "bill_line" ALTER COLUMN "price_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "bill_line" ALTER COLUMN "tier" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "bill_line" ADD COLUMN "ref_id" integer;--> statement-breakpoint
ALTER TABLE "bill_line" ADD COLUMN "label" varchar(100);--> statement-breakpoint
ALTER TABLE "activity" ADD CONSTRAINT "activity_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_level" ADD CONSTRAINT "member_level_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_status" ADD CONSTRAINT "member_status_charge_user_id_charge_user_id_fk" FOREIGN KEY ("charge_user_id") REFERENCES "public"."charge_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_status" ADD CONSTRAINT "member_status_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_status" ADD CONSTRAINT "member_status_level_id_member_level_id_fk" FOREIGN KEY ("level_id") REFERENCES "public"."member_level"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_status" ADD CONSTRAINT "member_status_override_level_id_member_level_id_fk" FOREIGN KEY ("override_level_id") REFERENCES "public"."member_level"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_status" ADD CONSTRAINT "member_status_override_by_system_user_id_fk" FOREIGN KEY ("override_by") REFERENCES "public"."system_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher" ADD CONSTRAINT "voucher_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher" ADD CONSTRAINT "voucher_template_id_voucher_template_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."voucher_template"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher" ADD CONSTRAINT "voucher_charge_user_id_charge_user_id_fk" FOREIGN KEY ("charge_user_id") REFERENCES "public"."charge_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher" ADD CONSTRAINT "voucher_issued_by_system_user_id_fk" FOREIGN KEY ("issued_by") REFERENCES "public"."system_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher" ADD CONSTRAINT "voucher_transaction_id_charging_transaction_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."charging_transaction"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher_template" ADD CONSTRAINT "voucher_template_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_provider" ON "activity" USING btree ("provider_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "member_level_name" ON "member_level" USING btree ("provider_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "member_level_order" ON "member_level" USING btree ("provider_id","sort_order");--> statement-breakpoint
CREATE INDEX "member_status_provider" ON "member_status" USING btree ("provider_id");--> statement-breakpoint
CREATE INDEX "member_status_level" ON "member_status" USING btree ("level_id");--> statement-breakpoint
CREATE INDEX "voucher_user" ON "voucher" USING btree ("charge_user_id","status");--> statement-breakpoint
CREATE INDEX "voucher_provider" ON "voucher" USING btree ("provider_id");--> statement-breakpoint
CREATE UNIQUE INDEX "voucher_transaction" ON "voucher" USING btree ("transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "voucher_template_name" ON "voucher_template" USING btree ("provider_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "bill_line_discount" ON "bill_line" USING btree ("transaction_id","kind") WHERE "bill_line"."price_id" is null;
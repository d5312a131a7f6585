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
ALTER TABLE "bill_line" ALTER COLUMN "price_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "bill_line" ALTER COLUMN "tier" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "bill_line" ADD COLUMN "ref_id" integer;--> statement-breakpoint
ALTER TABLE "bill_line" ADD COLUMN "label" varchar(100);--> statement-breakpoint
ALTER TABLE "member_level" ADD CONSTRAINT "member_level_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_status" ADD CONSTRAINT "member_status_charge_user_id_charge_user_id_fk" FOREIGN KEY ("charge_user_id") REFERENCES "public"."charge_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_status" ADD CONSTRAINT "member_status_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_status" ADD CONSTRAINT "member_status_level_id_member_level_id_fk" FOREIGN KEY ("level_id") REFERENCES "public"."member_level"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_status" ADD CONSTRAINT "member_status_override_level_id_member_level_id_fk" FOREIGN KEY ("override_level_id") REFERENCES "public"."member_level"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_status" ADD CONSTRAINT "member_status_override_by_system_user_id_fk" FOREIGN KEY ("override_by") REFERENCES "public"."system_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "member_level_name" ON "member_level" USING btree ("provider_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "member_level_order" ON "member_level" USING btree ("provider_id","sort_order");--> statement-breakpoint
CREATE INDEX "member_status_provider" ON "member_status" USING btree ("provider_id");--> statement-breakpoint
CREATE INDEX "member_status_level" ON "member_status" USING btree ("level_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bill_line_discount" ON "bill_line" USING btree ("transaction_id","kind") WHERE "bill_line"."price_id" is null;
CREATE TABLE "card" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"card_number" varchar(64) NOT NULL,
	"physical_id" varchar(20) NOT NULL,
	"charge_user_id" integer,
	"balance_cents" integer DEFAULT 0 NOT NULL,
	"expire_at" timestamp with time zone NOT NULL,
	"status" varchar(10) DEFAULT 'valid' NOT NULL,
	"email" varchar(100),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charge_user" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account" varchar(64) NOT NULL,
	"phone" varchar(30),
	"email" varchar(100),
	"user_type" varchar(10) NOT NULL,
	"mobile_balance_cents" integer DEFAULT 0 NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"group_id" integer,
	"member_level" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_kind" varchar(10) NOT NULL,
	"card_id" integer,
	"charge_user_id" integer,
	"trade_type" varchar(10) NOT NULL,
	"amount_cents" integer NOT NULL,
	"balance_before_cents" integer NOT NULL,
	"balance_after_cents" integer NOT NULL,
	"operator_user_id" integer,
	"source" varchar(32) NOT NULL,
	"third_party_txn_id" varchar(128),
	"transaction_ref" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_account" CHECK (("ledger"."account_kind" = 'card' and "ledger"."card_id" is not null) or ("ledger"."account_kind" = 'mobile' and "ledger"."charge_user_id" is not null and "ledger"."card_id" is null)),
	CONSTRAINT "ledger_balance" CHECK ("ledger"."balance_before_cents" + "ledger"."amount_cents" = "ledger"."balance_after_cents")
);
--> statement-breakpoint
CREATE TABLE "local_list_version" (
	"id" integer PRIMARY KEY NOT NULL,
	"version" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_group" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"name" varchar(50) NOT NULL,
	"description" varchar(500),
	"monthly_limit_wh" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "card" ADD CONSTRAINT "card_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card" ADD CONSTRAINT "card_charge_user_id_charge_user_id_fk" FOREIGN KEY ("charge_user_id") REFERENCES "public"."charge_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charge_user" ADD CONSTRAINT "charge_user_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charge_user" ADD CONSTRAINT "charge_user_group_id_user_group_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."user_group"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger" ADD CONSTRAINT "ledger_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger" ADD CONSTRAINT "ledger_card_id_card_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."card"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger" ADD CONSTRAINT "ledger_charge_user_id_charge_user_id_fk" FOREIGN KEY ("charge_user_id") REFERENCES "public"."charge_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_group" ADD CONSTRAINT "user_group_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "card_physical_id" ON "card" USING btree (lower("physical_id"));--> statement-breakpoint
CREATE UNIQUE INDEX "card_provider_number" ON "card" USING btree ("provider_id","card_number");--> statement-breakpoint
CREATE INDEX "card_charge_user" ON "card" USING btree ("charge_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "charge_user_account" ON "charge_user" USING btree (lower("account"));--> statement-breakpoint
CREATE INDEX "charge_user_provider" ON "charge_user" USING btree ("provider_id");--> statement-breakpoint
CREATE INDEX "charge_user_phone" ON "charge_user" USING btree ("phone");--> statement-breakpoint
CREATE INDEX "charge_user_group" ON "charge_user" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "ledger_card" ON "ledger" USING btree ("card_id","id");--> statement-breakpoint
CREATE INDEX "ledger_charge_user" ON "ledger" USING btree ("charge_user_id","id");--> statement-breakpoint
CREATE INDEX "ledger_provider_created" ON "ledger" USING btree ("provider_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_card_charge_ref" ON "ledger" USING btree ("card_id","transaction_ref") WHERE "ledger"."trade_type" = 'charge' and "ledger"."transaction_ref" is not null and "ledger"."account_kind" = 'card';--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_mobile_charge_ref" ON "ledger" USING btree ("charge_user_id","transaction_ref") WHERE "ledger"."trade_type" = 'charge' and "ledger"."transaction_ref" is not null and "ledger"."account_kind" = 'mobile';--> statement-breakpoint
CREATE UNIQUE INDEX "user_group_provider_name" ON "user_group" USING btree ("provider_id","name");--> statement-breakpoint
INSERT INTO "local_list_version" ("id", "version") VALUES (1, 0);--> statement-breakpoint
CREATE FUNCTION "bump_local_list_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "local_list_version" SET "version" = "version" + 1 WHERE "id" = 1;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "card_local_list_insert_delete" AFTER INSERT OR DELETE ON "card" FOR EACH STATEMENT EXECUTE FUNCTION "bump_local_list_version"();--> statement-breakpoint
CREATE TRIGGER "card_local_list_update" AFTER UPDATE OF "physical_id", "status", "expire_at", "charge_user_id", "provider_id" ON "card" FOR EACH STATEMENT EXECUTE FUNCTION "bump_local_list_version"();--> statement-breakpoint
CREATE TRIGGER "charge_user_local_list_update" AFTER UPDATE OF "account", "status" ON "charge_user" FOR EACH STATEMENT EXECUTE FUNCTION "bump_local_list_version"();

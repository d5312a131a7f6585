CREATE TABLE "recharge_bonus" (
	"recharge_ledger_id" integer PRIMARY KEY NOT NULL,
	"bonus_ledger_id" integer NOT NULL,
	"activity_id" integer NOT NULL,
	"provider_id" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "ledger_topup";--> statement-breakpoint
ALTER TABLE "activity" ALTER COLUMN "discount_kind" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "activity" ALTER COLUMN "discount_value" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "activity" ADD COLUMN "min_recharge_cents" integer;--> statement-breakpoint
ALTER TABLE "activity" ADD COLUMN "bonus_cents" integer;--> statement-breakpoint
ALTER TABLE "activity" ADD COLUMN "template_id" integer;--> statement-breakpoint
ALTER TABLE "activity" ADD COLUMN "grant_to" varchar(8);--> statement-breakpoint
ALTER TABLE "voucher" ADD COLUMN "chosen_for" integer;--> statement-breakpoint
ALTER TABLE "recharge_bonus" ADD CONSTRAINT "recharge_bonus_recharge_ledger_id_ledger_id_fk" FOREIGN KEY ("recharge_ledger_id") REFERENCES "public"."ledger"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharge_bonus" ADD CONSTRAINT "recharge_bonus_bonus_ledger_id_ledger_id_fk" FOREIGN KEY ("bonus_ledger_id") REFERENCES "public"."ledger"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharge_bonus" ADD CONSTRAINT "recharge_bonus_activity_id_activity_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activity"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharge_bonus" ADD CONSTRAINT "recharge_bonus_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recharge_bonus_activity" ON "recharge_bonus" USING btree ("activity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "recharge_bonus_ledger" ON "recharge_bonus" USING btree ("bonus_ledger_id");--> statement-breakpoint
ALTER TABLE "activity" ADD CONSTRAINT "activity_template_id_voucher_template_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."voucher_template"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher" ADD CONSTRAINT "voucher_chosen_for_charging_transaction_id_fk" FOREIGN KEY ("chosen_for") REFERENCES "public"."charging_transaction"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "voucher_chosen" ON "voucher" USING btree ("chosen_for");--> statement-breakpoint
CREATE UNIQUE INDEX "voucher_activity_user" ON "voucher" USING btree ("activity_id","charge_user_id") WHERE "voucher"."activity_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_topup" ON "ledger" USING btree ("id","provider_id","created_at") WHERE "ledger"."trade_type" in ('recharge', 'refund', 'bonus');
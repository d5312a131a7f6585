DROP INDEX "bill_line_unique";--> statement-breakpoint
ALTER TABLE "bill_line" ADD COLUMN "adjustment" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "charging_transaction" ADD COLUMN "late_stop_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "charging_transaction" ADD COLUMN "adjustment_due" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "charging_transaction" ADD COLUMN "adjustment_cents" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_card_adjustment_ref" ON "ledger" USING btree ("card_id","transaction_ref") WHERE "ledger"."trade_type" = 'adjustment' and "ledger"."transaction_ref" is not null and "ledger"."account_kind" = 'card';--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_mobile_adjustment_ref" ON "ledger" USING btree ("charge_user_id","transaction_ref") WHERE "ledger"."trade_type" = 'adjustment' and "ledger"."transaction_ref" is not null and "ledger"."account_kind" = 'mobile';--> statement-breakpoint
CREATE UNIQUE INDEX "bill_line_unique" ON "bill_line" USING btree ("transaction_id","adjustment","price_id","tier","kind");
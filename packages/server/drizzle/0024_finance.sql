CREATE TABLE "corporate_transfer" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"payer_name" varchar(100) NOT NULL,
	"payer_account" varchar(64) NOT NULL,
	"payer_bank" varchar(100) NOT NULL,
	"amount_cents" integer NOT NULL,
	"transfer_date" date NOT NULL,
	"bank_reference" varchar(64) NOT NULL,
	"receipt_file" varchar(255),
	"remark" varchar(500),
	"state" varchar(12) DEFAULT 'registered' NOT NULL,
	"reject_reason" varchar(500),
	"registered_by" integer NOT NULL,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "corporate_transfer_amount_positive" CHECK ("corporate_transfer"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "invoice" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"charge_user_id" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"principal_type" varchar(8) NOT NULL,
	"name" varchar(100) NOT NULL,
	"tax_number" varchar(32),
	"recipient_name" varchar(50) NOT NULL,
	"mobile" varchar(32) NOT NULL,
	"email" varchar(100) NOT NULL,
	"address" varchar(255),
	"notify_type" varchar(8) NOT NULL,
	"remark" varchar(500),
	"status" varchar(10) DEFAULT 'applied' NOT NULL,
	"reject_reason" varchar(500),
	"file_name" varchar(255),
	"applied_by" integer,
	"decided_by" integer,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL,
	"noticed_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "invoice_amount_not_negative" CHECK ("invoice"."amount_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "invoice_item" (
	"id" serial PRIMARY KEY NOT NULL,
	"invoice_id" integer NOT NULL,
	"kind" varchar(8) NOT NULL,
	"transaction_id" integer,
	"ledger_id" integer,
	"amount_cents" integer NOT NULL,
	"live" boolean DEFAULT true NOT NULL,
	CONSTRAINT "invoice_item_ref" CHECK (("invoice_item"."kind" = 'charge' and "invoice_item"."transaction_id" is not null and "invoice_item"."ledger_id" is null) or ("invoice_item"."kind" = 'recharge' and "invoice_item"."ledger_id" is not null and "invoice_item"."transaction_id" is null))
);
--> statement-breakpoint
CREATE TABLE "transfer_allocation" (
	"id" serial PRIMARY KEY NOT NULL,
	"transfer_id" integer NOT NULL,
	"target_kind" varchar(8) NOT NULL,
	"charge_user_id" integer,
	"card_id" integer,
	"amount_cents" integer NOT NULL,
	"ledger_id" integer,
	CONSTRAINT "transfer_allocation_amount_positive" CHECK ("transfer_allocation"."amount_cents" > 0),
	CONSTRAINT "transfer_allocation_target" CHECK (("transfer_allocation"."target_kind" = 'mobile' and "transfer_allocation"."charge_user_id" is not null and "transfer_allocation"."card_id" is null) or ("transfer_allocation"."target_kind" = 'card' and "transfer_allocation"."card_id" is not null and "transfer_allocation"."charge_user_id" is null))
);
--> statement-breakpoint
ALTER TABLE "corporate_transfer" ADD CONSTRAINT "corporate_transfer_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "corporate_transfer" ADD CONSTRAINT "corporate_transfer_decided_by_system_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."system_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_charge_user_id_charge_user_id_fk" FOREIGN KEY ("charge_user_id") REFERENCES "public"."charge_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_applied_by_system_user_id_fk" FOREIGN KEY ("applied_by") REFERENCES "public"."system_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_decided_by_system_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."system_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_item" ADD CONSTRAINT "invoice_item_invoice_id_invoice_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoice"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_item" ADD CONSTRAINT "invoice_item_transaction_id_charging_transaction_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."charging_transaction"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_item" ADD CONSTRAINT "invoice_item_ledger_id_ledger_id_fk" FOREIGN KEY ("ledger_id") REFERENCES "public"."ledger"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_allocation" ADD CONSTRAINT "transfer_allocation_transfer_id_corporate_transfer_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."corporate_transfer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_allocation" ADD CONSTRAINT "transfer_allocation_charge_user_id_charge_user_id_fk" FOREIGN KEY ("charge_user_id") REFERENCES "public"."charge_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_allocation" ADD CONSTRAINT "transfer_allocation_card_id_card_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."card"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_allocation" ADD CONSTRAINT "transfer_allocation_ledger_id_ledger_id_fk" FOREIGN KEY ("ledger_id") REFERENCES "public"."ledger"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "corporate_transfer_reference" ON "corporate_transfer" USING btree ("provider_id",upper("bank_reference"));--> statement-breakpoint
CREATE INDEX "corporate_transfer_date" ON "corporate_transfer" USING btree ("transfer_date","id");--> statement-breakpoint
CREATE INDEX "corporate_transfer_provider" ON "corporate_transfer" USING btree ("provider_id","id");--> statement-breakpoint
CREATE INDEX "invoice_provider" ON "invoice" USING btree ("provider_id","id");--> statement-breakpoint
CREATE INDEX "invoice_charge_user" ON "invoice" USING btree ("charge_user_id","id");--> statement-breakpoint
CREATE INDEX "invoice_item_invoice" ON "invoice_item" USING btree ("invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_item_live_transaction" ON "invoice_item" USING btree ("transaction_id") WHERE "invoice_item"."live" and "invoice_item"."transaction_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_item_live_ledger" ON "invoice_item" USING btree ("ledger_id") WHERE "invoice_item"."live" and "invoice_item"."ledger_id" is not null;--> statement-breakpoint
CREATE INDEX "transfer_allocation_transfer" ON "transfer_allocation" USING btree ("transfer_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "transfer_allocation_ledger" ON "transfer_allocation" USING btree ("ledger_id");
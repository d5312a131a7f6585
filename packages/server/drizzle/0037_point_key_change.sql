ALTER TABLE "charge_point" ADD COLUMN "ocpp_key_previous_hash" varchar(200);--> statement-breakpoint
ALTER TABLE "charge_point" ADD COLUMN "ocpp_key_sent_at" timestamp with time zone;
ALTER TABLE "ocpp_log" ADD COLUMN "response_type" integer;--> statement-breakpoint
ALTER TABLE "ocpp_log" ADD COLUMN "response_payload" jsonb;--> statement-breakpoint
ALTER TABLE "ocpp_log" ADD COLUMN "response_at" timestamp with time zone;
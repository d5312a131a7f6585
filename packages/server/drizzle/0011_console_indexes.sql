-- Console under load (README "Console under load"): indexes for the console's lists and dashboard,
-- and the OCPP log's identities. On a large database each CREATE INDEX holds writes to its table
-- while it builds; build them beforehand with CREATE INDEX CONCURRENTLY under the same names and
-- this migration skips them (IF NOT EXISTS).
CREATE TABLE IF NOT EXISTS "ocpp_log_identity" (
	"serial_number" varchar(64) PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "alarm_occurred" ON "alarm" USING btree ("occurred_at","id","provider_id","station_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "alarm_station_occurred" ON "alarm" USING btree ("station_id","occurred_at","id","provider_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "alarm_point_occurred" ON "alarm" USING btree ("charge_point_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "alarm_error_code" ON "alarm" USING btree ("error_code");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "charge_user_created" ON "charge_user" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "charging_transaction_started" ON "charging_transaction" USING btree ("started_at","id","stopped_at","provider_id","station_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "charging_transaction_station_started" ON "charging_transaction" USING btree ("station_id","started_at","id","stopped_at","provider_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "charging_transaction_stopped" ON "charging_transaction" USING btree ("stopped_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "charging_transaction_card" ON "charging_transaction" USING btree ("card_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "charging_transaction_charge_user" ON "charging_transaction" USING btree ("charge_user_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "charging_transaction_invalid" ON "charging_transaction" USING btree ("started_at","id","provider_id","station_id") WHERE "charging_transaction"."valid" = false;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "charging_transaction_unauthorized" ON "charging_transaction" USING btree ("started_at","id","provider_id","station_id") WHERE "charging_transaction"."auth_status" <> 'Accepted';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "ledger_topup" ON "ledger" USING btree ("id","provider_id","created_at") WHERE "ledger"."trade_type" in ('recharge', 'refund');--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "meter_value_sampled" ON "meter_value" USING brin ("sampled_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "ocpp_log_message_serial" ON "ocpp_log" USING btree ("message_id","serial_number");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "ocpp_log_refused" ON "ocpp_log" USING btree ("id") WHERE "ocpp_log"."direction" = 'refused';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "station_name" ON "station" USING btree ("name","id");--> statement-breakpoint
DROP INDEX IF EXISTS "ocpp_log_message";--> statement-breakpoint
CREATE OR REPLACE FUNCTION "ocpp_log_note_identities"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- In name order, so that two batches bringing the same new identities never wait for each other in a cycle.
  INSERT INTO "ocpp_log_identity" ("serial_number")
    SELECT DISTINCT n."serial_number" FROM "new_rows" n
    WHERE NOT EXISTS (SELECT 1 FROM "ocpp_log_identity" i WHERE i."serial_number" = n."serial_number")
    ORDER BY 1
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "ocpp_log_identity" ON "ocpp_log";--> statement-breakpoint
CREATE TRIGGER "ocpp_log_identity" AFTER INSERT ON "ocpp_log" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "ocpp_log_note_identities"();--> statement-breakpoint
INSERT INTO "ocpp_log_identity" ("serial_number") SELECT DISTINCT "serial_number" FROM "ocpp_log" ORDER BY 1 ON CONFLICT DO NOTHING;

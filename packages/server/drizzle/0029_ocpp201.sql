ALTER TABLE "charging_transaction" ALTER COLUMN "id_tag" SET DATA TYPE varchar(36);--> statement-breakpoint
ALTER TABLE "charging_transaction" ALTER COLUMN "stop_id_tag" SET DATA TYPE varchar(36);--> statement-breakpoint
ALTER TABLE "charge_point" ADD COLUMN "ocpp_version" varchar(8);--> statement-breakpoint
ALTER TABLE "charging_transaction" ADD COLUMN "ocpp_tx_id" varchar(36);--> statement-breakpoint
CREATE UNIQUE INDEX "charging_transaction_ocpp_tx" ON "charging_transaction" USING btree ("charge_point_id","ocpp_tx_id") WHERE "charging_transaction"."ocpp_tx_id" is not null;
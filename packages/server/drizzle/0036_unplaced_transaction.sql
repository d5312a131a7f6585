CREATE TABLE "unplaced_transaction" (
	"charge_point_id" integer NOT NULL,
	"ocpp_tx_id" varchar(36) NOT NULL,
	"event" jsonb NOT NULL,
	"held_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "unplaced_transaction_charge_point_id_ocpp_tx_id_pk" PRIMARY KEY("charge_point_id","ocpp_tx_id")
);
--> statement-breakpoint
ALTER TABLE "unplaced_transaction" ADD CONSTRAINT "unplaced_transaction_charge_point_id_charge_point_id_fk" FOREIGN KEY ("charge_point_id") REFERENCES "public"."charge_point"("id") ON DELETE cascade ON UPDATE no action;
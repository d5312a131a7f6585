CREATE TABLE "point_local_list" (
	"point_id" integer NOT NULL,
	"id_tag" varchar(20) NOT NULL,
	"status" varchar(16) NOT NULL,
	"expiry_date" timestamp with time zone,
	"parent_id_tag" varchar(64),
	CONSTRAINT "point_local_list_point_id_id_tag_pk" PRIMARY KEY("point_id","id_tag")
);
--> statement-breakpoint
ALTER TABLE "charge_point" ADD COLUMN "local_list_version" integer;--> statement-breakpoint
ALTER TABLE "charge_point" ADD COLUMN "local_list_in_step" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "charge_point" ADD COLUMN "local_list_status" varchar(20);--> statement-breakpoint
ALTER TABLE "charge_point" ADD COLUMN "local_list_charger_version" integer;--> statement-breakpoint
ALTER TABLE "charge_point" ADD COLUMN "local_list_seen" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "charge_point" ADD COLUMN "local_list_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "provider" ADD COLUMN "auto_local_list_sync" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "point_local_list" ADD CONSTRAINT "point_local_list_point_id_charge_point_id_fk" FOREIGN KEY ("point_id") REFERENCES "public"."charge_point"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE TRIGGER "card_local_list_balance" AFTER UPDATE OF "balance_cents" ON "card" FOR EACH ROW WHEN ((OLD."balance_cents" <= 0) IS DISTINCT FROM (NEW."balance_cents" <= 0)) EXECUTE FUNCTION "bump_local_list_version"();

ALTER TABLE "card" ADD COLUMN "master_pass" boolean DEFAULT false NOT NULL;--> statement-breakpoint
DROP TRIGGER "card_local_list_update" ON "card";--> statement-breakpoint
CREATE TRIGGER "card_local_list_update" AFTER UPDATE OF "physical_id", "status", "expire_at", "charge_user_id", "provider_id", "master_pass" ON "card" FOR EACH STATEMENT EXECUTE FUNCTION "bump_local_list_version"();

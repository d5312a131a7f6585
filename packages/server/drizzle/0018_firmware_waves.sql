ALTER TABLE "firmware_upgrade" ADD COLUMN "wave_size" integer;--> statement-breakpoint
ALTER TABLE "firmware_upgrade" ADD COLUMN "wave_timeout_minutes" integer;--> statement-breakpoint
ALTER TABLE "firmware_upgrade_point" ADD COLUMN "wave" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "firmware_upgrade_point" ADD COLUMN "released_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "firmware_upgrade_point_open" ON "firmware_upgrade_point" USING btree ("upgrade_id","wave") WHERE "firmware_upgrade_point"."state" not in ('Installed', 'confirmed', 'rejected', 'DownloadFailed', 'InstallationFailed', 'notInstalled', 'timedOut');
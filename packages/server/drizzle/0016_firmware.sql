CREATE TABLE "firmware_upgrade" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"version_id" integer,
	"location" varchar(600) NOT NULL,
	"retrieve_at" timestamp with time zone NOT NULL,
	"retries" integer,
	"retry_interval" integer,
	"description" varchar(500),
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "firmware_upgrade_point" (
	"upgrade_id" integer NOT NULL,
	"charge_point_id" integer NOT NULL,
	"state" varchar(20) NOT NULL,
	"reason" varchar(200),
	"from_version" varchar(50),
	"reported_version" varchar(50),
	"sent_at" timestamp with time zone,
	"reported_at" timestamp with time zone,
	CONSTRAINT "firmware_upgrade_point_upgrade_id_charge_point_id_pk" PRIMARY KEY("upgrade_id","charge_point_id")
);
--> statement-breakpoint
CREATE TABLE "firmware_version" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"version" varchar(50) NOT NULL,
	"application_type" varchar(50) NOT NULL,
	"communication_type" varchar(50) NOT NULL,
	"note" varchar(500),
	"stored_name" varchar(255) NOT NULL,
	"file_name" varchar(255) NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"token" varchar(64) NOT NULL,
	"uploaded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "firmware_upgrade" ADD CONSTRAINT "firmware_upgrade_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_upgrade" ADD CONSTRAINT "firmware_upgrade_version_id_firmware_version_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."firmware_version"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_upgrade_point" ADD CONSTRAINT "firmware_upgrade_point_upgrade_id_firmware_upgrade_id_fk" FOREIGN KEY ("upgrade_id") REFERENCES "public"."firmware_upgrade"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_upgrade_point" ADD CONSTRAINT "firmware_upgrade_point_charge_point_id_charge_point_id_fk" FOREIGN KEY ("charge_point_id") REFERENCES "public"."charge_point"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_version" ADD CONSTRAINT "firmware_version_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "firmware_upgrade_provider" ON "firmware_upgrade" USING btree ("provider_id","id");--> statement-breakpoint
CREATE INDEX "firmware_upgrade_version" ON "firmware_upgrade" USING btree ("version_id");--> statement-breakpoint
CREATE INDEX "firmware_upgrade_point_point" ON "firmware_upgrade_point" USING btree ("charge_point_id","upgrade_id");--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_version_token" ON "firmware_version" USING btree ("token");--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_version_provider_version" ON "firmware_version" USING btree ("provider_id",lower("version"));
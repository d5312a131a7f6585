CREATE TABLE "application" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_name" varchar(100) NOT NULL,
	"contact" varchar(50) NOT NULL,
	"phone" varchar(30) NOT NULL,
	"email" varchar(100) NOT NULL,
	"license_number" varchar(30) NOT NULL,
	"license_image" varchar(255) NOT NULL,
	"address" varchar(255) NOT NULL,
	"expected_points" integer NOT NULL,
	"expected_stations" integer NOT NULL,
	"remark" varchar(500),
	"ip" varchar(64) NOT NULL,
	"lang" varchar(5) NOT NULL,
	"status" varchar(10) DEFAULT 'pending' NOT NULL,
	"reviewer_id" integer,
	"reject_reason" varchar(500),
	"provider_id" integer,
	"username" varchar(64),
	"validity" integer,
	"auth_count" integer,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "application_license_image_unique" UNIQUE("license_image"),
	CONSTRAINT "application_status" CHECK ("application"."status" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "system_user" ADD COLUMN "must_change_password" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "application" ADD CONSTRAINT "application_reviewer_id_system_user_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."system_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application" ADD CONSTRAINT "application_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "application_status_created" ON "application" USING btree ("status","created_at");
CREATE TABLE "captcha" (
	"uuid" varchar(64) PRIMARY KEY NOT NULL,
	"answer" varchar(16) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_attempt" (
	"key" varchar(128) PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "organization" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"org_name" varchar(50) NOT NULL,
	"description" varchar(500),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(100) NOT NULL,
	"type" varchar(10) NOT NULL,
	"parent_id" integer,
	"email" varchar(100),
	"contact" varchar(50),
	"phone" varchar(30),
	"expires_at" timestamp with time zone,
	"auth_count" integer DEFAULT 0 NOT NULL,
	"logo_path" varchar(255),
	"disclaimer" text,
	"privacy_agreement" text,
	"mail_account" varchar(100),
	"mail_auth_code" varchar(200),
	"smtp_address" varchar(100),
	"smtp_port" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "role" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"org_id" integer,
	"parent_id" integer,
	"role_name" varchar(50) NOT NULL,
	"role_key" varchar(50) NOT NULL,
	"description" varchar(500),
	"role_paths" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"permissions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "role_role_key_unique" UNIQUE("role_key")
);
--> statement-breakpoint
CREATE TABLE "session" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" varchar(64) NOT NULL,
	"user_id" integer NOT NULL,
	"ip" varchar(64),
	"user_agent" varchar(255),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "session_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "stored_file" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer,
	"file_name" varchar(255) NOT NULL,
	"original_name" varchar(255) NOT NULL,
	"mime" varchar(100),
	"size_bytes" integer NOT NULL,
	"uploaded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stored_file_file_name_unique" UNIQUE("file_name")
);
--> statement-breakpoint
CREATE TABLE "system_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer,
	"user_id" integer,
	"operator" varchar(64),
	"operation" varchar(32) NOT NULL,
	"operand" varchar(255) NOT NULL,
	"method" varchar(8) NOT NULL,
	"path" varchar(255) NOT NULL,
	"ip" varchar(64),
	"request" jsonb,
	"result" integer NOT NULL,
	"msg" varchar(500),
	"mode" varchar(8) NOT NULL,
	"duration_ms" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "system_user" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"role_id" integer NOT NULL,
	"username" varchar(64) NOT NULL,
	"password_hash" text NOT NULL,
	"name" varchar(50),
	"phone" varchar(30),
	"email" varchar(100),
	"avatar" varchar(255),
	"status" integer DEFAULT 1 NOT NULL,
	"station_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_login_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organization" ADD CONSTRAINT "organization_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role" ADD CONSTRAINT "role_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role" ADD CONSTRAINT "role_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session" ADD CONSTRAINT "session_user_id_system_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."system_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "system_user" ADD CONSTRAINT "system_user_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "system_user" ADD CONSTRAINT "system_user_role_id_role_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."role"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "organization_provider_name" ON "organization" USING btree ("provider_id","org_name");--> statement-breakpoint
CREATE INDEX "session_user" ON "session" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "system_log_created" ON "system_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "system_log_provider" ON "system_log" USING btree ("provider_id");--> statement-breakpoint
CREATE UNIQUE INDEX "system_user_username" ON "system_user" USING btree (lower("username"));--> statement-breakpoint
CREATE INDEX "system_user_provider" ON "system_user" USING btree ("provider_id");
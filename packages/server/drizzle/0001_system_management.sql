CREATE TABLE "export_config" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"export_source" varchar(64) NOT NULL,
	"items" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"title" varchar(100) NOT NULL,
	"content" text NOT NULL,
	"is_send" boolean DEFAULT false NOT NULL,
	"create_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_recipient" (
	"id" serial PRIMARY KEY NOT NULL,
	"message_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"read" integer DEFAULT 0 NOT NULL,
	"read_at" timestamp with time zone,
	"deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "system_user" ADD COLUMN "is_charge_user" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "export_config" ADD CONSTRAINT "export_config_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message" ADD CONSTRAINT "message_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_recipient" ADD CONSTRAINT "message_recipient_message_id_message_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."message"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_recipient" ADD CONSTRAINT "message_recipient_user_id_system_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."system_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "export_config_provider_source" ON "export_config" USING btree ("provider_id","export_source");--> statement-breakpoint
CREATE UNIQUE INDEX "message_recipient_msg_user" ON "message_recipient" USING btree ("message_id","user_id");--> statement-breakpoint
CREATE INDEX "message_recipient_user" ON "message_recipient" USING btree ("user_id","deleted","read");--> statement-breakpoint
CREATE UNIQUE INDEX "system_user_phone" ON "system_user" USING btree ("phone");
CREATE TABLE "client_error" (
	"id" serial PRIMARY KEY NOT NULL,
	"fingerprint" varchar(64) NOT NULL,
	"message" varchar(1000) NOT NULL,
	"stack" text,
	"source" varchar(20) NOT NULL,
	"route" varchar(500) NOT NULL,
	"build_id" varchar(64) NOT NULL,
	"user_id" integer,
	"username" varchar(64),
	"provider_id" integer,
	"user_agent" varchar(300),
	"count" integer DEFAULT 1 NOT NULL,
	"first_seen" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_error_fingerprint_unique" UNIQUE("fingerprint")
);
--> statement-breakpoint
CREATE TABLE "client_error_quota" (
	"key" varchar(128) PRIMARY KEY NOT NULL,
	"reports" integer NOT NULL,
	"window_start" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "client_error_last_seen" ON "client_error" USING btree ("last_seen");
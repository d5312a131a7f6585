CREATE TABLE "component_use" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"station_id" integer NOT NULL,
	"charge_point_id" integer NOT NULL,
	"connector_no" integer NOT NULL,
	"work_order_id" integer,
	"component" varchar(50) NOT NULL,
	"action" varchar(8) NOT NULL,
	"quantity" integer NOT NULL,
	"note" varchar(200),
	"actor_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fault_code" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"code" varchar(50) NOT NULL,
	"title" varchar(100) NOT NULL,
	"steps" varchar(2000) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "work_order" ADD COLUMN "pictures" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "component_use" ADD CONSTRAINT "component_use_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "component_use" ADD CONSTRAINT "component_use_station_id_station_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."station"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "component_use" ADD CONSTRAINT "component_use_charge_point_id_charge_point_id_fk" FOREIGN KEY ("charge_point_id") REFERENCES "public"."charge_point"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "component_use" ADD CONSTRAINT "component_use_work_order_id_work_order_id_fk" FOREIGN KEY ("work_order_id") REFERENCES "public"."work_order"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "component_use" ADD CONSTRAINT "component_use_actor_id_system_user_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."system_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fault_code" ADD CONSTRAINT "fault_code_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "component_use_created" ON "component_use" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "component_use_point" ON "component_use" USING btree ("charge_point_id","id");--> statement-breakpoint
CREATE INDEX "component_use_order" ON "component_use" USING btree ("work_order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "fault_code_provider_code" ON "fault_code" USING btree ("provider_id","code");
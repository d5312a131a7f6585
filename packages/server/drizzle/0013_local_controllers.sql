CREATE TABLE "controller_allocation" (
	"controller_id" integer NOT NULL,
	"charge_point_id" integer NOT NULL,
	"connector_no" integer NOT NULL,
	"transaction_id" integer,
	"state" varchar(8) NOT NULL,
	"priority" boolean DEFAULT false NOT NULL,
	"allocated_w" integer NOT NULL,
	"measured_w" integer,
	"sent_w" integer,
	"answer" varchar(16),
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "controller_allocation_controller_id_charge_point_id_connector_no_pk" PRIMARY KEY("controller_id","charge_point_id","connector_no")
);
--> statement-breakpoint
CREATE TABLE "controller_sample" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"controller_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"limit_w" integer NOT NULL,
	"allocated_w" integer NOT NULL,
	"measured_w" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "local_controller" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"station_id" integer NOT NULL,
	"name" varchar(50) NOT NULL,
	"description" varchar(255),
	"limit_w" integer NOT NULL,
	"min_current_a" double precision DEFAULT 6 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "local_controller_point" (
	"controller_id" integer NOT NULL,
	"charge_point_id" integer NOT NULL,
	"priority" boolean DEFAULT false NOT NULL,
	CONSTRAINT "local_controller_point_controller_id_charge_point_id_pk" PRIMARY KEY("controller_id","charge_point_id")
);
--> statement-breakpoint
ALTER TABLE "controller_allocation" ADD CONSTRAINT "controller_allocation_controller_id_local_controller_id_fk" FOREIGN KEY ("controller_id") REFERENCES "public"."local_controller"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "controller_allocation" ADD CONSTRAINT "controller_allocation_charge_point_id_charge_point_id_fk" FOREIGN KEY ("charge_point_id") REFERENCES "public"."charge_point"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "controller_sample" ADD CONSTRAINT "controller_sample_controller_id_local_controller_id_fk" FOREIGN KEY ("controller_id") REFERENCES "public"."local_controller"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "local_controller" ADD CONSTRAINT "local_controller_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "local_controller" ADD CONSTRAINT "local_controller_station_id_station_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."station"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "local_controller_point" ADD CONSTRAINT "local_controller_point_controller_id_local_controller_id_fk" FOREIGN KEY ("controller_id") REFERENCES "public"."local_controller"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "local_controller_point" ADD CONSTRAINT "local_controller_point_charge_point_id_charge_point_id_fk" FOREIGN KEY ("charge_point_id") REFERENCES "public"."charge_point"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "controller_sample_at" ON "controller_sample" USING btree ("controller_id","at");--> statement-breakpoint
CREATE INDEX "local_controller_station" ON "local_controller" USING btree ("station_id");--> statement-breakpoint
CREATE UNIQUE INDEX "local_controller_point_once" ON "local_controller_point" USING btree ("charge_point_id");
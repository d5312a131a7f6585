CREATE TABLE "material" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"parts_number" varchar(50) NOT NULL,
	"name" varchar(100) NOT NULL,
	"model" varchar(100),
	"unit" varchar(20),
	"stock" integer DEFAULT 0 NOT NULL,
	"note" varchar(500),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "material_stock_not_negative" CHECK ("material"."stock" >= 0)
);
--> statement-breakpoint
CREATE TABLE "material_apply" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"station_id" integer NOT NULL,
	"work_order_id" integer NOT NULL,
	"receiver" varchar(50) NOT NULL,
	"receiver_phone" varchar(32) NOT NULL,
	"logistics_type" varchar(16) NOT NULL,
	"delivery_address" varchar(255) NOT NULL,
	"note" varchar(500),
	"status" varchar(12) DEFAULT 'applied' NOT NULL,
	"applicant_id" integer,
	"approver_id" integer,
	"audit_opinion" varchar(500),
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "material_apply_line" (
	"apply_id" integer NOT NULL,
	"material_id" integer NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "material_apply_line_apply_id_material_id_pk" PRIMARY KEY("apply_id","material_id"),
	CONSTRAINT "material_apply_line_count_positive" CHECK ("material_apply_line"."count" > 0)
);
--> statement-breakpoint
CREATE TABLE "material_apply_step" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"apply_id" integer NOT NULL,
	"kind" varchar(12) NOT NULL,
	"actor_id" integer,
	"note" varchar(500),
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "material" ADD CONSTRAINT "material_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_apply" ADD CONSTRAINT "material_apply_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_apply" ADD CONSTRAINT "material_apply_station_id_station_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."station"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_apply" ADD CONSTRAINT "material_apply_work_order_id_work_order_id_fk" FOREIGN KEY ("work_order_id") REFERENCES "public"."work_order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_apply" ADD CONSTRAINT "material_apply_applicant_id_system_user_id_fk" FOREIGN KEY ("applicant_id") REFERENCES "public"."system_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_apply" ADD CONSTRAINT "material_apply_approver_id_system_user_id_fk" FOREIGN KEY ("approver_id") REFERENCES "public"."system_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_apply_line" ADD CONSTRAINT "material_apply_line_apply_id_material_apply_id_fk" FOREIGN KEY ("apply_id") REFERENCES "public"."material_apply"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_apply_line" ADD CONSTRAINT "material_apply_line_material_id_material_id_fk" FOREIGN KEY ("material_id") REFERENCES "public"."material"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_apply_step" ADD CONSTRAINT "material_apply_step_apply_id_material_apply_id_fk" FOREIGN KEY ("apply_id") REFERENCES "public"."material_apply"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_apply_step" ADD CONSTRAINT "material_apply_step_actor_id_system_user_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."system_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "material_parts_number" ON "material" USING btree ("provider_id",upper("parts_number"));--> statement-breakpoint
CREATE INDEX "material_apply_created" ON "material_apply" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "material_apply_work_order" ON "material_apply" USING btree ("work_order_id","id");--> statement-breakpoint
CREATE INDEX "material_apply_station" ON "material_apply" USING btree ("station_id","id");--> statement-breakpoint
CREATE INDEX "material_apply_line_material" ON "material_apply_line" USING btree ("material_id");--> statement-breakpoint
CREATE INDEX "material_apply_step_apply" ON "material_apply_step" USING btree ("apply_id","id");
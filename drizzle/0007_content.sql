CREATE TABLE "content_reference" (
	"content_id" uuid NOT NULL,
	"customer_id" bigint NOT NULL,
	"target_type" text NOT NULL,
	"target_id" uuid NOT NULL,
	CONSTRAINT "content_reference_content_id_target_type_target_id_pk" PRIMARY KEY("content_id","target_type","target_id")
);
--> statement-breakpoint
CREATE TABLE "content_template" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"structure_type" text NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"data" jsonb NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_content" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" bigint NOT NULL,
	"device_content_type" text NOT NULL,
	"structure_type" text,
	"simple_loop_type" text,
	"content_group_id" uuid NOT NULL,
	"group_path" uuid[] NOT NULL,
	"name" text NOT NULL,
	"comment" text,
	"version" text,
	"locked" boolean DEFAULT false NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"data" jsonb NOT NULL,
	"created_date" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_saved" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_saved_by_id" uuid,
	"last_saved_by_email" text,
	"last_saved_by_name" text
);
--> statement-breakpoint
ALTER TABLE "content_reference" ADD CONSTRAINT "content_reference_content_id_device_content_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."device_content"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_reference" ADD CONSTRAINT "content_reference_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_content" ADD CONSTRAINT "device_content_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_content" ADD CONSTRAINT "device_content_content_group_id_content_group_id_fk" FOREIGN KEY ("content_group_id") REFERENCES "public"."content_group"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_content" ADD CONSTRAINT "device_content_last_saved_by_id_app_user_id_fk" FOREIGN KEY ("last_saved_by_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "content_reference_target_idx" ON "content_reference" USING btree ("customer_id","target_type","target_id");--> statement-breakpoint
CREATE INDEX "device_content_customer_group_name_idx" ON "device_content" USING btree ("customer_id","content_group_id","name");--> statement-breakpoint
CREATE INDEX "device_content_customer_type_name_idx" ON "device_content" USING btree ("customer_id","device_content_type","name");--> statement-breakpoint
CREATE INDEX "device_content_customer_saved_idx" ON "device_content" USING btree ("customer_id","last_saved","id");--> statement-breakpoint
CREATE INDEX "device_content_group_path_gin_idx" ON "device_content" USING gin ("group_path");--> statement-breakpoint
CREATE INDEX "device_content_tags_gin_idx" ON "device_content" USING gin ("tags");--> statement-breakpoint
CREATE UNIQUE INDEX "content_group_sibling_name_key" ON "content_group" USING btree ("parent_id",lower("name"));
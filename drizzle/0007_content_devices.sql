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
CREATE TABLE "device_access_token" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"device_id" uuid NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_command" (
	"id" uuid PRIMARY KEY NOT NULL,
	"device_id" uuid NOT NULL,
	"customer_id" bigint,
	"name" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"issued_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"acknowledged_at" timestamp (3) with time zone,
	"ok" boolean,
	"result" jsonb,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "device_metric_sample" (
	"device_id" uuid NOT NULL,
	"type" text NOT NULL,
	"sampled_at" timestamp (3) with time zone NOT NULL,
	"value" double precision NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_preview" (
	"id" uuid PRIMARY KEY NOT NULL,
	"device_id" uuid NOT NULL,
	"customer_id" bigint,
	"storage_key" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"taken_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"high_res" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_status_change" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"device_id" uuid NOT NULL,
	"customer_id" bigint,
	"status" text NOT NULL,
	"changed_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" bigint,
	"device_group_id" uuid,
	"group_path" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"comment" text,
	"device_status" text DEFAULT 'OFFLINE' NOT NULL,
	"last_device_status_change" timestamp (3) with time zone,
	"emergency_status" boolean DEFAULT false NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"type" text DEFAULT 'SCREEN' NOT NULL,
	"platform" text DEFAULT 'UNKNOWN' NOT NULL,
	"serial" text,
	"hardware_key" text,
	"version" text,
	"firmware_version" text,
	"native_resolution_width" integer,
	"native_resolution_height" integer,
	"local_ip_address" text,
	"native_orientation" text,
	"web_view_orientation" text,
	"last_activity" timestamp (3) with time zone,
	"last_seen" timestamp (3) with time zone,
	"heartbeat_seconds" integer DEFAULT 60 NOT NULL,
	"license_status" text DEFAULT 'UN_LICENSED' NOT NULL,
	"license_order_id" bigint,
	"license_type" text,
	"time_zone" text,
	"device_info" jsonb,
	"content_id" uuid,
	"emergency_content_id" uuid,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"activation_code" text,
	"activation_code_expires_at" timestamp (3) with time zone,
	"secret_hash" text NOT NULL,
	"previous_secret_hash" text,
	"previous_secret_expires_at" timestamp (3) with time zone,
	"ever_connected" boolean DEFAULT false NOT NULL,
	"preview_updated_at" timestamp (3) with time zone,
	"created_date" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "content_reference" ADD CONSTRAINT "content_reference_content_id_device_content_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."device_content"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_reference" ADD CONSTRAINT "content_reference_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_content" ADD CONSTRAINT "device_content_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_content" ADD CONSTRAINT "device_content_content_group_id_content_group_id_fk" FOREIGN KEY ("content_group_id") REFERENCES "public"."content_group"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_content" ADD CONSTRAINT "device_content_last_saved_by_id_app_user_id_fk" FOREIGN KEY ("last_saved_by_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_access_token" ADD CONSTRAINT "device_access_token_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_command" ADD CONSTRAINT "device_command_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_command" ADD CONSTRAINT "device_command_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_metric_sample" ADD CONSTRAINT "device_metric_sample_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_preview" ADD CONSTRAINT "device_preview_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_preview" ADD CONSTRAINT "device_preview_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_status_change" ADD CONSTRAINT "device_status_change_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_status_change" ADD CONSTRAINT "device_status_change_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device" ADD CONSTRAINT "device_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device" ADD CONSTRAINT "device_device_group_id_device_group_id_fk" FOREIGN KEY ("device_group_id") REFERENCES "public"."device_group"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device" ADD CONSTRAINT "device_content_id_device_content_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."device_content"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device" ADD CONSTRAINT "device_emergency_content_id_device_content_id_fk" FOREIGN KEY ("emergency_content_id") REFERENCES "public"."device_content"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "content_reference_target_idx" ON "content_reference" USING btree ("customer_id","target_type","target_id");--> statement-breakpoint
CREATE INDEX "device_content_customer_group_name_idx" ON "device_content" USING btree ("customer_id","content_group_id","name");--> statement-breakpoint
CREATE INDEX "device_content_customer_type_name_idx" ON "device_content" USING btree ("customer_id","device_content_type","name");--> statement-breakpoint
CREATE INDEX "device_content_customer_saved_idx" ON "device_content" USING btree ("customer_id","last_saved","id");--> statement-breakpoint
CREATE INDEX "device_content_group_path_gin_idx" ON "device_content" USING gin ("group_path");--> statement-breakpoint
CREATE INDEX "device_content_tags_gin_idx" ON "device_content" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "device_access_token_device_idx" ON "device_access_token" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "device_access_token_expires_idx" ON "device_access_token" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "device_command_pending_idx" ON "device_command" USING btree ("device_id","issued_at") WHERE "device_command"."acknowledged_at" is null;--> statement-breakpoint
CREATE INDEX "device_command_customer_idx" ON "device_command" USING btree ("customer_id","issued_at");--> statement-breakpoint
CREATE INDEX "device_metric_sample_idx" ON "device_metric_sample" USING btree ("device_id","type","sampled_at");--> statement-breakpoint
CREATE INDEX "device_preview_device_idx" ON "device_preview" USING btree ("device_id","taken_at");--> statement-breakpoint
CREATE INDEX "device_status_change_device_idx" ON "device_status_change" USING btree ("device_id","changed_at");--> statement-breakpoint
CREATE INDEX "device_status_change_customer_idx" ON "device_status_change" USING btree ("customer_id","changed_at");--> statement-breakpoint
CREATE INDEX "device_customer_group_name_idx" ON "device" USING btree ("customer_id","device_group_id","name");--> statement-breakpoint
CREATE INDEX "device_customer_name_idx" ON "device" USING btree ("customer_id","name","id");--> statement-breakpoint
CREATE INDEX "device_customer_status_idx" ON "device" USING btree ("customer_id","device_status");--> statement-breakpoint
CREATE INDEX "device_group_path_gin_idx" ON "device" USING gin ("group_path");--> statement-breakpoint
CREATE INDEX "device_tags_gin_idx" ON "device" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "device_serial_idx" ON "device" USING btree ("serial") WHERE "device"."serial" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "device_activation_code_idx" ON "device" USING btree ("activation_code") WHERE "device"."activation_code" is not null;--> statement-breakpoint
CREATE INDEX "device_online_seen_idx" ON "device" USING btree ("last_seen") WHERE "device"."device_status" = 'ONLINE';--> statement-breakpoint
CREATE UNIQUE INDEX "content_group_sibling_name_key" ON "content_group" USING btree ("parent_id",lower("name"));
CREATE TABLE "content_group" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" bigint NOT NULL,
	"parent_id" uuid,
	"name" text NOT NULL,
	"path" uuid[] NOT NULL,
	"is_template_group" boolean DEFAULT false NOT NULL,
	"created_date" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_group" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" bigint NOT NULL,
	"parent_id" uuid,
	"name" text NOT NULL,
	"path" uuid[] NOT NULL,
	"type" text DEFAULT 'NORMAL' NOT NULL,
	"video_wall_meta_data" jsonb,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_date" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "file_folder" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" bigint NOT NULL,
	"parent_id" uuid,
	"name" text NOT NULL,
	"path" uuid[] NOT NULL,
	"cleanup_outdated_files" boolean DEFAULT false NOT NULL,
	"created_date" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "resource_limit_config" (
	"resource" text NOT NULL,
	"tier" text NOT NULL,
	"limit" integer NOT NULL,
	CONSTRAINT "resource_limit_config_pkey" PRIMARY KEY("resource","tier")
);
--> statement-breakpoint
CREATE TABLE "team_assignment" (
	"team_id" uuid NOT NULL,
	"resource_type" text NOT NULL,
	"resource_id" text NOT NULL,
	"read_only" boolean DEFAULT false NOT NULL,
	"customer_id" bigint NOT NULL,
	CONSTRAINT "team_assignment_pkey" PRIMARY KEY("team_id","resource_type","resource_id")
);
--> statement-breakpoint
CREATE TABLE "team" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" bigint NOT NULL,
	"name" text NOT NULL,
	"comment" text,
	"created_date" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ui_profile" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ui_profile_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"customer_id" bigint NOT NULL,
	"name" text NOT NULL,
	"comment" text,
	"hidden_ui_element_rules" jsonb NOT NULL,
	"created_date" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_profile_picture" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"data" "bytea" NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customer" ADD COLUMN "hidden_ui_element_rules" jsonb;--> statement-breakpoint
ALTER TABLE "customer" ADD COLUMN "customer_metadata" jsonb;--> statement-breakpoint
ALTER TABLE "customer" ADD COLUMN "branding_guideline" jsonb;--> statement-breakpoint
ALTER TABLE "customer" ADD COLUMN "adnetwork_network_id" text;--> statement-breakpoint
ALTER TABLE "customer" ADD COLUMN "adnetwork_api_key" text;--> statement-breakpoint
ALTER TABLE "customer" ADD COLUMN "enable_automatic_distribution_to_dms" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "customer" ADD COLUMN "default_emergency_content_id" text;--> statement-breakpoint
ALTER TABLE "customer" ADD COLUMN "last_activity" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "customer" ADD COLUMN "user_full_access_if_not_in_team" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "customer" ADD COLUMN "access_resources_without_team" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "customer" ADD COLUMN "device_creation_in_root_for_team_users" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "customer" ADD COLUMN "content_creation_in_root_for_team_users" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "customer" ADD COLUMN "file_creation_in_root_for_team_users" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "app_user" ADD COLUMN "totp_pending_secret" text;--> statement-breakpoint
ALTER TABLE "app_user" ADD COLUMN "ui_profile_id" bigint;--> statement-breakpoint
ALTER TABLE "content_group" ADD CONSTRAINT "content_group_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_group" ADD CONSTRAINT "content_group_parent_id_content_group_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."content_group"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_group" ADD CONSTRAINT "device_group_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_group" ADD CONSTRAINT "device_group_parent_id_device_group_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."device_group"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_folder" ADD CONSTRAINT "file_folder_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_folder" ADD CONSTRAINT "file_folder_parent_id_file_folder_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."file_folder"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_assignment" ADD CONSTRAINT "team_assignment_team_id_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."team"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_assignment" ADD CONSTRAINT "team_assignment_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team" ADD CONSTRAINT "team_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ui_profile" ADD CONSTRAINT "ui_profile_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_profile_picture" ADD CONSTRAINT "user_profile_picture_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "content_group_customer_parent_idx" ON "content_group" USING btree ("customer_id","parent_id","name");--> statement-breakpoint
CREATE INDEX "content_group_path_idx" ON "content_group" USING gin ("path");--> statement-breakpoint
CREATE INDEX "device_group_customer_parent_idx" ON "device_group" USING btree ("customer_id","parent_id","name");--> statement-breakpoint
CREATE INDEX "device_group_path_idx" ON "device_group" USING gin ("path");--> statement-breakpoint
CREATE INDEX "file_folder_customer_parent_idx" ON "file_folder" USING btree ("customer_id","parent_id","name");--> statement-breakpoint
CREATE INDEX "file_folder_path_idx" ON "file_folder" USING gin ("path");--> statement-breakpoint
CREATE INDEX "team_assignment_resource_idx" ON "team_assignment" USING btree ("resource_type","resource_id","team_id");--> statement-breakpoint
CREATE UNIQUE INDEX "team_customer_name_key" ON "team" USING btree ("customer_id","name");--> statement-breakpoint
CREATE INDEX "team_customer_idx" ON "team" USING btree ("customer_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ui_profile_customer_name_key" ON "ui_profile" USING btree ("customer_id","name");--> statement-breakpoint
CREATE INDEX "ui_profile_customer_idx" ON "ui_profile" USING btree ("customer_id","id");--> statement-breakpoint
ALTER TABLE "app_user" ADD CONSTRAINT "app_user_ui_profile_id_ui_profile_id_fk" FOREIGN KEY ("ui_profile_id") REFERENCES "public"."ui_profile"("id") ON DELETE set null ON UPDATE no action;
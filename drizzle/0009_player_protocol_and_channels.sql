CREATE TABLE "advertiser" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" bigint NOT NULL,
	"name" text NOT NULL,
	"comment" text,
	"enabled" boolean DEFAULT false NOT NULL,
	"validity" jsonb,
	"proof_of_play_secret_hash" text,
	"proof_of_play_secret_sealed" text,
	"created_date" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_content_assignment" (
	"campaign_id" bigint NOT NULL,
	"customer_id" bigint NOT NULL,
	"content_id" uuid NOT NULL,
	"weight" integer,
	CONSTRAINT "campaign_content_assignment_campaign_id_content_id_pk" PRIMARY KEY("campaign_id","content_id")
);
--> statement-breakpoint
CREATE TABLE "campaign_content_group_assignment" (
	"campaign_id" bigint NOT NULL,
	"customer_id" bigint NOT NULL,
	"content_group_id" uuid NOT NULL,
	CONSTRAINT "campaign_content_group_assignment_campaign_id_content_group_id_pk" PRIMARY KEY("campaign_id","content_group_id")
);
--> statement-breakpoint
CREATE TABLE "campaign_device_assignment" (
	"campaign_id" bigint NOT NULL,
	"customer_id" bigint NOT NULL,
	"device_id" uuid NOT NULL,
	CONSTRAINT "campaign_device_assignment_campaign_id_device_id_pk" PRIMARY KEY("campaign_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "campaign_device_group_assignment" (
	"campaign_id" bigint NOT NULL,
	"customer_id" bigint NOT NULL,
	"device_group_id" uuid NOT NULL,
	CONSTRAINT "campaign_device_group_assignment_campaign_id_device_group_id_pk" PRIMARY KEY("campaign_id","device_group_id")
);
--> statement-breakpoint
CREATE TABLE "campaign_file_assignment" (
	"campaign_id" bigint NOT NULL,
	"customer_id" bigint NOT NULL,
	"file_id" uuid NOT NULL,
	"weight" integer,
	CONSTRAINT "campaign_file_assignment_campaign_id_file_id_pk" PRIMARY KEY("campaign_id","file_id")
);
--> statement-breakpoint
CREATE TABLE "campaign_file_folder_assignment" (
	"campaign_id" bigint NOT NULL,
	"customer_id" bigint NOT NULL,
	"file_folder_id" uuid NOT NULL,
	CONSTRAINT "campaign_file_folder_assignment_campaign_id_file_folder_id_pk" PRIMARY KEY("campaign_id","file_folder_id")
);
--> statement-breakpoint
CREATE TABLE "campaign_message_group_assignment" (
	"campaign_id" bigint NOT NULL,
	"customer_id" bigint NOT NULL,
	"message_group_id" bigint NOT NULL,
	CONSTRAINT "campaign_message_group_assignment_campaign_id_message_group_id_pk" PRIMARY KEY("campaign_id","message_group_id")
);
--> statement-breakpoint
CREATE TABLE "campaign" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "campaign_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"customer_id" bigint NOT NULL,
	"name" text NOT NULL,
	"level" text NOT NULL,
	"type" text NOT NULL,
	"version" text DEFAULT '2.0' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"weight" integer,
	"saturation" double precision,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"locked" boolean DEFAULT false NOT NULL,
	"valid_from" date,
	"valid_to" date,
	"duration" integer,
	"default_duration" integer,
	"content_shuffle_mode" text,
	"ordering_mode" text,
	"skip_default_page" boolean DEFAULT false NOT NULL,
	"skip_invalid_files" boolean DEFAULT false NOT NULL,
	"affected_hours" jsonb,
	"affected_days" jsonb,
	"affected_date_ranges" jsonb,
	"device_tag_condition" jsonb,
	"content_tag_condition" jsonb,
	"file_tag_condition" jsonb,
	"advertiser_id" uuid,
	"played_asset_team_access_list" jsonb,
	"play_multiple_items_in_single_playback_slot" boolean DEFAULT false NOT NULL,
	"play_all_items_in_single_playback_slot" boolean DEFAULT true NOT NULL,
	"playback_slot_item_type" text,
	"playback_slot_duration" integer,
	"playback_slot_number_of_elements_to_play" integer,
	"device_selection_mode" text DEFAULT 'DYNAMIC' NOT NULL,
	"content_quick_filter_id" uuid,
	"file_quick_filter_id" uuid,
	"device_quick_filter_id" uuid,
	"created_date" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	"creator_email" text,
	"creator_name" text,
	"last_saved" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_saved_by_id" uuid,
	"last_saved_by_email" text,
	"last_saved_by_name" text
);
--> statement-breakpoint
CREATE TABLE "device_socket_ticket" (
	"ticket_hash" text PRIMARY KEY NOT NULL,
	"device_id" uuid NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_group" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "message_group_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"customer_id" bigint NOT NULL,
	"name" text NOT NULL,
	"weight" integer DEFAULT 0 NOT NULL,
	"saturation" double precision,
	"content_shuffle_mode" text,
	"created_date" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_saved_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_command" ADD COLUMN "delivered_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "advertiser" ADD CONSTRAINT "advertiser_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_content_assignment" ADD CONSTRAINT "campaign_content_assignment_campaign_id_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaign"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_content_assignment" ADD CONSTRAINT "campaign_content_assignment_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_content_assignment" ADD CONSTRAINT "campaign_content_assignment_content_id_device_content_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."device_content"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_content_group_assignment" ADD CONSTRAINT "campaign_content_group_assignment_campaign_id_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaign"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_content_group_assignment" ADD CONSTRAINT "campaign_content_group_assignment_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_content_group_assignment" ADD CONSTRAINT "campaign_content_group_assignment_content_group_id_content_group_id_fk" FOREIGN KEY ("content_group_id") REFERENCES "public"."content_group"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_device_assignment" ADD CONSTRAINT "campaign_device_assignment_campaign_id_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaign"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_device_assignment" ADD CONSTRAINT "campaign_device_assignment_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_device_assignment" ADD CONSTRAINT "campaign_device_assignment_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_device_group_assignment" ADD CONSTRAINT "campaign_device_group_assignment_campaign_id_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaign"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_device_group_assignment" ADD CONSTRAINT "campaign_device_group_assignment_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_device_group_assignment" ADD CONSTRAINT "campaign_device_group_assignment_device_group_id_device_group_id_fk" FOREIGN KEY ("device_group_id") REFERENCES "public"."device_group"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_file_assignment" ADD CONSTRAINT "campaign_file_assignment_campaign_id_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaign"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_file_assignment" ADD CONSTRAINT "campaign_file_assignment_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_file_assignment" ADD CONSTRAINT "campaign_file_assignment_file_id_file_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."file"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_file_folder_assignment" ADD CONSTRAINT "campaign_file_folder_assignment_campaign_id_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaign"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_file_folder_assignment" ADD CONSTRAINT "campaign_file_folder_assignment_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_file_folder_assignment" ADD CONSTRAINT "campaign_file_folder_assignment_file_folder_id_file_folder_id_fk" FOREIGN KEY ("file_folder_id") REFERENCES "public"."file_folder"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_message_group_assignment" ADD CONSTRAINT "campaign_message_group_assignment_campaign_id_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaign"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_message_group_assignment" ADD CONSTRAINT "campaign_message_group_assignment_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_message_group_assignment" ADD CONSTRAINT "campaign_message_group_assignment_message_group_id_message_group_id_fk" FOREIGN KEY ("message_group_id") REFERENCES "public"."message_group"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_advertiser_id_advertiser_id_fk" FOREIGN KEY ("advertiser_id") REFERENCES "public"."advertiser"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_content_quick_filter_id_quick_filter_id_fk" FOREIGN KEY ("content_quick_filter_id") REFERENCES "public"."quick_filter"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_file_quick_filter_id_quick_filter_id_fk" FOREIGN KEY ("file_quick_filter_id") REFERENCES "public"."quick_filter"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_device_quick_filter_id_quick_filter_id_fk" FOREIGN KEY ("device_quick_filter_id") REFERENCES "public"."quick_filter"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_creator_id_app_user_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_last_saved_by_id_app_user_id_fk" FOREIGN KEY ("last_saved_by_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_socket_ticket" ADD CONSTRAINT "device_socket_ticket_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_group" ADD CONSTRAINT "message_group_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "advertiser_customer_name_key" ON "advertiser" USING btree ("customer_id","name");--> statement-breakpoint
CREATE INDEX "campaign_content_assignment_target_idx" ON "campaign_content_assignment" USING btree ("customer_id","content_id");--> statement-breakpoint
CREATE INDEX "campaign_content_assignment_content_idx" ON "campaign_content_assignment" USING btree ("content_id");--> statement-breakpoint
CREATE INDEX "campaign_content_group_assignment_target_idx" ON "campaign_content_group_assignment" USING btree ("customer_id","content_group_id");--> statement-breakpoint
CREATE INDEX "campaign_content_group_assignment_group_idx" ON "campaign_content_group_assignment" USING btree ("content_group_id");--> statement-breakpoint
CREATE INDEX "campaign_device_assignment_target_idx" ON "campaign_device_assignment" USING btree ("customer_id","device_id");--> statement-breakpoint
CREATE INDEX "campaign_device_assignment_device_idx" ON "campaign_device_assignment" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "campaign_device_group_assignment_target_idx" ON "campaign_device_group_assignment" USING btree ("customer_id","device_group_id");--> statement-breakpoint
CREATE INDEX "campaign_device_group_assignment_group_idx" ON "campaign_device_group_assignment" USING btree ("device_group_id");--> statement-breakpoint
CREATE INDEX "campaign_file_assignment_target_idx" ON "campaign_file_assignment" USING btree ("customer_id","file_id");--> statement-breakpoint
CREATE INDEX "campaign_file_assignment_file_idx" ON "campaign_file_assignment" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "campaign_file_folder_assignment_target_idx" ON "campaign_file_folder_assignment" USING btree ("customer_id","file_folder_id");--> statement-breakpoint
CREATE INDEX "campaign_file_folder_assignment_folder_idx" ON "campaign_file_folder_assignment" USING btree ("file_folder_id");--> statement-breakpoint
CREATE INDEX "campaign_message_group_assignment_target_idx" ON "campaign_message_group_assignment" USING btree ("customer_id","message_group_id");--> statement-breakpoint
CREATE INDEX "campaign_message_group_assignment_group_idx" ON "campaign_message_group_assignment" USING btree ("message_group_id");--> statement-breakpoint
CREATE INDEX "campaign_customer_name_idx" ON "campaign" USING btree ("customer_id","name","id");--> statement-breakpoint
CREATE INDEX "campaign_customer_level_type_idx" ON "campaign" USING btree ("customer_id","level","type");--> statement-breakpoint
CREATE INDEX "campaign_customer_saved_idx" ON "campaign" USING btree ("customer_id","last_saved","id");--> statement-breakpoint
CREATE INDEX "campaign_customer_advertiser_idx" ON "campaign" USING btree ("customer_id","advertiser_id") WHERE "campaign"."advertiser_id" is not null;--> statement-breakpoint
CREATE INDEX "campaign_tags_gin_idx" ON "campaign" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "campaign_content_quick_filter_idx" ON "campaign" USING btree ("content_quick_filter_id") WHERE "campaign"."content_quick_filter_id" is not null;--> statement-breakpoint
CREATE INDEX "campaign_file_quick_filter_idx" ON "campaign" USING btree ("file_quick_filter_id") WHERE "campaign"."file_quick_filter_id" is not null;--> statement-breakpoint
CREATE INDEX "campaign_device_quick_filter_idx" ON "campaign" USING btree ("device_quick_filter_id") WHERE "campaign"."device_quick_filter_id" is not null;--> statement-breakpoint
CREATE INDEX "device_socket_ticket_expires_idx" ON "device_socket_ticket" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "message_group_customer_idx" ON "message_group" USING btree ("customer_id","id");--> statement-breakpoint
CREATE INDEX "message_group_customer_name_idx" ON "message_group" USING btree ("customer_id","name");--> statement-breakpoint
CREATE INDEX "device_command_device_idx" ON "device_command" USING btree ("device_id","issued_at");--> statement-breakpoint
CREATE INDEX "device_metric_sample_age_idx" ON "device_metric_sample" USING brin ("sampled_at");
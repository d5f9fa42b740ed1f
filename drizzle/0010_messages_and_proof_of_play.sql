CREATE TABLE "message_content_assignment" (
	"message_id" bigint NOT NULL,
	"customer_id" bigint NOT NULL,
	"content_id" uuid NOT NULL,
	"weight" integer,
	CONSTRAINT "message_content_assignment_message_id_content_id_pk" PRIMARY KEY("message_id","content_id")
);
--> statement-breakpoint
CREATE TABLE "message_content_group_assignment" (
	"message_id" bigint NOT NULL,
	"customer_id" bigint NOT NULL,
	"content_group_id" uuid NOT NULL,
	CONSTRAINT "message_content_group_assignment_message_id_content_group_id_pk" PRIMARY KEY("message_id","content_group_id")
);
--> statement-breakpoint
CREATE TABLE "message_device_assignment" (
	"message_id" bigint NOT NULL,
	"customer_id" bigint NOT NULL,
	"device_id" uuid NOT NULL,
	CONSTRAINT "message_device_assignment_message_id_device_id_pk" PRIMARY KEY("message_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "message_device_group_assignment" (
	"message_id" bigint NOT NULL,
	"customer_id" bigint NOT NULL,
	"device_group_id" uuid NOT NULL,
	CONSTRAINT "message_device_group_assignment_message_id_device_group_id_pk" PRIMARY KEY("message_id","device_group_id")
);
--> statement-breakpoint
CREATE TABLE "message_file_assignment" (
	"message_id" bigint NOT NULL,
	"customer_id" bigint NOT NULL,
	"file_id" uuid NOT NULL,
	"weight" integer,
	CONSTRAINT "message_file_assignment_message_id_file_id_pk" PRIMARY KEY("message_id","file_id")
);
--> statement-breakpoint
CREATE TABLE "message_file_folder_assignment" (
	"message_id" bigint NOT NULL,
	"customer_id" bigint NOT NULL,
	"file_folder_id" uuid NOT NULL,
	CONSTRAINT "message_file_folder_assignment_message_id_file_folder_id_pk" PRIMARY KEY("message_id","file_folder_id")
);
--> statement-breakpoint
CREATE TABLE "message" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "message_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"customer_id" bigint NOT NULL,
	"message_group_id" bigint NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"version" text DEFAULT '2.0' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"weight" integer,
	"saturation" double precision,
	"is_played_elements_capped_by_item_count" boolean DEFAULT true NOT NULL,
	"content_id" uuid,
	"content_shuffle_mode" text,
	"ordering_mode" text,
	"skip_default_page" boolean DEFAULT false NOT NULL,
	"default_duration" integer DEFAULT 10 NOT NULL,
	"affected_date_ranges" jsonb,
	"valid_from" date,
	"valid_to" date,
	"device_selection_mode" text DEFAULT 'DYNAMIC' NOT NULL,
	"device_tag_condition" jsonb,
	"content_tag_condition" jsonb,
	"file_tag_condition" jsonb,
	"team_access_list" jsonb,
	"content_quick_filter_id" uuid,
	"file_quick_filter_id" uuid,
	"device_quick_filter_id" uuid,
	"created_date" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"creator_email" text,
	"last_saved" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_saved_by_email" text
);
--> statement-breakpoint
CREATE TABLE "play_rollup_day" (
	"customer_id" bigint NOT NULL,
	"dimension" text NOT NULL,
	"subject_id" text NOT NULL,
	"day" date NOT NULL,
	"starts" integer[] NOT NULL,
	"ends" integer[] NOT NULL,
	"duration_ms" bigint[] NOT NULL,
	"clicks" integer[] NOT NULL,
	"viewers" integer[] NOT NULL,
	"attention_ms" bigint[] NOT NULL,
	CONSTRAINT "play_rollup_day_customer_id_dimension_subject_id_day_pk" PRIMARY KEY("customer_id","dimension","subject_id","day")
);
--> statement-breakpoint
CREATE TABLE "play_subject" (
	"customer_id" bigint NOT NULL,
	"dimension" text NOT NULL,
	"subject_id" text NOT NULL,
	"name" text NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "play_subject_customer_id_dimension_subject_id_pk" PRIMARY KEY("customer_id","dimension","subject_id")
);
--> statement-breakpoint
ALTER TABLE "message_content_assignment" ADD CONSTRAINT "message_content_assignment_message_id_message_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."message"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_content_assignment" ADD CONSTRAINT "message_content_assignment_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_content_assignment" ADD CONSTRAINT "message_content_assignment_content_id_device_content_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."device_content"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_content_group_assignment" ADD CONSTRAINT "message_content_group_assignment_message_id_message_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."message"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_content_group_assignment" ADD CONSTRAINT "message_content_group_assignment_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_content_group_assignment" ADD CONSTRAINT "message_content_group_assignment_content_group_id_content_group_id_fk" FOREIGN KEY ("content_group_id") REFERENCES "public"."content_group"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_device_assignment" ADD CONSTRAINT "message_device_assignment_message_id_message_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."message"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_device_assignment" ADD CONSTRAINT "message_device_assignment_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_device_assignment" ADD CONSTRAINT "message_device_assignment_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_device_group_assignment" ADD CONSTRAINT "message_device_group_assignment_message_id_message_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."message"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_device_group_assignment" ADD CONSTRAINT "message_device_group_assignment_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_device_group_assignment" ADD CONSTRAINT "message_device_group_assignment_device_group_id_device_group_id_fk" FOREIGN KEY ("device_group_id") REFERENCES "public"."device_group"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_file_assignment" ADD CONSTRAINT "message_file_assignment_message_id_message_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."message"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_file_assignment" ADD CONSTRAINT "message_file_assignment_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_file_assignment" ADD CONSTRAINT "message_file_assignment_file_id_file_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."file"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_file_folder_assignment" ADD CONSTRAINT "message_file_folder_assignment_message_id_message_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."message"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_file_folder_assignment" ADD CONSTRAINT "message_file_folder_assignment_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_file_folder_assignment" ADD CONSTRAINT "message_file_folder_assignment_file_folder_id_file_folder_id_fk" FOREIGN KEY ("file_folder_id") REFERENCES "public"."file_folder"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message" ADD CONSTRAINT "message_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message" ADD CONSTRAINT "message_message_group_id_message_group_id_fk" FOREIGN KEY ("message_group_id") REFERENCES "public"."message_group"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message" ADD CONSTRAINT "message_content_id_device_content_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."device_content"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message" ADD CONSTRAINT "message_content_quick_filter_id_quick_filter_id_fk" FOREIGN KEY ("content_quick_filter_id") REFERENCES "public"."quick_filter"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message" ADD CONSTRAINT "message_file_quick_filter_id_quick_filter_id_fk" FOREIGN KEY ("file_quick_filter_id") REFERENCES "public"."quick_filter"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message" ADD CONSTRAINT "message_device_quick_filter_id_quick_filter_id_fk" FOREIGN KEY ("device_quick_filter_id") REFERENCES "public"."quick_filter"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "play_rollup_day" ADD CONSTRAINT "play_rollup_day_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "play_subject" ADD CONSTRAINT "play_subject_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_content_assignment_target_idx" ON "message_content_assignment" USING btree ("customer_id","content_id");--> statement-breakpoint
CREATE INDEX "message_content_assignment_content_idx" ON "message_content_assignment" USING btree ("content_id");--> statement-breakpoint
CREATE INDEX "message_content_group_assignment_target_idx" ON "message_content_group_assignment" USING btree ("customer_id","content_group_id");--> statement-breakpoint
CREATE INDEX "message_content_group_assignment_group_idx" ON "message_content_group_assignment" USING btree ("content_group_id");--> statement-breakpoint
CREATE INDEX "message_device_assignment_target_idx" ON "message_device_assignment" USING btree ("customer_id","device_id");--> statement-breakpoint
CREATE INDEX "message_device_assignment_device_idx" ON "message_device_assignment" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "message_device_group_assignment_target_idx" ON "message_device_group_assignment" USING btree ("customer_id","device_group_id");--> statement-breakpoint
CREATE INDEX "message_device_group_assignment_group_idx" ON "message_device_group_assignment" USING btree ("device_group_id");--> statement-breakpoint
CREATE INDEX "message_file_assignment_target_idx" ON "message_file_assignment" USING btree ("customer_id","file_id");--> statement-breakpoint
CREATE INDEX "message_file_assignment_file_idx" ON "message_file_assignment" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "message_file_folder_assignment_target_idx" ON "message_file_folder_assignment" USING btree ("customer_id","file_folder_id");--> statement-breakpoint
CREATE INDEX "message_file_folder_assignment_folder_idx" ON "message_file_folder_assignment" USING btree ("file_folder_id");--> statement-breakpoint
CREATE INDEX "message_customer_group_idx" ON "message" USING btree ("customer_id","message_group_id","weight","id");--> statement-breakpoint
CREATE INDEX "message_customer_name_idx" ON "message" USING btree ("customer_id","name","id");--> statement-breakpoint
CREATE INDEX "message_group_idx" ON "message" USING btree ("message_group_id");--> statement-breakpoint
CREATE INDEX "message_content_idx" ON "message" USING btree ("content_id") WHERE "message"."content_id" is not null;--> statement-breakpoint
CREATE INDEX "message_content_quick_filter_idx" ON "message" USING btree ("content_quick_filter_id") WHERE "message"."content_quick_filter_id" is not null;--> statement-breakpoint
CREATE INDEX "message_file_quick_filter_idx" ON "message" USING btree ("file_quick_filter_id") WHERE "message"."file_quick_filter_id" is not null;--> statement-breakpoint
CREATE INDEX "message_device_quick_filter_idx" ON "message" USING btree ("device_quick_filter_id") WHERE "message"."device_quick_filter_id" is not null;--> statement-breakpoint
CREATE INDEX "play_rollup_day_dimension_day_idx" ON "play_rollup_day" USING btree ("customer_id","dimension","day");
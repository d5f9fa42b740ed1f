CREATE TABLE "calendar_event" (
	"id" uuid PRIMARY KEY NOT NULL,
	"datasource_id" uuid NOT NULL,
	"customer_id" bigint NOT NULL,
	"status" text DEFAULT 'CONFIRMED' NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"organizer" text,
	"location" text,
	"is_started" boolean DEFAULT false NOT NULL,
	"started_by" text,
	"starts_at" timestamp (3) with time zone NOT NULL,
	"ends_at" timestamp (3) with time zone NOT NULL,
	"suspended_until" timestamp (3) with time zone,
	"attendees" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "datasource_data" (
	"datasource_id" uuid PRIMARY KEY NOT NULL,
	"customer_id" bigint NOT NULL,
	"document" jsonb NOT NULL,
	"hash" text NOT NULL,
	"size" integer NOT NULL,
	"validators" jsonb,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "datasource" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" bigint NOT NULL,
	"name" text NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"source_type" text NOT NULL,
	"structure_type" text NOT NULL,
	"type" text,
	"system_datasource_type" text,
	"global" boolean DEFAULT false NOT NULL,
	"deactivated" boolean DEFAULT false NOT NULL,
	"editable_by_display" boolean DEFAULT false NOT NULL,
	"remote_url" text,
	"request_settings" jsonb,
	"refresh_frequency" integer,
	"cron_expression_parameters" jsonb,
	"time_zone" text,
	"date_format" text,
	"time_format" text,
	"keep_last_x_days" integer,
	"keep_last_x_item" integer,
	"quick_filter_id" uuid,
	"max_element_count" integer,
	"file_folder_id" uuid,
	"cap_parameters" jsonb,
	"web_scraper_parameters" jsonb,
	"next_refresh_at" timestamp (3) with time zone,
	"last_refreshed_at" timestamp (3) with time zone,
	"last_updated" timestamp (3) with time zone,
	"error_counter" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"calendar_rebuild_at" timestamp (3) with time zone,
	"created_date" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_saved_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "calendar_event" ADD CONSTRAINT "calendar_event_datasource_id_datasource_id_fk" FOREIGN KEY ("datasource_id") REFERENCES "public"."datasource"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_event" ADD CONSTRAINT "calendar_event_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "datasource_data" ADD CONSTRAINT "datasource_data_datasource_id_datasource_id_fk" FOREIGN KEY ("datasource_id") REFERENCES "public"."datasource"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "datasource_data" ADD CONSTRAINT "datasource_data_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "datasource" ADD CONSTRAINT "datasource_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "datasource" ADD CONSTRAINT "datasource_quick_filter_id_quick_filter_id_fk" FOREIGN KEY ("quick_filter_id") REFERENCES "public"."quick_filter"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "datasource" ADD CONSTRAINT "datasource_file_folder_id_file_folder_id_fk" FOREIGN KEY ("file_folder_id") REFERENCES "public"."file_folder"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calendar_event_datasource_starts_idx" ON "calendar_event" USING btree ("datasource_id","starts_at");--> statement-breakpoint
CREATE INDEX "calendar_event_customer_idx" ON "calendar_event" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "datasource_data_customer_idx" ON "datasource_data" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "datasource_customer_idx" ON "datasource" USING btree ("customer_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "datasource_customer_name_key" ON "datasource" USING btree ("customer_id","name");--> statement-breakpoint
CREATE INDEX "datasource_name_trgm_idx" ON "datasource" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "datasource_due_idx" ON "datasource" USING btree ("next_refresh_at") WHERE "datasource"."next_refresh_at" is not null;--> statement-breakpoint
CREATE INDEX "datasource_calendar_due_idx" ON "datasource" USING btree ("calendar_rebuild_at") WHERE "datasource"."calendar_rebuild_at" is not null;--> statement-breakpoint
CREATE INDEX "datasource_quick_filter_idx" ON "datasource" USING btree ("quick_filter_id");--> statement-breakpoint
CREATE INDEX "datasource_file_folder_idx" ON "datasource" USING btree ("file_folder_id");
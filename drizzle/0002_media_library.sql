CREATE TABLE "file" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" bigint NOT NULL,
	"file_folder_id" uuid NOT NULL,
	"folder_path" uuid[] NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"crc_check_sum" text NOT NULL,
	"width" integer,
	"height" integer,
	"created_date" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	"creator_email" text,
	"creator_name" text,
	"valid_from" timestamp (3) with time zone,
	"valid_to" timestamp (3) with time zone,
	"file_mutability_type" text DEFAULT 'IMMUTABLE' NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"meta_data" jsonb,
	"muted" boolean DEFAULT false NOT NULL,
	"last_preview_upload_time" timestamp (3) with time zone,
	"preview_path" text
);
--> statement-breakpoint
CREATE TABLE "quick_filter" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" bigint NOT NULL,
	"name" text NOT NULL,
	"filtered_entity_type" text NOT NULL,
	"criteria" jsonb NOT NULL,
	"listed" boolean DEFAULT true NOT NULL,
	"custom" boolean DEFAULT false NOT NULL,
	"created_date" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tag" (
	"customer_id" bigint NOT NULL,
	"tag_type" text NOT NULL,
	"tag" text NOT NULL,
	"comment" text,
	"created_date" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tag_pkey" PRIMARY KEY("customer_id","tag_type","tag")
);
--> statement-breakpoint
CREATE TABLE "upload_part" (
	"session_id" uuid NOT NULL,
	"part_number" integer NOT NULL,
	"size" bigint NOT NULL,
	"etag" text NOT NULL,
	"crc32" text,
	"uploaded_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "upload_part_pkey" PRIMARY KEY("session_id","part_number")
);
--> statement-breakpoint
CREATE TABLE "upload_session" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" bigint NOT NULL,
	"creator_id" uuid,
	"state" text DEFAULT 'OPEN' NOT NULL,
	"name" text NOT NULL,
	"size" bigint NOT NULL,
	"total_chunks" integer NOT NULL,
	"max_chunk_size" bigint NOT NULL,
	"storage_key" text NOT NULL,
	"storage_upload_id" text NOT NULL,
	"content_type" text,
	"meta_data" jsonb,
	"parent_id" uuid,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"team_ids" text,
	"valid_from" timestamp (3) with time zone,
	"valid_to" timestamp (3) with time zone,
	"width" integer,
	"height" integer,
	"muted" boolean DEFAULT false NOT NULL,
	"crc_checksum" text,
	"file_id" uuid,
	"completing_since" timestamp (3) with time zone,
	"created_date" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blob_cleanup" (
	"key" text PRIMARY KEY NOT NULL,
	"not_before" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"reason" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customer" ADD COLUMN "used_storage_size" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "file_folder" ADD COLUMN "file_folder_type" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "file_folder" ADD COLUMN "quick_filter_id" uuid;--> statement-breakpoint
ALTER TABLE "file_folder" ADD COLUMN "sync_type" text DEFAULT 'NOT_SYNCED' NOT NULL;--> statement-breakpoint
ALTER TABLE "file_folder" ADD COLUMN "last_change" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "app_user" ADD COLUMN "totp_last_step" bigint;--> statement-breakpoint
ALTER TABLE "file" ADD CONSTRAINT "file_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file" ADD CONSTRAINT "file_file_folder_id_file_folder_id_fk" FOREIGN KEY ("file_folder_id") REFERENCES "public"."file_folder"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file" ADD CONSTRAINT "file_creator_id_app_user_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quick_filter" ADD CONSTRAINT "quick_filter_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag" ADD CONSTRAINT "tag_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_part" ADD CONSTRAINT "upload_part_session_id_upload_session_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."upload_session"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_session" ADD CONSTRAINT "upload_session_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_session" ADD CONSTRAINT "upload_session_creator_id_app_user_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_session" ADD CONSTRAINT "upload_session_file_id_file_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."file"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "file_customer_folder_name_idx" ON "file" USING btree ("customer_id","file_folder_id","name");--> statement-breakpoint
CREATE INDEX "file_customer_created_idx" ON "file" USING btree ("customer_id","created_date","id");--> statement-breakpoint
CREATE INDEX "file_customer_crc_idx" ON "file" USING btree ("customer_id","crc_check_sum");--> statement-breakpoint
CREATE INDEX "file_folder_path_gin_idx" ON "file" USING gin ("folder_path");--> statement-breakpoint
CREATE INDEX "file_tags_gin_idx" ON "file" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "file_valid_to_idx" ON "file" USING btree ("valid_to");--> statement-breakpoint
CREATE UNIQUE INDEX "quick_filter_customer_name_key" ON "quick_filter" USING btree ("customer_id","name");--> statement-breakpoint
CREATE INDEX "quick_filter_customer_type_idx" ON "quick_filter" USING btree ("customer_id","filtered_entity_type");--> statement-breakpoint
CREATE INDEX "upload_session_customer_idx" ON "upload_session" USING btree ("customer_id","id");--> statement-breakpoint
CREATE INDEX "upload_session_open_expiry_idx" ON "upload_session" USING btree ("state","expires_at");--> statement-breakpoint
CREATE INDEX "blob_cleanup_not_before_idx" ON "blob_cleanup" USING btree ("not_before");--> statement-breakpoint
CREATE UNIQUE INDEX "file_folder_sibling_name_key" ON "file_folder" USING btree ("parent_id",lower("name"));--> statement-breakpoint
CREATE INDEX "file_folder_cleanup_idx" ON "file_folder" USING btree ("customer_id") WHERE "file_folder"."cleanup_outdated_files";
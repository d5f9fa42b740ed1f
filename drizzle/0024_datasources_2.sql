ALTER TABLE "datasource" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "datasource" ADD COLUMN "calendar_rebuild_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "datasource_calendar_due_idx" ON "datasource" USING btree ("calendar_rebuild_at") WHERE "datasource"."calendar_rebuild_at" is not null;--> statement-breakpoint
CREATE INDEX "datasource_tags_gin_idx" ON "datasource" USING gin ("tags");
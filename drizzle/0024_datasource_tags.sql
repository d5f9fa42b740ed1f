ALTER TABLE "datasource" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "datasource_tags_gin_idx" ON "datasource" USING gin ("tags");
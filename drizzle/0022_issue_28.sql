ALTER TABLE "customer" ADD COLUMN "default_time_zone" text;--> statement-breakpoint
CREATE INDEX "device_command_device_name_idx" ON "device_command" USING btree ("device_id","name","issued_at");--> statement-breakpoint
CREATE INDEX "device_status_name_idx" ON "device" USING btree ("device_status","name","id");
CREATE TABLE "device_socket_ticket" (
	"ticket_hash" text PRIMARY KEY NOT NULL,
	"device_id" uuid NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_command" ADD COLUMN "delivered_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "device_socket_ticket" ADD CONSTRAINT "device_socket_ticket_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_socket_ticket_expires_idx" ON "device_socket_ticket" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "device_command_device_idx" ON "device_command" USING btree ("device_id","issued_at");--> statement-breakpoint
CREATE INDEX "device_metric_sample_age_idx" ON "device_metric_sample" USING brin ("sampled_at");
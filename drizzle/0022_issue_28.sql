CREATE TABLE "notification_channel" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notification_channel_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"customer_id" bigint NOT NULL,
	"name" text NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"channel_type" text NOT NULL,
	"notify" text[] NOT NULL,
	"created_date" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_saved_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customer" ADD COLUMN "default_time_zone" text;--> statement-breakpoint
ALTER TABLE "notification_channel" ADD CONSTRAINT "notification_channel_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_channel_customer_idx" ON "notification_channel" USING btree ("customer_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_channel_customer_name_key" ON "notification_channel" USING btree ("customer_id","name");--> statement-breakpoint
CREATE INDEX "notification_channel_name_trgm_idx" ON "notification_channel" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "device_command_device_name_idx" ON "device_command" USING btree ("device_id","name","issued_at");--> statement-breakpoint
CREATE INDEX "device_status_name_idx" ON "device" USING btree ("device_status","name","id");
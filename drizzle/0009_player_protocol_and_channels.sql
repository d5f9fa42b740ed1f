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
ALTER TABLE "device_socket_ticket" ADD CONSTRAINT "device_socket_ticket_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_group" ADD CONSTRAINT "message_group_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "advertiser_customer_name_key" ON "advertiser" USING btree ("customer_id","name");--> statement-breakpoint
CREATE INDEX "device_socket_ticket_expires_idx" ON "device_socket_ticket" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "message_group_customer_idx" ON "message_group" USING btree ("customer_id","id");--> statement-breakpoint
CREATE INDEX "message_group_customer_name_idx" ON "message_group" USING btree ("customer_id","name");--> statement-breakpoint
CREATE INDEX "device_command_device_idx" ON "device_command" USING btree ("device_id","issued_at");--> statement-breakpoint
CREATE INDEX "device_metric_sample_age_idx" ON "device_metric_sample" USING brin ("sampled_at");
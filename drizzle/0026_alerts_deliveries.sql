CREATE TABLE "notification_delivery" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" bigint NOT NULL,
	"channel_id" bigint NOT NULL,
	"event_type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"texts" jsonb NOT NULL,
	"state" text DEFAULT 'PENDING' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone NOT NULL,
	"lease_token" uuid,
	"lease_until" timestamp (3) with time zone,
	"sent_to" text[] DEFAULT '{}'::text[] NOT NULL,
	"detail" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "notification_delivery_attempt" (
	"delivery_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"succeeded" boolean NOT NULL,
	"status_code" integer,
	"latency_ms" integer NOT NULL,
	"error" text,
	"detail" text
);
--> statement-breakpoint
CREATE TABLE "user_notification" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" bigint NOT NULL,
	"user_id" uuid NOT NULL,
	"channel_id" bigint,
	"delivery_id" uuid,
	"event_type" text NOT NULL,
	"title" text NOT NULL,
	"text" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"read_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "notification_channel" ADD COLUMN "enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_channel" ADD COLUMN "disabled_reason" text;--> statement-breakpoint
ALTER TABLE "notification_channel" ADD COLUMN "secret_sealed" text;--> statement-breakpoint
ALTER TABLE "notification_channel" ADD COLUMN "previous_secret_sealed" text;--> statement-breakpoint
ALTER TABLE "notification_channel" ADD COLUMN "previous_secret_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "notification_channel" ADD COLUMN "secret_rotated_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "notification_delivery" ADD CONSTRAINT "notification_delivery_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_delivery" ADD CONSTRAINT "notification_delivery_channel_id_notification_channel_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."notification_channel"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_delivery_attempt" ADD CONSTRAINT "notification_delivery_attempt_delivery_id_notification_delivery_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."notification_delivery"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_notification" ADD CONSTRAINT "user_notification_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_notification" ADD CONSTRAINT "user_notification_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_notification" ADD CONSTRAINT "user_notification_channel_id_notification_channel_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."notification_channel"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_notification" ADD CONSTRAINT "user_notification_delivery_id_notification_delivery_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."notification_delivery"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_delivery_due_idx" ON "notification_delivery" USING btree ("next_attempt_at") WHERE "notification_delivery"."state" = 'PENDING';--> statement-breakpoint
CREATE INDEX "notification_delivery_channel_idx" ON "notification_delivery" USING btree ("channel_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notification_delivery_customer_idx" ON "notification_delivery" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_delivery_attempt_key" ON "notification_delivery_attempt" USING btree ("delivery_id","attempt");--> statement-breakpoint
CREATE INDEX "user_notification_user_idx" ON "user_notification" USING btree ("user_id","created_at" DESC NULLS LAST,"delivery_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "user_notification_unread_idx" ON "user_notification" USING btree ("user_id") WHERE "user_notification"."read_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "user_notification_delivery_user_key" ON "user_notification" USING btree ("delivery_id","user_id");
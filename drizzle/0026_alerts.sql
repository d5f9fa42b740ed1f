CREATE TABLE "alert_rule_notification_channel" (
	"alert_rule_id" bigint NOT NULL,
	"notification_channel_id" bigint NOT NULL,
	"customer_id" bigint NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "alert_rule_notification_channel_alert_rule_id_notification_channel_id_pk" PRIMARY KEY("alert_rule_id","notification_channel_id")
);
--> statement-breakpoint
CREATE TABLE "alert_rule" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_rule_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"customer_id" bigint NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"condition" jsonb NOT NULL,
	"delay_evaluate_after_violation_minutes" integer DEFAULT 0 NOT NULL,
	"scheduled_evaluate_seconds" integer DEFAULT 300 NOT NULL,
	"working_days" jsonb,
	"working_time" jsonb NOT NULL,
	"alert_email_template" text,
	"evaluate_summary_email_template" text,
	"alert_sms_template" text,
	"alert_fixed_sms_template" text,
	"version" integer DEFAULT 0 NOT NULL,
	"evaluate_count" integer DEFAULT 0 NOT NULL,
	"violation_count" integer DEFAULT 0 NOT NULL,
	"last_evaluation_date" timestamp (3) with time zone,
	"last_violation_date" timestamp (3) with time zone,
	"next_evaluation_at" timestamp (3) with time zone,
	"created_date" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_saved_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"customer_id" bigint NOT NULL,
	"alert_rule_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"device_id" uuid,
	"datasource_id" uuid,
	"opened_at" timestamp (3) with time zone NOT NULL,
	"closed_at" timestamp (3) with time zone,
	"device_name" text,
	"device_last_activity" timestamp (3) with time zone,
	"device_last_status_change" timestamp (3) with time zone,
	"device_group_id" uuid,
	"device_group_path" uuid[],
	"folder_path" text,
	"datasource_name" text,
	"datasource_error_counter" integer,
	"datasource_last_error" text,
	CONSTRAINT "alert_subject_check" CHECK (("alert"."kind" = 'DEVICE') = ("alert"."device_id" is not null) and ("alert"."kind" = 'DATASOURCE') = ("alert"."datasource_id" is not null))
);
--> statement-breakpoint
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
ALTER TABLE "alert_rule_notification_channel" ADD CONSTRAINT "alert_rule_notification_channel_alert_rule_id_alert_rule_id_fk" FOREIGN KEY ("alert_rule_id") REFERENCES "public"."alert_rule"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rule_notification_channel" ADD CONSTRAINT "alert_rule_notification_channel_notification_channel_id_notification_channel_id_fk" FOREIGN KEY ("notification_channel_id") REFERENCES "public"."notification_channel"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rule_notification_channel" ADD CONSTRAINT "alert_rule_notification_channel_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rule" ADD CONSTRAINT "alert_rule_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert" ADD CONSTRAINT "alert_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert" ADD CONSTRAINT "alert_alert_rule_id_alert_rule_id_fk" FOREIGN KEY ("alert_rule_id") REFERENCES "public"."alert_rule"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert" ADD CONSTRAINT "alert_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert" ADD CONSTRAINT "alert_datasource_id_datasource_id_fk" FOREIGN KEY ("datasource_id") REFERENCES "public"."datasource"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_delivery" ADD CONSTRAINT "notification_delivery_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_delivery" ADD CONSTRAINT "notification_delivery_channel_id_notification_channel_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."notification_channel"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_delivery_attempt" ADD CONSTRAINT "notification_delivery_attempt_delivery_id_notification_delivery_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."notification_delivery"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_notification" ADD CONSTRAINT "user_notification_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_notification" ADD CONSTRAINT "user_notification_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_notification" ADD CONSTRAINT "user_notification_channel_id_notification_channel_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."notification_channel"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_notification" ADD CONSTRAINT "user_notification_delivery_id_notification_delivery_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."notification_delivery"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_rule_notification_channel_channel_idx" ON "alert_rule_notification_channel" USING btree ("notification_channel_id");--> statement-breakpoint
CREATE INDEX "alert_rule_customer_idx" ON "alert_rule" USING btree ("customer_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_rule_customer_name_key" ON "alert_rule" USING btree ("customer_id","name");--> statement-breakpoint
CREATE INDEX "alert_rule_name_trgm_idx" ON "alert_rule" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "alert_rule_due_idx" ON "alert_rule" USING btree ("next_evaluation_at") WHERE "alert_rule"."next_evaluation_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_open_device_key" ON "alert" USING btree ("alert_rule_id","device_id") WHERE "alert"."closed_at" is null and "alert"."device_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_open_datasource_key" ON "alert" USING btree ("alert_rule_id","datasource_id") WHERE "alert"."closed_at" is null and "alert"."datasource_id" is not null;--> statement-breakpoint
CREATE INDEX "alert_device_open_idx" ON "alert" USING btree ("device_id") WHERE "alert"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "alert_customer_open_device_idx" ON "alert" USING btree ("customer_id") WHERE "alert"."closed_at" is null and "alert"."device_id" is not null;--> statement-breakpoint
CREATE INDEX "alert_device_idx" ON "alert" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "alert_datasource_idx" ON "alert" USING btree ("datasource_id");--> statement-breakpoint
CREATE INDEX "alert_rule_opened_idx" ON "alert" USING btree ("alert_rule_id","opened_at");--> statement-breakpoint
CREATE INDEX "alert_customer_kind_opened_idx" ON "alert" USING btree ("customer_id","kind","opened_at");--> statement-breakpoint
CREATE INDEX "notification_delivery_due_idx" ON "notification_delivery" USING btree ("next_attempt_at") WHERE "notification_delivery"."state" = 'PENDING';--> statement-breakpoint
CREATE INDEX "notification_delivery_channel_idx" ON "notification_delivery" USING btree ("channel_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notification_delivery_customer_idx" ON "notification_delivery" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_delivery_attempt_key" ON "notification_delivery_attempt" USING btree ("delivery_id","attempt");--> statement-breakpoint
CREATE INDEX "user_notification_user_idx" ON "user_notification" USING btree ("user_id","created_at" DESC NULLS LAST,"delivery_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "user_notification_unread_idx" ON "user_notification" USING btree ("user_id") WHERE "user_notification"."read_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "user_notification_delivery_user_key" ON "user_notification" USING btree ("delivery_id","user_id");
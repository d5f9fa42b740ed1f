CREATE TABLE "mail_message" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" bigint,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"html_body" text,
	"kind" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "password_setup_token" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone,
	"superseded_at" timestamp (3) with time zone,
	CONSTRAINT "password_setup_token_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "app_user" ADD COLUMN "login_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "app_user" ADD COLUMN "presence_time_seconds" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_message" ADD CONSTRAINT "mail_message_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_setup_token" ADD CONSTRAINT "password_setup_token_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_message_due_idx" ON "mail_message" USING btree ("next_attempt_at") WHERE "mail_message"."status" = 'PENDING';--> statement-breakpoint
CREATE INDEX "mail_message_customer_idx" ON "mail_message" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "password_setup_token_user_idx" ON "password_setup_token" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "customer" DROP COLUMN "last_activity";
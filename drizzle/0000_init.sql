CREATE TABLE "auth_failure" (
	"subject" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"window_start" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_access_token" (
	"id" uuid PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"family_id" uuid NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "oauth_access_token_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "oauth_refresh_token" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"family_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "oauth_token_family" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	"revoked_reason" text
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"log_level" text DEFAULT 'INFO' NOT NULL,
	"message" text NOT NULL,
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text,
	"entity_name" text,
	"changes" jsonb,
	"user_id" uuid,
	"user_email" text,
	"customer_id" bigint,
	"customer_name" text,
	"device_id" text,
	"device_name" text,
	"content_id" text,
	"content_name" text,
	"datasource_id" text,
	"datasource_name" text,
	"request_id" text
);
--> statement-breakpoint
CREATE TABLE "customer" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "customer_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"comment" text,
	"country" text,
	"location" text,
	"type" text,
	"vertical" text,
	"created_date" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"restricted" boolean DEFAULT false NOT NULL,
	"expiration_date" timestamp (3) with time zone,
	"force_2fa" boolean DEFAULT false NOT NULL,
	"needs_to_be_invoiced" boolean DEFAULT false NOT NULL,
	"license_tier" text DEFAULT 'ENTERPRISE' NOT NULL,
	"resource_limits" jsonb,
	"free_licenses" integer DEFAULT 0 NOT NULL,
	"browser_session_licenses" integer DEFAULT 0 NOT NULL,
	"device_session_limit" integer DEFAULT 0 NOT NULL,
	"storage_size" bigint,
	"owner_subreseller_id" bigint,
	"is_subreseller" boolean DEFAULT false NOT NULL,
	"subreseller_since" timestamp (3) with time zone,
	"content_designer_email" text,
	"support_email" text
);
--> statement-breakpoint
CREATE TABLE "app_user" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" bigint NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"password_hash" text,
	"auth_provider" text DEFAULT 'LOCAL' NOT NULL,
	"editor_level" text,
	"language" text,
	"comment" text,
	"address" text,
	"read_only" boolean DEFAULT false NOT NULL,
	"restricted" boolean DEFAULT false NOT NULL,
	"use_2fa" boolean DEFAULT false NOT NULL,
	"force_to_set_2fa" boolean DEFAULT false NOT NULL,
	"totp_secret" text,
	"sso_login_enabled" boolean DEFAULT false NOT NULL,
	"username_password_login_enabled" boolean DEFAULT true NOT NULL,
	"magic_code_login_enabled" boolean DEFAULT false NOT NULL,
	"oauth_password_flow_enabled" boolean DEFAULT true NOT NULL,
	"trusted_admin" boolean DEFAULT false NOT NULL,
	"last_login" timestamp (3) with time zone,
	"last_activity" timestamp (3) with time zone,
	"created_date" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "oauth_access_token" ADD CONSTRAINT "oauth_access_token_family_id_oauth_token_family_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."oauth_token_family"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_refresh_token" ADD CONSTRAINT "oauth_refresh_token_family_id_oauth_token_family_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."oauth_token_family"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_token_family" ADD CONSTRAINT "oauth_token_family_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer" ADD CONSTRAINT "customer_owner_subreseller_id_customer_id_fk" FOREIGN KEY ("owner_subreseller_id") REFERENCES "public"."customer"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_user" ADD CONSTRAINT "app_user_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oauth_access_token_family_idx" ON "oauth_access_token" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "oauth_access_token_expires_idx" ON "oauth_access_token" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "oauth_refresh_token_family_idx" ON "oauth_refresh_token" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "oauth_token_family_user_idx" ON "oauth_token_family" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "oauth_token_family_expires_idx" ON "oauth_token_family" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "audit_log_customer_time_idx" ON "audit_log" USING btree ("customer_id","time","id");--> statement-breakpoint
CREATE INDEX "audit_log_time_idx" ON "audit_log" USING btree ("time","id");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_name_key" ON "customer" USING btree ("name");--> statement-breakpoint
CREATE INDEX "customer_owner_subreseller_idx" ON "customer" USING btree ("owner_subreseller_id","id");--> statement-breakpoint
CREATE INDEX "customer_created_idx" ON "customer" USING btree ("created_date");--> statement-breakpoint
CREATE INDEX "customer_name_lower_idx" ON "customer" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "app_user_email_key" ON "app_user" USING btree ("email");--> statement-breakpoint
CREATE INDEX "app_user_customer_name_idx" ON "app_user" USING btree ("customer_id","name","id");--> statement-breakpoint
CREATE INDEX "app_user_customer_created_idx" ON "app_user" USING btree ("customer_id","created_date","id");
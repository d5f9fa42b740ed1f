CREATE TABLE "webhook_action" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "webhook_action_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"customer_id" bigint NOT NULL,
	"name" text NOT NULL,
	"event_id" text NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"action" text NOT NULL,
	"action_params" jsonb,
	"target_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_saved_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_api_key" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" bigint NOT NULL,
	"name" text NOT NULL,
	"restricted" boolean DEFAULT false NOT NULL,
	"scopes" text[] NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_execution" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" bigint NOT NULL,
	"action_id" bigint NOT NULL,
	"event_id" text NOT NULL,
	"api_key_id" uuid,
	"triggered_by" text NOT NULL,
	"actor" jsonb NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone,
	"outcome" text,
	"detail" text,
	"affected" integer,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_action" ADD CONSTRAINT "webhook_action_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_api_key" ADD CONSTRAINT "webhook_api_key_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_execution" ADD CONSTRAINT "webhook_execution_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_execution" ADD CONSTRAINT "webhook_execution_action_id_webhook_action_id_fk" FOREIGN KEY ("action_id") REFERENCES "public"."webhook_action"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_action_customer_event_key" ON "webhook_action" USING btree ("customer_id","event_id");--> statement-breakpoint
CREATE INDEX "webhook_action_customer_idx" ON "webhook_action" USING btree ("customer_id","id");--> statement-breakpoint
CREATE INDEX "webhook_action_name_trgm_idx" ON "webhook_action" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "webhook_api_key_customer_idx" ON "webhook_api_key" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_api_key_name_trgm_idx" ON "webhook_api_key" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "webhook_execution_action_idx" ON "webhook_execution" USING btree ("action_id","customer_id","received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_execution_pending_idx" ON "webhook_execution" USING btree ("lease_until") WHERE "webhook_execution"."finished_at" is null;--> statement-breakpoint
CREATE INDEX "webhook_execution_customer_idx" ON "webhook_execution" USING btree ("customer_id");
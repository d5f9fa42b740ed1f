CREATE TABLE "device_session" (
	"id" uuid PRIMARY KEY NOT NULL,
	"device_id" uuid NOT NULL,
	"customer_id" bigint,
	"instance_id" uuid NOT NULL,
	"opened_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "license_order" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "license_order_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"customer_id" bigint NOT NULL,
	"order_date" timestamp (3) with time zone NOT NULL,
	"create_date" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"device_license_count" integer NOT NULL,
	"price_per_device" numeric(14, 4),
	"currency" text,
	"comment" text,
	"po_number" text,
	"approved" boolean DEFAULT false NOT NULL,
	"approve_date" timestamp (3) with time zone,
	"invoice_start_date" timestamp (3) with time zone,
	"license_type" text,
	"license_pay_type" text,
	"recurrence_type" text,
	"recurrence_frequency" integer,
	"managed_in_invoice_system" boolean DEFAULT false NOT NULL,
	"invoice_system_id" text,
	"license_package_id" bigint,
	"approved_by_user_id" uuid,
	"sold_by_user_id" uuid,
	CONSTRAINT "license_order_count_positive" CHECK ("license_order"."device_license_count" > 0)
);
--> statement-breakpoint
CREATE TABLE "license_package" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "license_package_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"license_type" text NOT NULL,
	"license_pay_type" text NOT NULL,
	"recurrence_type" text,
	"recurrence_frequency" integer,
	"price_per_device" numeric(14, 4),
	"currency" text,
	"created_date" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_session" ADD CONSTRAINT "device_session_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_session" ADD CONSTRAINT "device_session_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_order" ADD CONSTRAINT "license_order_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_order" ADD CONSTRAINT "license_order_license_package_id_license_package_id_fk" FOREIGN KEY ("license_package_id") REFERENCES "public"."license_package"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_order" ADD CONSTRAINT "license_order_approved_by_user_id_app_user_id_fk" FOREIGN KEY ("approved_by_user_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_order" ADD CONSTRAINT "license_order_sold_by_user_id_app_user_id_fk" FOREIGN KEY ("sold_by_user_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_session_customer_idx" ON "device_session" USING btree ("customer_id","lease_until","device_id");--> statement-breakpoint
CREATE INDEX "device_session_device_idx" ON "device_session" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "license_order_customer_idx" ON "license_order" USING btree ("customer_id","approved","id");--> statement-breakpoint
CREATE INDEX "license_order_unapproved_idx" ON "license_order" USING btree ("id") WHERE not "license_order"."approved";--> statement-breakpoint
CREATE UNIQUE INDEX "license_package_name_key" ON "license_package" USING btree ("name");--> statement-breakpoint
CREATE INDEX "license_package_name_trgm_idx" ON "license_package" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "device_license_order_idx" ON "device" USING btree ("license_order_id") WHERE "device"."license_order_id" is not null;--> statement-breakpoint
CREATE INDEX "device_customer_free_licence_idx" ON "device" USING btree ("customer_id") WHERE "device"."license_status" = 'FREE';
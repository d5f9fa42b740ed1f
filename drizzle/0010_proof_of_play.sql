CREATE TABLE "play_rollup_day" (
	"customer_id" bigint NOT NULL,
	"dimension" text NOT NULL,
	"subject_id" text NOT NULL,
	"day" date NOT NULL,
	"starts" integer[] NOT NULL,
	"ends" integer[] NOT NULL,
	"duration_ms" bigint[] NOT NULL,
	"clicks" integer[] NOT NULL,
	"viewers" integer[] NOT NULL,
	"attention_ms" bigint[] NOT NULL,
	CONSTRAINT "play_rollup_day_customer_id_dimension_subject_id_day_pk" PRIMARY KEY("customer_id","dimension","subject_id","day")
);
--> statement-breakpoint
CREATE TABLE "play_subject" (
	"customer_id" bigint NOT NULL,
	"dimension" text NOT NULL,
	"subject_id" text NOT NULL,
	"name" text NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "play_subject_customer_id_dimension_subject_id_pk" PRIMARY KEY("customer_id","dimension","subject_id")
);
--> statement-breakpoint
ALTER TABLE "play_rollup_day" ADD CONSTRAINT "play_rollup_day_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "play_subject" ADD CONSTRAINT "play_subject_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "play_rollup_day_dimension_day_idx" ON "play_rollup_day" USING btree ("customer_id","dimension","day");
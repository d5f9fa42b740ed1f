CREATE TABLE "play_rollup_day_total" (
	"customer_id" bigint NOT NULL,
	"dimension" text NOT NULL,
	"subject_id" text NOT NULL,
	"day" date NOT NULL,
	"starts" integer NOT NULL,
	"ends" integer NOT NULL,
	"duration_ms" bigint NOT NULL,
	"clicks" integer NOT NULL,
	"viewers" integer NOT NULL,
	"attention_ms" bigint NOT NULL,
	CONSTRAINT "play_rollup_day_total_customer_id_dimension_subject_id_day_pk" PRIMARY KEY("customer_id","dimension","subject_id","day")
);
--> statement-breakpoint
ALTER TABLE "play_rollup_day_total" ADD CONSTRAINT "play_rollup_day_total_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "play_rollup_day_total_dimension_day_idx" ON "play_rollup_day_total" USING btree ("customer_id","dimension","day");
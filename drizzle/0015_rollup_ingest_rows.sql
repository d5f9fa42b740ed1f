ALTER TABLE "play_rollup_day_total" DROP CONSTRAINT "play_rollup_day_total_customer_id_dimension_subject_id_day_pk";--> statement-breakpoint
ALTER TABLE "play_rollup_day" DROP CONSTRAINT "play_rollup_day_customer_id_dimension_subject_id_day_pk";--> statement-breakpoint
ALTER TABLE "play_rollup_day_total" ADD COLUMN "batch" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "play_rollup_day" ADD COLUMN "batch" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "play_rollup_day_total" ADD CONSTRAINT "play_rollup_day_total_customer_id_dimension_subject_id_day_batch_pk" PRIMARY KEY("customer_id","dimension","subject_id","day","batch");--> statement-breakpoint
ALTER TABLE "play_rollup_day" ADD CONSTRAINT "play_rollup_day_customer_id_dimension_subject_id_day_batch_pk" PRIMARY KEY("customer_id","dimension","subject_id","day","batch");--> statement-breakpoint
CREATE INDEX "play_rollup_day_total_batch_idx" ON "play_rollup_day_total" USING btree ("batch") WHERE batch <> 0;--> statement-breakpoint
CREATE INDEX "play_rollup_day_batch_idx" ON "play_rollup_day" USING btree ("batch") WHERE batch <> 0;
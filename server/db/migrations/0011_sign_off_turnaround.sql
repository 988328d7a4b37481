ALTER TABLE "clinics" ADD COLUMN "turnaround_target_days" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "first_finalized_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "reports_clinic_awaiting_signature_idx" ON "reports" USING btree ("clinic_id","physician_id","exam_date") WHERE "reports"."deleted_at" is null and "reports"."is_finalized" = false;--> statement-breakpoint
CREATE INDEX "reports_clinic_first_finalized_idx" ON "reports" USING btree ("clinic_id","first_finalized_at") WHERE "reports"."deleted_at" is null and "reports"."first_finalized_at" is not null;--> statement-breakpoint
ALTER TABLE "clinics" ADD CONSTRAINT "clinics_turnaround_target_days_range" CHECK ("clinics"."turnaround_target_days" between 0 and 30);--> statement-breakpoint
-- Reports signed before this column existed: their first signature is the first "finalized" version (its
-- snapshot holds the signing time; an amendment later cleared finalized_at), else the current signature.
UPDATE "reports" SET "first_finalized_at" = coalesce(
  (SELECT coalesce(("v"."snapshot"->>'finalizedAt')::timestamptz, "v"."created_at")
     FROM "report_versions" "v"
    WHERE "v"."report_id" = "reports"."id" AND "v"."kind" = 'finalized'
    ORDER BY "v"."version_number" LIMIT 1),
  "reports"."finalized_at")
WHERE "reports"."finalized_by" IS NOT NULL;

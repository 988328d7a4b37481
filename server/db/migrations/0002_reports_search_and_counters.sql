CREATE TABLE "report_counters" (
	"clinic_id" integer PRIMARY KEY NOT NULL,
	"live_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_counters" ADD CONSTRAINT "report_counters_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reports_clinic_live_idx" ON "reports" USING btree ("clinic_id","generated_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "reports"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "reports_clinic_exam_date_idx" ON "reports" USING btree ("clinic_id","exam_date");--> statement-breakpoint
CREATE INDEX "reports_search_trgm_idx" ON "reports" USING gin (lower("patient_name" || ' ' || "study_type") gin_trgm_ops);
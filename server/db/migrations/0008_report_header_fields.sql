-- Header fields of the worksheet (issue 22): MRN, sex, referring physician, sonographer, comments.
-- The search index now also covers the MRN; date of birth is searched through its own index.
DROP INDEX "reports_search_trgm_idx";--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "mrn" varchar(64);--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "patient_sex" varchar(10);--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "referring_physician" varchar(255);--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "sonographer_name" varchar(255);--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "sonographer_comments" text;--> statement-breakpoint
CREATE INDEX "reports_clinic_patient_dob_idx" ON "reports" USING btree ("clinic_id","patient_dob");--> statement-breakpoint
CREATE INDEX "reports_search_trgm_idx" ON "reports" USING gin (lower("patient_name" || ' ' || "study_type" || ' ' || coalesce("mrn", '')) gin_trgm_ops) WITH (fastupdate=false);
ALTER TABLE "clinics" ALTER COLUMN "carotid_criteria_set" SET DEFAULT 'default';
--> statement-breakpoint
UPDATE "clinics" SET "carotid_criteria_set" = 'default' WHERE "carotid_criteria_set" = 'sru-2003';

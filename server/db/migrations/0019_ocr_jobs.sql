ALTER TABLE "worksheets" ADD COLUMN "ocr_stage" varchar(20);--> statement-breakpoint
ALTER TABLE "worksheets" ADD COLUMN "ocr_progress" real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "worksheets" ADD COLUMN "ocr_job_id" varchar(64);
ALTER TABLE "worksheets" ADD COLUMN "ocr_lease" varchar(64);--> statement-breakpoint
ALTER TABLE "worksheets" ADD COLUMN "ocr_lease_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "worksheets_ocr_lease_idx" ON "worksheets" USING btree ("ocr_lease_until") WHERE "worksheets"."ocr_status" = 'processing';
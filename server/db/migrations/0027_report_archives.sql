CREATE TABLE "report_archives" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "report_archives_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"clinic_id" integer NOT NULL,
	"report_id" integer NOT NULL,
	"version_number" integer NOT NULL,
	"status" varchar(20) DEFAULT 'pending' NOT NULL,
	"view" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"file_id" integer,
	"sha256" varchar(64),
	"byte_size" bigint,
	"archived_at" timestamp with time zone,
	"signed_by" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_archives" ADD CONSTRAINT "report_archives_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_archives" ADD CONSTRAINT "report_archives_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_archives" ADD CONSTRAINT "report_archives_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "report_archives_report_version_idx" ON "report_archives" USING btree ("report_id","version_number");--> statement-breakpoint
CREATE INDEX "report_archives_clinic_report_idx" ON "report_archives" USING btree ("clinic_id","report_id");--> statement-breakpoint
CREATE INDEX "report_archives_due_idx" ON "report_archives" USING btree ("next_attempt_at") WHERE "report_archives"."status" = 'pending';
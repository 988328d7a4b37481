CREATE TABLE "critical_communications" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "critical_communications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"clinic_id" integer NOT NULL,
	"report_id" integer NOT NULL,
	"result_keys" jsonb NOT NULL,
	"results" jsonb NOT NULL,
	"recipient" varchar(255) NOT NULL,
	"method" varchar(20) NOT NULL,
	"communicated_at" timestamp with time zone NOT NULL,
	"read_back" boolean NOT NULL,
	"notes" text,
	"recorded_by" varchar(64) NOT NULL,
	"amendment_number" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "clinics" ADD COLUMN "critical_rules_off" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "critical_results" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "critical_communications" ADD CONSTRAINT "critical_communications_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "critical_communications" ADD CONSTRAINT "critical_communications_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "critical_communications_report_idx" ON "critical_communications" USING btree ("clinic_id","report_id");
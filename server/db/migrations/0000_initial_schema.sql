CREATE TABLE "physicians" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "physicians_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"clinic_id" integer NOT NULL,
	"name" varchar(255) NOT NULL,
	"title" varchar(255) DEFAULT '' NOT NULL,
	"specialty" varchar(255) DEFAULT '' NOT NULL,
	"signature_url" varchar(500),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sonographers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sonographers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"clinic_id" integer NOT NULL,
	"name" varchar(255) NOT NULL,
	"initials" varchar(10) NOT NULL,
	"title" varchar(100),
	"department" varchar(100),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stored_files" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "stored_files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"clinic_id" integer,
	"kind" varchar(40) NOT NULL,
	"storage_key" varchar(200) NOT NULL,
	"mime_type" varchar(100) NOT NULL,
	"byte_size" bigint NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"original_name" varchar(255),
	"created_by" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stored_files_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
CREATE TABLE "clinics" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "clinics_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" varchar(255) NOT NULL,
	"email" varchar(255) NOT NULL,
	"address" text,
	"city" varchar(100),
	"state" varchar(50),
	"zip_code" varchar(20),
	"phone" varchar(50),
	"fax" varchar(50),
	"website" varchar(255),
	"logo_url" varchar(500),
	"subscription" varchar(50) DEFAULT 'basic' NOT NULL,
	"carotid_criteria_set" varchar(50) DEFAULT 'sru-2003' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clinics_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"sid" varchar(128) PRIMARY KEY NOT NULL,
	"sess" jsonb NOT NULL,
	"user_id" varchar(64),
	"expire" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_invitations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "user_invitations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"email" varchar(255) NOT NULL,
	"clinic_id" integer NOT NULL,
	"role" varchar(50) DEFAULT 'sonographer' NOT NULL,
	"invited_by" varchar(64) NOT NULL,
	"token_hash" varchar(128) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_invitations_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" varchar(64) PRIMARY KEY NOT NULL,
	"email" varchar(255) NOT NULL,
	"password_hash" text,
	"first_name" varchar(100),
	"last_name" varchar(100),
	"profile_image_url" varchar(500),
	"clinic_id" integer,
	"role" varchar(50) DEFAULT 'sonographer' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"invited_by" varchar(64),
	"invited_at" timestamp with time zone,
	"joined_at" timestamp with time zone,
	"oidc_subject" varchar(255),
	"totp_secret_enc" text,
	"totp_enabled" boolean DEFAULT false NOT NULL,
	"recovery_code_hashes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_seen_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email"),
	CONSTRAINT "users_oidc_subject_unique" UNIQUE("oidc_subject")
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"clinic_id" integer,
	"actor_user_id" varchar(64),
	"action" varchar(60) NOT NULL,
	"entity_type" varchar(40),
	"entity_id" varchar(64),
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"ip" varchar(64),
	"request_id" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"prev_hash" varchar(64) NOT NULL,
	"hash" varchar(64) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "storage_snapshots" (
	"day" date PRIMARY KEY NOT NULL,
	"database_bytes" bigint NOT NULL,
	"file_bytes" bigint NOT NULL,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "training_pairs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "training_pairs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"worksheet_url" varchar(500) NOT NULL,
	"report_url" varchar(500) NOT NULL,
	"worksheet_file_id" integer,
	"report_file_id" integer,
	"category" varchar(100) NOT NULL,
	"complexity_level" varchar(50) NOT NULL,
	"report_text" text,
	"uploaded_by" varchar(64),
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_versions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "report_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"clinic_id" integer NOT NULL,
	"report_id" integer NOT NULL,
	"version_number" integer NOT NULL,
	"kind" varchar(20) NOT NULL,
	"snapshot" jsonb NOT NULL,
	"reason" text,
	"created_by" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"clinic_id" integer NOT NULL,
	"worksheet_id" integer,
	"digital_worksheet_id" integer,
	"patient_name" varchar(255) NOT NULL,
	"patient_dob" date,
	"exam_date" date,
	"study_type" varchar(100) NOT NULL,
	"indication" text NOT NULL,
	"findings" text NOT NULL,
	"impression" text NOT NULL,
	"conclusions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"warnings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"physician_id" integer,
	"sonographer_id" integer,
	"template_id" integer,
	"logo_url" varchar(500),
	"is_draft" boolean DEFAULT true NOT NULL,
	"is_finalized" boolean DEFAULT false NOT NULL,
	"finalized_at" timestamp with time zone,
	"finalized_by" varchar(64),
	"is_amended" boolean DEFAULT false NOT NULL,
	"amended_at" timestamp with time zone,
	"amended_by" varchar(64),
	"amendment_reason" text,
	"amendment_count" integer DEFAULT 0 NOT NULL,
	"created_by" varchar(64),
	"generated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "legend_entries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "legend_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"clinic_id" integer NOT NULL,
	"title" varchar(255) NOT NULL,
	"description" text,
	"medical_meaning" text NOT NULL,
	"drawing_pattern" text,
	"category" varchar(100) DEFAULT 'vascular' NOT NULL,
	"keywords" text,
	"example_image" varchar(500),
	"drawing_data" text,
	"image_type" varchar(20) DEFAULT 'upload' NOT NULL,
	"created_by" varchar(64),
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_templates" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "report_templates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"clinic_id" integer NOT NULL,
	"name" varchar(255) NOT NULL,
	"description" text,
	"template_type" varchar(20) DEFAULT 'both' NOT NULL,
	"show_header" boolean DEFAULT true NOT NULL,
	"clinic_name" varchar(255),
	"clinic_address" text,
	"clinic_phone" varchar(50),
	"show_logo" boolean DEFAULT true NOT NULL,
	"patient_info_layout" varchar(20) DEFAULT 'grid' NOT NULL,
	"show_patient_id" boolean DEFAULT false NOT NULL,
	"show_study_type" boolean DEFAULT true NOT NULL,
	"show_indication" boolean DEFAULT true NOT NULL,
	"show_findings" boolean DEFAULT true NOT NULL,
	"show_impression" boolean DEFAULT true NOT NULL,
	"show_footer" boolean DEFAULT true NOT NULL,
	"footer_text" text,
	"show_report_id" boolean DEFAULT true NOT NULL,
	"show_generation_date" boolean DEFAULT true NOT NULL,
	"show_signature" boolean DEFAULT true NOT NULL,
	"signature_position" varchar(10) DEFAULT 'right' NOT NULL,
	"primary_color" varchar(20) DEFAULT '#0066cc' NOT NULL,
	"font_family" varchar(50) DEFAULT 'Arial' NOT NULL,
	"font_size" varchar(10) DEFAULT '12px' NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"user_id" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "text_shortcuts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "text_shortcuts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"clinic_id" integer NOT NULL,
	"title" varchar(255) NOT NULL,
	"short_text" text NOT NULL,
	"category" varchar(100) DEFAULT 'general' NOT NULL,
	"tags" text,
	"is_global" boolean DEFAULT true NOT NULL,
	"user_id" varchar(64),
	"usage_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "worksheet_templates" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "worksheet_templates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"clinic_id" integer NOT NULL,
	"name" varchar(255) NOT NULL,
	"description" text,
	"category" varchar(50) DEFAULT 'vascular' NOT NULL,
	"image_url" varchar(500),
	"image_file_id" integer,
	"original_filename" varchar(255) NOT NULL,
	"user_id" varchar(64),
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "digital_worksheets" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "digital_worksheets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"clinic_id" integer NOT NULL,
	"template_id" integer,
	"patient_name" varchar(255) NOT NULL,
	"patient_dob" date,
	"exam_date" date NOT NULL,
	"study_type" varchar(100),
	"drawing_data" text DEFAULT '' NOT NULL,
	"annotations" text,
	"drawing_history" text,
	"vector_data" jsonb,
	"user_id" varchar(64) NOT NULL,
	"sonographer_id" integer,
	"is_draft" boolean DEFAULT true NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "worksheets" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "worksheets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"clinic_id" integer NOT NULL,
	"filename" varchar(255) NOT NULL,
	"original_name" varchar(255) NOT NULL,
	"file_url" varchar(500) NOT NULL,
	"file_id" integer NOT NULL,
	"image_file_id" integer,
	"page_count" integer DEFAULT 1 NOT NULL,
	"uploaded_by" varchar(64),
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"patient_name" varchar(255),
	"patient_dob" date,
	"exam_date" date,
	"scan_type" varchar(100),
	"ocr_processed" boolean DEFAULT false NOT NULL,
	"ocr_status" varchar(20) DEFAULT 'pending' NOT NULL,
	"ocr_error" text,
	"ocr_result" jsonb
);
--> statement-breakpoint
ALTER TABLE "physicians" ADD CONSTRAINT "physicians_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sonographers" ADD CONSTRAINT "sonographers_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_invitations" ADD CONSTRAINT "user_invitations_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_versions" ADD CONSTRAINT "report_versions_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_versions" ADD CONSTRAINT "report_versions_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legend_entries" ADD CONSTRAINT "legend_entries_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_templates" ADD CONSTRAINT "report_templates_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "text_shortcuts" ADD CONSTRAINT "text_shortcuts_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "worksheet_templates" ADD CONSTRAINT "worksheet_templates_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digital_worksheets" ADD CONSTRAINT "digital_worksheets_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "worksheets" ADD CONSTRAINT "worksheets_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "worksheets" ADD CONSTRAINT "worksheets_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "worksheets" ADD CONSTRAINT "worksheets_image_file_id_stored_files_id_fk" FOREIGN KEY ("image_file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "physicians_clinic_idx" ON "physicians" USING btree ("clinic_id");--> statement-breakpoint
CREATE INDEX "sonographers_clinic_idx" ON "sonographers" USING btree ("clinic_id");--> statement-breakpoint
CREATE INDEX "stored_files_clinic_idx" ON "stored_files" USING btree ("clinic_id");--> statement-breakpoint
CREATE INDEX "sessions_expire_idx" ON "sessions" USING btree ("expire");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "user_invitations_clinic_idx" ON "user_invitations" USING btree ("clinic_id");--> statement-breakpoint
CREATE INDEX "users_clinic_idx" ON "users" USING btree ("clinic_id");--> statement-breakpoint
CREATE INDEX "audit_events_clinic_idx" ON "audit_events" USING btree ("clinic_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "report_versions_report_number_idx" ON "report_versions" USING btree ("report_id","version_number");--> statement-breakpoint
CREATE INDEX "reports_clinic_generated_idx" ON "reports" USING btree ("clinic_id","generated_at");--> statement-breakpoint
CREATE INDEX "legend_entries_clinic_idx" ON "legend_entries" USING btree ("clinic_id");--> statement-breakpoint
CREATE INDEX "report_templates_clinic_idx" ON "report_templates" USING btree ("clinic_id");--> statement-breakpoint
CREATE INDEX "text_shortcuts_clinic_idx" ON "text_shortcuts" USING btree ("clinic_id");--> statement-breakpoint
CREATE INDEX "worksheet_templates_clinic_idx" ON "worksheet_templates" USING btree ("clinic_id");--> statement-breakpoint
CREATE INDEX "digital_worksheets_clinic_idx" ON "digital_worksheets" USING btree ("clinic_id");--> statement-breakpoint
CREATE INDEX "worksheets_clinic_idx" ON "worksheets" USING btree ("clinic_id","uploaded_at");
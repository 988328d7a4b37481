CREATE TABLE "ocr_corrections" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ocr_corrections_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"clinic_id" integer NOT NULL,
	"review_id" integer NOT NULL,
	"field" varchar(40) NOT NULL,
	"zone_id" varchar(40),
	"label_wording" varchar(60),
	"sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ocr_label_aliases" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ocr_label_aliases_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"clinic_id" integer NOT NULL,
	"wording" varchar(60) NOT NULL,
	"field" varchar(40) NOT NULL,
	"seen" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ocr_reviews" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ocr_reviews_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"clinic_id" integer NOT NULL,
	"worksheet_id" integer NOT NULL,
	"worksheet_template_id" integer,
	"corrected_fields" jsonb NOT NULL,
	"created_by" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ocr_corrections" ADD CONSTRAINT "ocr_corrections_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ocr_corrections" ADD CONSTRAINT "ocr_corrections_review_id_ocr_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."ocr_reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ocr_label_aliases" ADD CONSTRAINT "ocr_label_aliases_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ocr_reviews" ADD CONSTRAINT "ocr_reviews_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ocr_reviews" ADD CONSTRAINT "ocr_reviews_worksheet_id_worksheets_id_fk" FOREIGN KEY ("worksheet_id") REFERENCES "public"."worksheets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ocr_reviews" ADD CONSTRAINT "ocr_reviews_worksheet_template_id_worksheet_templates_id_fk" FOREIGN KEY ("worksheet_template_id") REFERENCES "public"."worksheet_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ocr_corrections_clinic_idx" ON "ocr_corrections" USING btree ("clinic_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ocr_label_aliases_clinic_wording_idx" ON "ocr_label_aliases" USING btree ("clinic_id","wording");--> statement-breakpoint
CREATE UNIQUE INDEX "ocr_reviews_worksheet_idx" ON "ocr_reviews" USING btree ("worksheet_id");--> statement-breakpoint
CREATE INDEX "ocr_reviews_template_idx" ON "ocr_reviews" USING btree ("clinic_id","worksheet_template_id","created_at");
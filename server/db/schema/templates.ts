import { boolean, index, integer, jsonb, pgTable, text, varchar } from "drizzle-orm/pg-core";
import type { FormLayout } from "../../ocr/templates/propose-zones";
import { clinics } from "./clinics";
import { id, timestamps } from "./columns";

const clinicId = () =>
  integer("clinic_id")
    .notNull()
    .references(() => clinics.id, { onDelete: "cascade" });

export const reportTemplates = pgTable(
  "report_templates",
  {
    id: id(),
    clinicId: clinicId(),
    name: varchar("name", { length: 255 }).notNull(),
    description: text("description"),
    templateType: varchar("template_type", { length: 20 }).notNull().default("both"),
    showHeader: boolean("show_header").notNull().default(true),
    clinicName: varchar("clinic_name", { length: 255 }),
    clinicAddress: text("clinic_address"),
    clinicPhone: varchar("clinic_phone", { length: 50 }),
    showLogo: boolean("show_logo").notNull().default(true),
    patientInfoLayout: varchar("patient_info_layout", { length: 20 }).notNull().default("grid"),
    showPatientId: boolean("show_patient_id").notNull().default(false),
    showStudyType: boolean("show_study_type").notNull().default(true),
    showIndication: boolean("show_indication").notNull().default(true),
    showFindings: boolean("show_findings").notNull().default(true),
    showImpression: boolean("show_impression").notNull().default(true),
    showFooter: boolean("show_footer").notNull().default(true),
    footerText: text("footer_text"),
    showReportId: boolean("show_report_id").notNull().default(true),
    showGenerationDate: boolean("show_generation_date").notNull().default(true),
    showSignature: boolean("show_signature").notNull().default(true),
    signaturePosition: varchar("signature_position", { length: 10 }).notNull().default("right"),
    primaryColor: varchar("primary_color", { length: 20 }).notNull().default("#0066cc"),
    fontFamily: varchar("font_family", { length: 50 }).notNull().default("Arial"),
    fontSize: varchar("font_size", { length: 10 }).notNull().default("12px"),
    isDefault: boolean("is_default").notNull().default(false),
    userId: varchar("user_id", { length: 64 }),
    ...timestamps,
  },
  (t) => [index("report_templates_clinic_idx").on(t.clinicId)],
);

export const worksheetTemplates = pgTable(
  "worksheet_templates",
  {
    id: id(),
    clinicId: clinicId(),
    name: varchar("name", { length: 255 }).notNull(),
    description: text("description"),
    category: varchar("category", { length: 50 }).notNull().default("vascular"),
    imageUrl: varchar("image_url", { length: 500 }),
    imageFileId: integer("image_file_id"),
    originalFilename: varchar("original_filename", { length: 255 }).notNull(),
    userId: varchar("user_id", { length: 64 }),
    isDefault: boolean("is_default").notNull().default(false),
    /**
     * What was found on the blank form for reading filled sheets by it (issue 23): printed texts (anchors) and the
     * reading zones, in the image's pixels. Null when the form has not been analysed or no text was found on it.
     */
    readingLayout: jsonb("reading_layout").$type<FormLayout>(),
    ...timestamps,
  },
  (t) => [index("worksheet_templates_clinic_idx").on(t.clinicId)],
);

export const legendEntries = pgTable(
  "legend_entries",
  {
    id: id(),
    clinicId: clinicId(),
    title: varchar("title", { length: 255 }).notNull(),
    description: text("description"),
    medicalMeaning: text("medical_meaning").notNull(),
    drawingPattern: text("drawing_pattern"),
    category: varchar("category", { length: 100 }).notNull().default("vascular"),
    keywords: text("keywords"),
    exampleImage: varchar("example_image", { length: 500 }),
    drawingData: text("drawing_data"),
    imageType: varchar("image_type", { length: 20 }).notNull().default("upload"),
    createdBy: varchar("created_by", { length: 64 }),
    isActive: boolean("is_active").notNull().default(true),
    ...timestamps,
  },
  (t) => [index("legend_entries_clinic_idx").on(t.clinicId)],
);

export const textShortcuts = pgTable(
  "text_shortcuts",
  {
    id: id(),
    clinicId: clinicId(),
    title: varchar("title", { length: 255 }).notNull(),
    shortText: text("short_text").notNull(),
    category: varchar("category", { length: 100 }).notNull().default("general"),
    tags: text("tags"),
    isGlobal: boolean("is_global").notNull().default(true),
    userId: varchar("user_id", { length: 64 }),
    usageCount: integer("usage_count").notNull().default(0),
    ...timestamps,
  },
  (t) => [index("text_shortcuts_clinic_idx").on(t.clinicId)],
);

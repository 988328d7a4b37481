import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { clinics } from "./clinics";
import { id, timestamps } from "./columns";
import { worksheetTemplates } from "./templates";
import { worksheets } from "./worksheets";

const clinicId = () =>
  integer("clinic_id")
    .notNull()
    .references(() => clinics.id, { onDelete: "cascade" });

/**
 * A worksheet's reading as checked by a clinician before generating its first report (issue 23 item 4): which of
 * the fields read were corrected, and by which of the clinic's forms it was read. One per worksheet; the counts
 * over the latest of a form's reviews tell the admin which zone keeps being corrected.
 */
export const ocrReviews = pgTable(
  "ocr_reviews",
  {
    id: id(),
    clinicId: clinicId(),
    worksheetId: integer("worksheet_id")
      .notNull()
      .references(() => worksheets.id, { onDelete: "cascade" }),
    worksheetTemplateId: integer("worksheet_template_id").references(() => worksheetTemplates.id, {
      onDelete: "set null",
    }),
    /** Field names (OcrFieldName) the clinician changed: no patient data. */
    correctedFields: jsonb("corrected_fields").$type<string[]>().notNull(),
    createdBy: varchar("created_by", { length: 64 }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("ocr_reviews_worksheet_idx").on(t.worksheetId),
    index("ocr_reviews_template_idx").on(t.clinicId, t.worksheetTemplateId, t.createdAt),
  ],
);

/**
 * One corrected field: what was read and what the clinician wrote, with the crop of the page where it was read,
 * sealed with the file store's key (AES-256-GCM, base64) like the worksheets' files, since both are patient data.
 */
export const ocrCorrections = pgTable(
  "ocr_corrections",
  {
    id: id(),
    clinicId: clinicId(),
    reviewId: integer("review_id")
      .notNull()
      .references(() => ocrReviews.id, { onDelete: "cascade" }),
    field: varchar("field", { length: 40 }).notNull(),
    /** The reading zone the field was read by, when the sheet was read by a form. */
    zoneId: varchar("zone_id", { length: 40 }),
    /** The printed label (squashed) the corrected value stood after, when it was found on the page. */
    labelWording: varchar("label_wording", { length: 60 }),
    sealed: text("sealed").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("ocr_corrections_clinic_idx").on(t.clinicId, t.createdAt)],
);

/**
 * A clinic's own wording of a label, learnt from its corrections: the general reader takes it as a label of
 * `field` on that clinic's later uploads (field-labels.ts). Printed label words, no patient data.
 */
export const ocrLabelAliases = pgTable(
  "ocr_label_aliases",
  {
    id: id(),
    clinicId: clinicId(),
    wording: varchar("wording", { length: 60 }).notNull(),
    field: varchar("field", { length: 40 }).notNull(),
    /** Corrections that showed this wording naming this field. */
    seen: integer("seen").notNull().default(1),
    ...timestamps,
  },
  (t) => [uniqueIndex("ocr_label_aliases_clinic_wording_idx").on(t.clinicId, t.wording)],
);

import { z } from "zod";

/** A rectangle in pixels of the page image the value was read from (page is 0-based). */
export const boxSchema = z.object({
  page: z.number().int().min(0),
  x: z.number(),
  y: z.number(),
  width: z.number().min(0),
  height: z.number().min(0),
});
export type Box = z.infer<typeof boxSchema>;

const confidence = z.number().min(0).max(1);

export const ocrFieldSchema = z.object({
  value: z.string().nullable(),
  confidence,
  box: boxSchema.nullable(),
  /** "DICOM SR" when the value is the machine's structured report's header, not read from the sheet. */
  source: z.enum(["OCR", "DICOM SR"]).optional(),
});
export type OcrField = z.infer<typeof ocrFieldSchema>;

export const ocrMeasurementSchema = z.object({
  /** Site code from shared/clinical-criteria.md, e.g. ICA_PROX, BULB, SFJ, GSV_PROX_THIGH. */
  site: z.string().min(1),
  side: z.enum(["left", "right"]).nullable(),
  /** Parameter code, e.g. PSV, EDV, REFLUX_MS, DIAMETER_MM. */
  parameter: z.string().min(1),
  value: z.number(),
  unit: z.string(),
  confidence,
  /** The value exactly as read on the sheet (reflux in seconds even though `value` is in ms). */
  text: z.string(),
  box: boxSchema.nullable(),
  /**
   * Why the value is doubtful (outside the parameter's usual range, read without its decimal point, ...), in words
   * for the checking table; null or absent (results stored before it existed, values typed in) when nothing
   * speaks against it. Optional rather than defaulted so that code building measurements need not name it.
   */
  doubt: z.string().nullable().optional(),
  /** Where the value came from when not the worksheet's OCR: "DICOM SR" for an ultrasound machine's structured report. */
  source: z.enum(["OCR", "DICOM SR"]).optional(),
});
export type OcrMeasurement = z.infer<typeof ocrMeasurementSchema>;

/**
 * A finding read from a ticked check box (a plaque's echogenicity or surface), in the vocabulary of
 * domain/contracts/study.ts: the box's printed label and where it is, for the checking screen.
 */
export const ocrObservationSchema = z.object({
  site: z.string().min(1),
  side: z.enum(["left", "right"]).nullable(),
  finding: z.string().min(1),
  confidence,
  /** The label as read beside the marked box, e.g. "Hypoechoic". */
  text: z.string(),
  box: boxSchema.nullable(),
});
export type OcrObservation = z.infer<typeof ocrObservationSchema>;

const isoDate = z.iso.date();

export const unreadField = (): OcrField => ({ value: null, confidence: 0, box: null });
/** A header field the sheet may carry; results stored before it existed read it as not found. */
const headerField = ocrFieldSchema.default(unreadField);

/**
 * What OCR read of the sheet's header. The three patient fields are always there; the others (issue 22) default to
 * "not found" so that results stored before them still parse.
 */
export const ocrFieldsSchema = z.object({
  patientName: ocrFieldSchema,
  patientDob: ocrFieldSchema,
  examDate: ocrFieldSchema,
  indication: headerField,
  referringPhysician: headerField,
  mrn: headerField,
  sonographer: headerField,
  /** "male", "female" or "other" when read. */
  sex: headerField,
  /** The sonographer's own comments or preliminary impression on the sheet; never copied into the Impression. */
  comments: headerField,
});
export type OcrFields = z.infer<typeof ocrFieldsSchema>;
export type OcrFieldName = keyof OcrFields;
export const ocrHeaderFieldNames = [
  "indication",
  "referringPhysician",
  "mrn",
  "sonographer",
  "sex",
  "comments",
] as const satisfies readonly OcrFieldName[];
export type OcrHeaderFieldName = (typeof ocrHeaderFieldNames)[number];
export const unreadHeaderFields = (): Record<OcrHeaderFieldName, OcrField> =>
  Object.fromEntries(ocrHeaderFieldNames.map((name) => [name, unreadField()])) as Record<OcrHeaderFieldName, OcrField>;

export const ocrResultSchema = z.object({
  patientName: z.string().nullable(),
  patientDob: isoDate.nullable(),
  examDate: isoDate.nullable(),
  /** Overall confidence of the patient fields, 0..1. */
  confidence,
  scanType: z.string().nullable(),
  fields: ocrFieldsSchema,
  measurements: z.array(ocrMeasurementSchema),
  /** Findings read from marked check boxes (issue 31 item 10); absent in results stored before them. */
  observations: z.array(ocrObservationSchema).optional(),
  pageCount: z.number().int().min(0),
  /** All recognised text in reading order, for keyword matching. */
  text: z.string(),
  /** The clinic's worksheet template the sheet was read against (issue 23), null when none matched. */
  worksheetTemplateId: z.number().int().nullable().default(null),
  /** "template" when read by a matched template's zones, "general" otherwise. */
  layout: z.enum(["template", "general"]).default("general"),
  /** "dicom-sr" when read from an ultrasound machine's DICOM Structured Report; absent for a worksheet. */
  source: z.enum(["worksheet", "dicom-sr"]).optional(),
  /** What the reading left out and why, in words for the checking screen (a DICOM SR's uncoded values). */
  notes: z.array(z.string()).optional(),
  /**
   * The ultrasound machine's DICOM SR the values came from, alone (`source: "dicom-sr"`) or beside the worksheet
   * (`source: "worksheet"`, its values merged in): who made it and when, for the checking screen and the editor.
   */
  machineSr: z
    .object({
      manufacturer: z.string().nullable(),
      model: z.string().nullable(),
      studyDate: isoDate.nullable(),
      /** How many of its measurements are in the reading. */
      measurements: z.number().int().min(0),
      /** The SR's measurements whose codes this product does not map, by the SR's own words (CodeMeaning). */
      unrecognised: z.array(z.string()).default([]),
    })
    .optional(),
});
export type OcrResult = z.infer<typeof ocrResultSchema>;

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
});
export type OcrMeasurement = z.infer<typeof ocrMeasurementSchema>;

const isoDate = z.iso.date();

export const ocrResultSchema = z.object({
  patientName: z.string().nullable(),
  patientDob: isoDate.nullable(),
  examDate: isoDate.nullable(),
  /** Overall confidence of the patient fields, 0..1. */
  confidence,
  scanType: z.string().nullable(),
  fields: z.object({ patientName: ocrFieldSchema, patientDob: ocrFieldSchema, examDate: ocrFieldSchema }),
  measurements: z.array(ocrMeasurementSchema),
  pageCount: z.number().int().min(0),
  /** All recognised text in reading order, for keyword matching. */
  text: z.string(),
});
export type OcrResult = z.infer<typeof ocrResultSchema>;

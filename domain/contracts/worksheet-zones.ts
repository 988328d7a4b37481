import { z } from "zod";
import { ocrFieldsSchema } from "./ocr";

/**
 * Reading zones of a clinic's blank worksheet form (issue 23): where on the form each header field's value and
 * each table cell is written, in pixels of the form's own image. A filled sheet matched to the form is read zone
 * by zone, each with its field's grammar.
 */
export const zoneFieldNames = ocrFieldsSchema.keyof().options;
export const zoneParameters = ["PSV", "EDV", "MFV", "REFLUX_MS", "DIAMETER_MM"] as const;
/** The unit the sheet writes a parameter in (reflux in seconds or milliseconds; the result is always ms). */
export const zoneSheetUnits = ["cm/s", "s", "ms", "mm"] as const;

const MAX_SIDE = 20_000;
const rect = {
  x: z.number().min(0).max(MAX_SIDE),
  y: z.number().min(0).max(MAX_SIDE),
  width: z.number().min(1).max(MAX_SIDE),
  height: z.number().min(1).max(MAX_SIDE),
};
const zoneId = z.string().regex(/^[a-z0-9-]{1,40}$/);

export const fieldZoneSchema = z.object({
  id: zoneId,
  kind: z.literal("field"),
  field: z.enum(zoneFieldNames),
  ...rect,
});
export const cellZoneSchema = z.object({
  id: zoneId,
  kind: z.literal("cell"),
  /** Site code of shared/clinical-criteria.md (ICA_PROX, GSV_KNEE, ...). */
  site: z.string().regex(/^[A-Z][A-Z0-9_]{0,39}$/),
  side: z.enum(["left", "right"]).nullable(),
  parameter: z.enum(zoneParameters),
  sheetUnit: z.enum(zoneSheetUnits),
  ...rect,
});
export const worksheetZoneSchema = z.discriminatedUnion("kind", [fieldZoneSchema, cellZoneSchema]);
export type WorksheetZone = z.infer<typeof worksheetZoneSchema>;
export type FieldZone = z.infer<typeof fieldZoneSchema>;
export type CellZone = z.infer<typeof cellZoneSchema>;

export const MAX_ZONES = 400;

/** What an admin sends to save a form's zones. */
export const saveZonesRequest = z.object({ zones: z.array(worksheetZoneSchema).max(MAX_ZONES) });

/**
 * A field zone whose reading clinicians keep correcting (on `corrected` of the form's last `of` checked sheets,
 * since its zones were last saved): offered to the admin for adjustment.
 */
export const zoneCorrectionNotice = z.object({
  zoneId: zoneId,
  field: z.enum(zoneFieldNames),
  corrected: z.number().int().min(0),
  of: z.number().int().min(0),
});
export type ZoneCorrectionNotice = z.infer<typeof zoneCorrectionNotice>;

/** A form's zones as the Templates screen shows them. */
export const worksheetZonesResponse = z.object({
  templateId: z.number(),
  /** Size of the form image the zones are measured on. */
  width: z.number(),
  height: z.number(),
  /** False when the form could not be analysed (no text found): such a form is never used for reading. */
  readable: z.boolean(),
  zones: z.array(worksheetZoneSchema),
  /** Zones that keep being corrected (issue 23 item 4). */
  corrections: z.array(zoneCorrectionNotice),
});
export type WorksheetZonesResponse = z.infer<typeof worksheetZonesResponse>;

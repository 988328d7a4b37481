import { z } from "zod";

/** A drawn worksheet travels as an image data URL (PNG or JPEG); the server checks the bytes too. */
export const imageDataUrl = z
  .string()
  .max(12 * 1024 * 1024, "The drawing is too large")
  .regex(/^data:image\/(png|jpeg);base64,[A-Za-z0-9+/=]+$/, "The drawing must be a PNG or JPEG image.");

const isoDate = z.iso.date("Dates must be written as YYYY-MM-DD.");

export const createDigitalWorksheetRequest = z.object({
  templateId: z.number().int().positive(),
  patientName: z.string().trim().min(1, "Please fill in patient name and select a sonographer").max(255),
  patientDob: isoDate.nullish(),
  examDate: isoDate,
  studyType: z.string().trim().max(100).nullish(),
  sonographerId: z.number().int().positive({ message: "Please fill in patient name and select a sonographer" }),
  drawingData: z.union([imageDataUrl, z.literal("")]).default(""),
});
export type CreateDigitalWorksheetRequest = z.infer<typeof createDigitalWorksheetRequest>;

/**
 * The "Start Patient Session" dialog's values (inputs and selects, "" for none), checked as the request they
 * become; the template and the empty drawing are added when it is sent.
 */
const startSessionFields = createDigitalWorksheetRequest.omit({ templateId: true, drawingData: true });
export const startSessionForm = z
  .object({
    patientName: z.string(),
    patientDob: z.string(),
    examDate: z.string(),
    studyType: z.string(),
    sonographerId: z.string(),
  })
  .transform(
    (v): z.input<typeof startSessionFields> => ({
      patientName: v.patientName,
      patientDob: v.patientDob || null,
      examDate: v.examDate,
      studyType: v.studyType || null,
      sonographerId: Number(v.sonographerId),
    }),
  )
  .pipe(startSessionFields);
export type StartSessionForm = z.input<typeof startSessionForm>;

export const saveDigitalWorksheetRequest = z.object({
  drawingData: imageDataUrl.optional(),
  /** JSON text of the last canvas snapshots (the spec's field), bounded. */
  drawingHistory: z
    .string()
    .max(12 * 1024 * 1024)
    .nullish(),
  /** The versioned vector document (domain/drawing); restored on the server before it is stored. */
  vectorData: z.unknown().optional(),
});

export const digitalWorksheetSchema = z.object({
  id: z.number(),
  templateId: z.number().nullable(),
  patientName: z.string(),
  patientDob: z.string().nullable(),
  examDate: z.string(),
  studyType: z.string().nullable(),
  sonographerId: z.number().nullable(),
  isDraft: z.boolean(),
  completedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  imageUrl: z.string(),
  vectorData: z.unknown(),
  reportId: z.number().nullable(),
});
export type DigitalWorksheet = z.infer<typeof digitalWorksheetSchema>;

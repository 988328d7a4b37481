import { z } from "zod";

// The sign-off worklist and the turnaround dashboard (issue 26), shared by server and web.

const isoDate = z.iso.date();

/** Where a draft's waiting clock started: its exam day, the day it was generated (no exam date), or its amendment. */
export const waitingStarts = ["exam", "generated", "amended"] as const;

/** One draft awaiting a signature, with what the physician needs to choose it and what it has waited. */
export const signOffItemSchema = z.object({
  id: z.number(),
  patientName: z.string(),
  patientDob: isoDate.nullable(),
  mrn: z.string().nullable(),
  studyType: z.string(),
  examDate: isoDate.nullable(),
  generatedAt: z.string(),
  updatedAt: z.string(),
  physicianId: z.number().nullable(),
  /** The worksheet's page image (the existing image routes), or null when the report has none. */
  worksheetImageUrl: z.string().nullable(),
  warnings: z.array(z.string()),
  /** An amended report waits for its new signature; its clock restarts at the amendment. */
  isAmended: z.boolean(),
  waitingSince: isoDate,
  waitingFrom: z.enum(waitingStarts),
  /** Working days (Mon-Fri) after waitingSince up to today, and calendar days. */
  workingDays: z.number(),
  calendarDays: z.number(),
  overdue: z.boolean(),
});
export type SignOffItem = z.infer<typeof signOffItemSchema>;

/** One physician's queue (physicianId null: drafts no physician is assigned to), oldest exam first. */
export const signOffQueueSchema = z.object({
  physicianId: z.number().nullable(),
  physicianName: z.string().nullable(),
  /** The physician's linked account signs; null when none is linked (nobody can sign their drafts yet). */
  signerUserId: z.string().nullable(),
  overdueCount: z.number(),
  items: z.array(signOffItemSchema),
});
export type SignOffQueue = z.infer<typeof signOffQueueSchema>;

/**
 * GET /api/reports/sign-off. A physician gets their own queue ("mine"; none when their account is linked to no
 * physician); an admin gets every physician's queue and the unassigned drafts ("clinic").
 */
export const signOffWorklistSchema = z.object({
  scope: z.enum(["mine", "clinic"]),
  /** The physician the signed-in account signs as, or null. */
  myPhysicianId: z.number().nullable(),
  targetDays: z.number(),
  /** Today in the clinic's time zone (the server's), as the ages were computed. */
  today: isoDate,
  queues: z.array(signOffQueueSchema),
});
export type SignOffWorklist = z.infer<typeof signOffWorklistSchema>;

/** PATCH /api/reports/{id}/physician: an admin hands a draft to another physician (null: unassigned). */
export const reassignReportRequest = z.object({
  physicianId: z.number({ error: "Choose a physician" }).int().positive().nullable(),
});
export type ReassignReportRequest = z.infer<typeof reassignReportRequest>;

export const MAX_TURNAROUND_RANGE_DAYS = 366;
export const TURNAROUND_RANGE_MESSAGE = `Choose a period of at most ${MAX_TURNAROUND_RANGE_DAYS} days, with "from" not after "to"`;

/** GET /api/reports/turnaround?from&to: reports whose first signature falls on these days (inclusive). */
export const turnaroundQuery = z
  .object({
    from: z.iso.date({ error: "From must be a date (YYYY-MM-DD)" }).optional(),
    to: z.iso.date({ error: "To must be a date (YYYY-MM-DD)" }).optional(),
  })
  .refine(
    ({ from, to }) =>
      !from || !to || (from <= to && (Date.parse(to) - Date.parse(from)) / 86_400_000 < MAX_TURNAROUND_RANGE_DAYS),
    { message: TURNAROUND_RANGE_MESSAGE, path: ["from"] },
  );
export type TurnaroundQuery = z.input<typeof turnaroundQuery>;

export const turnaroundFiguresSchema = z.object({
  signed: z.number(),
  medianWorkingDays: z.number().nullable(),
  medianHoursGeneratedToSigned: z.number().nullable(),
  withinTarget: z.number(),
  shareWithinTarget: z.number().nullable(),
  timedFromGenerated: z.number(),
});

export const turnaroundWeekSchema = turnaroundFiguresSchema.extend({
  /** ISO week, "2026-W48", and its Monday. */
  week: z.string(),
  weekStart: isoDate,
});

export const turnaroundPhysicianSchema = z.object({
  physicianId: z.number().nullable(),
  physicianName: z.string().nullable(),
  total: turnaroundFiguresSchema,
  weeks: z.array(turnaroundWeekSchema),
  /** Drafts of this physician past the target today. */
  overdueDrafts: z.number(),
  awaitingDrafts: z.number(),
});

export const turnaroundReportSchema = z.object({
  from: isoDate,
  to: isoDate,
  today: isoDate,
  targetDays: z.number(),
  timeZone: z.string(),
  clinic: turnaroundFiguresSchema,
  weeks: z.array(turnaroundWeekSchema),
  physicians: z.array(turnaroundPhysicianSchema),
  overdueDrafts: z.number(),
  awaitingDrafts: z.number(),
});
export type TurnaroundReport = z.infer<typeof turnaroundReportSchema>;
export type TurnaroundFiguresDto = z.infer<typeof turnaroundFiguresSchema>;

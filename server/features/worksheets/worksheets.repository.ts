import { and, eq, isNull, ne } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { worksheets } from "../../db/schema";

export type WorksheetRow = typeof worksheets.$inferSelect;

export async function insertWorksheet(db: Queryable, values: typeof worksheets.$inferInsert): Promise<WorksheetRow> {
  const [row] = await db.insert(worksheets).values(values).returning();
  return row!;
}

export function findClinicWorksheet(db: Queryable, clinicId: number, id: number): Promise<WorksheetRow | undefined> {
  return db
    .select()
    .from(worksheets)
    .where(and(eq(worksheets.id, id), eq(worksheets.clinicId, clinicId)))
    .then((rows) => rows[0]);
}

export async function updateClinicWorksheet(
  db: Queryable,
  clinicId: number,
  id: number,
  values: Partial<typeof worksheets.$inferInsert>,
): Promise<WorksheetRow | undefined> {
  const [row] = await db
    .update(worksheets)
    .set(values)
    .where(and(eq(worksheets.id, id), eq(worksheets.clinicId, clinicId)))
    .returning();
  return row;
}

/**
 * Claims a worksheet for OCR in one statement, so two clicks (or two instances) never queue it twice, naming the
 * job that owns the run: undefined when it does not exist in the clinic or is already being processed.
 */
export async function claimForOcr(
  db: Queryable,
  clinicId: number,
  id: number,
  jobId: string,
): Promise<WorksheetRow | undefined> {
  const [row] = await db
    .update(worksheets)
    .set({ ocrStatus: "processing", ocrError: null, ocrStage: "queued", ocrProgress: 0, ocrJobId: jobId })
    .where(and(eq(worksheets.id, id), eq(worksheets.clinicId, clinicId), ne(worksheets.ocrStatus, "processing")))
    .returning();
  return row;
}

/** Only the run's own job, while the run is open, may write to it. */
const openRun = (clinicId: number, id: number, jobId: string) =>
  and(
    eq(worksheets.id, id),
    eq(worksheets.clinicId, clinicId),
    eq(worksheets.ocrJobId, jobId),
    eq(worksheets.ocrStatus, "processing"),
  );

export async function setOcrProgress(
  db: Queryable,
  clinicId: number,
  id: number,
  jobId: string,
  stage: string,
  progress: number,
): Promise<void> {
  await db
    .update(worksheets)
    .set({ ocrStage: stage, ocrProgress: progress })
    .where(openRun(clinicId, id, jobId));
}

/** Ends the job's run with its outcome; undefined when the run is no longer the job's (nothing written). */
export async function finishOcrJob(
  db: Queryable,
  clinicId: number,
  id: number,
  jobId: string,
  values: Partial<typeof worksheets.$inferInsert>,
): Promise<WorksheetRow | undefined> {
  const [row] = await db
    .update(worksheets)
    .set(values)
    .where(openRun(clinicId, id, jobId))
    .returning();
  return row;
}

/** Every worksheet still "processing", across clinics, with its job (start-up recovery only). */
export function processingWorksheets(
  db: Queryable,
): Promise<Array<{ id: number; clinicId: number; ocrJobId: string | null }>> {
  return db
    .select({ id: worksheets.id, clinicId: worksheets.clinicId, ocrJobId: worksheets.ocrJobId })
    .from(worksheets)
    .where(eq(worksheets.ocrStatus, "processing"));
}

/** Stores an added DICOM SR and the merged reading, only while the worksheet stands read and without one. */
export async function addSrToReadWorksheet(
  db: Queryable,
  clinicId: number,
  id: number,
  values: Partial<typeof worksheets.$inferInsert> & { srFileId: number },
): Promise<WorksheetRow | undefined> {
  const [row] = await db
    .update(worksheets)
    .set(values)
    .where(
      and(
        eq(worksheets.id, id),
        eq(worksheets.clinicId, clinicId),
        eq(worksheets.ocrStatus, "completed"),
        isNull(worksheets.srFileId),
      ),
    )
    .returning();
  return row;
}

import { and, eq, isNull, ne, or, sql } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { worksheets } from "../../db/schema";
import { JOB_SCHEMA } from "../../platform/job-queue";

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
    .set({
      ocrStatus: "processing",
      ocrError: null,
      ocrStage: "queued",
      ocrProgress: 0,
      ocrJobId: jobId,
      ocrLease: null,
      ocrLeaseUntil: null,
    })
    .where(and(eq(worksheets.id, id), eq(worksheets.clinicId, clinicId), ne(worksheets.ocrStatus, "processing")))
    .returning();
  return row;
}

/**
 * Only the run's own job, while the run is open, may write to it; and of that job's attempts only the one holding
 * the run's live lease (`lease`), or, without `lease`, anyone only while no attempt holds a live lease (a job
 * that could not be queued, or one the queue gave up on). The database's clock decides, in the same statement.
 */
const openRun = (clinicId: number, id: number, jobId: string, lease?: string) =>
  and(
    eq(worksheets.id, id),
    eq(worksheets.clinicId, clinicId),
    eq(worksheets.ocrJobId, jobId),
    eq(worksheets.ocrStatus, "processing"),
    lease === undefined
      ? or(isNull(worksheets.ocrLease), sql`${worksheets.ocrLeaseUntil} <= now()`)
      : and(eq(worksheets.ocrLease, lease), sql`${worksheets.ocrLeaseUntil} > now()`),
  );

export async function setOcrProgress(
  db: Queryable,
  clinicId: number,
  id: number,
  jobId: string,
  stage: string,
  progress: number,
  lease?: string,
): Promise<void> {
  await db
    .update(worksheets)
    .set({ ocrStage: stage, ocrProgress: progress })
    .where(openRun(clinicId, id, jobId, lease));
}

/** Ends the job's run with its outcome; undefined when the run is no longer the job's (nothing written). */
export async function finishOcrJob(
  db: Queryable,
  clinicId: number,
  id: number,
  jobId: string,
  values: Partial<typeof worksheets.$inferInsert>,
  lease?: string,
): Promise<WorksheetRow | undefined> {
  const [row] = await db
    .update(worksheets)
    .set({ ...values, ocrLease: null, ocrLeaseUntil: null })
    .where(openRun(clinicId, id, jobId, lease))
    .returning();
  return row;
}

/**
 * An attempt of the job takes the run's lease for `seconds`: only when no other attempt holds a live one. Answers
 * whether it did.
 */
export async function takeOcrLease(
  db: Queryable,
  clinicId: number,
  id: number,
  jobId: string,
  lease: string,
  seconds: number,
): Promise<boolean> {
  const rows = await db
    .update(worksheets)
    .set({ ocrLease: lease, ocrLeaseUntil: sql`now() + make_interval(secs => ${seconds})` })
    .where(openRun(clinicId, id, jobId))
    .returning({ id: worksheets.id });
  return rows.length === 1;
}

/** The holder renews its lease; false when it no longer holds it (lapsed or taken): the attempt must stop. */
export async function renewOcrLease(
  db: Queryable,
  clinicId: number,
  id: number,
  jobId: string,
  lease: string,
  seconds: number,
): Promise<boolean> {
  const rows = await db
    .update(worksheets)
    .set({ ocrLeaseUntil: sql`now() + make_interval(secs => ${seconds})` })
    .where(openRun(clinicId, id, jobId, lease))
    .returning({ id: worksheets.id });
  return rows.length === 1;
}

/** The holder lets its lease go at once (its attempt failed and is retried): the next attempt need not wait. */
export async function dropOcrLease(
  db: Queryable,
  clinicId: number,
  id: number,
  jobId: string,
  lease: string,
): Promise<void> {
  await db
    .update(worksheets)
    .set({ ocrLease: null, ocrLeaseUntil: null })
    .where(openRun(clinicId, id, jobId, lease));
}

type SweptRun = { id: number; clinicId: number; ocrJobId: string };
const withJob = (rows: Array<{ id: number; clinicId: number; ocrJobId: string | null }>) =>
  rows.filter((row): row is SweptRun => row.ocrJobId !== null);

/**
 * Runs whose lease lapsed (their worker stopped renewing it: it died), released in one statement so that of several
 * processes sweeping at once only one hands each back to the queue. Answers their jobs. The time of the release
 * stays in ocr_lease_until, so the sweep below does not hand the same attempt back again.
 */
export async function releaseLapsedOcrLeases(db: Queryable): Promise<SweptRun[]> {
  const rows = await db
    .update(worksheets)
    .set({ ocrLease: null, ocrLeaseUntil: sql`now()` })
    .where(
      and(
        eq(worksheets.ocrStatus, "processing"),
        sql`${worksheets.ocrLeaseUntil} <= now()`,
        sql`${worksheets.ocrLease} is not null`,
      ),
    )
    .returning({ id: worksheets.id, clinicId: worksheets.clinicId, ocrJobId: worksheets.ocrJobId });
  return withJob(rows);
}

/**
 * Runs whose job's attempt has been active in the queue for more than a lease without ever holding the run's lease:
 * its worker died between being handed the job and taking the lease (its attempt would otherwise wait for the
 * queue's expiry). Marked in one statement (ocr_lease_until: handed back now), so that of several processes
 * sweeping at once only one hands each attempt back to the queue. Answers their jobs, still active in the queue.
 */
export async function markUnleasedOcrRuns(db: Queryable, leaseSeconds: number): Promise<SweptRun[]> {
  const jobs = sql.raw(`${JOB_SCHEMA}.job`);
  const rows = await db
    .update(worksheets)
    .set({ ocrLeaseUntil: sql`now()` })
    .where(
      and(
        eq(worksheets.ocrStatus, "processing"),
        isNull(worksheets.ocrLease),
        sql`exists (
          select 1 from ${jobs} as job
          where job.name = 'ocr' and job.id::text = ${worksheets.ocrJobId} and job.state = 'active'
            and job.started_on <= now() - make_interval(secs => ${leaseSeconds})
            and (${worksheets.ocrLeaseUntil} is null or ${worksheets.ocrLeaseUntil} < job.started_on)
        )`,
      ),
    )
    .returning({ id: worksheets.id, clinicId: worksheets.clinicId, ocrJobId: worksheets.ocrJobId });
  return withJob(rows);
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

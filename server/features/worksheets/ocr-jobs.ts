import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { OcrResult } from "../../../domain/contracts/ocr";
import { ocrResultSchema } from "../../../domain/contracts/ocr";
import type { OcrStage, OcrStatus, OcrView } from "../../../domain/contracts/worksheets";
import { AppError, notFound } from "../../../domain/errors";
import type { ParameterCodes } from "../../../domain/interop/dicom-sr-codes";
import type { Db } from "../../db/client";
import { QUEUES } from "../../jobs/queues";
import { OcrFailure, OcrInputError, recognizeWorksheet } from "../../ocr/ocr-service";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import type { FileStore } from "../../platform/file-store";
import type { JobContext, JobQueue } from "../../platform/job-queue";
import { readClinicFile } from "../files/files.service";
import { readingTemplatesOf } from "../templates/form-zones.service";
import { DicomSrError, readVascularSr } from "./dicom-sr";
import { activeAliasesOf } from "./reading-corrections.service";
import { withAddedSr } from "./worksheet-sr.service";
import {
  claimForOcr,
  dropOcrLease,
  findClinicWorksheet,
  finishOcrJob,
  markUnleasedOcrRuns,
  processingWorksheets,
  releaseLapsedOcrLeases,
  renewOcrLease,
  setOcrProgress,
  takeOcrLease,
  updateClinicWorksheet,
  type WorksheetRow,
} from "./worksheets.repository";
import { auditWorksheetViewed, isDicomSr, pagesForOcr } from "./worksheets.service";

/**
 * OCR as a job on the queue (issue 27 item 2): the request claims the worksheet and queues a job; a worker (this
 * process, or another) loads and reads it, writing its stage and progress to the worksheet row, which is what
 * every web process answers from. Only the job named on the row may write its outcome.
 */
export type OcrJobDeps = { db: Db; store: FileStore; jobs: JobQueue; srCodes?: ParameterCodes };

/** Who asked, for the audit events the job records on their behalf (no patient data). */
export type OcrJobData = {
  worksheetId: number;
  clinicId: number;
  jobId: string;
  actorUserId: string;
  ip?: string;
  requestId?: string;
};

export const INTERRUPTED_MESSAGE = "OCR was interrupted by a server restart. Run it again or enter the data manually.";

/** What the clinician is told when OCR fails; the machinery's own words stay in the server log. */
function failureReason(error: unknown): string {
  if (error instanceof OcrInputError || error instanceof DicomSrError) return error.message;
  if (error instanceof OcrFailure && /longer than/.test(error.message)) return error.message;
  return "Text recognition failed on this worksheet.";
}

/** The worksheet's OCR as GET /api/worksheets/{id}/ocr answers it. */
export function toOcrView(row: WorksheetRow): OcrView {
  const status = row.ocrStatus as OcrStatus;
  const parsed = status === "completed" && row.ocrResult ? ocrResultSchema.safeParse(row.ocrResult) : null;
  return {
    worksheetId: row.id,
    state: status,
    stage:
      (row.ocrStage as OcrStage | null) ?? (status === "completed" ? "done" : status === "failed" ? "failed" : null),
    progress: status === "completed" ? 1 : row.ocrProgress,
    error: status === "failed" ? row.ocrError : null,
    ocrResult: parsed?.success ? parsed.data : null,
  };
}

/**
 * Claims the worksheet (one statement: two clicks or two web processes never queue it twice) and queues its job.
 * Returns the job's id.
 */
export async function requestWorksheetOcr(deps: OcrJobDeps, ctx: Ctx, id: number): Promise<string> {
  assertCan(ctx, "worksheet:upload");
  const jobId = randomUUID();
  const claimed = await claimForOcr(deps.db, ctx.clinicId, id, jobId);
  if (!claimed) {
    if (!(await findClinicWorksheet(deps.db, ctx.clinicId, id))) throw notFound("Worksheet");
    throw new AppError("CONFLICT", "OCR is already running for this worksheet");
  }
  const data: OcrJobData = {
    worksheetId: id,
    clinicId: ctx.clinicId,
    jobId,
    actorUserId: ctx.user.id,
    ip: ctx.ip,
    requestId: ctx.requestId,
  };
  try {
    await deps.jobs.send("ocr", data, { id: jobId });
  } catch (error) {
    await finishOcrJob(deps.db, ctx.clinicId, id, jobId, {
      ocrStatus: "failed",
      ocrStage: "failed",
      ocrError: "OCR could not be queued. Please try again.",
    });
    throw error;
  }
  return jobId;
}

/**
 * Waits up to `ms` for the job to end: woken by this process's own worker, otherwise it looks at the row twice a
 * second (the job may run in another process). Returns the row as it stands.
 */
export async function waitForOcr(
  deps: OcrJobDeps,
  clinicId: number,
  id: number,
  jobId: string,
  ms: number,
): Promise<WorksheetRow> {
  const deadline = Date.now() + ms;
  let wake: (() => void) | null = null;
  const stop = deps.jobs.onSettled((queue, settled) => {
    if (queue === "ocr" && settled === jobId) wake?.();
  });
  try {
    for (;;) {
      const row = await findClinicWorksheet(deps.db, clinicId, id);
      if (!row) throw notFound("Worksheet");
      const ours = row.ocrJobId === jobId;
      if (!ours || row.ocrStatus !== "processing" || Date.now() >= deadline) return row;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(500, Math.max(0, deadline - Date.now())));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  } finally {
    stop();
  }
}

/** GET /api/worksheets/{id}/ocr: where the worksheet's OCR is; the result (patient data) is audited as a view. */
export async function getWorksheetOcr(deps: OcrJobDeps, ctx: Ctx, id: number): Promise<OcrView> {
  assertCan(ctx, "worksheet:read");
  const row = await findClinicWorksheet(deps.db, ctx.clinicId, id);
  if (!row) throw notFound("Worksheet");
  const view = toOcrView(row);
  if (view.ocrResult) await auditWorksheetViewed(deps.db, ctx, id);
  return view;
}

/**
 * The OCR job: loads the worksheet's file into pages and reads them, reporting stage and progress, and stores
 * what was read. A failure to read is an outcome (the row is marked failed, the clinician enters data by hand);
 * anything else (the database gone) is thrown for the queue to retry.
 */
export async function runOcrJob(
  deps: Omit<OcrJobDeps, "jobs">,
  data: OcrJobData,
  job: JobContext,
  options: { now?: Date; log?: (error: unknown) => void; leaseSeconds?: number } = {},
): Promise<void> {
  const { clinicId, worksheetId: id, jobId } = data;
  const leaseSeconds = options.leaseSeconds ?? DEFAULT_OCR_LEASE_SECONDS;
  const lease = randomUUID();
  const row = await takeLease(deps.db, data, lease, leaseSeconds);
  // Claimed again since (a newer run), or settled: this job has nothing left to do.
  if (!row) return;
  const sheet = row;
  // Renewed while this attempt runs; a renewal refused means the lease lapsed (this process stalled past it) and
  // the job may be another attempt's now: nothing more is written (every write below names the lease).
  const renewal = setInterval(
    () => {
      renewOcrLease(deps.db, clinicId, id, jobId, lease, leaseSeconds).then(
        (held) => held || clearInterval(renewal),
        () => {},
      );
    },
    (leaseSeconds * 1000) / 6,
  );
  try {
    await readAndStore();
  } finally {
    clearInterval(renewal);
  }

  async function readAndStore(): Promise<void> {
    const audit = { clinicId, actorUserId: data.actorUserId, entityType: "worksheet", entityId: id };
    const pageCount = Math.max(1, sheet.pageCount);
    let done = 0;
    // Progress is written as it comes, one write at a time and never after the outcome.
    let writing: Promise<unknown> = Promise.resolve();
    const report = (stage: OcrStage, progress: number) => {
      writing = writing
        .then(() => setOcrProgress(deps.db, clinicId, id, jobId, stage, progress, lease))
        .catch(() => {});
    };
    let result: OcrResult;
    try {
      report("loading", 0);
      if (isDicomSr(sheet)) {
        const file = await readClinicFile(deps.db, deps.store, clinicId, sheet.fileId);
        if (!file) throw new Error("the worksheet's file is missing from the store");
        return await finish(readVascularSr(file.data, { parameterCodes: deps.srCodes }));
      }
      // A one-page sheet's page stored at upload is read as it is; others are loaded again (issue 30).
      const pages = await pagesForOcr(deps, clinicId, sheet, () => report("loading", Math.min(1, ++done / pageCount)));
      const templates = await readingTemplatesOf(deps.db, clinicId);
      // The clinic's own label wordings, learnt from its clinicians' corrections (reading-corrections.service.ts).
      const aliases = await activeAliasesOf(deps.db, clinicId);
      done = 0;
      report("reading", 0);
      const read = await recognizeWorksheet(pages, {
        now: options.now,
        templates,
        aliases,
        onPage: () => report("reading", Math.min(1, ++done / pages.length)),
      });
      // The machine's SR added beside the sheet is merged again into the new reading.
      result = await withAddedSr(deps, clinicId, sheet, read);
    } catch (error) {
      await writing;
      const ours = error instanceof OcrInputError || error instanceof OcrFailure || error instanceof DicomSrError;
      if (!ours && job.retryCount < QUEUES.ocr.retryLimit) {
        // Not the file and not the reader: the queue tries again (its dead letter marks the worksheet failed); the
        // next attempt need not wait for this one's lease to lapse.
        await dropOcrLease(deps.db, clinicId, id, jobId, lease).catch(() => {});
        throw error;
      }
      options.log?.(error);
      const reason = failureReason(error);
      await deps.db.transaction(async (tx) => {
        const failed = await finishOcrJob(
          tx,
          clinicId,
          id,
          jobId,
          { ocrStatus: "failed", ocrStage: "failed", ocrError: reason },
          lease,
        );
        if (!failed) return;
        await recordAudit(tx, {
          action: "worksheet.ocr_failed",
          ...audit,
          details: { error: error instanceof Error ? error.name : "unknown" },
          ip: data.ip,
          requestId: data.requestId,
        });
      });
      return;
    }
    await finish(result);

    /** Stores what was read, audited, if the run is still this job's. */
    async function finish(result: OcrResult): Promise<void> {
      await writing;
      await deps.db.transaction(async (tx) => {
        const stored = await finishOcrJob(
          tx,
          clinicId,
          id,
          jobId,
          {
            ocrResult: result,
            patientName: result.patientName,
            patientDob: result.patientDob,
            examDate: result.examDate,
            scanType: result.scanType,
            ocrProcessed: true,
            ocrStatus: "completed",
            ocrStage: "done",
            ocrProgress: 1,
            ocrError: null,
          },
          lease,
        );
        // Another run owns the row now, or this attempt's lease lapsed: its result is not written, nor audited.
        if (!stored) return;
        await recordAudit(tx, {
          action: "worksheet.ocr_completed",
          ...audit,
          details: {
            confidence: result.confidence,
            scanType: result.scanType,
            measurements: result.measurements.length,
            extracted: {
              patientName: result.patientName !== null,
              patientDob: result.patientDob !== null,
              examDate: result.examDate !== null,
            },
          },
          ip: data.ip,
          requestId: data.requestId,
        });
      });
    }
  }
}

/**
 * Takes the run's lease for this attempt and answers the row; null when the run is no longer this job's. While
 * another attempt of the same job holds a live lease (the queue retried a job whose first attempt still runs: its
 * expiry passed while it was renewing) this one waits for that attempt to end or its lease to lapse, never reading
 * beside it.
 */
async function takeLease(db: Db, data: OcrJobData, lease: string, seconds: number): Promise<WorksheetRow | null> {
  for (;;) {
    const row = await findClinicWorksheet(db, data.clinicId, data.worksheetId);
    if (!row || row.ocrJobId !== data.jobId || row.ocrStatus !== "processing") return null;
    if (await takeOcrLease(db, data.clinicId, data.worksheetId, data.jobId, lease, seconds)) return row;
    await new Promise((resolve) => setTimeout(resolve, (seconds * 1000) / 6));
  }
}

/**
 * How long an OCR attempt's lease lasts without renewal (OCR_LEASE_SECONDS): its worker renews it six times as
 * often, so only a worker that died (or stalled that long) loses it.
 */
export const DEFAULT_OCR_LEASE_SECONDS = 30;

/**
 * Hands back to the queue the OCR jobs whose worker died: a run whose lease lapsed is released (one process wins
 * each), and its job, still "active" in the queue, is failed now so the queue retries it (or dead-letters it past
 * its retries) instead of waiting for its expiry. A job the queue no longer runs (settled, or already queued again)
 * is left to itself; one it has settled while the run stayed open is failed as interrupted. So is an attempt active
 * for more than a lease that never took the lease (its worker died in between). Answers how many.
 */
export async function releaseLapsedOcr(
  deps: Pick<OcrJobDeps, "db" | "jobs">,
  leaseSeconds = DEFAULT_OCR_LEASE_SECONDS,
): Promise<number> {
  const lapsed = await releaseLapsedOcrLeases(deps.db);
  for (const run of lapsed) {
    const state = await deps.jobs.state("ocr", run.ocrJobId);
    if (state === "active") await deps.jobs.abandon("ocr", run.ocrJobId);
    else if (state !== "created" && state !== "retry") {
      await failDeadOcrJob(deps.db, { clinicId: run.clinicId, worksheetId: run.id, jobId: run.ocrJobId });
    }
  }
  const unleased = await markUnleasedOcrRuns(deps.db, leaseSeconds);
  for (const run of unleased) await deps.jobs.abandon("ocr", run.ocrJobId);
  return lapsed.length + unleased.length;
}

/** Looks for lapsed OCR leases every third of a lease, in a process that works jobs; answers how to stop. */
export function sweepLapsedOcr(
  deps: Pick<OcrJobDeps, "db" | "jobs">,
  leaseSeconds: number,
  onError: (error: unknown) => void,
): () => void {
  let running = false;
  const timer = setInterval(
    () => {
      if (running) return;
      running = true;
      releaseLapsedOcr(deps, leaseSeconds)
        .catch(onError)
        .finally(() => {
          running = false;
        });
    },
    (leaseSeconds * 1000) / 3,
  );
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * An OCR job that failed for good (its worker died on every try, or the database failed it): the worksheet is
 * marked failed so the clinician can run it again or type the data.
 */
export async function failDeadOcrJob(
  db: Db,
  data: Pick<OcrJobData, "clinicId" | "worksheetId" | "jobId">,
): Promise<void> {
  await db.transaction(async (tx) => {
    const failed = await finishOcrJob(tx, data.clinicId, data.worksheetId, data.jobId, {
      ocrStatus: "failed",
      ocrStage: "failed",
      ocrError: INTERRUPTED_MESSAGE,
    });
    if (!failed) return;
    await recordAudit(tx, {
      action: "worksheet.ocr_failed",
      clinicId: data.clinicId,
      entityType: "worksheet",
      entityId: data.worksheetId,
      details: { error: "interrupted" },
    });
  });
}

/** The OCR queue's handlers, in every process that works jobs. */
export function registerOcrJobs(
  deps: OcrJobDeps,
  logger: Pick<Logger, "warn">,
  leaseSeconds = DEFAULT_OCR_LEASE_SECONDS,
): void {
  const log = (data: OcrJobData) => (error: unknown) =>
    // The error object only: it never carries patient data (the OCR child reports reasons, not text).
    logger.warn({ err: error, worksheetId: data.worksheetId }, "worksheet OCR failed");
  deps.jobs.handle<OcrJobData>("ocr", (data, job) => runOcrJob(deps, data, job, { log: log(data), leaseSeconds }));
  deps.jobs.handle<OcrJobData>("ocr-dead", (data) => failDeadOcrJob(deps.db, data));
}

/**
 * Start-up repair of OCR left "processing" (issue 27): only what is provably nobody's. A run without a job is
 * from before the queue, and failed. With `embedded` (the directory lock proves no other process works this
 * database) a run whose job is still active belonged to a process that died: the job is failed now, so the queue
 * retries it, instead of after its expiry. On a shared PostgreSQL, live runs are left alone: another worker may be
 * reading them, and a dead worker's job is the queue's to expire. Returns how many runs were repaired.
 */
export async function repairInterruptedOcr(deps: OcrJobDeps, options: { embedded: boolean }): Promise<number> {
  let repaired = 0;
  for (const run of await processingWorksheets(deps.db)) {
    if (run.ocrJobId === null) {
      await deps.db.transaction(async (tx) => {
        await updateClinicWorksheet(tx, run.clinicId, run.id, {
          ocrStatus: "failed",
          ocrStage: "failed",
          ocrError: INTERRUPTED_MESSAGE,
        });
        await recordAudit(tx, {
          action: "worksheet.ocr_failed",
          clinicId: run.clinicId,
          entityType: "worksheet",
          entityId: run.id,
          details: { error: "interrupted" },
        });
      });
      repaired++;
    } else if (options.embedded && (await deps.jobs.state("ocr", run.ocrJobId)) === "active") {
      await deps.jobs.abandon("ocr", run.ocrJobId);
      repaired++;
    }
  }
  return repaired;
}

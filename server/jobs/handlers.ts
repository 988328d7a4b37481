import type { Logger } from "pino";
import type { Config } from "../config";
import type { Database } from "../db/client";
import { takeStorageSnapshot } from "../features/admin/storage-snapshots";
import { DeliveryWorker } from "../features/delivery/delivery-worker";
import { ARCHIVE_QUEUE, runDueArchives } from "../features/exports/report-archives";
import { registerOcrJobs } from "../features/worksheets/ocr-jobs";
import type { FileStore } from "../platform/file-store";
import type { JobQueue } from "../platform/job-queue";
import { RateCounters } from "../platform/rate-counters";
import { purgeExpiredSessions } from "../platform/sessions";

type HandlerDeps = {
  database: Database;
  fileStore: FileStore;
  jobQueue: JobQueue;
  logger: Logger;
  config: Pick<Config, "srParameterCodes" | "delivery" | "ocrLeaseSeconds">;
};

/**
 * The handlers of every queue whose work needs only the database and the file store: OCR, report deliveries, the
 * signed versions' archive copies, the session (and rate count) purge and the storage snapshot. Registered in every process; run only where the queue works (decision 023).
 */
export function registerJobHandlers(deps: HandlerDeps): void {
  const { db } = deps.database;
  registerOcrJobs(
    { db, store: deps.fileStore, jobs: deps.jobQueue, srCodes: deps.config.srParameterCodes },
    deps.logger,
    deps.config.ocrLeaseSeconds,
  );
  deps.jobQueue.handle("sessions-purge", async () => {
    const purged = await purgeExpiredSessions(db);
    if (purged > 0) deps.logger.info({ purged }, "expired sessions deleted");
    const counts = await new RateCounters(db, Date.now).purgeExpired();
    if (counts > 0) deps.logger.info({ counts }, "expired rate-limit and sign-in counts deleted");
  });
  deps.jobQueue.handle("storage-snapshot", () => takeStorageSnapshot(deps));
  const deliveries = new DeliveryWorker({
    db,
    fileStore: deps.fileStore,
    logger: deps.logger,
    delivery: deps.config.delivery,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });
  deps.jobQueue.handle("deliveries", async () => {
    await deliveries.runDue();
  });
  deps.jobQueue.handle(ARCHIVE_QUEUE, async () => {
    await runDueArchives({ db, fileStore: deps.fileStore, logger: deps.logger });
  });
}

/**
 * What a working process does once at start besides its schedules: today's storage snapshot and audit checkpoint
 * (each a no-op when the day already has one), and a purge of what expired while nothing ran.
 */
export async function sendStartupJobs(jobs: JobQueue): Promise<void> {
  for (const queue of ["storage-snapshot", "audit-checkpoint", "sessions-purge"]) await jobs.send(queue, {});
}

import type { QueueSpec } from "../platform/job-queue";

/**
 * Every queue of the product with its retries, expiry and dead letter (decision 023): one place, read by every
 * process that sends or works jobs.
 */
export const QUEUES = {
  /**
   * Reading one worksheet. An OCR failure is an outcome (the worksheet is marked failed), not a retry: retries are
   * for a worker that died mid-job or a database that failed. A dead worker's job comes back when its lease lapses,
   * or a lease after its attempt started if it never took one (OCR_LEASE_SECONDS, features/worksheets/ocr-jobs.ts),
   * not after this expiry; a retry never reads beside an attempt whose lease is live.
   */
  ocr: { retryLimit: 2, retryDelaySeconds: 2, expireInSeconds: 600, deadLetter: "ocr-dead" },
  /** An OCR job whose retries are spent: its worksheet is marked failed so the clinician can run it again. */
  "ocr-dead": { retryLimit: 5, retryDelaySeconds: 30, expireInSeconds: 120 },
  /** Expired sessions are deleted (the table would otherwise grow for ever). */
  "sessions-purge": { retryLimit: 2, retryDelaySeconds: 60, expireInSeconds: 300, cron: "17 * * * *" },
  /** The day's database and file sizes for the admin dashboard. */
  "storage-snapshot": { retryLimit: 3, retryDelaySeconds: 300, expireInSeconds: 900, cron: "7 0 * * *" },
  /** The signed daily checkpoint of the audit chain (platform/audit-checkpoints.ts), just after UTC midnight. */
  "audit-checkpoint": { retryLimit: 5, retryDelaySeconds: 300, expireInSeconds: 900, cron: "1 0 * * *" },
  /**
   * Sends the due report deliveries (issue 28, decision 019): one job right after a signature or resend, and one a
   * minute for the retries. The attempts, waits and errors are report_deliveries' own, so the job barely retries.
   */
  deliveries: { retryLimit: 1, retryDelaySeconds: 30, expireInSeconds: 300, cron: "* * * * *" },
  /**
   * The PDF/A archive copies of signed versions (decision 026): one job right after a signature, and one a minute
   * for the retries. Each copy's state, attempts and errors are report_archives' own, so the job barely retries.
   */
  "report-archives": { retryLimit: 1, retryDelaySeconds: 30, expireInSeconds: 300, cron: "* * * * *" },
} satisfies Record<string, QueueSpec>;

export type QueueName = keyof typeof QUEUES;

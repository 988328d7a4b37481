import type { RouteOptions } from "fastify";
import type { Logger } from "pino";
import type { Config } from "../config";
import type { Database } from "../db/client";
import type { LocalDraftKeys } from "../features/auth/local-draft-key";
import type { FileStore } from "./file-store";
import type { Mailer } from "./mailer";
import type { RequestMetrics } from "./request-metrics";

/**
 * What the server runs on, as features see it (decision 022). Features import their dependencies from here, never
 * from app.ts: app.ts imports every feature, so a feature importing app.ts made an import cycle (a test checks
 * there is none). This module imports only types.
 */

/** Milliseconds since the epoch; tests inject one. */
export type Clock = () => number;

/** What the job queue knows of one job. */
export type JobState = "created" | "retry" | "active" | "completed" | "cancelled" | "failed";
export type JobContext = { id: string; retryCount: number };
export type JobHandler<T> = (data: T, job: JobContext) => Promise<void>;
export type SendOptions = {
  /** The job's id (a UUID), when the caller must name it before it is queued. */
  id?: string;
  /** A second job with the same key is refused (null) while one is queued. */
  singletonKey?: string;
};

/**
 * The PostgreSQL job queue (issue 27, decision 023; platform/job-queue.ts): send a job, ask after it, and handle a
 * queue's jobs in this process. The same code runs on the embedded database and across processes.
 */
export interface JobQueue {
  /** Queues a job; answers its id (null when a singleton job of that key is already queued). */
  send<T extends object>(queue: string, data: T, options?: SendOptions): Promise<string | null>;
  /** The job's state, null when the queue no longer has it. */
  state(queue: string, id: string): Promise<JobState | null>;
  /**
   * Fails a job known to be dead (its process is gone) without waiting for its expiry: retried if it has retries
   * left, else its dead letter.
   */
  abandon(queue: string, id: string): Promise<void>;
  /** The handler of a queue's jobs; runs in this process once started, where the queue works. */
  handle<T>(queue: string, handler: JobHandler<T>): void;
  /** Told when a job this process worked ends (a quicker signal than polling the database). */
  onSettled(listener: (queue: string, id: string) => void): () => void;
  /** Opens the queue (tables, queues, schedules) and, when this process works, its handlers. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export type AppDeps = {
  config: Config;
  database: Database;
  fileStore: FileStore;
  metrics: RequestMetrics;
  logger: Logger;
  /** Sends e-mail by SMTP_URL, or files it in DATA_DIR/outbox for the operator (decision 018). */
  mailer: Mailer;
  /** Built client directory; null serves no client (API-only tests). */
  webRoot: string | null;
  /** Keys for the unsaved edits the client keeps encrypted in the browser. */
  localDraftKeys: LocalDraftKeys;
  /** The clock signing judges re-authentication by; tests inject one. Defaults to Date.now (see clockOf). */
  clock?: Clock;
  /** The job queue (decision 023): OCR and scheduled work, run in this process or by workers. */
  jobQueue: JobQueue;
  /** Test-only: sees every route as it is added (the cross-tenant matrix collects :id routes with it). */
  onRoute?: (route: RouteOptions) => void;
};

export const clockOf = (deps: Pick<AppDeps, "clock">): Clock => deps.clock ?? Date.now;

/** Largest uploaded file (worksheets, templates, logos, signatures, training samples). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Largest request body: a multipart upload of MAX_UPLOAD_BYTES with its fields fits. */
export const MAX_BODY_BYTES = 15 * 1024 * 1024;

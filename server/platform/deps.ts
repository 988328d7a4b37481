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

/**
 * The PostgreSQL job queue (issue 27: OCR, exports, deliveries, scheduled work). Optional: the server runs without
 * one (jobs then run in the request, as before). The queue module widens this interface with what it offers.
 */
export interface JobQueue {
  /** Queues a job; answers its id (null when a singleton job of that key is already queued). */
  send(name: string, data: object): Promise<string | null>;
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
  /** The job queue when one runs (see JobQueue); absent, work runs in the request. */
  jobQueue?: JobQueue;
  /** Test-only: sees every route as it is added (the cross-tenant matrix collects :id routes with it). */
  onRoute?: (route: RouteOptions) => void;
};

export const clockOf = (deps: Pick<AppDeps, "clock">): Clock => deps.clock ?? Date.now;

/** Largest uploaded file (worksheets, templates, logos, signatures, training samples). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Largest request body: a multipart upload of MAX_UPLOAD_BYTES with its fields fits. */
export const MAX_BODY_BYTES = 15 * 1024 * 1024;

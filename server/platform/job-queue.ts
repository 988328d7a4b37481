import { EventEmitter } from "node:events";
import PgBoss from "pg-boss";
import type { Logger } from "pino";
import type { Database } from "../db/client";
import type { JobHandler, JobQueue, JobState, SendOptions } from "./deps";

export type { JobContext, JobHandler, JobQueue, JobState } from "./deps";

/**
 * The job queue (issue 27, decision 023): pg-boss on the application's own database, PostgreSQL or the embedded
 * PGlite alike, so the same job code runs in one process or across many. Jobs are retried, stopped when they
 * outlive their expiry (a worker that died), and moved to a dead-letter queue when their retries are spent.
 */

export type QueueSpec = {
  /** Attempts after the first. */
  retryLimit: number;
  retryDelaySeconds: number;
  /** A job active longer than this is taken as a dead worker's: retried, or failed past its retries. */
  expireInSeconds: number;
  /** Where a job goes when it failed for good (its own queue, handled like any other). */
  deadLetter?: string;
  /** A cron line (UTC) that sends one job per tick, across every process. */
  cron?: string;
};

export type JobQueueOptions = {
  database: Pick<Database, "executeSql" | "exclusively">;
  queues: Record<string, QueueSpec>;
  /** Whether this process runs jobs (the all-in-one server and workers) or only sends them (web processes). */
  work: boolean;
  logger: Logger;
  /** How often an idle worker looks for jobs; a job sent from this process wakes its worker at once. */
  pollSeconds?: number;
  /** How often expiry, retention and dead letters are looked after. */
  maintenanceSeconds?: number;
  /** How long stop() lets running jobs finish before failing them for a retry (default 10). */
  stopGraceSeconds?: number;
};

/**
 * pg-boss's schema, named here because one statement reads its job table beside the application's rows: the OCR
 * sweep's attempts that never took their lease (features/worksheets/worksheets.repository.ts).
 */
export const JOB_SCHEMA = "pgboss";

export class PgBossQueue implements JobQueue {
  private readonly boss: PgBoss;
  private readonly handlers = new Map<string, JobHandler<unknown>>();
  private readonly workerIds = new Map<string, string>();
  private readonly settled = new EventEmitter();
  private starting: Promise<void> | null = null;
  private stopped = false;
  /** Set once stop() has handed running jobs back: the database may be closed from then on. */
  private released = false;

  constructor(private readonly options: JobQueueOptions) {
    this.boss = new PgBoss({
      db: { executeSql: (text, values) => this.executeSql(text, values) as Promise<{ rows: never[] }> },
      schema: JOB_SCHEMA,
      // Only a working process supervises (expiry, dead letters) and fires schedules: a web process only sends.
      supervise: options.work,
      schedule: options.work,
      maintenanceIntervalSeconds: options.maintenanceSeconds ?? 60,
      // Seconds matter here: the worker's clock check is only for a skewed host.
      clockMonitorIntervalSeconds: 600,
    });
    this.boss.on("error", (error) => options.logger.error({ err: error }, "job queue error"));
    this.settled.setMaxListeners(0);
  }

  /**
   * pg-boss records a job's end without awaiting it. A job that outlives stop()'s grace ends after stop() has failed
   * it for a retry and the database may be closed: its end cannot be recorded then, and must not become an
   * unhandled rejection that takes the process (or a test run) down. Before that, every error goes to pg-boss.
   */
  private async executeSql(text: string, values?: unknown[]) {
    try {
      return await this.options.database.executeSql(text, values);
    } catch (error) {
      if (!this.released) throw error;
      this.options.logger.warn(
        { err: error },
        "a job ended after the queue stopped; it was already failed for a retry",
      );
      return {};
    }
  }

  handle<T>(queue: string, handler: JobHandler<T>): void {
    if (!this.options.queues[queue]) throw new Error(`no such job queue: ${queue}`);
    this.handlers.set(queue, handler as JobHandler<unknown>);
  }

  /** Started on first use, so processes (and tests) that never queue anything pay nothing. */
  start(): Promise<void> {
    if (this.stopped) return Promise.reject(new Error("the job queue is stopped"));
    this.starting ??= this.open().catch((error: unknown) => {
      this.starting = null;
      throw error;
    });
    return this.starting;
  }

  private async open(): Promise<void> {
    // Processes starting together would each install pg-boss's schema and create the queues: two queue creations
    // at once deadlock (each adds a partition and foreign keys to the queue table), and pg-boss swallows a failed
    // creation of its own cron queue. One process at a time; the others then find everything in place.
    await this.options.database.exclusively("job-queue set-up", () => this.setUp());
    if (this.options.work) await this.startWorkers();
  }

  /** pg-boss's schema (installed or migrated by its start), this version's queues and their schedules. */
  private async setUp(): Promise<void> {
    await this.boss.start();
    // Dead-letter queues first: a queue names its dead letter, which must exist.
    const entries = Object.entries(this.options.queues).sort(
      ([, a], [, b]) => (a.deadLetter ? 1 : 0) - (b.deadLetter ? 1 : 0),
    );
    for (const [name, spec] of entries) {
      const options = {
        name,
        retryLimit: spec.retryLimit,
        retryDelay: spec.retryDelaySeconds,
        retryBackoff: spec.retryLimit > 1,
        expireInSeconds: spec.expireInSeconds,
        ...(spec.deadLetter ? { deadLetter: spec.deadLetter } : {}),
      };
      // createQueue keeps an existing queue as it is; updateQueue brings its settings to this version's.
      if (await this.boss.getQueue(name)) await this.boss.updateQueue(name, options);
      else await this.boss.createQueue(name, options);
      if (this.options.work && spec.cron) await this.boss.schedule(name, spec.cron, {}, { tz: "UTC" });
    }
  }

  private async startWorkers(): Promise<void> {
    for (const [name, handler] of this.handlers) {
      const id = await this.boss.work<object>(
        name,
        { batchSize: 1, pollingIntervalSeconds: this.options.pollSeconds ?? 2, includeMetadata: true },
        async ([job]) => {
          if (!job) return;
          try {
            await handler(job.data, { id: job.id, retryCount: job.retryCount });
          } finally {
            // After pg-boss records the outcome: the listener reads the state the job ended in.
            setImmediate(() => this.settled.emit("settled", name, job.id));
            // Look for the next job at once rather than after a polling interval: a backlog drains at the
            // handlers' pace (one empty look when there is none).
            const self = this.workerIds.get(name);
            if (self) this.boss.notifyWorker(self);
          }
        },
      );
      this.workerIds.set(name, id);
    }
  }

  async send<T extends object>(queue: string, data: T, options: SendOptions = {}) {
    await this.start();
    const id = await this.boss.send(queue, data, {
      ...(options.id ? { id: options.id } : {}),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
    });
    // Our own worker need not wait for its next poll.
    const worker = this.workerIds.get(queue);
    if (id && worker) this.boss.notifyWorker(worker);
    return id;
  }

  async state(queue: string, id: string): Promise<JobState | null> {
    await this.start();
    const job = await this.boss.getJobById(queue, id, { includeArchive: true });
    return job?.state ?? null;
  }

  async abandon(queue: string, id: string): Promise<void> {
    await this.start();
    await this.boss.fail(queue, id, { reason: "the process running this job stopped" });
  }

  onSettled(listener: (queue: string, id: string) => void): () => void {
    this.settled.on("settled", listener);
    return () => this.settled.off("settled", listener);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (!this.starting) return;
    await this.starting.catch(() => undefined);
    // Running jobs get a moment to finish; one that does not is left to the queue's expiry (another worker).
    await this.boss.stop({
      graceful: true,
      wait: true,
      timeout: (this.options.stopGraceSeconds ?? 10) * 1000,
      close: false,
    });
    this.released = true;
  }
}

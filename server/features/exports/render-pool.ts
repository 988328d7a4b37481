import os from "node:os";
import type { Worker } from "node:worker_threads";
import { AppError } from "../../../domain/errors";
import type { DocumentView } from "../../../domain/exports/report-document";
import { startWorkerThread } from "../../platform/worker-thread";
import type { PdfOptions } from "./render-pdf";

/**
 * PDF and DOCX rendering off the web process's event loop (issue 27, decision 025): a few worker threads take a
 * report's document view (plain data) and answer the file's bytes, so a 20-60 ms render never stalls every other
 * request of the process. The web thread reads the data, queues the job and streams the answer.
 */

export type RenderJob =
  | { format: "pdf"; view: DocumentView; pdf?: PdfOptions }
  | { format: "docx"; view: DocumentView };
export type RenderRequest = { id: number; job: RenderJob };
export type RenderReply =
  | { id: number; ok: true; bytes: Uint8Array; threadId: number }
  | { id: number; ok: false; message: string };

export type RenderPoolOptions = {
  threads: number;
  /** Jobs waiting for a free thread beyond which a new one is refused (503) rather than queued. */
  maxWaiting: number;
  /** A render running longer than this stops its thread (a fresh one takes the next job). */
  timeoutMs: number;
  /** A thread idle this long is stopped (its memory given back); the next job starts one again. */
  idleExitMs: number;
};

type Job = { job: RenderJob; resolve: (bytes: Buffer) => void; reject: (error: Error) => void };
type Slot = { worker: Worker | null; job: Job | null; idleTimer?: NodeJS.Timeout };

export class RenderPool {
  private readonly slots: Slot[];
  private readonly waiting: Job[] = [];
  private nextId = 1;
  /** Documents rendered, by the thread id that rendered them (tests check rendering left the main thread). */
  readonly renderedBy = new Map<number, number>();

  constructor(private readonly options: RenderPoolOptions) {
    this.slots = Array.from({ length: Math.max(1, options.threads) }, () => ({ worker: null, job: null }));
  }

  render(job: RenderJob): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const free = this.slots.find((slot) => slot.job === null);
      if (!free && this.waiting.length >= this.options.maxWaiting) {
        reject(
          new AppError(
            "UNAVAILABLE",
            "The server is busy rendering other documents right now. Please try the export again in a few seconds.",
          ),
        );
        return;
      }
      const queued = { job, resolve, reject };
      if (free) this.start(free, queued);
      else this.waiting.push(queued);
    });
  }

  /** Stops every thread; jobs running or waiting are refused. The pool starts threads again if used after. */
  async close(): Promise<void> {
    const refused = new AppError("UNAVAILABLE", "The server is shutting down. Please try the export again.");
    for (const job of this.waiting.splice(0)) job.reject(refused);
    await Promise.all(
      this.slots.map((slot) => {
        const { worker, job } = slot;
        slot.worker = null;
        slot.job = null;
        clearTimeout(slot.idleTimer);
        job?.reject(refused);
        return worker?.terminate();
      }),
    );
  }

  private spawn(slot: Slot): Worker {
    const worker = startWorkerThread(import.meta.url, "./render-worker", { name: "export-render" });
    worker.on("exit", (code) => {
      if (slot.worker !== worker) return;
      slot.worker = null;
      this.finish(slot, (job) => job.reject(new Error(`The document renderer stopped unexpectedly (exit ${code})`)));
    });
    // An uncaught error ends the thread: the exit handler above answers the job.
    worker.on("error", () => {});
    slot.worker = worker;
    return worker;
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    clearTimeout(slot.idleTimer);
    const worker = slot.worker ?? this.spawn(slot);
    // A running job keeps the process alive (a CLI waiting for its file); an idle thread does not.
    worker.ref();
    const id = this.nextId++;
    const timer = setTimeout(() => {
      slot.worker = null;
      void worker.terminate();
      this.finish(slot, (j) => j.reject(new Error(`Rendering the document took over ${this.options.timeoutMs} ms`)));
    }, this.options.timeoutMs);
    const onExit = () => {
      clearTimeout(timer);
      worker.off("message", onMessage);
    };
    const onMessage = (reply: RenderReply) => {
      if (reply.id !== id) return;
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("exit", onExit);
      this.finish(slot, (j) => {
        if (!reply.ok) {
          j.reject(new Error(`Rendering the document failed: ${reply.message}`));
          return;
        }
        this.renderedBy.set(reply.threadId, (this.renderedBy.get(reply.threadId) ?? 0) + 1);
        j.resolve(Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength));
      });
    };
    worker.on("message", onMessage);
    worker.once("exit", onExit);
    worker.postMessage({ id, job: job.job } satisfies RenderRequest);
  }

  /** Answers the slot's job, then gives the slot the next waiting job or lets its thread idle. */
  private finish(slot: Slot, answer: (job: Job) => void): void {
    const job = slot.job;
    slot.job = null;
    if (job) answer(job);
    const next = this.waiting.shift();
    if (next) {
      this.start(slot, next);
      return;
    }
    const worker = slot.worker;
    if (!worker) return;
    worker.unref();
    slot.idleTimer = setTimeout(() => {
      if (slot.job || slot.worker !== worker) return;
      slot.worker = null;
      void worker.terminate();
    }, this.options.idleExitMs);
    slot.idleTimer.unref();
  }
}

/** One thread per core but the one the web thread runs on, at least one. */
const THREADS = Math.max(1, os.availableParallelism() - 1);

/**
 * 64 documents waiting are one to three seconds of rendering on an idle core: past that the process is overloaded,
 * and a 503 that says so beats an answer after the client has given up.
 */
const DEFAULTS: RenderPoolOptions = { threads: THREADS, maxWaiting: 64, timeoutMs: 60_000, idleExitMs: 300_000 };

let shared: RenderPool | undefined;

/** The process's pool, started on the first export (never at server start). */
export function renderPool(): RenderPool {
  shared ??= new RenderPool(DEFAULTS);
  return shared;
}

/** Stops the pool's threads (server shutdown). */
export async function closeRenderPool(): Promise<void> {
  await shared?.close();
}

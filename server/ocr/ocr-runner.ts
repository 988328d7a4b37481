import { type ChildProcess, fork } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { loadOcrConfig, type OcrConfig } from "../config";
import { tooMuchMemory, tooSlow } from "./decode-budget";
import { OcrInputError } from "./ocr-input-error";
import type { OcrJob, OcrProgress, OcrReply, OcrRequest } from "./ocr-protocol";

/*
 * The pools' sizes, time limits and memory limits are the validated OCR_* settings (config.ts): the server passes
 * its config at start (configureOcr); the CLIs, benches and tests read the same settings from the environment when
 * a pool is first used. Two cores: one reading child with two inference threads is the fastest per page. A child
 * holds a few hundred MB once models are loaded and gives it back when OCR has been idle for a while. A page's
 * buffers go back to the system after the page (CHILD_MALLOC, the detector's session and its arena released after
 * each page, paddle-models.ts: 250-300 MB between pages, about 460 at a page's peak); a reading child still above its recycle size after a job is replaced
 * (reloading the models takes well under a second). The loading child
 * stays warm between files (pdf.js loaded once: 2 s under tsx): it settles at 300-450 MB after PDFs
 * (docs/reliability.md), and is replaced only when it grew past that.
 */
let settings: OcrConfig | undefined;

/** Sets the OCR settings before the first job (server start); later pools use them, running ones keep theirs. */
export function configureOcr(ocr: OcrConfig): void {
  settings = ocr;
}

const ocrSettings = (): OcrConfig => (settings ??= loadOcrConfig());

/**
 * glibc's malloc raises its mmap threshold after each large block freed, so the next page's large buffers (the
 * detector's activations, decoded images) come from the heap and stay resident after the page: the reading child
 * settled at 560-650 MB. A fixed threshold keeps blocks from 4 MB up in their own mappings, given back when freed
 * (with the detector's arena off: peak 600 -> 510 MB, after a page 560 -> 260 MB; smaller thresholds cost up to 4
 * CPU s a page in page faults; the detector now has an arena of its own for each page instead, paddle-models.ts). An operator's own MALLOC_* setting wins; other C libraries ignore it.
 */
export const CHILD_MALLOC = { MALLOC_MMAP_THRESHOLD_: String(4 * 1024 * 1024) };

/** How often a running child's memory is looked at against its hard limit. */
const MEMORY_POLL_MS = 50;

type Job = {
  request: OcrJob;
  /** Told of each page the child reports done. */
  onProgress?: () => void;
  resolve: (reply: OcrReply & { ok: true }) => void;
  reject: (e: Error) => void;
};
type Slot = { child: ChildProcess | null; busy: boolean; idleTimer?: NodeJS.Timeout };
type Limits = {
  /** Stop a child idle this long. */
  idleExitMs: number;
  /** Inference threads the child is told to use. */
  threads: number;
  /** Replace the child after a job that left it larger than this. */
  recycleBytes: number;
  /** Per job, or per page for a job whose child reports progress (a PDF being rendered). */
  timeoutMs: number;
  /** For the whole job however it progresses (unset: timeoutMs). */
  jobTimeoutMs?: number;
  /** Stop the child mid-job above this resident size (Linux; elsewhere the pixel budget alone applies). */
  memoryLimitBytes?: number;
  /**
   * What a job over its time or memory limit means: the loader's file was too costly to open (the uploader's
   * problem, a 4xx), the reader's failure is ours.
   */
  overLimit: (what: "time" | "job time" | "memory") => Error;
};

export class OcrFailure extends Error {
  override name = "OcrFailure";
}

/** The child's entry next to this file: `.ts` under tsx (development, tests), `.js` once compiled. */
function childEntry(): { path: string; execArgv: string[] } {
  const self = fileURLToPath(import.meta.url);
  const ts = self.endsWith(".ts");
  return {
    path: fileURLToPath(new URL(ts ? "./ocr-child.ts" : "./ocr-child.js", import.meta.url)),
    execArgv: ts ? ["--import", "tsx"] : [],
  };
}

/**
 * A small pool of OCR child processes with a FIFO queue: safe to call concurrently from request handlers, one job
 * per child at a time, children started on first use (never at server start) and stopped when idle.
 */
class OcrRunner {
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private nextId = 1;

  constructor(
    size: number,
    private readonly limits: Limits,
  ) {
    this.slots = Array.from({ length: size }, () => ({ child: null, busy: false }));
  }

  run(request: OcrJob, onProgress?: () => void): Promise<OcrReply & { ok: true }> {
    return new Promise((resolve, reject) => {
      this.queue.push({ request, onProgress, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.busy || this.queue.length === 0) continue;
      this.start(slot, this.queue.shift()!);
    }
  }

  private spawn(slot: Slot): ChildProcess {
    const entry = childEntry();
    const child = fork(entry.path, [], {
      execArgv: entry.execArgv,
      serialization: "advanced",
      // The child's stdout goes to our stderr: library warnings must never mix into the CLI's JSON on stdout.
      stdio: ["ignore", 2, 2, "ipc"],
      env: { ...CHILD_MALLOC, ...process.env, OCR_THREADS: String(this.limits.threads) },
    });
    child.on("exit", () => {
      if (slot.child === child) slot.child = null;
    });
    slot.child = child;
    return child;
  }

  private start(slot: Slot, job: Job): void {
    slot.busy = true;
    clearTimeout(slot.idleTimer);
    const child = slot.child ?? this.spawn(slot);
    const id = this.nextId++;
    let settled = false;
    const stopFor = (what: "time" | "job time" | "memory") => {
      // A memory reading that arrives after the job ended must not stop the child's next job.
      if (settled) return;
      child.kill("SIGKILL");
      // The exit handler rejects the job; say why first.
      job.reject(this.limits.overLimit(what));
    };
    const finish = (outcome: () => void) => {
      settled = true;
      clearTimeout(timer);
      clearTimeout(jobTimer);
      clearInterval(watch);
      child.off("message", onMessage);
      child.off("exit", onExit);
      slot.busy = false;
      outcome();
      slot.idleTimer = setTimeout(() => this.stop(slot), this.limits.idleExitMs);
      slot.idleTimer.unref();
      this.pump();
    };
    const onMessage = (reply: OcrReply | OcrProgress) => {
      if (reply.id !== id) return;
      if ("progress" in reply) {
        job.onProgress?.();
        // A page rendered: the time limit starts again for the next one.
        if (reply.progress === "page") timer.refresh();
        return;
      }
      if (reply.rss > this.limits.recycleBytes) this.retire(slot);
      finish(() => {
        if (reply.ok) job.resolve(reply);
        else if (reply.error.inputReason) job.reject(new OcrInputError(reply.error.inputReason, reply.error.message));
        else job.reject(new OcrFailure(`OCR failed: ${reply.error.message}`));
      });
    };
    const onExit = (code: number | null, signal: string | null) =>
      finish(() => job.reject(new OcrFailure(`OCR process ended unexpectedly (${signal ?? `exit ${code}`})`)));
    const timer = setTimeout(() => stopFor("time"), this.limits.timeoutMs);
    const jobTimer = this.limits.jobTimeoutMs
      ? setTimeout(() => stopFor("job time"), this.limits.jobTimeoutMs)
      : undefined;
    const limit = this.limits.memoryLimitBytes;
    const watch = limit
      ? setInterval(async () => {
          const rss = await residentBytes(child.pid);
          if (rss === null) clearInterval(watch);
          else if (rss > limit) stopFor("memory");
        }, MEMORY_POLL_MS)
      : undefined;
    child.on("message", onMessage);
    child.on("exit", onExit);
    child.send({ ...job.request, id } as OcrRequest);
  }

  /** Lets a child finish and exit; the slot starts a fresh one for the next job. */
  private retire(slot: Slot): void {
    const child = slot.child;
    slot.child = null;
    child?.disconnect();
  }

  private stop(slot: Slot): void {
    if (slot.busy || !slot.child) return;
    slot.child.disconnect();
    slot.child = null;
  }

  /** Stops every child now (CLI exit, server shutdown, tests); queued jobs are rejected. */
  async shutdown(): Promise<void> {
    for (const job of this.queue.splice(0)) job.reject(new OcrFailure("OCR is shutting down"));
    await Promise.all(
      this.slots.map(async (slot) => {
        clearTimeout(slot.idleTimer);
        const child = slot.child;
        if (!child) return;
        slot.child = null;
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill();
        await exited;
      }),
    );
  }
}

/** A process's resident memory from /proc (Linux), null where that cannot be read. */
async function residentBytes(pid: number | undefined): Promise<number | null> {
  if (!pid) return null;
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const kb = status.match(/^VmRSS:\s+(\d+)\s+kB/m);
    return kb ? Number(kb[1]) * 1024 : null;
  } catch {
    return null;
  }
}

let readers: OcrRunner | undefined;
let loaders: OcrRunner | undefined;
/**
 * Reading pages (the models) and loading files (pdf.js, sharp) run in separate children: in one process pdf.js and
 * the models together passed 900 MB.
 */
export const readerPool = () => {
  if (readers) return readers;
  const ocr = ocrSettings();
  readers = new OcrRunner(ocr.readers, {
    idleExitMs: ocr.idleExitMs,
    threads: ocr.threads,
    recycleBytes: ocr.readerRecycleBytes,
    timeoutMs: ocr.jobTimeoutMs,
    overLimit: () => new OcrFailure(`OCR took longer than ${ocr.jobTimeoutMs / 1000} s and was stopped`),
  });
  return readers;
};
/** Every uploaded PDF and image is decoded here, within the budget of decode-budget.ts. */
export const loaderPool = () => {
  if (loaders) return loaders;
  const ocr = ocrSettings();
  loaders = new OcrRunner(1, {
    idleExitMs: ocr.idleExitMs,
    // The loader runs no inference; the setting is passed on unchanged.
    threads: ocr.threads,
    recycleBytes: ocr.loaderRecycleBytes,
    timeoutMs: ocr.loadTimeoutMs,
    jobTimeoutMs: ocr.loadFileTimeoutMs,
    memoryLimitBytes: ocr.loaderMemoryLimitBytes,
    overLimit: (what) =>
      what === "memory"
        ? tooMuchMemory()
        : what === "time"
          ? tooSlow("page", ocr.loadTimeoutMs)
          : tooSlow("file", ocr.loadFileTimeoutMs),
  });
  return loaders;
};

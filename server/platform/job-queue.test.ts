import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client";
import { openTestDatabase } from "../test-support/test-database";
import { type JobQueue, PgBossQueue, type QueueSpec } from "./job-queue";
import { createLogger } from "./logger";

/** Decision 023: pg-boss on the application's database, PGlite by default, PostgreSQL with TEST_DATABASE_URL. */
const queues: Record<string, QueueSpec> = {
  work: { retryLimit: 2, retryDelaySeconds: 0, expireInSeconds: 30, deadLetter: "work-dead" },
  "work-dead": { retryLimit: 0, retryDelaySeconds: 0, expireInSeconds: 30 },
  slow: { retryLimit: 1, retryDelaySeconds: 0, expireInSeconds: 1, deadLetter: "work-dead" },
};

let database: Database;
const opened: JobQueue[] = [];
const open = (work: boolean) => {
  const queue = new PgBossQueue({
    database,
    queues,
    work,
    logger: createLogger("silent"),
    pollSeconds: 0.5,
  });
  opened.push(queue);
  return queue;
};

/** Resolves once `done()` is true, looking every 50 ms, or fails after `seconds`. */
async function until(done: () => boolean | Promise<boolean>, seconds = 20): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  database = await openTestDatabase();
});

// Each test's processes stop before the next: a worker left running would take the next test's jobs.
afterEach(async () => {
  for (const queue of opened.splice(0)) await queue.stop();
});

afterAll(async () => {
  await database?.close();
});

describe("the job queue", () => {
  it("runs a sent job once with its data, tells this process when it ended and reports it completed", async () => {
    const queue = open(true);
    const seen: Array<{ data: unknown; retryCount: number }> = [];
    const settled: string[] = [];
    queue.handle<{ n: number }>("work", async (data, job) => void seen.push({ data, retryCount: job.retryCount }));
    queue.onSettled((name, id) => settled.push(`${name}:${id}`));
    const id = await queue.send("work", { n: 7 });
    expect(id).toEqual(expect.any(String));
    await until(() => settled.includes(`work:${id}`));
    expect(seen).toEqual([{ data: { n: 7 }, retryCount: 0 }]);
    await until(async () => (await queue.state("work", id!)) === "completed");
  });

  it("retries a failing job up to its limit, then hands it to its dead-letter queue", async () => {
    const queue = open(true);
    const attempts: number[] = [];
    const dead: unknown[] = [];
    queue.handle<{ n: number }>("work", async (_data, job) => {
      attempts.push(job.retryCount);
      throw new Error("the database went away");
    });
    queue.handle("work-dead", async (data) => void dead.push(data));
    const id = await queue.send("work", { n: 1 });
    await until(() => dead.length === 1);
    expect(attempts).toEqual([0, 1, 2]);
    expect(dead).toEqual([{ n: 1 }]);
    expect(await queue.state("work", id!)).toBe("failed");
  });

  it("stops a job past its time-out and retries it, like a worker that died", async () => {
    const queue = open(true);
    const attempts: number[] = [];
    const dead: unknown[] = [];
    queue.handle("slow", async (_data, job) => {
      attempts.push(job.retryCount);
      // Never settles by itself: only the queue's time-out ends it.
      await new Promise(() => {});
    });
    queue.handle("work-dead", async (data) => void dead.push(data));
    const id = await queue.send("slow", { n: 2 });
    await until(() => dead.length === 1);
    expect(attempts).toEqual([0, 1]);
    expect(await queue.state("slow", id!)).toBe("failed");
  });

  it("a sending-only process (web) never runs jobs; a working one (worker) takes them from the database", async () => {
    const web = open(false);
    let ranOnWeb = 0;
    web.handle("work", async () => void ranOnWeb++);
    const id = await web.send("work", { from: "web" }, { id: crypto.randomUUID() });
    const worker = open(true);
    const ranOnWorker: unknown[] = [];
    worker.handle("work", async (data) => void ranOnWorker.push(data));
    await worker.start();
    await until(() => ranOnWorker.length === 1);
    expect(ranOnWorker).toEqual([{ from: "web" }]);
    expect(ranOnWeb).toBe(0);
    await until(async () => (await web.state("work", id!)) === "completed");
  });

  it("fails a job whose process is known dead at once, and the queue retries it elsewhere", async () => {
    const stuck = open(true);
    let release = () => {};
    let started = 0;
    stuck.handle("work", async () => {
      started++;
      await new Promise<void>((resolve) => (release = resolve));
    });
    const id = await stuck.send("work", { n: 3 });
    await until(() => started === 1);
    expect(await stuck.state("work", id!)).toBe("active");
    const other = open(true);
    const retried: number[] = [];
    other.handle("work", async (_data, job) => void retried.push(job.retryCount));
    await other.start();
    await stuck.abandon("work", id!);
    await until(() => retried.length === 1);
    expect(retried).toEqual([1]);
    await until(async () => (await other.state("work", id!)) === "completed");
    // The stuck process finishing late changes nothing: the job ended with the retry.
    release();
    await stuck.stop();
    expect(await other.state("work", id!)).toBe("completed");
  });

  it("a job that outlives stop()'s grace ends after the database closed without an unhandled rejection", async () => {
    const own = await openTestDatabase();
    const queue = new PgBossQueue({
      database: own,
      queues,
      work: true,
      logger: createLogger("silent"),
      pollSeconds: 0.5,
      stopGraceSeconds: 1,
    });
    let release = () => {};
    let started = 0;
    queue.handle("work", async () => {
      started++;
      await new Promise<void>((resolve) => (release = resolve));
    });
    await queue.send("work", { n: 4 });
    await until(() => started === 1);
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => void rejections.push(reason);
    process.on("unhandledRejection", onRejection);
    try {
      await queue.stop();
      await own.close();
      // pg-boss now records the job's end (unawaited) on the closed database.
      release();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(rejections).toEqual([]);
    } finally {
      process.off("unhandledRejection", onRejection);
    }
  });

  it("refuses a handler for a queue it does not know", () => {
    expect(() => open(true).handle("no-such-queue", async () => {})).toThrow(/no such job queue/);
  });
});

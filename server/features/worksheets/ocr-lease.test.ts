import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { auditEvents, worksheets } from "../../db/schema";
import { QUEUES } from "../../jobs/queues";
import { shutdownOcr } from "../../ocr/ocr-service";
import { type JobQueue, PgBossQueue } from "../../platform/job-queue";
import { createLogger } from "../../platform/logger";
import { as, createTestApp, multipart, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { openTestDatabase } from "../../test-support/test-database";
import { type OcrJobData, registerOcrJobs, releaseLapsedOcr, sweepLapsedOcr } from "./ocr-jobs";
import { fixture } from "./worksheet-test-files";
import { finishOcrJob, renewOcrLease, takeOcrLease } from "./worksheets.repository";

/**
 * Issue 27: a worker killed mid-read must not leave its OCR job to the queue's 10-minute expiry. Each attempt holds
 * a lease on the run that its worker renews; a lapsed lease hands the job back to the queue at once, and an
 * attempt whose lease lapsed writes nothing (it may only have stalled).
 */
// Long enough that a live attempt under a loaded CI machine keeps renewing it (every half second).
const LEASE_SECONDS = 3;
const logger = createLogger("silent");

let database: Database;
let t: TestApp;
let owner: SignedIn;
const queues: JobQueue[] = [];
const queue = () => {
  const q = new PgBossQueue({ database, queues: QUEUES, work: true, logger, pollSeconds: 0.5 });
  queues.push(q);
  return q;
};

beforeAll(async () => {
  database = await openTestDatabase();
  // The app only sends jobs (a web process): the workers below are this test's.
  const sender = new PgBossQueue({ database, queues: QUEUES, work: false, logger });
  t = await createTestApp({ OCR_REQUEST_WAIT_SECONDS: "0" }, { database, jobQueue: sender });
  owner = await registerClinic(t.app, "Lease Clinic");
});

afterAll(async () => {
  for (const q of queues) await q.stop();
  await t?.close();
  await database?.close();
  await shutdownOcr();
});

async function uploadWorksheet(): Promise<number> {
  const body = multipart([
    {
      name: "worksheet",
      filename: "ws-clean-003.png",
      contentType: "image/png",
      data: await fixture("ws-clean-003.png"),
    },
  ]);
  const res = await as(t.app, owner)({ method: "POST", url: "/api/worksheets/upload", ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

const rowOf = async (id: number) => (await database.db.select().from(worksheets).where(eq(worksheets.id, id)))[0]!;

async function until<T>(value: () => Promise<T | null | undefined | false>, seconds: number): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const found = await value();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`not within ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A live worker with the sweep every working process runs; answers how to stop the sweep. */
async function startLiveWorker(): Promise<() => void> {
  const alive = queue();
  registerOcrJobs({ db: database.db, store: t.deps.fileStore, jobs: alive }, logger, LEASE_SECONDS);
  const stopSweep = sweepLapsedOcr({ db: database.db, jobs: alive }, LEASE_SECONDS, (error) => {
    throw error;
  });
  await alive.start();
  return stopSweep;
}

describe("OCR leases: a dead worker's job comes back promptly, and is still read once", () => {
  it("a worker that dies mid-read: its job is read again by another within seconds, its own late write refused", async () => {
    const id = await uploadWorksheet();
    // The first worker takes the job and its lease, then stops renewing it (as when it is killed with SIGKILL).
    let leaseTaken = 0;
    let wake!: () => void;
    const frozen = new Promise<void>((resolve) => {
      wake = resolve;
    });
    let lateWrite: unknown = "not tried";
    const dead = queue();
    dead.handle<OcrJobData>("ocr", async (data) => {
      expect(await takeOcrLease(database.db, data.clinicId, id, data.jobId, "dead-attempt", LEASE_SECONDS)).toBe(true);
      leaseTaken = Date.now();
      await frozen;
      // Woken long after its lease lapsed (a stall, not a death): its outcome must not be written.
      lateWrite = await finishOcrJob(
        database.db,
        data.clinicId,
        id,
        data.jobId,
        { ocrStatus: "completed", ocrStage: "done", ocrResult: { stale: true } },
        "dead-attempt",
      );
    });
    await dead.start();
    const asked = await as(t.app, owner)({ method: "POST", url: `/api/worksheets/${id}/ocr` });
    expect(asked.statusCode, asked.body).toBe(202);
    await until(async () => leaseTaken > 0, 60);

    const stopSweep = await startLiveWorker();
    try {
      // The second attempt takes a lease of its own: the job was picked up again.
      await until(async () => {
        const row = await rowOf(id);
        return row.ocrLease !== null && row.ocrLease !== "dead-attempt";
      }, 30);
      const recovery = (Date.now() - leaseTaken) / 1000;
      // Lease (3 s) + a sweep (a third of it) + the queue's retry delay (2-4 s) + a poll (0.5 s): well under
      // 15 s. Before leases the job waited for the queue's expiry (600 s).
      expect(recovery).toBeLessThan(15);

      const done = await until(async () => {
        const row = await rowOf(id);
        return row.ocrStatus !== "processing" && row;
      }, 240);
      expect(done).toMatchObject({ ocrStatus: "completed", ocrStage: "done", ocrLease: null });
      expect(done.ocrResult).toMatchObject({ patientName: expect.any(String) });
    } finally {
      stopSweep();
    }

    wake();
    await until(async () => lateWrite !== "not tried", 10);
    expect(lateWrite).toBeUndefined();
    const row = await rowOf(id);
    expect(row.ocrResult).not.toMatchObject({ stale: true });
    const completed = await database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "worksheet.ocr_completed"));
    expect(completed.filter((e) => e.entityId === String(id))).toHaveLength(1);
  }, 300_000);

  it("a worker that dies between being handed the job and taking its lease: the job comes back within a lease or so", async () => {
    // Earlier tests' workers would take this job: only this test's work the queue.
    for (const q of queues.splice(0)) await q.stop();
    const id = await uploadWorksheet();
    let handed = 0;
    let wake!: () => void;
    const frozen = new Promise<void>((resolve) => {
      wake = resolve;
    });
    // Handed the job, it never takes the lease (killed in between): its attempt stays "active" in the queue.
    const dead = queue();
    dead.handle<OcrJobData>("ocr", async () => {
      handed = Date.now();
      await frozen;
    });
    await dead.start();
    const asked = await as(t.app, owner)({ method: "POST", url: `/api/worksheets/${id}/ocr` });
    expect(asked.statusCode, asked.body).toBe(202);
    await until(async () => handed > 0, 60);
    expect((await rowOf(id)).ocrLease).toBeNull();

    const stopSweep = await startLiveWorker();
    try {
      // Picked up again once the attempt is a lease old (3 s) and swept (every second): not after the queue's
      // expiry (600 s), which is what it waited for before.
      await until(async () => (await rowOf(id)).ocrLease !== null, 60);
      const done = await until(async () => {
        const row = await rowOf(id);
        return row.ocrStatus !== "processing" && row;
      }, 240);
      expect(done).toMatchObject({ ocrStatus: "completed", ocrStage: "done", ocrLease: null });
    } finally {
      stopSweep();
      wake();
    }
    const completed = await database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "worksheet.ocr_completed"));
    expect(completed.filter((e) => e.entityId === String(id))).toHaveLength(1);
  }, 300_000);

  it("a live attempt that renews its lease is never swept, nor joined by a second attempt", async () => {
    const id = await uploadWorksheet();
    const jobId = crypto.randomUUID();
    const { db } = database;
    await db.update(worksheets).set({ ocrStatus: "processing", ocrJobId: jobId }).where(eq(worksheets.id, id));
    const abandoned: string[] = [];
    const jobs: JobQueue = {
      ...t.deps.jobQueue,
      state: async () => "active",
      abandon: async (_queue, job) => void abandoned.push(job),
    };
    expect(await takeOcrLease(db, owner.clinicId, id, jobId, "first", LEASE_SECONDS)).toBe(true);
    // Renewed five times a lease: a slow read, not a dead one.
    for (let i = 0; i < 15; i++) {
      await new Promise((resolve) => setTimeout(resolve, (LEASE_SECONDS * 1000) / 5));
      expect(await renewOcrLease(db, owner.clinicId, id, jobId, "first", LEASE_SECONDS)).toBe(true);
      expect(await releaseLapsedOcr({ db, jobs })).toBe(0);
      expect(await takeOcrLease(db, owner.clinicId, id, jobId, "second", LEASE_SECONDS)).toBe(false);
    }
    expect(abandoned).toEqual([]);
    // No longer renewed: once lapsed, the job is handed back to the queue once, whoever sweeps.
    await new Promise((resolve) => setTimeout(resolve, LEASE_SECONDS * 1000 + 200));
    expect(await renewOcrLease(db, owner.clinicId, id, jobId, "first", LEASE_SECONDS)).toBe(false);
    const swept = await Promise.all([releaseLapsedOcr({ db, jobs }), releaseLapsedOcr({ db, jobs })]);
    expect(swept[0] + swept[1]).toBe(1);
    expect(abandoned).toEqual([jobId]);
    expect(await takeOcrLease(db, owner.clinicId, id, jobId, "second", LEASE_SECONDS)).toBe(true);
    // The first attempt's outcome is refused; the second's is written.
    expect(await finishOcrJob(db, owner.clinicId, id, jobId, { ocrStatus: "failed" }, "first")).toBeUndefined();
    expect(await finishOcrJob(db, owner.clinicId, id, jobId, { ocrStatus: "failed" }, "second")).toBeDefined();
  }, 120_000);
});

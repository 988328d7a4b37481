import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, worksheets } from "../../db/schema";
import { shutdownOcr } from "../../ocr/ocr-service";
import type { JobQueue } from "../../platform/job-queue";
import { as, createTestApp, multipart, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { INTERRUPTED_MESSAGE, repairInterruptedOcr } from "./ocr-jobs";
import { fixture, groundTruth, measurementKeys, truthKeys } from "./worksheet-test-files";

let t: TestApp;
let owner: SignedIn;
let stranger: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerClinic(t.app, "Owner Clinic");
  stranger = await registerClinic(t.app, "Other Clinic");
});

afterAll(async () => {
  await t?.close();
  await shutdownOcr();
});

async function uploadFixture(name: string, contentType: string): Promise<number> {
  const body = multipart([{ name: "worksheet", filename: name, contentType, data: await fixture(name) }]);
  const res = await as(t.app, owner)({ method: "POST", url: "/api/worksheets/upload", ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

describe.each([
  ["ws-clean-003", "ws-clean-003.png", "image/png"],
  ["ws-clean-007", "ws-clean-007.pdf", "application/pdf"],
])("upload then OCR of %s (%s)", (id, file, contentType) => {
  let worksheetId: number;
  let ocrResult: Record<string, unknown> & { measurements: Parameters<typeof measurementKeys>[0] };

  beforeAll(async () => {
    worksheetId = await uploadFixture(file, contentType);
    const res = await as(t.app, owner)({ method: "POST", url: `/api/worksheets/${worksheetId}/ocr` });
    expect(res.statusCode, res.body).toBe(200);
    ocrResult = res.json().ocrResult;
  }, 180_000);

  it("answers { ocrResult } with the fixture's patient fields, scan type and measurements", async () => {
    const truth = await groundTruth(id);
    expect(ocrResult).toMatchObject({
      patientName: truth.patientName,
      patientDob: truth.patientDob,
      examDate: truth.examDate,
      scanType: "Lower Limb Venous",
      pageCount: 1,
    });
    expect(ocrResult.confidence).toBeGreaterThan(0.8);
    for (const field of ["patientName", "patientDob", "examDate"] as const) {
      const read = (ocrResult.fields as Record<string, { value: string; box: unknown }>)[field]!;
      expect(read.value).toBe(truth[field]);
      expect(read.box).toMatchObject({ page: 0, width: expect.any(Number), height: expect.any(Number) });
    }
    expect(measurementKeys(ocrResult.measurements)).toEqual(truthKeys(truth));
    for (const m of ocrResult.measurements) expect(m.box?.page).toBe(0);
  });

  it("stores the result with the worksheet, and GET answers it for re-opening", async () => {
    const { db } = t.deps.database;
    const [row] = await db.select().from(worksheets).where(eq(worksheets.id, worksheetId));
    expect(row).toMatchObject({
      ocrStatus: "completed",
      ocrProcessed: true,
      ocrError: null,
      patientName: ocrResult.patientName,
      patientDob: ocrResult.patientDob,
      examDate: ocrResult.examDate,
      scanType: "Lower Limb Venous",
    });
    const res = await as(t.app, owner)({ method: "GET", url: `/api/worksheets/${worksheetId}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: worksheetId, ocrProcessed: true, ocrStatus: "completed", ocrResult });
    const audit = await db.select().from(auditEvents).where(eq(auditEvents.action, "worksheet.ocr_completed"));
    const event = audit.find((e) => e.entityId === String(worksheetId));
    expect(event).toMatchObject({ clinicId: owner.clinicId, actorUserId: owner.userId });
    // Audit details say what happened, never what the patient is called.
    expect(JSON.stringify(event!.details)).not.toContain(String(ocrResult.patientName).split(/[ ,]/)[0]);
  });

  it("never runs for another clinic", async () => {
    const res = await as(t.app, stranger)({ method: "POST", url: `/api/worksheets/${worksheetId}/ocr` });
    expect(res.statusCode).toBe(404);
  });
});

describe("OCR that outlasts the request: 202, then GET until it ends", () => {
  it("answers 202 with the job's state, and GET follows its stages to the result", async () => {
    const id = await uploadFixture("ws-clean-007.pdf", "application/pdf");
    const before = await as(t.app, owner)({ method: "GET", url: `/api/worksheets/${id}/ocr` });
    expect(before.json()).toEqual({
      worksheetId: id,
      state: "pending",
      stage: null,
      progress: 0,
      error: null,
      ocrResult: null,
    });
    const wait = t.deps.config.ocrRequestWaitMs;
    // The wait is read per request: none here, so the answer comes while the job is queued.
    t.deps.config.ocrRequestWaitMs = 0;
    try {
      const res = await as(t.app, owner)({ method: "POST", url: `/api/worksheets/${id}/ocr` });
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json()).toMatchObject({ worksheetId: id, state: "processing", ocrResult: null, error: null });
      expect(["queued", "loading", "reading"]).toContain(res.json().stage);
    } finally {
      t.deps.config.ocrRequestWaitMs = wait;
    }
    // Another clinic cannot follow it.
    const other = await as(t.app, stranger)({ method: "GET", url: `/api/worksheets/${id}/ocr` });
    expect(other.statusCode).toBe(404);

    const seen = new Set<string>();
    let last: Record<string, unknown> = {};
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const poll = await as(t.app, owner)({ method: "GET", url: `/api/worksheets/${id}/ocr` });
      expect(poll.statusCode).toBe(200);
      last = poll.json();
      seen.add(`${last.stage}`);
      expect(last.progress).toBeGreaterThanOrEqual(0);
      expect(last.progress).toBeLessThanOrEqual(1);
      if (last.state !== "processing") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(last).toMatchObject({ state: "completed", stage: "done", progress: 1, error: null });
    const truth = await groundTruth("ws-clean-007");
    expect(last.ocrResult).toMatchObject({ patientName: truth.patientName, examDate: truth.examDate });
    // Only the stages a job goes through, in any sampling of them.
    for (const stage of seen) expect(["queued", "loading", "reading", "done"]).toContain(stage);
    const { db } = t.deps.database;
    const audit = await db.select().from(auditEvents).where(eq(auditEvents.action, "worksheet.ocr_completed"));
    expect(audit.filter((e) => e.entityId === String(id))).toHaveLength(1);
  }, 180_000);
});

describe("OCR that is already running, or was interrupted", () => {
  it("answers 409 while a worksheet is processing", async () => {
    const { db } = t.deps.database;
    const id = await uploadFixture("ws-clean-003.png", "image/png");
    await db.update(worksheets).set({ ocrStatus: "processing" }).where(eq(worksheets.id, id));
    const busy = await as(t.app, owner)({ method: "POST", url: `/api/worksheets/${id}/ocr` });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().error).toBe("OCR is already running for this worksheet");
    // Another clinic still gets 404, not a hint that the id exists.
    const other = await as(t.app, stranger)({ method: "POST", url: `/api/worksheets/${id}/ocr` });
    expect(other.statusCode).toBe(404);
    await db.update(worksheets).set({ ocrStatus: "pending" }).where(eq(worksheets.id, id));
  });

  it("start-up repairs only what nobody is reading: a run without a job, or a dead embedded process's job", async () => {
    const { db } = t.deps.database;
    const [legacy, live, completed] = [
      await uploadFixture("ws-clean-003.png", "image/png"),
      await uploadFixture("ws-clean-003.png", "image/png"),
      await uploadFixture("ws-clean-003.png", "image/png"),
    ];
    // A run from before the queue (no job), one whose job a worker holds, and a finished one.
    await db.update(worksheets).set({ ocrStatus: "processing" }).where(eq(worksheets.id, legacy));
    const liveJob = crypto.randomUUID();
    await db.update(worksheets).set({ ocrStatus: "processing", ocrJobId: liveJob }).where(eq(worksheets.id, live));
    await db.update(worksheets).set({ ocrStatus: "completed" }).where(eq(worksheets.id, completed));
    const abandoned: string[] = [];
    const jobs: JobQueue = {
      ...t.deps.jobQueue,
      state: async (_queue, id) => (id === liveJob ? "active" : null),
      abandon: async (_queue, id) => void abandoned.push(id),
    };
    const deps = { db, store: t.deps.fileStore, jobs };

    // A shared PostgreSQL: the live job may be another worker's, so it is left to the queue's expiry.
    expect(await repairInterruptedOcr(deps, { embedded: false })).toBe(1);
    expect(abandoned).toEqual([]);
    const [row] = await db.select().from(worksheets).where(eq(worksheets.id, legacy));
    expect(row).toMatchObject({ ocrStatus: "failed", ocrError: INTERRUPTED_MESSAGE, ocrProcessed: false });
    const [untouched] = await db.select().from(worksheets).where(eq(worksheets.id, live));
    expect(untouched!.ocrStatus).toBe("processing");
    const audit = await db.select().from(auditEvents).where(eq(auditEvents.action, "worksheet.ocr_failed"));
    expect(audit.find((e) => e.entityId === String(legacy))).toMatchObject({ clinicId: owner.clinicId });

    // The embedded database's lock proves its one process died: the job is failed now, for the queue to retry.
    expect(await repairInterruptedOcr(deps, { embedded: true })).toBe(1);
    expect(abandoned).toEqual([liveJob]);
    const [done] = await db.select().from(worksheets).where(eq(worksheets.id, completed));
    expect(done!.ocrStatus).toBe("completed");

    const view = await as(t.app, owner)({ method: "GET", url: `/api/worksheets/${legacy}` });
    expect(view.json()).toMatchObject({ ocrStatus: "failed", ocrError: INTERRUPTED_MESSAGE, ocrResult: null });
    const ocr = await as(t.app, owner)({ method: "GET", url: `/api/worksheets/${legacy}/ocr` });
    expect(ocr.json()).toMatchObject({ state: "failed", stage: "failed", error: INTERRUPTED_MESSAGE });
  });
});

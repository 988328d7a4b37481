import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, worksheets } from "../../db/schema";
import { shutdownOcr } from "../../ocr/ocr-service";
import { as, createTestApp, multipart, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { fixture, groundTruth, measurementKeys, truthKeys } from "./worksheet-test-files";
import { failInterruptedOcr, INTERRUPTED_MESSAGE } from "./worksheets.service";

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

describe("OCR that is already running, or was interrupted", () => {
  it("answers 409 while a worksheet is processing, and start-up recovery marks it failed", async () => {
    const { db } = t.deps.database;
    const id = await uploadFixture("ws-clean-003.png", "image/png");
    await db.update(worksheets).set({ ocrStatus: "processing" }).where(eq(worksheets.id, id));
    const busy = await as(t.app, owner)({ method: "POST", url: `/api/worksheets/${id}/ocr` });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().error).toBe("OCR is already running for this worksheet");
    // Another clinic still gets 404, not a hint that the id exists.
    const other = await as(t.app, stranger)({ method: "POST", url: `/api/worksheets/${id}/ocr` });
    expect(other.statusCode).toBe(404);

    const completed = await uploadFixture("ws-clean-003.png", "image/png");
    await db.update(worksheets).set({ ocrStatus: "completed" }).where(eq(worksheets.id, completed));

    expect(await failInterruptedOcr(db)).toBe(1);
    const [row] = await db.select().from(worksheets).where(eq(worksheets.id, id));
    expect(row).toMatchObject({ ocrStatus: "failed", ocrError: INTERRUPTED_MESSAGE, ocrProcessed: false });
    const [untouched] = await db.select().from(worksheets).where(eq(worksheets.id, completed));
    expect(untouched!.ocrStatus).toBe("completed");
    const audit = await db.select().from(auditEvents).where(eq(auditEvents.action, "worksheet.ocr_failed"));
    expect(audit.find((e) => e.entityId === String(id))).toMatchObject({ clinicId: owner.clinicId });
    expect(await failInterruptedOcr(db)).toBe(0);

    const view = await as(t.app, owner)({ method: "GET", url: `/api/worksheets/${id}` });
    expect(view.json()).toMatchObject({ ocrStatus: "failed", ocrError: INTERRUPTED_MESSAGE, ocrResult: null });
  });
});

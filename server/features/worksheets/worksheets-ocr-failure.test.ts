import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditEvents, worksheets } from "../../db/schema";
import { shutdownOcr } from "../../ocr/ocr-service";
import { as, createTestApp, multipart, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { fixture } from "./worksheet-test-files";

// The recogniser breaking is hard to provoke with a real file (it reads what it can), so it is replaced here;
// loading pages stays real, so the upload is still checked.
const recognize = vi.hoisted(() => ({ fail: true }));
vi.mock("../../ocr/ocr-service", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../ocr/ocr-service")>();
  return {
    ...real,
    recognizeWorksheet: async (...args: Parameters<typeof real.recognizeWorksheet>) => {
      if (recognize.fail) throw new real.OcrFailure("OCR failed: model crashed at /opt/models/x.onnx");
      return real.recognizeWorksheet(...args);
    },
  };
});

let t: TestApp;
let owner: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerClinic(t.app);
});

afterAll(async () => {
  await t?.close();
  await shutdownOcr();
});

describe("POST /api/worksheets/:id/ocr when recognition fails", () => {
  it("answers 422 OCR Processing Failed, marks the worksheet failed and audits it; a retry can succeed", async () => {
    const body = multipart([
      { name: "worksheet", filename: "s.png", contentType: "image/png", data: await fixture("ws-clean-003.png") },
    ]);
    const id = (await as(t.app, owner)({ method: "POST", url: "/api/worksheets/upload", ...body })).json().id;

    const res = await as(t.app, owner)({ method: "POST", url: `/api/worksheets/${id}/ocr` });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      error: "OCR Processing Failed",
      code: "OCR_FAILED",
      details: "Text recognition failed on this worksheet.",
    });
    // Internal paths and engine messages stay in the log.
    expect(res.body).not.toContain("/opt/models");

    const { db } = t.deps.database;
    const [row] = await db.select().from(worksheets).where(eq(worksheets.id, id));
    expect(row).toMatchObject({ ocrStatus: "failed", ocrProcessed: false, ocrResult: null });
    expect(row!.ocrError).toBe("Text recognition failed on this worksheet.");
    const audit = await db.select().from(auditEvents).where(eq(auditEvents.action, "worksheet.ocr_failed"));
    expect(audit.at(-1)).toMatchObject({ entityId: String(id), details: { error: "OcrFailure" } });

    recognize.fail = false;
    const retry = await as(t.app, owner)({ method: "POST", url: `/api/worksheets/${id}/ocr` });
    expect(retry.statusCode, retry.body).toBe(200);
    const [after] = await db.select().from(worksheets).where(eq(worksheets.id, id));
    expect(after).toMatchObject({ ocrStatus: "completed", ocrProcessed: true, ocrError: null });
  }, 180_000);
});

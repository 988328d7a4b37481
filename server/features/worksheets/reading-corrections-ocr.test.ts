import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OcrResult } from "../../../domain/contracts/ocr";
import { shutdownOcr } from "../../ocr/ocr-service";
import { as, createTestApp, multipart, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { insertPhysician } from "../reports/report-test-fixtures";
import { fixture } from "./worksheet-test-files";

// A clean sheet of a form whose every label the reader does not know ("Client:", "Natal day:", "Sent by:"):
// fixtures/forms/README.md. The real reading pipeline, end to end through the routes.
let t: TestApp;
let a: SignedIn;
let b: SignedIn;
let sheet: Buffer;
let truth: {
  patientName: string;
  patientDob: string;
  examDate: string;
  otherFields: { mrn: string; referrer: string };
};

beforeAll(async () => {
  t = await createTestApp();
  a = await registerClinic(t.app, "Learning Clinic");
  b = await registerClinic(t.app, "Other Clinic");
  sheet = await fixture("../forms/novel-labels-clean.png");
  truth = JSON.parse(String(await fixture("../forms/novel-labels-clean.json")));
});
afterAll(async () => {
  await t?.close();
  await shutdownOcr();
});

async function uploadAndRead(user: SignedIn): Promise<{ id: number; ocr: OcrResult }> {
  const body = multipart([{ name: "worksheet", filename: "sheet.png", contentType: "image/png", data: sheet }]);
  const up = await as(t.app, user)({ method: "POST", url: "/api/worksheets/upload", ...body });
  expect(up.statusCode, up.body).toBe(201);
  const res = await as(t.app, user)({ method: "POST", url: `/api/worksheets/${up.json().id}/ocr` });
  expect(res.statusCode, res.body).toBe(200);
  return { id: up.json().id, ocr: res.json().ocrResult };
}

describe("a corrected label wording is used on the clinic's next upload", () => {
  it("reads the fields of unknown labels once a clinician has corrected them, for that clinic only", async () => {
    const first = await uploadAndRead(a);
    expect(first.ocr.patientName).toBeNull();
    expect(first.ocr.fields.referringPhysician.value).toBeNull();

    const physician = await insertPhysician(t, a.clinicId);
    const generated = await as(
      t.app,
      a,
    )({
      method: "POST",
      url: "/api/reports/generate",
      payload: {
        worksheetId: first.id,
        physicianId: physician.id,
        scanType: "Carotid Duplex",
        patient: {
          patientName: truth.patientName,
          patientDob: truth.patientDob,
          examDate: truth.examDate,
          referringPhysician: truth.otherFields.referrer,
          mrn: truth.otherFields.mrn,
        },
      },
    });
    expect(generated.statusCode, generated.body).toBe(201);

    const next = await uploadAndRead(a);
    expect(next.ocr).toMatchObject({
      patientName: truth.patientName,
      patientDob: truth.patientDob,
      examDate: truth.examDate,
    });
    expect(next.ocr.fields.referringPhysician.value).toBe(truth.otherFields.referrer);
    expect(next.ocr.fields.mrn.value).toBe(truth.otherFields.mrn);

    // Another clinic's upload of the same form is read without the first clinic's wordings.
    const theirs = await uploadAndRead(b);
    expect(theirs.ocr.patientName).toBeNull();
  }, 300_000);
});

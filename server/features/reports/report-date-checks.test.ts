import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../../domain/contracts/reports";
import { auditEvents } from "../../db/schema";
import { communicateCritical, linkPhysician, reauth } from "../../test-support/signing";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { insertPhysician, insertWorksheet } from "./report-test-fixtures";

// Finalizing a report whose dates cannot be right needs the clinician's explicit confirmation, audited.

let t: TestApp;
let owner: SignedIn;
let physicianId: number;

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerClinic(t.app, "Dates Clinic");
  physicianId = (await insertPhysician(t, owner.clinicId)).id;
  // The owner signs as this physician, re-authenticated (issue 26), so these tests reach the date check.
  await linkPhysician(t, owner, physicianId);
  await reauth(t, owner);
});
afterAll(() => t.close());

async function draftWith(patientDob: string, examDate: string): Promise<Report> {
  const worksheet = await insertWorksheet(t, owner.clinicId);
  const res = await as(
    t.app,
    owner,
  )({
    method: "POST",
    url: "/api/reports/generate",
    payload: { worksheetId: worksheet.id, physicianId, patient: { patientName: "Jane Roe", patientDob, examDate } },
  });
  expect(res.statusCode, res.body).toBe(201);
  // The fixture's right ICA is a critical result: its communication is recorded, so signing reaches the date check.
  await communicateCritical(t, owner, (res.json() as Report).id);
  return res.json() as Report;
}

const acknowledgements = (reportId: number) =>
  t.deps.database.db
    .select()
    .from(auditEvents)
    .where(
      and(eq(auditEvents.entityId, String(reportId)), eq(auditEvents.action, "report.date_warnings_acknowledged")),
    );

describe("finalizing with dates that cannot be right", () => {
  it("refuses a birth after the exam until the clinician confirms, then signs and audits the confirmation", async () => {
    const report = await draftWith("2035-01-01", "2020-05-01");
    const refused = await as(t.app, owner)({ method: "POST", url: `/api/reports/${report.id}/finalize` });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ field: "acknowledgeDateWarnings" });
    expect(refused.json().error).toMatch(/^The date of birth 2035-01-01 is in the future\. /);
    expect(refused.json().error).toMatch(/the exam cannot be before birth\. Correct the dates, or confirm/);
    const viaEditor = await as(
      t.app,
      owner,
    )({
      method: "PATCH",
      url: `/api/reports/${report.id}`,
      payload: { finalize: true },
    });
    expect(viaEditor.statusCode).toBe(400);
    expect((await acknowledgements(report.id)).length).toBe(0);

    const signed = await as(
      t.app,
      owner,
    )({
      method: "POST",
      url: `/api/reports/${report.id}/finalize`,
      payload: { acknowledgeDateWarnings: true },
    });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toMatchObject({ isFinalized: true });
    const [audit] = await acknowledgements(report.id);
    expect(audit?.details).toEqual({ checks: ["birth_in_future", "birth_after_exam"] });
    // The trail names the checks, never the patient's dates.
    expect(JSON.stringify(audit?.details)).not.toContain("2035");
  });

  it("refuses an exam in the future through the editor's save-and-finalize unless confirmed", async () => {
    const report = await draftWith("1960-01-01", "2031-02-03");
    const save = (payload: object) => as(t.app, owner)({ method: "PATCH", url: `/api/reports/${report.id}`, payload });
    const refused = await save({ finalize: true, indication: "Leg swelling" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatch(/^The exam date 2031-02-03 is in the future\./);
    // Correcting the date in the same save is enough: no confirmation needed.
    const corrected = await save({ finalize: true, examDate: "2021-02-03" });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(corrected.json()).toMatchObject({ isFinalized: true, examDate: "2021-02-03" });
    expect((await acknowledgements(report.id)).length).toBe(0);
  });

  it("signs plausible dates without any confirmation", async () => {
    const report = await draftWith("1950-04-02", "2024-03-15");
    const signed = await as(t.app, owner)({ method: "POST", url: `/api/reports/${report.id}/finalize` });
    expect(signed.statusCode, signed.body).toBe(200);
    expect((await acknowledgements(report.id)).length).toBe(0);
  });
});

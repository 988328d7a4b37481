import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Measurement } from "../../../domain/contracts/study";
import { reports } from "../../db/schema";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { generate } from "./report-test-fixtures";

// Issue 31 item 11: the draft is compared with the patient's prior finalized study of the same scan type, found in
// the same clinic only.

let t: TestApp;
let owner: SignedIn;
let other: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerClinic(t.app, "Owner Clinic");
  other = await registerClinic(t.app, "Other Clinic");
});

afterAll(async () => {
  await t?.close();
});

const aorta = (mm: number): Measurement => ({
  site: "AO_PROX",
  side: null,
  parameter: "DIAMETER_MM",
  value: mm,
  unit: "mm",
});

async function priorReport(
  clinicId: number,
  values: Partial<typeof reports.$inferInsert> & { examDate: string; measurements: Measurement[] },
) {
  const [row] = await t.deps.database.db
    .insert(reports)
    .values({
      clinicId,
      patientName: "Ada  Byron",
      patientDob: "1950-12-10",
      studyType: "Abdominal Aorta",
      indication: "AAA surveillance",
      findings: "Abdominal aorta: maximum diameter as measured.",
      impression: "Prior impression text.",
      isDraft: false,
      isFinalized: true,
      finalizedAt: new Date("2024-09-02T10:00:00Z"),
      ...values,
    })
    .returning();
  return row!;
}

const study = (user: SignedIn, patient: Record<string, unknown>, diameter = 46) =>
  generate(t.app, t, user, {
    scanType: "Abdominal Aorta",
    measurements: [aorta(diameter)],
    patient: { patientName: "Ada Byron", patientDob: "1950-12-10", examDate: "2025-02-20", ...patient },
  });

describe("comparison with a prior study", () => {
  it("compares with the same patient's latest earlier finalized study in the clinic, never another clinic's", async () => {
    await priorReport(owner.clinicId, { examDate: "2023-09-01", measurements: [aorta(35)] });
    const prior = await priorReport(owner.clinicId, { examDate: "2024-09-01", measurements: [aorta(40)] });
    // Not used: a draft, another scan type, a later study, another patient, and another clinic's closer study.
    await priorReport(owner.clinicId, {
      examDate: "2024-12-01",
      measurements: [aorta(30)],
      isFinalized: false,
      isDraft: true,
    });
    await priorReport(owner.clinicId, { examDate: "2024-12-02", measurements: [aorta(30)], studyType: "Renal Duplex" });
    await priorReport(owner.clinicId, { examDate: "2025-03-01", measurements: [aorta(30)] });
    await priorReport(owner.clinicId, { examDate: "2024-12-03", measurements: [aorta(30)], patientDob: "1951-12-10" });
    const foreign = await priorReport(other.clinicId, { examDate: "2025-01-15", measurements: [aorta(45)] });

    const report = await study(owner, {});
    expect(report.impression).toContain(
      "Compared with the prior study of 2024-09-01: abdominal aorta: maximum diameter 46 mm, previously 40 mm, growth 6 mm in 172 days",
    );
    expect(report.impression).toMatch(/^Rapid aneurysm growth .*vascular surgery referral/m);
    expect(report.impression).not.toContain("2025-01-15");
    // Rapid growth is a critical result (issue 26): the report is not signed until the call is recorded.
    expect(report.criticalResults).toEqual([
      expect.objectContaining({
        rule: "aortic_rapid_growth",
        finding: "Abdominal aorta: maximum diameter 46 mm, 6 mm more than on 2024-09-01 (172 days, 12.7 mm/year)",
        communicated: false,
      }),
    ]);
    expect(report.criticalUncommunicated).toBe(true);

    const answer = await as(t.app, owner)({ method: "GET", url: `/api/reports/${report.id}/prior` });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().prior).toMatchObject({
      id: prior.id,
      examDate: "2024-09-01",
      status: "finalized",
      impression: "Prior impression text.",
      comparedInDraft: true,
    });
    // A study between the two signed later does not replace the prior the draft was written against.
    const later = await priorReport(owner.clinicId, { examDate: "2025-01-10", measurements: [aorta(45)] });
    const after = (await as(t.app, owner)({ method: "GET", url: `/api/reports/${report.id}/prior` })).json();
    expect(after.prior).toMatchObject({ id: prior.id, comparedInDraft: true });
    // A new draft of that patient is compared with it, and 1 mm in 41 days is not rapid growth.
    const next = await study(owner, {});
    expect(next.impression).toContain("Compared with the prior study of 2025-01-10");
    expect(next.criticalResults).toEqual([]);
    const nextPrior = (await as(t.app, owner)({ method: "GET", url: `/api/reports/${next.id}/prior` })).json();
    expect(nextPrior.prior).toMatchObject({ id: later.id, comparedInDraft: true });
    // The other clinic cannot see the owner's report, nor its prior.
    const intruder = await as(t.app, other)({ method: "GET", url: `/api/reports/${report.id}/prior` });
    expect(intruder.statusCode).toBe(404);

    // In the other clinic, the same patient is compared with that clinic's own prior only.
    const theirs = await study(other, {});
    expect(theirs.impression).toContain("Compared with the prior study of 2025-01-15");
    const theirPrior = await as(t.app, other)({ method: "GET", url: `/api/reports/${theirs.id}/prior` });
    expect(theirPrior.json().prior.id).toBe(foreign.id);
  });

  it("matches by MRN when the name is written differently, and by name and birth date without one", async () => {
    const clinic = await registerClinic(t.app, "MRN Clinic");
    await priorReport(clinic.clinicId, {
      examDate: "2024-06-01",
      measurements: [aorta(31)],
      patientName: "BYRON, Ada",
      mrn: "H-1001",
    });
    const byMrn = await study(clinic, { patientName: "Ada Byron", mrn: "h-1001" }, 32);
    expect(byMrn.impression).toMatch(
      /Compared with the prior study of 2024-06-01: abdominal aorta: maximum diameter 32 mm, previously 31 mm, growth 1 mm/,
    );
    expect(byMrn.impression).not.toMatch(/Rapid aneurysm growth/);
    expect(byMrn.criticalResults).toEqual([]);
    const noMatch = await study(clinic, { patientName: "Ada Byron", mrn: "H-2002" }, 32);
    expect(noMatch.impression).not.toMatch(/prior study/);
    const answer = await as(t.app, clinic)({ method: "GET", url: `/api/reports/${noMatch.id}/prior` });
    expect(answer.json()).toEqual({ prior: null });
  });
});

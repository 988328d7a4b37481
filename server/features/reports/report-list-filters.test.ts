import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReportList } from "../../../domain/contracts/reports";
import { reports } from "../../db/schema";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { insertPhysician } from "./report-test-fixtures";

// Issue 29 item 3: the reports list filters by status, physician, scan type and exam-date range, and sorts.
let t: TestApp;
let admin: SignedIn;
let other: SignedIn;
let p1: number;
let p2: number;

type Row = Partial<typeof reports.$inferInsert> & { clinicId: number; patientName: string };
async function insertReport(values: Row): Promise<void> {
  await t.deps.database.db.insert(reports).values({
    studyType: "Carotid Duplex",
    indication: "-",
    findings: "-",
    impression: "-",
    ...values,
  });
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await registerClinic(t.app, "Filter Clinic");
  other = await registerClinic(t.app, "Other Clinic");
  p1 = (await insertPhysician(t, admin.clinicId, "Dr. Ines Dubois")).id;
  p2 = (await insertPhysician(t, admin.clinicId, "Dr. Omar Haddad")).id;
  const c = admin.clinicId;
  const at = (day: string) => new Date(`${day}T10:00:00Z`);
  await insertReport({
    clinicId: c,
    patientName: "Unassigned Draft",
    examDate: "2026-11-02",
    generatedAt: at("2026-11-20"),
  });
  await insertReport({
    clinicId: c,
    patientName: "Assigned Draft",
    physicianId: p1,
    examDate: "2026-11-05",
    generatedAt: at("2026-11-06"),
  });
  await insertReport({
    clinicId: c,
    patientName: "Signed Once",
    physicianId: p1,
    examDate: "2026-11-10",
    generatedAt: at("2026-11-11"),
    isFinalized: true,
    finalizedAt: at("2026-11-12"),
  });
  await insertReport({
    clinicId: c,
    patientName: "Amended Unsigned",
    physicianId: p2,
    studyType: "Lower Extremity Venous Duplex",
    examDate: "2026-11-15",
    generatedAt: at("2026-11-16"),
    isAmended: true,
    amendmentCount: 1,
  });
  await insertReport({
    clinicId: c,
    patientName: "Amended Signed",
    physicianId: p2,
    examDate: null,
    generatedAt: at("2026-11-18"),
    isFinalized: true,
    isAmended: true,
    amendmentCount: 2,
  });
  await insertReport({ clinicId: other.clinicId, patientName: "Other Clinic Draft", examDate: "2026-11-05" });
});
afterAll(() => t.close());

const names = async (query: string, user: SignedIn = admin) => {
  const res = await as(t.app, user)({ url: `/api/reports?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  const list = res.json() as ReportList;
  expect(list.total).toBe(list.items.length);
  return list.items.map((r) => r.patientName);
};

describe("the reports list's filters", () => {
  it("filters by each status, by its plain rule", async () => {
    expect(await names("status=draft")).toEqual(["Unassigned Draft", "Assigned Draft"]);
    expect(await names("status=awaiting_signature")).toEqual(["Amended Unsigned", "Assigned Draft"]);
    expect(await names("status=signed")).toEqual(["Amended Signed", "Signed Once"]);
    expect(await names("status=amended")).toEqual(["Amended Signed", "Amended Unsigned"]);
  });

  it("filters by physician, scan type and an exam-date range with both ends included", async () => {
    expect(await names(`physicianId=${p2}`)).toEqual(["Amended Signed", "Amended Unsigned"]);
    expect(await names("scanType=Lower%20Extremity%20Venous%20Duplex")).toEqual(["Amended Unsigned"]);
    expect(await names("examFrom=2026-11-05&examTo=2026-11-10&sort=exam_asc")).toEqual([
      "Assigned Draft",
      "Signed Once",
    ]);
    expect(await names("examFrom=2026-11-11")).toEqual(["Amended Unsigned"]);
    // Filters combine with each other and with the search words.
    expect(await names(`status=draft&physicianId=${p1}`)).toEqual(["Assigned Draft"]);
    expect(await names("search=amended&status=signed")).toEqual(["Amended Signed"]);
  });

  it("sorts by exam date either way (no exam date last) and by generated date", async () => {
    expect(await names("sort=exam_desc")).toEqual([
      "Amended Unsigned",
      "Signed Once",
      "Assigned Draft",
      "Unassigned Draft",
      "Amended Signed",
    ]);
    expect(await names("sort=exam_asc")).toEqual([
      "Unassigned Draft",
      "Assigned Draft",
      "Signed Once",
      "Amended Unsigned",
      "Amended Signed",
    ]);
    expect(await names("sort=generated_asc")).toEqual([
      "Assigned Draft",
      "Signed Once",
      "Amended Unsigned",
      "Amended Signed",
      "Unassigned Draft",
    ]);
  });

  it("never shows another clinic's reports, and refuses unknown values in words", async () => {
    expect(await names("examFrom=2026-11-05&examTo=2026-11-05", other)).toEqual(["Other Clinic Draft"]);
    expect(await names(`physicianId=${p1}`, other)).toEqual([]);
    for (const query of ["status=lost", "sort=name", "examFrom=05/11/2026", "examFrom=2026-11-10&examTo=2026-11-01"]) {
      const res = await as(t.app, admin)({ url: `/api/reports?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.body).not.toMatch(/at Object|node_modules/);
    }
  });
});

import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { and, desc, eq } from "drizzle-orm";
import mammoth from "mammoth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CriticalCommunication } from "../../../domain/contracts/critical-communication";
import type { Report, ReportList } from "../../../domain/contracts/reports";
import { criticalRuleIds } from "../../../domain/report-engine/critical-results";
import { auditEvents } from "../../db/schema";
import { addPhysicianUser, reauth } from "../../test-support/signing";
import { statementsOf, tablesRead } from "../../test-support/statements";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { addSonographer, insertPhysician, insertWorksheet, ocrResult } from "./report-test-fixtures";

// Issue 26 item 4: a report with a critical result is signed only once its communication is recorded.
let t: TestApp;
let now = Date.parse("2026-11-24T10:00:00Z");
let admin: SignedIn;
let sono: SignedIn;
let doctor: SignedIn;
let physicianId: number;

beforeAll(async () => {
  t = await createTestApp({}, { clock: () => now });
  admin = await registerClinic(t.app, "Critical Clinic");
  sono = await addSonographer(t, admin.clinicId);
  physicianId = (await insertPhysician(t, admin.clinicId, "Dr. Ines Dubois")).id;
  doctor = await addPhysicianUser(t, admin.clinicId, physicianId, { firstName: "Ines", lastName: "Dubois" });
});
afterAll(() => t.close());

const call = (user: SignedIn) => as(t.app, user);
const finalize = (user: SignedIn, id: number) => call(user)({ method: "POST", url: `/api/reports/${id}/finalize` });
const communication = {
  recipient: "Dr Amal Lee (referring)",
  method: "phone",
  communicatedAt: "2026-11-24T09:55:00Z",
  readBack: true,
  notes: "Vascular surgery to see today",
};
const record = (user: SignedIn, id: number, body: Record<string, unknown> = communication) =>
  call(user)({ method: "POST", url: `/api/reports/${id}/critical-communication`, payload: body });

/** A draft for the linked physician; the fixture's right ICA PSV of 250 cm/s is a 70-99% stenosis. */
async function draft(measurements?: ReturnType<typeof ocrResult>["measurements"]): Promise<Report> {
  const worksheet = await insertWorksheet(t, admin.clinicId, ocrResult(measurements ? { measurements } : {}));
  const res = await call(sono)({
    method: "POST",
    url: "/api/reports/generate",
    payload: { worksheetId: worksheet.id, physicianId, logoUrl: null },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Report;
}

const normalCarotid = [
  { site: "ICA", side: "right", parameter: "PSV", value: 90, unit: "cm/s", confidence: 0.9, text: "90", box: null },
] as ReturnType<typeof ocrResult>["measurements"];

async function setRules(rules: Record<string, unknown>) {
  return call(admin)({
    method: "PUT",
    url: `/api/clinic/${admin.clinicId}`,
    payload: { name: "Critical Clinic", email: admin.email, criticalRules: rules },
  });
}

describe("critical results on a report", () => {
  it("flags the draft with the rule that fired, and refuses to sign it (409) until the communication is recorded", async () => {
    const report = await draft();
    expect(report.criticalUncommunicated).toBe(true);
    expect(report.criticalResults).toEqual([
      expect.objectContaining({
        rule: "carotid_severe",
        ruleName: "Internal carotid artery stenosis of 70% or more, or occlusion",
        finding: "Right internal carotid artery: 70-99% stenosis",
        communicated: false,
      }),
    ]);

    await reauth(t, doctor);
    const refused = await finalize(doctor, report.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: "critical_result_not_communicated" });
    expect(refused.json().error).toContain("Right internal carotid artery: 70-99% stenosis");
    const viaPatch = await call(doctor)({
      method: "PATCH",
      url: `/api/reports/${report.id}`,
      payload: { impression: "Edited.", finalize: true },
    });
    expect(viaPatch.statusCode).toBe(409);
    const still = (await call(doctor)({ url: `/api/reports/${report.id}` })).json() as Report;
    expect(still.isFinalized).toBe(false);
    expect(still.impression).not.toBe("Edited.");

    const saved = await record(doctor, report.id);
    expect(saved.statusCode, saved.body).toBe(201);
    const made = saved.json() as CriticalCommunication;
    expect(made).toMatchObject({
      recipient: "Dr Amal Lee (referring)",
      method: "phone",
      readBack: true,
      notes: "Vascular surgery to see today",
      recordedBy: doctor.userId,
      recordedByName: "Ines Dubois",
      communicatedAt: "2026-11-24T09:55:00.000Z",
      amendmentNumber: 0,
    });
    expect(made.results.map((r) => r.rule)).toEqual(["carotid_severe"]);

    const opened = (await call(doctor)({ url: `/api/reports/${report.id}` })).json() as Report;
    expect(opened.criticalUncommunicated).toBe(false);
    expect(opened.criticalResults[0]?.communicated).toBe(true);
    expect(opened.criticalCommunications).toHaveLength(1);

    const signed = await finalize(doctor, report.id);
    expect(signed.statusCode, signed.body).toBe(200);
    expect((signed.json() as Report).isFinalized).toBe(true);

    const [audit] = await t.deps.database.db
      .select({ actor: auditEvents.actorUserId, details: auditEvents.details })
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, "report.critical_result_communicated"), eq(auditEvents.entityId, String(report.id))),
      )
      .orderBy(desc(auditEvents.id));
    expect(audit?.actor).toBe(doctor.userId);
    expect(audit?.details).toMatchObject({
      rules: ["carotid_severe"],
      method: "phone",
      readBack: true,
      statement:
        "Critical result communicated to Dr Amal Lee (referring) by Ines Dubois on 2026-11-24T09:55:00.000Z by phone, read back",
    });
  });

  it("still asks for the re-authentication: a recorded communication does not sign by itself", async () => {
    const report = await draft();
    expect((await record(doctor, report.id)).statusCode).toBe(201);
    now += 6 * 60_000;
    const stale = await finalize(doctor, report.id);
    expect(stale.statusCode).toBe(428);
    await reauth(t, doctor);
    expect((await finalize(doctor, report.id)).statusCode).toBe(200);
  });

  it("opens a flagged report in 3 statements: the clinic's rules come with the communications (issue 27)", async () => {
    const report = await draft();
    expect((await record(doctor, report.id)).statusCode).toBe(201);
    let opened: Report | undefined;
    const statements = await statementsOf(async () => {
      opened = (await call(doctor)({ url: `/api/reports/${report.id}` })).json() as Report;
    });
    expect(opened?.criticalResults.map((r) => [r.rule, r.communicated])).toEqual([["carotid_severe", true]]);
    expect(opened?.criticalCommunications.map((c) => c.recordedByName)).toEqual(["Ines Dubois"]);
    // The report; the clinic's rules that are off with the report's records and their authors; the audit event in
    // one statement (decision 027). The rules read apart from the records, or the chain's lock, head and insert
    // one by one, is a round trip too many.
    expect(tablesRead(statements).filter((table) => table === "clinics")).toHaveLength(1);
    expect(statements.at(-1)).toMatch(/^select audit_append\(/);
    expect(statements).toHaveLength(3);
  });

  it("answers a new draft as opening it answers, without reading it again (issue 27)", async () => {
    let drafted: Report | undefined;
    const statements = await statementsOf(async () => {
      drafted = await draft();
    });
    const opened = (await call(doctor)({ url: `/api/reports/${drafted!.id}` })).json() as Report;
    expect(drafted).toEqual(opened);
    expect(drafted?.physician?.name).toBe("Dr. Ines Dubois");
    expect(drafted?.criticalUncommunicated).toBe(true);
    // After the insert, the version and the audit event: no read of the report or its critical state.
    const afterInsert = statements.slice(statements.findIndex((text) => /^insert into "reports"/.test(text)));
    expect(tablesRead(afterInsert)).not.toContain("reports");
    expect(tablesRead(afterInsert)).not.toContain("critical_communications");
    expect(afterInsert.slice(0, 3)).toEqual([
      expect.stringMatching(/^insert into "reports"/),
      expect.stringMatching(/^insert into "report_versions"/),
      expect.stringMatching(/^select audit_append\(/),
    ]);
    // With the clinic's rule off, the draft's critical state is the one opening it shows.
    expect((await setRules({ carotid_severe: false })).statusCode).toBe(200);
    try {
      const quiet = await draft();
      expect(quiet.criticalResults).toEqual([]);
      expect(quiet).toEqual((await call(doctor)({ url: `/api/reports/${quiet.id}` })).json());
    } finally {
      expect((await setRules({ carotid_severe: true })).statusCode).toBe(200);
    }
  });

  it("signs a report with no critical result as before, and refuses a record for it (409)", async () => {
    const report = await draft(normalCarotid);
    expect(report.criticalResults).toEqual([]);
    expect(report.criticalUncommunicated).toBe(false);
    const refused = await record(doctor, report.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe("This report has no critical result to communicate");
    await reauth(t, doctor);
    expect((await finalize(doctor, report.id)).statusCode).toBe(200);
  });

  it("lets a physician and an admin record it, not a sonographer (403)", async () => {
    const report = await draft();
    const bySono = await record(sono, report.id);
    expect(bySono.statusCode).toBe(403);
    expect((await record(admin, report.id)).statusCode).toBe(201);
  });

  it("refuses a record without a recipient, with an unknown method, without read-back, or in the future", async () => {
    const report = await draft();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...communication, recipient: "  " }, "Say whom the result was communicated to"],
      [{ ...communication, method: "fax" }, "Choose how it was communicated: phone, in person or secure message"],
      [{ ...communication, readBack: undefined }, "Say whether the recipient read the result back"],
      [{ ...communication, communicatedAt: "yesterday" }, "Give the date and time it was communicated"],
      [
        { ...communication, communicatedAt: new Date(now + 60 * 60_000).toISOString() },
        "The time of the communication cannot be in the future",
      ],
    ];
    for (const [body, message] of cases) {
      const res = await record(doctor, report.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toContain(message);
    }
    expect(
      ((await call(doctor)({ url: `/api/reports/${report.id}` })).json() as Report).criticalCommunications,
    ).toEqual([]);
  });

  it("answers 404 to another clinic's user, and records nothing", async () => {
    const report = await draft();
    const other = await registerClinic(t.app, "Other Clinic");
    expect((await record(other, report.id)).statusCode).toBe(404);
    expect(((await call(admin)({ url: `/api/reports/${report.id}` })).json() as Report).criticalUncommunicated).toBe(
      true,
    );
  });
});

describe("the reports list: critical, not communicated", () => {
  it("filters on the server and marks the rows", async () => {
    const open = await draft();
    const told = await draft();
    expect((await record(doctor, told.id)).statusCode).toBe(201);
    const normal = await draft(normalCarotid);

    const list = (await call(admin)({ url: "/api/reports?critical=uncommunicated&pageSize=100" })).json() as ReportList;
    const ids = list.items.map((r) => r.id);
    expect(ids).toContain(open.id);
    expect(ids).not.toContain(told.id);
    expect(ids).not.toContain(normal.id);
    expect(list.items.every((r) => r.criticalUncommunicated)).toBe(true);
    expect(list.total).toBe(list.items.length);

    const all = (await call(admin)({ url: "/api/reports?pageSize=100" })).json() as ReportList;
    const row = (id: number) => all.items.find((r) => r.id === id);
    expect(row(open.id)?.criticalUncommunicated).toBe(true);
    expect(row(told.id)?.criticalUncommunicated).toBe(false);
    expect(row(normal.id)?.criticalUncommunicated).toBe(false);

    // A record made now changes what the (remembered) filtered list says.
    expect((await record(doctor, open.id)).statusCode).toBe(201);
    const after = (
      await call(admin)({ url: "/api/reports?critical=uncommunicated&pageSize=100" })
    ).json() as ReportList;
    expect(after.items.map((r) => r.id)).not.toContain(open.id);

    expect((await call(admin)({ url: "/api/reports?critical=yes" })).statusCode).toBe(400);
  });
});

describe("the clinic's rules", () => {
  it("are all on by default, can be turned off and on by an admin, and unknown rules are refused", async () => {
    const clinic = (await call(admin)({ url: "/api/clinic" })).json();
    expect(Object.values(clinic.criticalRules)).toEqual(criticalRuleIds.map(() => true));
    expect((await setRules({ carotid_severe: "no" })).statusCode).toBe(400);
    expect((await setRules({ no_such_rule: false })).statusCode).toBe(400);
    const bySono = await call(sono)({
      method: "PUT",
      url: `/api/clinic/${admin.clinicId}`,
      payload: { name: "Critical Clinic", email: admin.email, criticalRules: { carotid_severe: false } },
    });
    expect(bySono.statusCode).toBe(403);

    const report = await draft();
    const off = await setRules({ carotid_severe: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().criticalRules).toMatchObject({ carotid_severe: false, acute_dvt: true });
    const opened = (await call(admin)({ url: `/api/reports/${report.id}` })).json() as Report;
    expect(opened.criticalResults).toEqual([]);
    expect(opened.criticalUncommunicated).toBe(false);
    const list = (await call(admin)({ url: "/api/reports?critical=uncommunicated&pageSize=100" })).json() as ReportList;
    expect(list.items.map((r) => r.id)).not.toContain(report.id);

    // Signed under the rule that was off; the amendment is judged by the rules of its own signing.
    await reauth(t, doctor);
    expect((await finalize(doctor, report.id)).statusCode).toBe(200);
    expect((await setRules({ carotid_severe: true })).json().criticalRules.carotid_severe).toBe(true);
    const amended = await call(doctor)({
      method: "POST",
      url: `/api/reports/${report.id}/amend`,
      payload: { reason: "Add plaque description", impression: "Amended impression." },
    });
    expect(amended.statusCode, amended.body).toBe(200);
    expect((amended.json() as Report).criticalUncommunicated).toBe(true);
    const refused = await finalize(doctor, report.id);
    expect(refused.statusCode).toBe(409);
    const saved = await record(doctor, report.id);
    expect((saved.json() as CriticalCommunication).amendmentNumber).toBe(1);
    expect((await finalize(doctor, report.id)).statusCode).toBe(200);
  });

  it("an amendment needs no new record for a result already communicated", async () => {
    const report = await draft();
    await record(doctor, report.id);
    await reauth(t, doctor);
    expect((await finalize(doctor, report.id)).statusCode).toBe(200);
    await call(doctor)({ method: "POST", url: `/api/reports/${report.id}/amend`, payload: { reason: "Typo" } });
    expect((await finalize(doctor, report.id)).statusCode).toBe(200);
  });
});

const run = promisify(execFile);

describe("exports say who was told, by whom, when and how", () => {
  it("prints the record in the print page, the PDF and the DOCX", async () => {
    const report = await draft();
    await record(doctor, report.id, { ...communication, method: "in_person", readBack: false });
    // The clinic's locale (en-US, its default), as its screens write it.
    const line = "Critical result communicated to Dr Amal Lee (referring) by Ines Dubois on Nov 24, 2026, 9:55 AM";
    const tail = "in person, not read back.";
    const print = (await call(admin)({ url: `/api/reports/${report.id}/pdf` })).body;
    expect(print).toContain(line);
    expect(print).toContain(tail);
    expect(print).toContain("Result: Right internal carotid artery: 70-99% stenosis.");

    const work = fs.mkdtempSync(path.join(os.tmpdir(), "critical-exports-"));
    try {
      const pdfFile = path.join(work, "r.pdf");
      fs.writeFileSync(pdfFile, (await call(admin)({ url: `/api/reports/${report.id}/pdf-file` })).rawPayload);
      const pdf = (await run("pdftotext", [pdfFile, "-"])).stdout.replace(/\s+/g, " ");
      expect(pdf).toContain(line);
      expect(pdf).toContain(tail);
      expect(pdf).toContain("CRITICAL RESULT");
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
    const docx = (await call(admin)({ url: `/api/reports/${report.id}/docx` })).rawPayload;
    const { value } = await mammoth.extractRawText({ buffer: docx });
    const words = value.replace(/\s+/g, " ");
    expect(words).toContain(line);
    expect(words).toContain(tail);
  });

  it("says on a draft which critical result is not yet communicated", async () => {
    const report = await draft();
    const print = (await call(admin)({ url: `/api/reports/${report.id}/pdf` })).body;
    expect(print).toContain(
      "Critical result not yet communicated: Right internal carotid artery: 70-99% stenosis (Internal carotid artery stenosis of 70% or more, or occlusion).",
    );
  });
});

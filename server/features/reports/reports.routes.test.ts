import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FINALIZED_DELETE_MESSAGE,
  FINALIZED_EDIT_MESSAGE,
  type Report,
  type ReportDiff,
  type ReportList,
  type ReportVersionSummary,
} from "../../../domain/contracts/reports";
import { auditEvents, reports, reportVersions } from "../../db/schema";
import { addPhysicianUser, readyToSign, reauth } from "../../test-support/signing";
import { statementsOf } from "../../test-support/statements";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { addSonographer, generate } from "./report-test-fixtures";

let t: TestApp;
let owner: SignedIn;
let other: SignedIn;
let sono: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerClinic(t.app, "Owner Clinic");
  other = await registerClinic(t.app, "Other Clinic");
  sono = await addSonographer(t, owner.clinicId);
});
afterAll(() => t.close());

const call = (user: SignedIn) => as(t.app, user);

async function auditActions(reportId: number) {
  const rows = await t.deps.database.db
    .select({ action: auditEvents.action })
    .from(auditEvents)
    .where(and(eq(auditEvents.entityType, "report"), eq(auditEvents.entityId, String(reportId))));
  return rows.map((r) => r.action);
}

describe("access", () => {
  it("answers 401 without a session on every route", async () => {
    const routes: Array<[string, string]> = [
      ["POST", "/api/reports/generate"],
      ["GET", "/api/reports"],
      ["GET", "/api/reports/recent"],
      ["GET", "/api/reports/1"],
      ["PATCH", "/api/reports/1"],
      ["POST", "/api/reports/1/finalize"],
      ["POST", "/api/reports/1/amend"],
      ["POST", "/api/reports/1/critical-communication"],
      ["DELETE", "/api/reports/1"],
      ["GET", "/api/reports/1/versions"],
      ["GET", "/api/reports/1/versions/1"],
      ["GET", "/api/reports/1/diff?from=1&to=2"],
    ];
    for (const [method, url] of routes) {
      const res = await t.app.inject({ method: method as "GET", url, payload: method === "GET" ? undefined : {} });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it("answers 404 to another clinic's user on every :id route, and leaves the report unchanged", async () => {
    const report = await generate(t.app, t, owner);
    const id = report.id;
    const attempts: Array<{ method: "GET" | "PATCH" | "POST" | "DELETE"; url: string; payload?: object }> = [
      { method: "GET", url: `/api/reports/${id}` },
      { method: "PATCH", url: `/api/reports/${id}`, payload: { findings: "stolen" } },
      { method: "POST", url: `/api/reports/${id}/finalize` },
      { method: "POST", url: `/api/reports/${id}/amend`, payload: { reason: "x" } },
      {
        method: "POST",
        url: `/api/reports/${id}/critical-communication`,
        payload: { recipient: "x", method: "phone", communicatedAt: new Date().toISOString(), readBack: true },
      },
      { method: "DELETE", url: `/api/reports/${id}` },
      { method: "GET", url: `/api/reports/${id}/versions` },
      { method: "GET", url: `/api/reports/${id}/versions/1` },
      { method: "GET", url: `/api/reports/${id}/diff?from=1&to=1` },
    ];
    for (const attempt of attempts) {
      const res = await call(other)(attempt);
      expect(res.statusCode, `${attempt.method} ${attempt.url}`).toBe(404);
    }
    const list = (await call(other)({ method: "GET", url: "/api/reports" })).json() as ReportList;
    expect(list.items.map((r) => r.id)).not.toContain(id);
    const after = (await call(owner)({ method: "GET", url: `/api/reports/${id}` })).json() as Report;
    expect(after.findings).toBe(report.findings);
    expect(after.isFinalized).toBe(false);
  });

  it("lets a sonographer generate, edit, amend and read history, but the physician signs", async () => {
    const report = await generate(t.app, t, sono);
    const edit = await call(sono)({
      method: "PATCH",
      url: `/api/reports/${report.id}`,
      payload: { impression: "Edited." },
    });
    expect(edit.statusCode).toBe(200);
    await reauth(t, sono);
    expect((await call(sono)({ method: "POST", url: `/api/reports/${report.id}/finalize` })).statusCode).toBe(403);
    const doctor = await addPhysicianUser(t, sono.clinicId, report.physicianId!);
    await reauth(t, doctor);
    // The fixture's right ICA is a critical result: the physician records its communication, not the sonographer.
    const told = { recipient: "Dr Lee", method: "phone", communicatedAt: new Date().toISOString(), readBack: true };
    const url = `/api/reports/${report.id}/critical-communication`;
    expect((await call(sono)({ method: "POST", url, payload: told })).statusCode).toBe(403);
    expect((await call(doctor)({ method: "POST", url: `/api/reports/${report.id}/finalize` })).statusCode).toBe(409);
    expect((await call(doctor)({ method: "POST", url, payload: told })).statusCode).toBe(201);
    expect((await call(doctor)({ method: "POST", url: `/api/reports/${report.id}/finalize` })).statusCode).toBe(200);
    const amend = await call(sono)({
      method: "POST",
      url: `/api/reports/${report.id}/amend`,
      payload: { reason: "Typo", impression: "Edited again." },
    });
    expect(amend.statusCode).toBe(200);
    expect((await call(sono)({ method: "GET", url: `/api/reports/${report.id}/versions` })).statusCode).toBe(200);
    // The owner (admin) of the same clinic sees the sonographer's report.
    expect((await call(owner)({ method: "GET", url: `/api/reports/${report.id}` })).statusCode).toBe(200);
  });

  it("refuses bad input with a 4xx naming the field", async () => {
    const bad = [
      { method: "GET" as const, url: "/api/reports/abc", field: "id" },
      { method: "GET" as const, url: "/api/reports?page=0", field: "page" },
      { method: "GET" as const, url: "/api/reports?pageSize=1000", field: "pageSize" },
      { method: "GET" as const, url: "/api/reports/1/diff?from=x&to=1", field: "from" },
    ];
    for (const b of bad) {
      const res = await call(owner)({ method: b.method, url: b.url });
      expect(res.statusCode, b.url).toBe(400);
      expect(res.json().field, b.url).toBe(b.field);
    }
    const report = await generate(t.app, t, owner);
    const patch = await call(owner)({
      method: "PATCH",
      url: `/api/reports/${report.id}`,
      payload: { examDate: "15/03/2024" },
    });
    expect(patch.statusCode).toBe(400);
    expect(patch.json().field).toBe("examDate");
    const blankName = await call(owner)({
      method: "PATCH",
      url: `/api/reports/${report.id}`,
      payload: { patientName: "  " },
    });
    expect(blankName.statusCode).toBe(400);
    expect(blankName.json().field).toBe("patientName");
  });
});

describe("lifecycle", () => {
  it("edits drafts only: a finalized report answers 409 and is not changed", async () => {
    const report = await generate(t.app, t, owner);
    const edited = await call(owner)({
      method: "PATCH",
      url: `/api/reports/${report.id}`,
      payload: { findings: "Line one.\nLine two.", patientName: "Jane Q. Roe" },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      findings: "Line one.\nLine two.",
      patientName: "Jane Q. Roe",
      isDraft: true,
    });

    await readyToSign(t, owner, report.id);
    const fin = await call(owner)({ method: "POST", url: `/api/reports/${report.id}/finalize` });
    expect(fin.statusCode).toBe(200);
    const signed = fin.json() as Report;
    expect(signed).toMatchObject({
      isFinalized: true,
      isDraft: false,
      finalizedBy: owner.userId,
      finalizedByName: "Ada Admin",
    });
    expect(Date.parse(signed.finalizedAt!)).toBeGreaterThan(Date.now() - 60_000);

    const refused = await call(owner)({
      method: "PATCH",
      url: `/api/reports/${report.id}`,
      payload: { findings: "x" },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(FINALIZED_EDIT_MESSAGE);
    const again = await call(owner)({ method: "POST", url: `/api/reports/${report.id}/finalize` });
    expect(again.statusCode).toBe(409);
    const current = (await call(owner)({ method: "GET", url: `/api/reports/${report.id}` })).json() as Report;
    expect(current.findings).toBe("Line one.\nLine two.");
    expect(await auditActions(report.id)).toEqual(
      expect.arrayContaining(["report.generated", "report.updated", "report.finalized", "report.viewed"]),
    );
  });

  it("finalizes in the same save when PATCH carries finalize: true", async () => {
    const report = await generate(t.app, t, owner);
    await readyToSign(t, owner, report.id);
    const res = await call(owner)({
      method: "PATCH",
      url: `/api/reports/${report.id}`,
      payload: { impression: "Signed text.", finalize: true },
    });
    expect(res.json()).toMatchObject({ impression: "Signed text.", isFinalized: true, isDraft: false });
    const versions = (await call(owner)({ method: "GET", url: `/api/reports/${report.id}/versions` })).json();
    expect(versions.map((v: ReportVersionSummary) => v.kind)).toEqual(["generated", "finalized"]);
  });

  it("amends with a trimmed reason, numbers amendments and keeps every signed version intact", async () => {
    const report = await generate(t.app, t, owner);
    const url = `/api/reports/${report.id}`;
    await call(owner)({ method: "PATCH", url, payload: { impression: "First signed impression." } });
    await readyToSign(t, owner, report.id);
    await call(owner)({ method: "POST", url: `${url}/finalize` });

    const draftAmend = await generate(t.app, t, owner);
    const notSigned = await call(owner)({
      method: "POST",
      url: `/api/reports/${draftAmend.id}/amend`,
      payload: { reason: "x" },
    });
    expect(notSigned.statusCode).toBe(409);

    for (const reason of ["", "   "]) {
      const blank = await call(owner)({ method: "POST", url: `${url}/amend`, payload: { reason, impression: "No" } });
      expect(blank.statusCode).toBe(400);
      expect(blank.json()).toMatchObject({ error: "Amendment reason is required", field: "reason" });
    }
    const missing = await call(owner)({ method: "POST", url: `${url}/amend`, payload: { impression: "No" } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().field).toBe("reason");

    const amended = await call(owner)({
      method: "POST",
      url: `${url}/amend`,
      payload: { reason: "  Wrong side reported  ", impression: "Amended impression." },
    });
    expect(amended.statusCode).toBe(200);
    expect(amended.json()).toMatchObject({
      impression: "Amended impression.",
      isAmended: true,
      amendedBy: owner.userId,
      amendedByName: "Ada Admin",
      amendmentReason: "Wrong side reported",
      amendmentCount: 1,
      isFinalized: false,
      finalizedAt: null,
    });
    // Amending resets finalization: the report can be edited and must be signed again.
    expect((await call(owner)({ method: "PATCH", url, payload: { findings: "Rechecked." } })).statusCode).toBe(200);
    expect((await call(owner)({ method: "POST", url: `${url}/finalize` })).statusCode).toBe(200);
    const second = await call(owner)({ method: "POST", url: `${url}/amend`, payload: { reason: "Second look" } });
    expect(second.json().amendmentCount).toBe(2);

    const versions = (await call(owner)({ method: "GET", url: `${url}/versions` })).json() as ReportVersionSummary[];
    expect(versions.map((v) => [v.versionNumber, v.kind, v.amendmentNumber])).toEqual([
      [1, "generated", null],
      [2, "edited", null],
      [3, "finalized", null],
      [4, "amended", 1],
      [5, "edited", null],
      [6, "finalized", null],
      [7, "amended", 2],
    ]);
    expect(versions[3]).toMatchObject({ reason: "Wrong side reported", createdBy: "Ada Admin" });
    const signed = (await call(owner)({ method: "GET", url: `${url}/versions/3` })).json();
    expect(signed.snapshot).toMatchObject({
      schemaVersion: 1,
      impression: "First signed impression.",
      isFinalized: true,
      finalizedBy: owner.userId,
    });
    expect((await call(owner)({ method: "GET", url: `${url}/versions/99` })).statusCode).toBe(404);
    const stored = await t.deps.database.db
      .select({ n: reportVersions.versionNumber })
      .from(reportVersions)
      .where(eq(reportVersions.reportId, report.id));
    expect(stored).toHaveLength(7);
    expect(await auditActions(report.id)).toContain("report.amended");
  });

  it("deletes only never-finalized reports, softly", async () => {
    const draft = await generate(t.app, t, owner);
    const del = await call(owner)({ method: "DELETE", url: `/api/reports/${draft.id}` });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ success: true, id: draft.id });
    expect((await call(owner)({ method: "GET", url: `/api/reports/${draft.id}` })).statusCode).toBe(404);
    expect((await call(owner)({ method: "DELETE", url: `/api/reports/${draft.id}` })).statusCode).toBe(404);
    const [row] = await t.deps.database.db.select().from(reports).where(eq(reports.id, draft.id));
    expect(row?.deletedAt).toBeInstanceOf(Date);

    const signed = await generate(t.app, t, owner);
    await readyToSign(t, owner, signed.id);
    await call(owner)({ method: "POST", url: `/api/reports/${signed.id}/finalize` });
    const refused = await call(owner)({ method: "DELETE", url: `/api/reports/${signed.id}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(FINALIZED_DELETE_MESSAGE);
    // Amending unsigns it, but it was signed once: still kept.
    await call(owner)({ method: "POST", url: `/api/reports/${signed.id}/amend`, payload: { reason: "r" } });
    expect((await call(owner)({ method: "DELETE", url: `/api/reports/${signed.id}` })).statusCode).toBe(409);
    expect(await auditActions(draft.id)).toContain("report.deleted");
  });

  it("diffs two versions field by field, line by line", async () => {
    const report = await generate(t.app, t, owner);
    await call(owner)({
      method: "PATCH",
      url: `/api/reports/${report.id}`,
      payload: { findings: `${report.findings}\nAdded line.`, impression: "New impression." },
    });
    const diff = (
      await call(owner)({ method: "GET", url: `/api/reports/${report.id}/diff?from=1&to=2` })
    ).json() as ReportDiff;
    const byField = Object.fromEntries(diff.fields.map((f) => [f.field, f]));
    expect(byField.patientName!.changed).toBe(false);
    expect(byField.findings!.changed).toBe(true);
    expect(byField.findings!.parts.some((p) => p.added && p.value.includes("Added line."))).toBe(true);
    expect(byField.findings!.parts.every((p) => p.added || p.removed || !p.value.includes("Added line."))).toBe(true);
    expect(byField.impression!.parts.some((p) => p.removed && p.value === report.impression)).toBe(true);
    const missing = await call(owner)({ method: "GET", url: `/api/reports/${report.id}/diff?from=1&to=9` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().field).toBe("to");
  });
});

describe("round trips", () => {
  it("saves an edit in 6 statements: the version numbered in its own insert, the audit event in one (issue 27)", async () => {
    const report = await generate(t.app, t, owner);
    const url = `/api/reports/${report.id}`;
    expect((await call(owner)({ method: "PATCH", url, payload: { impression: "First." } })).statusCode).toBe(200);
    const statements = await statementsOf(async () => {
      expect((await call(owner)({ method: "PATCH", url, payload: { impression: "Second." } })).statusCode).toBe(200);
    });
    // The report locked; its update; the version, numbered by the insert; the audit event; the report and its
    // critical state read for the answer. A read of the highest version number first is a round trip too many.
    expect(statements.filter((text) => /max\(/.test(text))).toEqual([
      expect.stringMatching(/^insert into "report_versions"/),
    ]);
    expect(statements).toHaveLength(6);
    const versions = (await call(owner)({ url: `${url}/versions` })).json() as ReportVersionSummary[];
    expect(versions.map((v) => [v.versionNumber, v.kind])).toEqual([
      [1, "generated"],
      [2, "edited"],
      [3, "edited"],
    ]);
  });
});

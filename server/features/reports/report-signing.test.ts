import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../../domain/contracts/reports";
import { REAUTH_WINDOW_MS } from "../../../domain/signing";
import { auditEvents, clinics } from "../../db/schema";
import { addPhysicianUser, communicateCritical, reauth } from "../../test-support/signing";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { addSonographer, generate, insertPhysician, insertWorksheet } from "./report-test-fixtures";

// Issue 26: signing is the physician's act. The clock is injected, so re-authentication expiry is exact.
let t: TestApp;
let now = Date.parse("2026-11-24T10:00:00Z");
let admin: SignedIn;
let sono: SignedIn;
let doctor: SignedIn;
let doctorPhysicianId: number;

beforeAll(async () => {
  t = await createTestApp({}, { clock: () => now });
  admin = await registerClinic(t.app, "Signing Clinic");
  sono = await addSonographer(t, admin.clinicId);
  doctorPhysicianId = (await insertPhysician(t, admin.clinicId, "Dr. Ines Dubois")).id;
  doctor = await addPhysicianUser(t, admin.clinicId, doctorPhysicianId, { firstName: "Ines", lastName: "Dubois" });
});
afterAll(() => t.close());

const call = (user: SignedIn) => as(t.app, user);
const finalize = (user: SignedIn, id: number) => call(user)({ method: "POST", url: `/api/reports/${id}/finalize` });

/** A draft assigned to the linked physician. */
async function draftForDoctor(): Promise<Report> {
  const worksheet = await insertWorksheet(t, admin.clinicId);
  const res = await call(sono)({
    method: "POST",
    url: "/api/reports/generate",
    payload: { worksheetId: worksheet.id, physicianId: doctorPhysicianId, logoUrl: null },
  });
  expect(res.statusCode, res.body).toBe(201);
  // Its critical result (the fixture's right ICA) is communicated: these tests are about who signs.
  await communicateCritical(t, doctor, (res.json() as Report).id);
  return res.json() as Report;
}

const run = promisify(execFile);

/** The words of the print page, the PDF file and the DOCX of one report, as a reader would see them. */
async function exportTexts(reportId: number): Promise<Record<string, string>> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "signing-exports-"));
  try {
    const print = (await call(admin)({ url: `/api/reports/${reportId}/pdf` })).body;
    const pdfFile = path.join(work, "r.pdf");
    fs.writeFileSync(pdfFile, (await call(admin)({ url: `/api/reports/${reportId}/pdf-file` })).rawPayload);
    const pdf = (await run("pdftotext", [pdfFile, "-"])).stdout.replace(/\s+/g, " ");
    const docxFile = path.join(work, "r.docx");
    fs.writeFileSync(docxFile, (await call(admin)({ url: `/api/reports/${reportId}/docx` })).rawPayload);
    const xml = (await run("unzip", ["-p", docxFile, "word/document.xml"])).stdout;
    const docx = xml.replace(/<[^>]+>/g, "");
    return { print, pdf, docx };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

async function lastFinalizedAudit(reportId: number) {
  const [row] = await t.deps.database.db
    .select({ actor: auditEvents.actorUserId, details: auditEvents.details })
    .from(auditEvents)
    .where(and(eq(auditEvents.action, "report.finalized"), eq(auditEvents.entityId, String(reportId))))
    .orderBy(desc(auditEvents.id));
  return row;
}

describe("who may sign (measured from outside)", () => {
  it("refuses a sonographer's and an unlinked admin's finalize with 403 and the reason, even re-authenticated", async () => {
    const report = await draftForDoctor();
    for (const user of [sono, admin]) {
      await reauth(t, user);
      const res = await finalize(user, report.id);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe("Only Dr. Ines Dubois can sign this report");
      const patch = await call(user)({
        method: "PATCH",
        url: `/api/reports/${report.id}`,
        payload: { finalize: true },
      });
      expect(patch.statusCode).toBe(403);
    }
    const after = (await call(admin)({ method: "GET", url: `/api/reports/${report.id}` })).json() as Report;
    expect(after.isFinalized).toBe(false);
  });

  it("answers the linked physician 428 reauth_required without re-authentication; signing in is not one", async () => {
    const report = await draftForDoctor();
    const res = await finalize(doctor, report.id);
    expect(res.statusCode).toBe(428);
    expect(res.json().code).toBe("reauth_required");
    const patch = await call(doctor)({
      method: "PATCH",
      url: `/api/reports/${report.id}`,
      payload: { finalize: true },
    });
    expect(patch.statusCode).toBe(428);
  });

  it("signs after POST /api/auth/reauth, and the signer is that physician", async () => {
    const report = await draftForDoctor();
    const re = await call(doctor)({ method: "POST", url: "/api/auth/reauth", payload: { password: doctor.password } });
    expect(re.statusCode, re.body).toBe(200);
    expect(re.json().reauthenticatedUntil).toBe(new Date(now + REAUTH_WINDOW_MS).toISOString());
    const res = await finalize(doctor, report.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      isFinalized: true,
      finalizedBy: doctor.userId,
      finalizedByName: "Ines Dubois",
      finalizedOnBehalf: false,
      finalizedAt: new Date(now).toISOString(),
    });
    const audit = await lastFinalizedAudit(report.id);
    expect(audit).toMatchObject({
      actor: doctor.userId,
      details: { onBehalf: false, physicianId: doctorPhysicianId, signature: "Signed by Ines Dubois" },
    });
  });

  it("refuses a physician signing another physician's report", async () => {
    const report = await generate(t.app, t, admin); // a new physician, not linked to doctor
    await reauth(t, doctor);
    const res = await finalize(doctor, report.id);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toContain("no user account is linked");
  });

  it("refuses a report without a physician", async () => {
    const report = await draftForDoctor();
    await call(admin)({ method: "PATCH", url: `/api/reports/${report.id}`, payload: { physicianId: null } });
    await reauth(t, doctor);
    const res = await finalize(doctor, report.id);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toContain("Choose the report's physician");
  });
});

describe("re-authentication", () => {
  it("covers signatures for 5 minutes, then answers 428 again (injected clock)", async () => {
    const [a, b, c] = [await draftForDoctor(), await draftForDoctor(), await draftForDoctor()];
    await reauth(t, doctor);
    const start = now;
    expect((await finalize(doctor, a.id)).statusCode).toBe(200);
    now = start + REAUTH_WINDOW_MS - 1;
    expect((await finalize(doctor, b.id)).statusCode).toBe(200);
    now = start + REAUTH_WINDOW_MS;
    const stale = await finalize(doctor, c.id);
    expect(stale.statusCode).toBe(428);
    expect(stale.json().code).toBe("reauth_required");
    const status = await call(doctor)({ method: "GET", url: "/api/auth/reauth" });
    expect(status.json()).toMatchObject({ reauthenticatedUntil: null, methods: { password: true, totp: false } });
    await reauth(t, doctor);
    expect((await finalize(doctor, c.id)).statusCode).toBe(200);
  });

  it("refuses a wrong password with 403 on the field, audits it, and keeps the session", async () => {
    const res = await call(doctor)({
      method: "POST",
      url: "/api/auth/reauth",
      payload: { password: "wrong password!" },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ field: "password", error: "That password is not correct" });
    expect((await call(doctor)({ method: "GET", url: "/api/auth/user" })).statusCode).toBe(200);
    const [row] = await t.deps.database.db
      .select({ actor: auditEvents.actorUserId })
      .from(auditEvents)
      .where(eq(auditEvents.action, "auth.reauth_failed"))
      .orderBy(desc(auditEvents.id));
    expect(row?.actor).toBe(doctor.userId);
  });

  it("asks for exactly one of password or code, refuses TOTP when it is off, and 401s without a session", async () => {
    for (const payload of [{}, { password: "x", totp: "123456" }]) {
      expect((await call(doctor)({ method: "POST", url: "/api/auth/reauth", payload })).statusCode).toBe(400);
    }
    const totp = await call(doctor)({ method: "POST", url: "/api/auth/reauth", payload: { totp: "123456" } });
    expect(totp.statusCode).toBe(400);
    expect(totp.json().field).toBe("totp");
    expect((await t.app.inject({ method: "POST", url: "/api/auth/reauth", payload: {} })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url: "/api/auth/reauth" })).statusCode).toBe(401);
  });

  it("belongs to the session: another session of the same user is not re-authenticated", async () => {
    const report = await draftForDoctor();
    await reauth(t, doctor);
    const login = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: doctor.email, password: doctor.password },
    });
    const second = { ...doctor, cookie: `sid=${login.cookies.find((c) => c.name === "sid")!.value}` };
    expect((await finalize(second, report.id)).statusCode).toBe(428);
  });
});

describe("signing on a physician's behalf (clinic setting)", () => {
  it("is off by default; when on, staff sign and every record says on whose behalf", async () => {
    const [clinic] = await t.deps.database.db.select().from(clinics).where(eq(clinics.id, admin.clinicId));
    expect(clinic?.allowSignOnBehalf).toBe(false);
    const put = await call(admin)({
      method: "PUT",
      url: `/api/clinic/${admin.clinicId}`,
      payload: { name: clinic!.name, email: clinic!.email, allowSignOnBehalf: true },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().allowSignOnBehalf).toBe(true);

    const report = await draftForDoctor();
    expect((await finalize(sono, report.id)).statusCode).toBe(428); // still needs a re-authentication
    await reauth(t, sono);
    const res = await finalize(sono, report.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ finalizedBy: sono.userId, finalizedOnBehalf: true });
    expect((await lastFinalizedAudit(report.id))?.details).toMatchObject({
      onBehalf: true,
      signature: "Signed by Sam Sonographer on behalf of Dr. Ines Dubois",
    });

    for (const [format, text] of Object.entries(await exportTexts(report.id))) {
      expect(text, format).toContain("Signed by Sam Sonographer on behalf of Dr. Ines Dubois");
    }

    // The physician's own signature is never called "on behalf".
    const own = await draftForDoctor();
    await reauth(t, doctor);
    expect((await finalize(doctor, own.id)).json().finalizedOnBehalf).toBe(false);

    await call(admin)({
      method: "PUT",
      url: `/api/clinic/${admin.clinicId}`,
      payload: { name: clinic!.name, email: clinic!.email, allowSignOnBehalf: false },
    });
    const refused = await draftForDoctor();
    await reauth(t, sono);
    expect((await finalize(sono, refused.id)).statusCode).toBe(403);
  });

  it("lets an admin who is the physician sign as themselves once their account is linked", async () => {
    const own = await insertPhysician(t, admin.clinicId, "Dr. Ada Admin");
    const link = await call(admin)({
      method: "PATCH",
      url: `/api/physicians/${own.id}`,
      payload: { userId: admin.userId },
    });
    expect(link.statusCode, link.body).toBe(200);
    const report = await generate(t.app, t, admin);
    await call(admin)({ method: "PATCH", url: `/api/reports/${report.id}`, payload: { physicianId: own.id } });
    await communicateCritical(t, admin, report.id);
    await reauth(t, admin);
    const res = await finalize(admin, report.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ finalizedBy: admin.userId, finalizedOnBehalf: false });
  });
});

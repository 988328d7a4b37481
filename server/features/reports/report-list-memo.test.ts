import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report, ReportList } from "../../../domain/contracts/reports";
import { physicians, reportCounters, reports, users } from "../../db/schema";
import { readyToSign } from "../../test-support/signing";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { addSonographer, generate } from "./report-test-fixtures";

// The list memo must never show a list that the database no longer says: every change is visible on the
// very next request, whatever the memo holds, and the session is checked before the memo is consulted.

let t: TestApp;
let owner: SignedIn;
let other: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerClinic(t.app, "Memo Clinic");
  other = await registerClinic(t.app, "Memo Other Clinic");
});
afterAll(() => t.close());

async function get<T>(url: string, user: SignedIn = owner): Promise<T> {
  const res = await as(t.app, user)({ method: "GET", url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}
const list = (search = "", user?: SignedIn) =>
  get<ReportList>(`/api/reports?page=1&pageSize=12&search=${encodeURIComponent(search)}`, user);
const recent = (user?: SignedIn) => get<Report[]>("/api/reports/recent", user);

describe("the next list, search and recent after a change", () => {
  let report: Report;

  it("shows a created report", async () => {
    expect((await list()).total).toBe(0);
    expect(await recent()).toEqual([]);
    report = await generate(t.app, t, owner, { patient: { patientName: "Quentin Memo" } });
    const after = await list();
    expect(after.total).toBe(1);
    expect(after.items[0]!.id).toBe(report.id);
    expect((await recent()).map((r) => r.id)).toEqual([report.id]);
  });

  it("shows an edit, in search too", async () => {
    expect((await list("quentin")).total).toBe(1);
    expect((await list("Zebedee")).total).toBe(0);
    const res = await as(
      t.app,
      owner,
    )({ method: "PATCH", url: `/api/reports/${report.id}`, payload: { patientName: "Zebedee Memo" } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await list("quentin")).total).toBe(0);
    expect((await list("zebedee")).items.map((r) => r.patientName)).toEqual(["Zebedee Memo"]);
    expect((await list()).items[0]!.patientName).toBe("Zebedee Memo");
    expect((await recent())[0]!.patientName).toBe("Zebedee Memo");
  });

  it("shows finalizing and amending", async () => {
    expect((await list()).items[0]!.isFinalized).toBe(false);
    await readyToSign(t, owner, report.id);
    const finalized = await as(t.app, owner)({ method: "POST", url: `/api/reports/${report.id}/finalize` });
    expect(finalized.statusCode, finalized.body).toBe(200);
    expect((await list()).items[0]!.isFinalized).toBe(true);
    expect((await recent())[0]!.finalizedByName).toBe("Ada Admin");
    const amended = await as(
      t.app,
      owner,
    )({
      method: "POST",
      url: `/api/reports/${report.id}/amend`,
      payload: { reason: "Typo", impression: "Amended impression." },
    });
    expect(amended.statusCode, amended.body).toBe(200);
    const item = (await list("zebedee")).items[0]!;
    expect([item.isFinalized, item.isAmended, item.impression]).toEqual([false, true, "Amended impression."]);
  });

  it("shows a deleted report gone", async () => {
    const draft = await generate(t.app, t, owner, { patient: { patientName: "Dora Deleted" } });
    expect((await list("dora")).total).toBe(1);
    expect((await list()).total).toBe(2);
    expect((await recent()).length).toBe(2);
    const res = await as(t.app, owner)({ method: "DELETE", url: `/api/reports/${draft.id}` });
    expect(res.statusCode, res.body).toBe(200);
    expect((await list("dora")).total).toBe(0);
    expect((await list()).total).toBe(1);
    expect((await recent()).map((r) => r.id)).toEqual([report.id]);
  });

  it("shows a renamed physician and a renamed signer", async () => {
    const before = (await list()).items[0]!;
    const db = t.deps.database.db;
    await db.update(physicians).set({ name: "Dr. Renamed" }).where(eq(physicians.id, before.physicianId!));
    expect((await list()).items[0]!.physician?.name).toBe("Dr. Renamed");
    await db.update(users).set({ lastName: "Lovelace" }).where(eq(users.id, owner.userId));
    expect((await recent())[0]!.amendedByName).toBe("Ada Lovelace");
  });

  it("shows a write made straight to the database, as another server process would", async () => {
    const before = await list();
    await t.deps.database.db.insert(reports).values({
      clinicId: owner.clinicId,
      patientName: "Elsewhere Written",
      studyType: "Renal Duplex",
      indication: "-",
      findings: "-",
      impression: "-",
    });
    expect((await list()).total).toBe(before.total + 1);
    expect((await list("elsewhere")).total).toBe(1);
    // Leave the rest of the file one live report, as it expects.
    await t.deps.database.db.delete(reports).where(eq(reports.patientName, "Elsewhere Written"));
    expect((await list("elsewhere")).total).toBe(0);
  });
});

describe("sessions and clinics come before the memo", () => {
  it("never gives one clinic's remembered answer to another clinic at the same version", async () => {
    const mine = await list("memo");
    expect(mine.total).toBe(1);
    await generate(t.app, t, other, { patient: { patientName: "Other Memo" } });
    // Force the same version number in both clinics: only the clinic in the key may tell them apart.
    const db = t.deps.database.db;
    const [own] = await db
      .select({ version: reportCounters.version })
      .from(reportCounters)
      .where(eq(reportCounters.clinicId, owner.clinicId));
    await db.update(reportCounters).set({ version: own!.version }).where(eq(reportCounters.clinicId, other.clinicId));
    const theirs = await list("memo", other);
    expect(theirs.items.map((r) => r.patientName)).toEqual(["Other Memo"]);
    expect((await recent(other)).map((r) => r.patientName)).toEqual(["Other Memo"]);
    expect((await list("memo")).items.map((r) => r.patientName)).toEqual(["Zebedee Memo"]);
  });

  it("refuses a deactivated user on the very next request, though their list is remembered", async () => {
    const sono = await addSonographer(t, owner.clinicId);
    expect((await list("", sono)).total).toBe(1);
    expect((await recent(sono)).length).toBe(1);
    const res = await as(t.app, owner)({ method: "PATCH", url: `/api/staff/${sono.userId}/deactivate` });
    expect(res.statusCode, res.body).toBeLessThan(300);
    for (const url of ["/api/reports?page=1&pageSize=12&search=", "/api/reports/recent"]) {
      expect((await as(t.app, sono)({ method: "GET", url })).statusCode).toBe(401);
    }
  });

  it("refuses a signed-out session on the very next request", async () => {
    const sono = await addSonographer(t, owner.clinicId);
    expect((await list("", sono)).total).toBe(1);
    await as(t.app, sono)({ method: "POST", url: "/api/logout" });
    expect((await as(t.app, sono)({ method: "GET", url: "/api/reports?page=1&pageSize=12&search=" })).statusCode).toBe(
      401,
    );
    expect((await as(t.app, sono)({ method: "GET", url: "/api/reports/recent" })).statusCode).toBe(401);
  });
});

describe("encodings", () => {
  it("answers the same list compressed with brotli or gzip, and plain JSON otherwise", async () => {
    for (let i = 0; i < 3; i++) await generate(t.app, t, owner, { patient: { patientName: `Padding Patient ${i}` } });
    const url = "/api/reports?page=1&pageSize=12";
    const plain = await as(t.app, owner)({ method: "GET", url });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers["content-type"]).toMatch(/^application\/json/);
    const br = await as(t.app, owner)({ method: "GET", url, headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    const gz = await as(t.app, owner)({ method: "GET", url, headers: { "accept-encoding": "gzip, br;q=0" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../domain/contracts/reports";
import { shortcutCategories } from "../../domain/contracts/templates";
import { auditEvents, clinics, users } from "../db/schema";
import { shutdownOcr } from "../ocr/ocr-service";
import { as, createTestApp, registerClinic, signIn, type TestApp } from "../test-support/test-app";
import { DEMO_ADMIN, DEMO_CLINIC, DEMO_PHYSICIAN_ACCOUNTS, DEMO_PHYSICIANS, DEMO_SONOGRAPHER } from "./demo-content";
import { type DemoStart, describeDemoStart, prepareDemo } from "./demo-start";

let t: TestApp;
let start: DemoStart;
const lines: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  start = await prepareDemo(
    { app: t.app, db: t.deps.database.db, dataDir: t.dataDir },
    { progress: (line) => lines.push(line) },
  );
}, 900_000);

afterAll(async () => {
  await t?.close();
  await shutdownOcr();
});

const seeded = () => {
  if (start.status !== "seeded") throw new Error(`demo not seeded: ${JSON.stringify(start)}`);
  return start.result;
};

describe("the demo clinic on a fresh server", () => {
  it("is seeded with progress lines and four accounts whose passwords are random", () => {
    const result = seeded();
    expect(lines[0]).toContain(DEMO_CLINIC.name);
    expect(lines.filter((l) => /report \d+\/12/.test(l))).toHaveLength(12);
    expect(result.accounts.map((a) => [a.role, a.email])).toEqual([
      ["admin", DEMO_ADMIN.email],
      ["sonographer", DEMO_SONOGRAPHER.email],
      ...DEMO_PHYSICIAN_ACCOUNTS.map((p) => ["physician", p.email]),
    ]);
    const passwords = result.accounts.map((x) => x.password);
    for (const password of passwords) expect(password).toMatch(/^[\w-]{24}$/);
    expect(new Set(passwords).size).toBe(passwords.length);
    const printed = describeDemoStart(start);
    for (const account of result.accounts) expect(printed).toContain(account.password);
    expect(printed).toMatch(/shown only this once/);
  });

  it("lets every demo account sign in, with its role, in the demo clinic", async () => {
    for (const account of seeded().accounts) {
      const session = await signIn(t.app, account.email, account.password);
      const me = await as(t.app, session)({ method: "GET", url: "/api/auth/user" });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ email: account.email, role: account.role, clinicName: DEMO_CLINIC.name });
    }
  });

  it("stores no password in clear: argon2id hashes only, and none in the audit trail", async () => {
    const { db } = t.deps.database;
    const rows = await db.select({ hash: users.passwordHash }).from(users);
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(row.hash).toMatch(/^\$argon2id\$/);
    const audit = JSON.stringify(await db.select().from(auditEvents));
    for (const account of seeded().accounts) expect(audit).not.toContain(account.password);
  });

  it("holds a dozen reports made by OCR and the engine, in every state", async () => {
    const admin = seeded().accounts[0]!;
    const session = await signIn(t.app, admin.email, admin.password);
    const res = await as(t.app, session)({ method: "GET", url: "/api/reports?pageSize=100" });
    const { items, total } = res.json() as { items: Report[]; total: number };
    expect(total).toBe(12);
    const state = (r: Report) =>
      r.isAmended ? (r.isFinalized ? "amended-signed" : "amended") : r.isFinalized ? "finalized" : "draft";
    const counts: Record<string, number> = {};
    for (const report of items) counts[state(report)] = (counts[state(report)] ?? 0) + 1;
    expect(counts).toEqual({ draft: 4, finalized: 4, amended: 2, "amended-signed": 2 });
    for (const report of items) {
      expect(report.worksheetId).not.toBeNull();
      expect(report.patientName).not.toBe("");
      expect(["Carotid Duplex", "Lower Limb Venous"]).toContain(report.studyType);
      expect(report.conclusions.length).toBeGreaterThan(0);
      expect(report.physician?.signatureUrl).toMatch(/^\/api\/files\//);
    }
    // Every signature is the report physician's own linked account, never on anyone's behalf.
    const physicians = (await as(t.app, session)({ method: "GET", url: "/api/physicians" })).json() as {
      id: number;
      name: string;
      userId: string | null;
    }[];
    expect(physicians.map((p) => p.name).sort()).toEqual(DEMO_PHYSICIANS.map((p) => p.name).sort());
    for (const report of items.filter((r) => r.finalizedBy)) {
      const physician = physicians.find((p) => p.id === report.physicianId);
      expect(physician?.userId, report.patientName).toBeTruthy();
      expect(report.finalizedBy).toBe(physician?.userId);
      expect(report.finalizedOnBehalf).toBe(false);
      expect(`Dr. ${report.finalizedByName}`).toBe(physician?.name);
    }
    const first = items.find((r) => r.patientName === "HERNANDEZ, Barbara");
    expect(first?.impression).toContain("Right internal carotid artery: 70-99% stenosis");
    expect(first?.amendmentReason).toMatch(/Follow-up recommendation/);
    // Amendments are versioned: generated, finalized, amended, finalized again.
    const versions = await as(t.app, session)({ method: "GET", url: `/api/reports/${first!.id}/versions` });
    expect((versions.json() as { kind: string }[]).map((v) => v.kind).sort()).toEqual(
      ["amended", "finalized", "finalized", "generated"].sort(),
    );
  });

  it("holds physicians with drawn signatures, staff, templates, legend and shortcuts in every category", async () => {
    const admin = seeded().accounts[0]!;
    const get = async (url: string) => {
      const res = await as(t.app, await signIn(t.app, admin.email, admin.password))({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      return res;
    };
    const physicians = (await get("/api/physicians")).json() as { name: string; signatureUrl: string }[];
    expect(physicians).toHaveLength(2);
    for (const p of physicians) {
      const image = await get(p.signatureUrl);
      expect(image.headers["content-type"]).toMatch(/^image\/png/);
    }
    expect((await get("/api/sonographers")).json()).toHaveLength(3);
    const templates = (await get("/api/templates")).json() as Record<string, unknown>[];
    expect(templates).toHaveLength(2);
    expect(templates.filter((x) => x.isDefault)).toHaveLength(1);
    const [a, b] = templates;
    for (const key of ["primaryColor", "fontFamily", "patientInfoLayout", "signaturePosition"]) {
      expect(a![key], key).not.toEqual(b![key]);
    }
    expect((await get("/api/worksheet-templates")).json()).toHaveLength(2);
    const legend = (await get("/api/legend-entries")).json() as { title: string; drawingData: string | null }[];
    expect(legend.map((l) => l.title)).toEqual(expect.arrayContaining(["Red X", "Arrow"]));
    for (const entry of legend) expect(entry.drawingData).toMatch(/^data:image\/png;base64,/);
    const shortcuts = (await get("/api/text-shortcuts")).json() as { category: string }[];
    expect(new Set(shortcuts.map((s) => s.category))).toEqual(new Set(shortcutCategories));
  });

  it("is created once: the next demo start finds it ready and seeds nothing", async () => {
    const again = await prepareDemo({ app: t.app, db: t.deps.database.db, dataDir: t.dataDir });
    expect(again).toEqual({ status: "ready" });
    expect(describeDemoStart(again)).not.toMatch(/password: /);
    expect(await t.deps.database.db.select().from(clinics)).toHaveLength(1);
  });
});

describe("the demo in a database that already holds a clinic", () => {
  it("refuses to seed, so a clinic's real database never gets demo data", async () => {
    const other = await createTestApp();
    try {
      await registerClinic(other.app, "Real Clinic");
      const result = await prepareDemo({ app: other.app, db: other.deps.database.db, dataDir: other.dataDir });
      expect(result.status).toBe("refused");
      expect(await other.deps.database.db.select().from(clinics)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});

import { Document, Packer, Paragraph } from "docx";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reports, storageSnapshots, users } from "../../db/schema";
import { grantPlatformAdmin } from "../../platform/platform-admin";
import { as, createTestApp, multipart, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { saveFile } from "../files/files.service";
import { takeStorageSnapshot } from "./storage-snapshots";

const ADMIN_EMAIL = "webmaster@platform.test";

describe("platform admin panel", () => {
  let t: TestApp;
  let platformAdmin: SignedIn;
  let clinicAdmin: SignedIn;

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.deps.database;
    clinicAdmin = await registerClinic(t.app, "Lakeside Vascular");
    // The platform admin is a clinic user granted the role on the server, with TOTP enrolled.
    platformAdmin = await registerClinic(t.app, "Platform Owner Clinic");
    await db.update(users).set({ email: ADMIN_EMAIL, totpEnabled: true }).where(eq(users.id, platformAdmin.userId));
    await grantPlatformAdmin(db, ADMIN_EMAIL);
  });
  afterAll(() => t.close());

  const adminRoutes = [
    "/api/admin/system-stats",
    "/api/admin/clinic-stats",
    "/api/admin/cost-projection",
    "/api/training",
  ];

  it("refuses everyone else, including clinic admins, and anonymous callers", async () => {
    for (const url of adminRoutes) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(401);
      expect((await as(t.app, clinicAdmin)({ url })).statusCode, url).toBe(403);
    }
  });

  it("refuses a listed admin without two-factor sign-in", async () => {
    const { db } = t.deps.database;
    await db.update(users).set({ totpEnabled: false }).where(eq(users.id, platformAdmin.userId));
    const res = await as(t.app, platformAdmin)({ url: "/api/admin/system-stats" });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/Two-factor/);
    await db.update(users).set({ totpEnabled: true }).where(eq(users.id, platformAdmin.userId));
  });

  it("reports system figures from the database and the file store", async () => {
    const { db } = t.deps.database;
    const before = (await as(t.app, platformAdmin)({ url: "/api/admin/system-stats" })).json();
    await db.insert(reports).values(
      Array.from({ length: 3 }, (_, i) => ({
        clinicId: clinicAdmin.clinicId,
        patientName: `Patient ${i}`,
        studyType: "Carotid Duplex",
        indication: "TIA",
        findings: "Normal.",
        impression: "Normal.",
      })),
    );
    const worksheetBytes = Buffer.alloc(200_000, 7);
    await saveFile(db, t.deps.fileStore, {
      clinicId: clinicAdmin.clinicId,
      kind: "worksheet",
      data: worksheetBytes,
      mimeType: "image/png",
    });
    const stats = (await as(t.app, platformAdmin)({ url: "/api/admin/system-stats" })).json();
    expect(stats.totalReports).toBe(before.totalReports + 3);
    expect(stats.reportsThisMonth).toBe(before.reportsThisMonth + 3);
    expect(stats.worksheetFilesSize).toBe(before.worksheetFilesSize + worksheetBytes.length);
    expect(stats.activeUsers).toBe(2);
    expect(stats.reportDataPercent + stats.worksheetFilesPercent + stats.userDataPercent).toBeCloseTo(100, 0);
    expect(stats.databaseSize).toBeGreaterThan(0);
    expect(stats.encryptionOverhead).toBeGreaterThanOrEqual(0);
    expect(stats.requestsMeasured).toBeGreaterThan(0);
    expect(stats.apiSuccessRate).toBe(100);
  });

  it("computes monthly growth from daily snapshots", async () => {
    const { db } = t.deps.database;
    await db.delete(storageSnapshots);
    const now = new Date();
    const tenDaysAgo = new Date(now.getTime() - 10 * 86_400_000).toISOString().slice(0, 10);
    await takeStorageSnapshot(t.deps, now);
    const [today] = await db.select().from(storageSnapshots);
    // Ten days ago the platform held half as much: growth is 100% per 10 days, 300% per 30.
    await db.insert(storageSnapshots).values({
      day: tenDaysAgo,
      databaseBytes: Math.round(today!.databaseBytes / 2),
      fileBytes: Math.round(today!.fileBytes / 2),
    });
    const stats = (await as(t.app, platformAdmin)({ url: "/api/admin/system-stats" })).json();
    expect(stats.growthBasisDays).toBe(10);
    expect(stats.monthlyGrowth).toBeCloseTo(300, 0);
  });

  it("lists every clinic with its activity", async () => {
    const res = await as(t.app, platformAdmin)({ url: "/api/admin/clinic-stats" });
    expect(res.statusCode).toBe(200);
    const lakeside = res.json().find((c: { name: string }) => c.name === "Lakeside Vascular");
    expect(lakeside).toMatchObject({
      location: "Springfield, IL",
      reportsLast30Days: 3,
      activeUsers: 1,
      status: "Active",
    });
    expect(lakeside.lastUsed).toBeTruthy();
  });

  it("projects costs from configured unit prices and raises alerts past the threshold", async () => {
    await t.deps.database.db.delete(storageSnapshots); // no growth history: only the price threshold can alert
    const cheap = (await as(t.app, platformAdmin)({ url: "/api/admin/cost-projection" })).json();
    expect(cheap.totalEstimated).toBeCloseTo(cheap.databaseCost + cheap.storageCost + cheap.aiCost, 2);
    expect(cheap.aiCost).toBe(0); // no language model configured
    expect(cheap.alerts).toBe(0);
    const strict = await createTestApp({ COST_ALERT_MONTHLY_USD: "0" });
    const admin = await registerClinic(strict.app);
    await strict.deps.database.db
      .update(users)
      .set({ email: ADMIN_EMAIL, totpEnabled: true })
      .where(eq(users.id, admin.userId));
    await grantPlatformAdmin(strict.deps.database.db, ADMIN_EMAIL);
    const alerted = (await as(strict.app, admin)({ url: "/api/admin/cost-projection" })).json();
    expect(alerted.alerts).toBeGreaterThan(0);
    expect(alerted.alertMessages[0]).toMatch(/above the \$0 threshold/);
    await strict.close();
  });

  it("stores training pairs with the report's text extracted, and lists them", async () => {
    const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: "#fff" } })
      .png()
      .toBuffer();
    const docx = await Packer.toBuffer(
      new Document({ sections: [{ children: [new Paragraph("IMPRESSION: 50-69% right ICA stenosis.")] }] }),
    );
    const upload = (parts: Parameters<typeof multipart>[0]) => {
      const body = multipart(parts);
      return as(t.app, platformAdmin)({ method: "POST", url: "/api/training", ...body });
    };
    const ok = await upload([
      { name: "worksheet", filename: "ws.png", contentType: "image/png", data: png },
      { name: "report", filename: "report.docx", contentType: "application/octet-stream", data: docx },
      { name: "category", value: "Carotid Duplex" },
      { name: "complexityLevel", value: "abnormal" },
    ]);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().reportTextLength).toBeGreaterThan(20);

    const missing = await upload([{ name: "worksheet", filename: "ws.png", contentType: "image/png", data: png }]);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe("Please upload both files and select category and complexity level");

    const badType = await upload([
      { name: "worksheet", filename: "ws.png", contentType: "image/png", data: png },
      { name: "report", filename: "r.pdf", contentType: "application/pdf", data: Buffer.from("MZ\x90\x00 not a pdf") },
      { name: "category", value: "Carotid Duplex" },
      { name: "complexityLevel", value: "normal" },
    ]);
    expect(badType.statusCode).toBe(415);

    const list = (await as(t.app, platformAdmin)({ url: "/api/training" })).json();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ category: "Carotid Duplex", complexityLevel: "abnormal" });
  });
});

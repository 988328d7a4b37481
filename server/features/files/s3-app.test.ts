import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clinics, reports } from "../../db/schema";
import { shutdownOcr } from "../../ocr/ocr-service";
import { startTestS3, type TestS3 } from "../../test-support/s3-server";
import { as, createTestApp, multipart, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { testImage } from "../clinic/clinic-test-support";
import { sampleReportText } from "../exports/export-samples";

/**
 * The whole app with FILE_STORE=s3 against an S3-compatible server started here: a worksheet upload, a logo and
 * a PDF export that draws the logo all go through the bucket, sealed, and nothing lands in DATA_DIR/files.
 */
let s3: TestS3;
let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  s3 = await startTestS3();
  t = await createTestApp(s3.env);
  admin = await registerClinic(t.app, "Bucket Clinic");
}, 180_000);

afterAll(async () => {
  await t?.close();
  await s3?.close();
  await shutdownOcr();
});

const objectsInBucket = () =>
  fs
    .readdirSync(s3.directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.startsWith("."))
    .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name)));

describe("FILE_STORE=s3", () => {
  it("uploads a worksheet and exports a report with the clinic's logo through the bucket", async () => {
    const request = as(t.app, admin);
    const sheet = await fs.promises.readFile(
      path.join(import.meta.dirname, "../../../fixtures/worksheets/ws-clean-001.png"),
    );
    const uploaded = await request({
      method: "POST",
      url: "/api/worksheets/upload",
      ...multipart([{ name: "worksheet", filename: "sheet.png", contentType: "image/png", data: sheet }]),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const image = await request({ method: "GET", url: uploaded.json().fileUrl });
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload.subarray(0, 4).toString("latin1")).toMatch(/PNG|\xff\xd8/);

    const logo = await request({
      method: "POST",
      url: "/api/upload-logo",
      ...multipart([
        { name: "logo", filename: "logo.png", contentType: "image/png", data: await testImage("png", 300, 100) },
      ]),
    });
    expect(logo.statusCode, logo.body).toBe(201);
    await t.deps.database.db.update(clinics).set({ logoUrl: logo.json().url }).where(eq(clinics.id, admin.clinicId));

    const [report] = await t.deps.database.db
      .insert(reports)
      .values({ ...sampleReportText, clinicId: admin.clinicId })
      .returning({ id: reports.id });
    const pdf = await request({ method: "GET", url: `/api/reports/${report!.id}/pdf-file` });
    expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    // The PDF embeds the logo's image, read back from the bucket.
    expect(pdf.rawPayload.includes(Buffer.from("/Subtype /Image"))).toBe(true);

    // Worksheet original, its page image and the logo: in the bucket, sealed; nothing in the data directory.
    const objects = objectsInBucket();
    expect(objects.length).toBeGreaterThanOrEqual(3);
    expect(objects.some((bytes) => bytes.includes(sheet.subarray(0, 64)))).toBe(false);
    expect(fs.existsSync(path.join(t.dataDir, "files"))).toBe(false);
    await t.deps.database.db.delete(reports).where(eq(reports.id, report!.id));
  });
});

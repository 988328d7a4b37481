import path from "node:path";
import { count, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, storedFiles, users, worksheets } from "../../db/schema";
import { shutdownOcr } from "../../ocr/ocr-service";
import { as, createTestApp, multipart, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import {
  elevenMegabytes,
  elfExecutable,
  encryptedPdf,
  filesOnDisk,
  fixture,
  pdfWithoutPages,
  truncatedPng,
} from "./worksheet-test-files";

let t: TestApp;
let owner: SignedIn;
let stranger: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerClinic(t.app, "Owner Clinic");
  stranger = await registerClinic(t.app, "Other Clinic");
});

afterAll(async () => {
  await t?.close();
  await shutdownOcr();
});

const upload = (user: { cookie: string } | null, data: Buffer, filename = "sheet.png", contentType = "image/png") => {
  const body = multipart([{ name: "worksheet", filename, contentType, data }]);
  const options = { method: "POST" as const, url: "/api/worksheets/upload", ...body };
  return user ? as(t.app, user)(options) : t.app.inject(options);
};

async function stored() {
  const { db } = t.deps.database;
  const [files] = await db.select({ n: count() }).from(storedFiles);
  const [sheets] = await db.select({ n: count() }).from(worksheets);
  return { files: files!.n, worksheets: sheets!.n, onDisk: filesOnDisk(path.join(t.dataDir, "files")) };
}

describe("POST /api/worksheets/upload", () => {
  it("stores an image encrypted, with its page image, and answers the worksheet record", async () => {
    const png = await fixture("ws-clean-003.png");
    const before = await stored();
    const res = await upload(owner, png, "Mei Thompson scan.png");
    expect(res.statusCode, res.body).toBe(201);
    const record = res.json();
    expect(record).toMatchObject({
      originalName: "Mei Thompson scan.png",
      fileUrl: `/api/worksheets/${record.id}/image`,
      pageCount: 1,
      ocrProcessed: false,
      ocrStatus: "pending",
      ocrError: null,
      patientName: null,
      patientDob: null,
      examDate: null,
      scanType: null,
    });
    expect(record.filename).toMatch(/^worksheet-\d+\.png$/);
    expect(Date.parse(record.uploadedAt)).toBeGreaterThan(Date.now() - 60_000);
    const after = await stored();
    expect(after).toEqual({ files: before.files + 2, worksheets: before.worksheets + 1, onDisk: before.onDisk + 2 });

    const { db } = t.deps.database;
    const row = (await db.select().from(worksheets).where(eq(worksheets.id, record.id)))[0]!;
    expect(row.clinicId).toBe(owner.clinicId);
    const kinds = await db.select({ kind: storedFiles.kind, clinicId: storedFiles.clinicId }).from(storedFiles);
    expect(kinds).toEqual(
      expect.arrayContaining([
        { kind: "worksheet", clinicId: owner.clinicId },
        { kind: "worksheet-page", clinicId: owner.clinicId },
      ]),
    );
    // Encrypted at rest: the original's bytes never appear in the store.
    const [original] = await db.select().from(storedFiles).where(eq(storedFiles.id, row.fileId));
    const sealed = await import("node:fs/promises").then((fs) =>
      fs.readFile(path.join(t.dataDir, "files", original!.storageKey.slice(0, 2), original!.storageKey)),
    );
    expect(sealed.includes(png.subarray(0, 64))).toBe(false);

    const audit = await db.select().from(auditEvents).where(eq(auditEvents.action, "worksheet.uploaded"));
    expect(audit.at(-1)).toMatchObject({ entityId: String(record.id), clinicId: owner.clinicId });
    expect(JSON.stringify(audit.at(-1)!.details)).not.toContain("Thompson");
  });

  it("rasterises a PDF at upload and serves its first page as an image", async () => {
    const res = await upload(owner, await fixture("ws-clean-007.pdf"), "scan.pdf", "application/pdf");
    expect(res.statusCode, res.body).toBe(201);
    const record = res.json();
    expect(record.filename).toMatch(/\.pdf$/);
    expect(record.pageCount).toBe(1);
    const image = await as(t.app, owner)({ method: "GET", url: record.fileUrl });
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toMatch(/^image\/(png|jpeg)$/);
    const meta = await sharp(image.rawPayload).metadata();
    expect(meta.height! / meta.width!).toBeCloseTo(297 / 210, 1);
  });

  it("sets a phone photo upright from its EXIF orientation", async () => {
    const sideways = await sharp({ create: { width: 60, height: 40, channels: 3, background: "#fff" } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const res = await upload(owner, sideways, "photo.jpg", "image/jpeg");
    expect(res.statusCode, res.body).toBe(201);
    const image = await as(t.app, owner)({ method: "GET", url: res.json().fileUrl });
    const meta = await sharp(image.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([40, 60]);
  });

  it.each([
    [
      "a renamed executable",
      elfExecutable,
      "setup.png",
      415,
      /Unsupported file type: accepted types are jpg, png, gif, webp, pdf/,
    ],
    ["a truncated PNG", truncatedPng, "half.png", 400, /image could not be read/],
    ["an 11 MB file", elevenMegabytes, "big.png", 413, /^File size must be less than 10 MB$/],
    ["a zero-byte file", () => Buffer.alloc(0), "empty.png", 400, /empty/],
    ["a PDF with no pages", pdfWithoutPages, "blank.pdf", 400, /no pages/],
    ["an encrypted PDF", encryptedPdf, "locked.pdf", 400, /password-protected/],
  ] as const)("refuses %s with a clear 4xx and stores nothing", async (_name, make, filename, status, message) => {
    const before = await stored();
    const res = await upload(owner, await make(), filename);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().error).toMatch(message);
    expect(await stored()).toEqual(before);
  });

  it("needs the worksheet field", async () => {
    const body = multipart([{ name: "file", filename: "a.png", contentType: "image/png", data: Buffer.from("x") }]);
    const res = await as(t.app, owner)({ method: "POST", url: "/api/worksheets/upload", ...body });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe("file");
    const none = await as(t.app, owner)({ method: "POST", url: "/api/worksheets/upload", ...multipart([]) });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ field: "worksheet", error: "Missing file: worksheet" });
    const json = await as(t.app, owner)({ method: "POST", url: "/api/worksheets/upload", payload: { a: 1 } });
    expect(json.statusCode).toBe(415);
  });

  it("is refused without a session (401) and to a role without the permission (403)", async () => {
    const png = await fixture("ws-clean-003.png");
    expect((await upload(null, png)).statusCode).toBe(401);
    const { db } = t.deps.database;
    const other = await registerClinic(t.app, "Role Clinic");
    await db.update(users).set({ role: "viewer" }).where(eq(users.id, other.userId));
    const before = await stored();
    const res = await upload(other, png);
    expect(res.statusCode).toBe(403);
    expect(await stored()).toEqual(before);
  });
});

describe("GET /api/worksheets/:id and /image", () => {
  let id: number;
  beforeAll(async () => {
    id = (await upload(owner, await fixture("ws-clean-003.png"))).json().id;
  });

  it("serves the page image privately: no-store, nosniff", async () => {
    const res = await as(t.app, owner)({ method: "GET", url: `/api/worksheets/${id}/image` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/png");
    expect(res.headers["cache-control"]).toContain("no-store");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect((await sharp(res.rawPayload).metadata()).width).toBe(1654);
  });

  it("answers the worksheet with no OCR result before OCR, and audits the read", async () => {
    const res = await as(t.app, owner)({ method: "GET", url: `/api/worksheets/${id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, ocrStatus: "pending", ocrResult: null });
    const { db } = t.deps.database;
    const audit = await db.select().from(auditEvents).where(eq(auditEvents.action, "worksheet.viewed"));
    expect(audit.at(-1)).toMatchObject({ entityId: String(id), actorUserId: owner.userId });
  });

  it.each(["", "/image", "/ocr"])("answers 404 on %s to another clinic and 401 without a session", async (suffix) => {
    const method = suffix === "/ocr" ? "POST" : "GET";
    const other = await as(t.app, stranger)({ method, url: `/api/worksheets/${id}${suffix}` });
    expect(other.statusCode).toBe(404);
    expect(other.body).not.toContain("Thompson");
    const anonymous = await t.app.inject({ method, url: `/api/worksheets/${id}${suffix}` });
    expect(anonymous.statusCode).toBe(401);
    const missing = await as(t.app, owner)({ method, url: `/api/worksheets/999999${suffix}` });
    expect(missing.statusCode).toBe(404);
  });

  it.each(["", "/image", "/ocr"])("names the id when it is not a number (%s)", async (suffix) => {
    const method = suffix === "/ocr" ? "POST" : "GET";
    const res = await as(t.app, owner)({ method, url: `/api/worksheets/abc${suffix}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe("id");
  });

  it("refuses a role without the permission (403)", async () => {
    const { db } = t.deps.database;
    const other = await registerClinic(t.app, "Viewer Clinic");
    const otherId = (await upload(other, await fixture("ws-clean-003.png"))).json().id;
    await db.update(users).set({ role: "viewer" }).where(eq(users.id, other.userId));
    for (const [method, suffix] of [
      ["GET", ""],
      ["GET", "/image"],
      ["POST", "/ocr"],
    ] as const) {
      const res = await as(t.app, other)({ method, url: `/api/worksheets/${otherId}${suffix}` });
      expect(res.statusCode, suffix).toBe(403);
    }
  });
});

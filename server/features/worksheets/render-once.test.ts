import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { count, eq, inArray } from "drizzle-orm";
import PDFDocument from "pdfkit";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { storedFiles, worksheets } from "../../db/schema";
import { loaderPool, readerPool } from "../../ocr/ocr-runner";
import { shutdownOcr } from "../../ocr/ocr-service";
import { type FileStore, LocalFileStore } from "../../platform/file-store";
import { startTestS3 } from "../../test-support/s3-server";
import { as, createTestApp, multipart, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { sweepUnreferencedFiles } from "../files/files.service";
import { filesOnDisk, fixture } from "./worksheet-test-files";
import { pagesForOcr } from "./worksheets.service";

/**
 * Render once (issue 30 item 1): a PDF's pages are rendered and checked at upload, stored encrypted beside the
 * original, and OCR reads those: the loading child (where pdf.js renders) is not asked to load the file again.
 */

/** A local store that can be told to fail its nth write from now: a store error in the middle of an upload. */
class FlakyStore implements FileStore {
  private failAt = 0;
  constructor(private readonly inner: LocalFileStore) {}
  failOnPut(n: number) {
    this.failAt = n;
  }
  async put(plain: Buffer) {
    if (this.failAt > 0 && --this.failAt === 0) throw new Error("disk full");
    return this.inner.put(plain);
  }
  get = (key: string) => this.inner.get(key);
  remove = (name: string) => this.inner.remove(name);
  list = () => this.inner.list();
  encrypt = (plain: Buffer) => this.inner.encrypt(plain);
  decrypt = (sealed: Buffer) => this.inner.decrypt(sealed);
  get location() {
    return this.inner.location;
  }
}

/** A three-page PDF: three worksheets' scans, one a page, as a clinic's scanner makes them. */
async function threePagePdf(): Promise<Buffer> {
  const doc = new PDFDocument({ size: "A4", margin: 0, autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on("end", () => resolve(Buffer.concat(chunks))));
  for (const name of ["ws-clean-003.png", "ws-clean-001.png", "ws-clean-002.png"]) {
    doc.addPage();
    doc.image(await fixture(name), 0, 0, { width: doc.page.width, height: doc.page.height });
  }
  doc.end();
  return done;
}

let t: TestApp;
let owner: SignedIn;
let store: FlakyStore;
let storeRoot: string;

beforeAll(async () => {
  storeRoot = fs.mkdtempSync(path.join(os.tmpdir(), "render-once-files-"));
  store = new FlakyStore(new LocalFileStore(storeRoot, Buffer.alloc(32, 7)));
  t = await createTestApp({}, { fileStore: store });
  owner = await registerClinic(t.app, "Render Once Clinic");
});

afterAll(async () => {
  vi.restoreAllMocks();
  await t?.close();
  await shutdownOcr();
  fs.rmSync(storeRoot, { recursive: true, force: true });
});

const upload = (data: Buffer) =>
  as(
    t.app,
    owner,
  )({
    method: "POST",
    url: "/api/worksheets/upload",
    ...multipart([{ name: "worksheet", filename: "three.pdf", contentType: "application/pdf", data }]),
  });

async function storedCount() {
  const [files] = await t.deps.database.db.select({ n: count() }).from(storedFiles);
  return { files: files!.n, onDisk: filesOnDisk(storeRoot) };
}

describe("a multi-page PDF", () => {
  let pdf: Buffer;
  let worksheetId: number;
  let pageIds: number[];

  beforeAll(async () => {
    pdf = await threePagePdf();
  });

  it("is rendered at upload, every page stored encrypted beside the original", async () => {
    const res = await upload(pdf);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().pageCount).toBe(3);
    worksheetId = res.json().id;
    const { db } = t.deps.database;
    const [row] = await db.select().from(worksheets).where(eq(worksheets.id, worksheetId));
    pageIds = row!.pageFileIds ?? [];
    expect(pageIds).toHaveLength(3);
    // Page 1 is the page image the clinician sees (kept as rendered); pages 2 and 3 are files of their own.
    expect(pageIds[0]).toBe(row!.imageFileId);
    const files = await db.select().from(storedFiles).where(inArray(storedFiles.id, pageIds));
    expect(files).toHaveLength(3);
    for (const file of files) {
      expect(file).toMatchObject({ clinicId: owner.clinicId, kind: "worksheet-page", mimeType: "image/png" });
      const page = await store.get(file.storageKey);
      const meta = await sharp(page).metadata();
      expect(meta.format).toBe("png");
      expect(meta.height! / meta.width!).toBeCloseTo(297 / 210, 1);
      // Encrypted at rest: the PNG's bytes are not in the file on disk.
      const sealed = fs.readFileSync(path.join(storeRoot, file.storageKey.slice(0, 2), file.storageKey));
      expect(sealed.includes(page.subarray(0, 32))).toBe(false);
    }
  });

  it("is read by OCR from the stored pages: the file is not rendered again", async () => {
    const loads = vi.spyOn(loaderPool(), "run");
    const reads = vi.spyOn(readerPool(), "run");
    const res = await as(t.app, owner)({ method: "POST", url: `/api/worksheets/${worksheetId}/ocr` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().ocrResult.pageCount).toBe(3);
    // Nothing went to the loading child, where the PDF would be rasterised.
    expect(loads).not.toHaveBeenCalled();
    // The reading child got the stored pages, byte for byte, in order.
    const { db } = t.deps.database;
    const files = await db.select().from(storedFiles).where(inArray(storedFiles.id, pageIds));
    const stored = await Promise.all(pageIds.map((id) => store.get(files.find((f) => f.id === id)!.storageKey)));
    const request = reads.mock.calls.find(([r]) => r.kind === "recognize")![0];
    expect(request.kind === "recognize" && request.pages.map((p) => Buffer.from(p))).toEqual(stored);
    loads.mockRestore();
    reads.mockRestore();
  }, 600_000);

  it("leaves no page file behind when the upload fails after some pages were stored", async () => {
    const before = await storedCount();
    // Writes: the original, page 1 (the page image), page 2, then page 3 fails.
    store.failOnPut(4);
    const res = await upload(pdf);
    store.failOnPut(0);
    expect(res.statusCode).toBe(500);
    expect(await storedCount()).toEqual(before);
  });

  it("goes with its clinic: a deleted clinic's page files are swept from the store", async () => {
    const { db } = t.deps.database;
    const other = await registerClinic(t.app, "Closing Clinic");
    const res = await as(
      t.app,
      other,
    )({
      method: "POST",
      url: "/api/worksheets/upload",
      ...multipart([{ name: "worksheet", filename: "three.pdf", contentType: "application/pdf", data: pdf }]),
    });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await db.select().from(worksheets).where(eq(worksheets.id, res.json().id));
    const files = await db.select().from(storedFiles).where(inArray(storedFiles.id, row!.pageFileIds!));
    expect(files).toHaveLength(3);
    const onDisk = (key: string) => fs.existsSync(path.join(storeRoot, key.slice(0, 2), key));
    expect(files.every((f) => onDisk(f.storageKey))).toBe(true);
    await t.deps.database.executeSql("delete from clinics where id = $1", [other.clinicId]);
    await sweepUnreferencedFiles(db, store, 0);
    expect(files.filter((f) => onDisk(f.storageKey))).toEqual([]);
    // The first clinic's pages are untouched.
    const kept = await db.select().from(storedFiles).where(inArray(storedFiles.id, pageIds));
    expect(kept.every((f) => onDisk(f.storageKey))).toBe(true);
  });
});

describe("a multi-page PDF with FILE_STORE=s3", () => {
  it("has its pages stored sealed in the bucket, and OCR's pages come from there without rendering", async () => {
    const s3 = await startTestS3();
    const app = await createTestApp(s3.env);
    try {
      const user = await registerClinic(app.app, "Bucket Pages Clinic");
      const pdf = await threePagePdf();
      const res = await as(
        app.app,
        user,
      )({
        method: "POST",
        url: "/api/worksheets/upload",
        ...multipart([{ name: "worksheet", filename: "three.pdf", contentType: "application/pdf", data: pdf }]),
      });
      expect(res.statusCode, res.body).toBe(201);
      const { db } = app.deps.database;
      const [row] = await db.select().from(worksheets).where(eq(worksheets.id, res.json().id));
      expect(row!.pageFileIds).toHaveLength(3);
      // The original and three pages (page 1 is the page image), every one sealed: no PNG signature in the bucket.
      const objects = fs
        .readdirSync(s3.directory, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && !entry.name.startsWith("."))
        .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name)));
      expect(await app.deps.fileStore.list()).toHaveLength(4);
      for (const object of objects) expect(object.subarray(0, 8).toString("latin1")).not.toContain("PNG");
      const loads = vi.spyOn(loaderPool(), "run");
      const pages = await pagesForOcr({ db, store: app.deps.fileStore }, user.clinicId, row!);
      expect(loads).not.toHaveBeenCalled();
      loads.mockRestore();
      expect(pages).toHaveLength(3);
      for (const page of pages) expect((await sharp(page).metadata()).format).toBe("png");
    } finally {
      await app.close();
      await s3.close();
    }
  }, 180_000);
});

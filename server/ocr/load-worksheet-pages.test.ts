import { readFile } from "node:fs/promises";
import path from "node:path";
import PDFDocument from "pdfkit";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { hugeImagePdf, pngBomb } from "../test-support/hostile-files";
import { MAX_PDF_IMAGE_PIXELS } from "./decode-budget";
import { loadWorksheetPages } from "./load-worksheet-pages";
import { OcrInputError } from "./ocr-input-error";

const fixture = (name: string) => readFile(path.join(import.meta.dirname, "../../fixtures/worksheets", name));

function pdfWith(options: PDFKit.PDFDocumentOptions): Promise<Buffer> {
  const doc = new PDFDocument(options);
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on("end", () => resolve(Buffer.concat(chunks))));
  doc.text("Patient Name: Test");
  doc.end();
  return done;
}

/** A well-formed PDF whose page tree is empty, built by hand with a correct cross-reference table. */
function pdfWithoutPages(): Buffer {
  const objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

async function expectInputError(file: Buffer, reason: OcrInputError["reason"]) {
  const error = await loadWorksheetPages(file).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OcrInputError);
  expect((error as OcrInputError).reason).toBe(reason);
  expect((error as OcrInputError).message.length).toBeGreaterThan(10);
}

describe("loadWorksheetPages", () => {
  it("rasterises every page of a PDF to PNG", async () => {
    const pages = await loadWorksheetPages(await fixture("ws-clean-000.pdf"));
    expect(pages).toHaveLength(1);
    const meta = await sharp(pages[0]!).metadata();
    expect(meta.format).toBe("png");
    // A4 at about 200 dpi.
    expect(meta.width).toBeGreaterThan(1500);
    expect(meta.height! / meta.width!).toBeCloseTo(297 / 210, 1);
  });

  it("normalises a PNG and applies EXIF orientation", async () => {
    const [page] = await loadWorksheetPages(await fixture("ws-clean-001.png"));
    expect((await sharp(page!).metadata()).width).toBe(1654);
    // Orientation 6: stored landscape, displayed portrait.
    const sideways = await sharp({ create: { width: 60, height: 40, channels: 3, background: "#fff" } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const [upright] = await loadWorksheetPages(sideways);
    const meta = await sharp(upright!).metadata();
    expect([meta.width, meta.height]).toEqual([40, 60]);
  });

  it("rejects a truncated PNG", async () => {
    const png = await fixture("ws-clean-001.png");
    await expectInputError(png.subarray(0, Math.floor(png.length / 2)), "corrupt_image");
  });

  it("rejects an empty file", async () => {
    await expectInputError(Buffer.alloc(0), "empty");
  });

  it("rejects a renamed executable", async () => {
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(4000, 0x90)]);
    await expectInputError(elf, "unsupported_type");
    await expectInputError(
      Buffer.from("MZ\x90\x00 This program cannot be run in DOS mode", "latin1"),
      "unsupported_type",
    );
  });

  it("rejects a PDF with no pages", async () => {
    await expectInputError(pdfWithoutPages(), "no_pages");
  });

  it("rejects an encrypted PDF", async () => {
    await expectInputError(await pdfWith({ userPassword: "secret", ownerPassword: "owner" }), "encrypted_pdf");
  });

  it("rejects a corrupt PDF", async () => {
    const pdf = await pdfWith({});
    await expectInputError(Buffer.concat([pdf.subarray(0, 20), Buffer.alloc(200, 0x41)]), "corrupt_pdf");
  });

  describe("decoding budget (decompression bombs refused before decoding)", () => {
    it.each([
      ["a 30000x30000 image", hugeImagePdf(30_000, 30_000)],
      ["a small image whose soft mask is 30000x30000", hugeImagePdf(30_000, 30_000, { softMask: true })],
      ["a 30000x30000 image with its size in indirect objects", hugeImagePdf(30_000, 30_000, { indirectSize: true })],
    ])("refuses a PDF holding %s, with the size in words", async (_, pdf) => {
      await expectInputError(pdf, "too_large");
      const error = await loadWorksheetPages(pdf).catch((e: OcrInputError) => e);
      expect((error as OcrInputError).message).toContain("30,000 × 30,000 pixels");
    });

    it("refuses a PNG that declares 30000x30000 pixels", async () => {
      await expectInputError(pngBomb(30_000, 30_000), "too_large");
    });

    it("still renders a PDF whose image is within the budget", async () => {
      const side = Math.floor(Math.sqrt(MAX_PDF_IMAGE_PIXELS / 16));
      const pages = await loadWorksheetPages(hugeImagePdf(side, side));
      expect(pages).toHaveLength(1);
      expect((await sharp(pages[0]!).stats()).channels[0]!.mean).toBe(0);
    });

    it("renders only the pages asked for, reporting each", async () => {
      const doc = new PDFDocument();
      const chunks: Buffer[] = [];
      doc.on("data", (c: Buffer) => chunks.push(c));
      const done = new Promise<Buffer>((resolve) => doc.on("end", () => resolve(Buffer.concat(chunks))));
      doc.text("one").addPage().text("two").addPage().text("three");
      doc.end();
      const pdf = await done;
      let reported = 0;
      expect(await loadWorksheetPages(pdf, undefined, () => reported++)).toHaveLength(3);
      // Each page rendered is reported: the loading child's time limit is per page.
      expect(reported).toBe(3);
      expect(await loadWorksheetPages(pdf, 1)).toHaveLength(1);
    });
  });
});

import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import PDFDocument from "pdfkit";
import { afterAll, describe, expect, it, vi } from "vitest";
import { buildDocumentView, type DocumentImage } from "../../../domain/exports/report-document";
import { resolveTemplateSettings } from "../../../domain/exports/template-settings";
import { sampleLogoPng, sampleReportText, sampleSignaturePng } from "./export-samples";
import { pdfImageCacheSize } from "./pdf-images";
import { renderPdf } from "./render-pdf";

/**
 * Logos and signatures are decoded and embedded once per render thread, not once per document (issue 27), and a
 * changed image is embedded anew: the cache is keyed by the image bytes' SHA-256.
 */

const run = promisify(execFile);
const work = fs.mkdtempSync(path.join(os.tmpdir(), "pdf-images-test-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const png = (data: Buffer): DocumentImage => ({
  mimeType: "image/png",
  data: new Uint8Array(data),
  width: 400,
  height: 150,
});

function signedView(signature: DocumentImage, logo: DocumentImage) {
  return buildDocumentView(
    {
      report: {
        id: 11,
        ...sampleReportText,
        isFinalized: true,
        finalizedAt: new Date("2026-11-03T09:30:00Z"),
        isAmended: false,
        amendedAt: null,
        amendmentReason: null,
        generatedAt: new Date("2026-11-02T15:45:00Z"),
      },
      template: resolveTemplateSettings(null),
      clinic: { name: "Image Clinic", address: null, phone: null, logo },
      physician: { name: "Dr. Maria Chen", title: "MD", specialty: null, signature },
      signedBy: "Dr. Maria Chen",
      amendedBy: null,
      patientId: null,
    },
    { timeZone: "UTC" },
  );
}

/** pdfimages' list of a PDF's images: type, size, colour and whether each is a soft mask. */
async function imagesOf(pdf: Buffer, name: string) {
  const file = path.join(work, name);
  fs.writeFileSync(file, pdf);
  await run("qpdf", ["--check", file]); // rejects on a damaged file
  const list = (await run("pdfimages", ["-list", file])).stdout;
  return list
    .split("\n")
    .slice(2)
    .filter((l) => l.trim())
    .map((l) => l.trim().split(/\s+/).slice(2, 8).join(" "));
}

describe("PDF images", () => {
  it("decodes the signature and the logo once for two documents, and the second document has the same images", async () => {
    const signature = png(await sampleSignaturePng());
    const logo = png(await sampleLogoPng("#0f766e"));
    const opened = vi.spyOn(PDFDocument.prototype as unknown as { openImage: () => unknown }, "openImage");
    const first = await renderPdf(signedView(signature, logo));
    const second = await renderPdf(signedView({ ...signature }, { ...logo }));
    // Two images in the first document, none opened again for the second (without the cache: four).
    expect(opened).toHaveBeenCalledTimes(2);
    opened.mockRestore();
    const firstImages = await imagesOf(first, "first.pdf");
    // Each PNG with transparency is an image and its soft mask, both at the PNG's own size.
    expect(firstImages.filter((l) => l.startsWith("image"))).toHaveLength(2);
    expect(firstImages.filter((l) => l.startsWith("smask"))).toHaveLength(2);
    expect(await imagesOf(second, "second.pdf")).toEqual(firstImages);
    expect(pdfImageCacheSize().bytes).toBeGreaterThan(0);
  });

  it("embeds a changed image anew (another content hash)", async () => {
    const signature = png(await sampleSignaturePng());
    await renderPdf(signedView(signature, png(await sampleLogoPng("#1d4ed8"))));
    const opened = vi.spyOn(PDFDocument.prototype as unknown as { openImage: () => unknown }, "openImage");
    const changed = await renderPdf(signedView(signature, png(await sampleLogoPng("#b45309"))));
    // The signature is the same bytes (cached); the new logo is opened.
    expect(opened).toHaveBeenCalledTimes(1);
    opened.mockRestore();
    expect((await imagesOf(changed, "changed.pdf")).filter((l) => l.startsWith("image"))).toHaveLength(2);
  });
});

import { describe, expect, it } from "vitest";
import { hugeImagePdf } from "../test-support/hostile-files";
import { pdfImageSizes } from "./pdf-image-sizes";

describe("pdfImageSizes", () => {
  it("reads the declared size of an image without decoding it", () => {
    expect(pdfImageSizes(hugeImagePdf(30_000, 20_000))).toEqual([{ width: 30_000, height: 20_000 }]);
  });

  it("sees a soft mask, which pdf.js's own image limit does not", () => {
    expect(pdfImageSizes(hugeImagePdf(30_000, 30_000, { softMask: true }))).toEqual(
      expect.arrayContaining([
        { width: 10, height: 10 },
        { width: 30_000, height: 30_000 },
      ]),
    );
  });

  it("follows a size given as an indirect object", () => {
    expect(pdfImageSizes(hugeImagePdf(25_000, 30_000, { indirectSize: true }))).toEqual([
      { width: 25_000, height: 30_000 },
    ]);
  });

  it("finds nothing in a PDF without images", () => {
    expect(pdfImageSizes(Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n"))).toEqual([]);
  });
});

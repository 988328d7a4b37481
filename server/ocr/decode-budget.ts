import { OcrInputError } from "./ocr-input-error";

/**
 * What opening one uploaded file may cost. Every PDF and image is decoded in the loading child process (never in
 * the web server), and there: no image above MAX_IMAGE_PIXELS (MAX_PDF_IMAGE_PIXELS inside a PDF, soft masks
 * included) is decoded at all, the child is stopped past LOADER_MEMORY_LIMIT_BYTES, past LOAD_TIMEOUT_MS on a
 * page or LOAD_FILE_TIMEOUT_MS on the file, and the clinician is told why in words.
 */

/**
 * Largest image decoded with sharp (uploads: photos, scans, logos, signatures). sharp streams, so cost is low
 * (an 80 MP PNG peaked at 106 MB); 80 MP admits a 48 MP phone photo and a 600 dpi A4 scan (35 MP).
 */
export const MAX_IMAGE_PIXELS = 80_000_000;
/**
 * Largest image inside a PDF: pdf.js decodes it whole into memory (an 80 MP grey image peaked at 1.17 GB, a 40 MP
 * one at 736 MB, in a fresh process). 40 MP still admits an A4 or Letter page scanned at 600 dpi (35 MP).
 */
export const MAX_PDF_IMAGE_PIXELS = 40_000_000;
/*
 * The time and memory limits of the loading child are settings (OCR_LOAD_TIMEOUT_MS per page, 20 s: a page takes
 * 0.1-1.5 s warm, 2-7 s cold on a loaded machine, and the single loading child's queue waits on a slow one;
 * OCR_LOAD_FILE_TIMEOUT_MS per file, 90 s: 20 pages at 1-2 s each fit well within it; OCR_LOADER_MEMORY_MB, 1500:
 * the child settles at 360-400 MB after PDFs and a PDF image at the pixel limit adds about 650 MB, so only what
 * slipped past the pixel checks gets there). See config.ts and ocr-runner.ts.
 */

const ADVICE = "Scan or save it at 300 dpi or less (or take an ordinary photo of the sheet) and upload it again.";
const megapixels = (pixels: number) => `${Math.round(pixels / 1_000_000).toLocaleString("en-US")} megapixels`;

const limitOf = (where: "image" | "pdf") => (where === "pdf" ? MAX_PDF_IMAGE_PIXELS : MAX_IMAGE_PIXELS);

/** Refuses an image by its declared size, before a single pixel of it is decoded. */
export function checkImagePixels(width: number, height: number, where: "image" | "pdf"): void {
  if (width * height > limitOf(where)) throw imageTooLarge(where, { width, height });
}

export function imageTooLarge(where: "image" | "pdf", size?: { width: number; height: number }): OcrInputError {
  const what = where === "pdf" ? "The PDF contains an image that is" : "The image is";
  const limit = megapixels(limitOf(where));
  const declared = size
    ? ` (${size.width.toLocaleString("en-US")} × ${size.height.toLocaleString("en-US")} pixels, ` +
      `${megapixels(size.width * size.height)}; the limit is ${limit})`
    : ` (over ${limit})`;
  return new OcrInputError("too_large", `${what} too large to open safely${declared}. ${ADVICE}`);
}

export const tooMuchMemory = () =>
  new OcrInputError("too_large", `The file needs too much memory to open safely and was stopped. ${ADVICE}`);

export const tooSlow = (what: "page" | "file", limitMs: number) =>
  new OcrInputError(
    "too_slow",
    `${what === "page" ? "A page of the file" : "The file"} took longer than ${limitMs / 1000} seconds to open and was stopped. ${ADVICE}`,
  );

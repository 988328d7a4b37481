import type { Box, OcrField, OcrResult } from "../../domain/contracts/ocr";
import { ocrResultSchema } from "../../domain/contracts/ocr";
import { loaderPool, readerPool } from "./ocr-runner";

export { OcrInputError, type OcrInputReason } from "./ocr-input-error";
export { OcrFailure } from "./ocr-runner";
export type { Box, OcrField, OcrResult };

const asBytes = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.length);

/**
 * Reads a worksheet's pages (normalised page images, PNG/JPEG, as `loadWorksheetPages` returns them) in an OCR
 * child process. Never blocks the event loop; calls queue when every child is busy.
 * Throws OcrInputError for an unreadable image, OcrFailure when the OCR machinery itself fails.
 */
export async function recognizeWorksheet(pages: Buffer[], opts: { now?: Date } = {}): Promise<OcrResult> {
  const reply = await readerPool().run({
    kind: "recognize",
    pages: pages.map(asBytes),
    now: (opts.now ?? new Date()).getTime(),
  });
  return ocrResultSchema.parse(reply.result);
}

/**
 * Turns an uploaded file into page images, detecting PDF or image by content: a PDF is rasterised (every page),
 * an image is set upright from its EXIF orientation and bounded in size. Runs in a child process because PDF
 * rendering is CPU-bound, and not the reading one: pdf.js and the models together passed 900 MB.
 * Throws OcrInputError (empty, unsupported, corrupt, encrypted, no pages).
 */
export async function loadWorksheetPages(file: Buffer): Promise<Buffer[]> {
  const reply = await loaderPool().run({ kind: "load", file: asBytes(file) });
  return (reply.pages ?? []).map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength));
}

/** Stops the OCR child processes (for CLI exit and server shutdown); the next call starts them again. */
export async function shutdownOcr(): Promise<void> {
  await Promise.all([readerPool().shutdown(), loaderPool().shutdown()]);
}

import type { Box, OcrField, OcrResult } from "../../domain/contracts/ocr";
import { ocrResultSchema } from "../../domain/contracts/ocr";
import type { LabelAlias } from "./field-labels";
import { loaderPool, OcrFailure, readerPool } from "./ocr-runner";
import type { ReadingTemplate } from "./templates/match-form";
import type { FormLayout } from "./templates/propose-zones";

export { OcrInputError, type OcrInputReason } from "./ocr-input-error";
export { OcrFailure } from "./ocr-runner";
export type { Box, FormLayout, OcrField, OcrResult, ReadingTemplate };

const asBytes = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.length);

/**
 * Reads a worksheet's pages (normalised page images, PNG/JPEG, as `loadWorksheetPages` returns them) in an OCR
 * child process. Never blocks the event loop; calls queue when every child is busy.
 * Throws OcrInputError for an unreadable image, OcrFailure when the OCR machinery itself fails.
 */
export async function recognizeWorksheet(
  pages: Buffer[],
  opts: { now?: Date; templates?: ReadingTemplate[]; aliases?: LabelAlias[]; onPage?: () => void } = {},
): Promise<OcrResult> {
  const reply = await readerPool().run(
    {
      kind: "recognize",
      pages: pages.map(asBytes),
      now: (opts.now ?? new Date()).getTime(),
      templates: opts.templates ?? [],
      aliases: opts.aliases ?? [],
    },
    opts.onPage,
  );
  return ocrResultSchema.parse(reply.result);
}

const asBuffer = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/**
 * Reads a clinic's blank worksheet form (one page image) and proposes its reading zones, in the reading child.
 * Throws OcrInputError for an unreadable image, OcrFailure when the OCR machinery fails.
 */
export async function analyzeWorksheetForm(page: Buffer): Promise<FormLayout> {
  const reply = await readerPool().run({ kind: "analyze-form", page: asBytes(page) });
  if (!reply.layout) throw new OcrFailure("OCR returned no form layout");
  return reply.layout;
}

/**
 * Turns an uploaded file into page images, detecting PDF or image by content: a PDF is rasterised (every page, or
 * the first `maxPages`), an image is set upright from its EXIF orientation and bounded in size. Runs in the loading
 * child process, within its pixel, memory and time budget (decode-budget.ts), and not the reading one: pdf.js and
 * the models together passed 900 MB.
 * Throws OcrInputError (empty, unsupported, corrupt, encrypted, no pages, too large, too slow).
 */
export async function loadWorksheetPages(
  file: Buffer,
  opts: { maxPages?: number; onPage?: () => void } = {},
): Promise<Buffer[]> {
  const reply = await loaderPool().run({ kind: "load", file: asBytes(file), maxPages: opts.maxPages }, opts.onPage);
  return (reply.pages ?? []).map(asBuffer);
}

/**
 * A logo or signature re-encoded as an upright PNG fitting `box`, decoded in the loading child within the same
 * budget. Throws OcrInputError (corrupt image, too large, too slow).
 */
export async function fitUploadedImage(file: Buffer, box: { width: number; height: number }): Promise<Buffer> {
  const reply = await loaderPool().run({ kind: "fit-image", file: asBytes(file), box });
  return asBuffer(reply.image!);
}

/** A report document's text (DOCX, PDF; null for other types or none), read in the loading child. */
export async function extractDocumentText(file: Buffer, mimeType: string): Promise<string | null> {
  const reply = await loaderPool().run({ kind: "document-text", file: asBytes(file), mimeType });
  return reply.text ?? null;
}

/** Stops the OCR child processes (for CLI exit and server shutdown); the next call starts them again. */
export async function shutdownOcr(): Promise<void> {
  await Promise.all([readerPool().shutdown(), loaderPool().shutdown()]);
}

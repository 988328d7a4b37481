import sharp from "sharp";
import { OcrInputError } from "./ocr-input-error";

/** Longest side kept for recognition: 200 dpi A4 is 2339 px; more only costs memory and time. */
export const MAX_PAGE_SIDE = 2400;
/** Refuse decompression bombs long before they reach memory (a 10 MB upload can declare gigapixels). */
const MAX_INPUT_PIXELS = 80_000_000;

/**
 * Turns an uploaded photo or scan into an upright PNG of bounded size: EXIF orientation applied (phones store
 * portrait photos sideways with a rotation tag), first frame only for animated GIF/WebP.
 */
export async function normalizeImage(file: Buffer): Promise<Buffer> {
  try {
    return await sharp(file, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "truncated" })
      .rotate()
      .resize({ width: MAX_PAGE_SIDE, height: MAX_PAGE_SIDE, fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .png({ compressionLevel: 2 })
      .toBuffer();
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new OcrInputError("corrupt_image", "The image could not be read: the file is damaged or incomplete.", detail);
  }
}

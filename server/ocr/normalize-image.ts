import sharp from "sharp";
import { MAX_IMAGE_PIXELS } from "./decode-budget";
import { checkedImageSize } from "./image-header";
import { OcrInputError } from "./ocr-input-error";

/** Longest side kept for recognition: 200 dpi A4 is 2339 px; more only costs memory and time. */
export const MAX_PAGE_SIDE = 2400;

/**
 * Turns an uploaded photo or scan into an upright PNG of bounded size: EXIF orientation applied (phones store
 * portrait photos sideways with a rotation tag), first frame only for animated GIF/WebP. Runs in the loading child.
 */
export async function normalizeImage(file: Buffer): Promise<Buffer> {
  // Refused by its header, with the size in the message; sharp's own limit stays as the second lock.
  await checkedImageSize(file);
  try {
    return await sharp(file, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "truncated" })
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

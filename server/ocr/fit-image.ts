import sharp from "sharp";
import { MAX_IMAGE_PIXELS } from "./decode-budget";
import { checkedImageSize } from "./image-header";
import { OcrInputError } from "./ocr-input-error";

export type Box = { width: number; height: number };

/**
 * Re-encodes an uploaded logo or signature as an upright PNG fitting `box` (first frame only). PNG because every
 * export can embed it (DOCX cannot take WebP), and re-encoding drops metadata such as camera GPS tags. Runs in the
 * loading child, inside the pixel budget.
 */
export async function fitImage(file: Buffer, box: Box): Promise<Buffer> {
  await checkedImageSize(file);
  try {
    return await sharp(file, { limitInputPixels: MAX_IMAGE_PIXELS, animated: false })
      .rotate()
      .resize({ width: box.width, height: box.height, fit: "inside", withoutEnlargement: true })
      .png({ compressionLevel: 9 })
      .toBuffer();
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new OcrInputError("corrupt_image", "The image could not be read", detail);
  }
}

import sharp from "sharp";
import { AppError } from "../../../domain/errors";
import type { Upload } from "../../platform/uploads";

/** Images larger than this many pixels are refused before decoding (decompression bombs). */
const MAX_INPUT_PIXELS = 40_000_000;

/**
 * Re-encodes an uploaded signature or logo as PNG, bounded in size. The content was already checked by its
 * magic bytes; decoding it fully here also refuses files that only start like an image. PNG because every
 * export can embed it (DOCX cannot take WebP), and re-encoding drops metadata such as camera GPS tags.
 */
export async function normalizeImage(
  upload: Upload,
  box: { width: number; height: number },
  field: string,
): Promise<Buffer> {
  try {
    return await sharp(upload.data, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
      .rotate()
      .resize({ width: box.width, height: box.height, fit: "inside", withoutEnlargement: true })
      .png({ compressionLevel: 9 })
      .toBuffer();
  } catch {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "The image could not be read", field);
  }
}

export const SIGNATURE_BOX = { width: 1200, height: 600 };
export const LOGO_BOX = { width: 1200, height: 600 };

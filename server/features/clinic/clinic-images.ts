import { AppError } from "../../../domain/errors";
import { fitUploadedImage, OcrFailure, OcrInputError } from "../../ocr/ocr-service";
import type { Upload } from "../../platform/uploads";

/**
 * Re-encodes an uploaded signature or logo as PNG, bounded in size. The content was already checked by its
 * magic bytes; decoding it fully also refuses files that only start like an image. The decoding happens in the
 * loading child process within the pixel budget (a decompression bomb is refused by its header), never here.
 */
export async function normalizeImage(
  upload: Upload,
  box: { width: number; height: number },
  field: string,
): Promise<Buffer> {
  try {
    return await fitUploadedImage(upload.data, box);
  } catch (error) {
    if (error instanceof OcrInputError && error.reason !== "corrupt_image") {
      throw new AppError(error.reason === "too_large" ? "PAYLOAD_TOO_LARGE" : "BAD_REQUEST", error.message, field);
    }
    if (error instanceof OcrFailure) {
      throw new AppError("UNAVAILABLE", "The image could not be processed right now. Please try again.", field);
    }
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "The image could not be read", field);
  }
}

export const SIGNATURE_BOX = { width: 1200, height: 600 };
export const LOGO_BOX = { width: 1200, height: 600 };

import { AppError } from "../../../domain/errors";
import { checkedImageSize } from "../../ocr/image-header";
import { OcrInputError } from "../../ocr/ocr-input-error";

/**
 * Reads an image's header to be sure the bytes are a real picture, not just the right magic number in front of
 * garbage, and that its size is within the decoding budget (a small file can declare gigapixels); returns its
 * size. Only the header is read here: pixels are decoded in the loading child process.
 */
export async function decodedImageSize(data: Buffer, field: string): Promise<{ width: number; height: number }> {
  try {
    return await checkedImageSize(data);
  } catch (error) {
    if (error instanceof OcrInputError && error.reason === "too_large") {
      throw new AppError("PAYLOAD_TOO_LARGE", error.message, field);
    }
    throw new AppError("BAD_REQUEST", "The image could not be read (damaged or incomplete file)", field);
  }
}

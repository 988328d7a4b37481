import { loadSharp } from "../platform/sharp";
import { checkImagePixels } from "./decode-budget";
import { OcrInputError } from "./ocr-input-error";

/**
 * Reads an image's size from its header only (no pixel is decoded) and refuses it when it is over the pixel
 * budget or has no readable header. Safe in any process: it costs the header, not the picture.
 */
export async function checkedImageSize(file: Buffer): Promise<{ width: number; height: number }> {
  let size: { width?: number; height?: number };
  try {
    // No pixel limit on reading the header: the budget below refuses with the size in words.
    size = await (await loadSharp())(file, { failOn: "error", limitInputPixels: false }).metadata();
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new OcrInputError("corrupt_image", "The image could not be read: the file is damaged or incomplete.", detail);
  }
  if (!size.width || !size.height) {
    throw new OcrInputError("corrupt_image", "The image could not be read: the file is damaged or incomplete.");
  }
  checkImagePixels(size.width, size.height, "image");
  return { width: size.width, height: size.height };
}

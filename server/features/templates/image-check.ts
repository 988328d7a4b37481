import sharp from "sharp";
import { AppError } from "../../../domain/errors";

/**
 * Decodes an image's header to be sure the bytes are a real picture, not just the right magic
 * number in front of garbage; returns its size.
 */
export async function decodedImageSize(data: Buffer, field: string): Promise<{ width: number; height: number }> {
  try {
    const meta = await sharp(data, { failOn: "error" }).metadata();
    if (!meta.width || !meta.height) throw new Error("no dimensions");
    return { width: meta.width, height: meta.height };
  } catch {
    throw new AppError("BAD_REQUEST", "The image could not be read (damaged or incomplete file)", field);
  }
}

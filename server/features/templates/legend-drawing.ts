import { LEGEND_CANVAS, LEGEND_DRAWING_MAX_BYTES } from "../../../domain/contracts/templates";
import { AppError } from "../../../domain/errors";
import { detectFileKind } from "../../ocr/detect-file-kind";
import { decodedImageSize } from "./image-check";

const PREFIX = "data:image/png;base64,";
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const FIELD = "drawingData";

/**
 * A legend drawing arrives as the canvas's PNG data URL. It is checked by what it decodes to (a PNG of
 * the 400x300 canvas, at most 2 MB), not by its prefix alone, and returned in canonical base64.
 */
export async function checkedDrawingDataUrl(value: string | undefined): Promise<string> {
  if (!value) throw new AppError("VALIDATION_FAILED", "Please draw the pattern on the canvas", FIELD);
  if (!value.startsWith(PREFIX)) {
    throw new AppError("VALIDATION_FAILED", "Drawing must be a PNG image data URL", FIELD);
  }
  const encoded = value.slice(PREFIX.length);
  // Checked on the text first so an oversized payload is refused without decoding it.
  if (encoded.length > Math.ceil(LEGEND_DRAWING_MAX_BYTES / 3) * 4) {
    throw new AppError("PAYLOAD_TOO_LARGE", "Drawing must be at most 2 MB", FIELD);
  }
  if (!BASE64.test(encoded)) throw new AppError("VALIDATION_FAILED", "Drawing data is not valid base64", FIELD);
  const bytes = Buffer.from(encoded, "base64");
  if (detectFileKind(bytes) !== "png") {
    throw new AppError("VALIDATION_FAILED", "Drawing must be a PNG image data URL", FIELD);
  }
  const { width, height } = await decodedImageSize(bytes, FIELD);
  if (width !== LEGEND_CANVAS.width || height !== LEGEND_CANVAS.height) {
    throw new AppError(
      "VALIDATION_FAILED",
      `Drawing must be ${LEGEND_CANVAS.width}x${LEGEND_CANVAS.height} pixels`,
      FIELD,
    );
  }
  return PREFIX + bytes.toString("base64");
}

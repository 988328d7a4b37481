import { detectFileKind } from "./detect-file-kind";
import { flattenPage } from "./flatten-page";
import { normalizeImage } from "./normalize-image";
import { OcrInputError } from "./ocr-input-error";
import { rasterizePdf } from "./rasterize-pdf";

/**
 * Turns an uploaded file into page images: a PDF is rasterised page by page, an image is set upright and, when it
 * shows a sheet photographed at an angle, flattened.
 */
export async function loadWorksheetPages(file: Buffer, maxPages?: number, onPage?: () => void): Promise<Buffer[]> {
  if (file.length === 0) throw new OcrInputError("empty", "The file is empty.");
  const kind = detectFileKind(file);
  if (kind === null) {
    throw new OcrInputError("unsupported_type", "The file is not a JPG, PNG, GIF, WebP or PDF document.");
  }
  if (kind === "pdf") return rasterizePdf(file, maxPages, onPage);
  return [await flattenPage(await normalizeImage(file))];
}

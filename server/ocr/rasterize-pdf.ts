import { loadPdfJs } from "../platform/pdfjs";
import { checkImagePixels, imageTooLarge, MAX_PDF_IMAGE_PIXELS } from "./decode-budget";
import { OcrInputError } from "./ocr-input-error";
import { pdfImageSizes } from "./pdf-image-sizes";

/** Render scale: PDF points are 1/72 inch, so 200/72 gives 200 dpi, enough for handwriting at bounded size. */
const RENDER_DPI = 200;
const MAX_PAGES = 20;
const MAX_SIDE = 2400;

type NodeCanvas = { width: number; height: number; toBuffer(mime: "image/png"): Buffer };
type PdfCanvasFactory = {
  create(width: number, height: number): { canvas: NodeCanvas; context: CanvasRenderingContext2D };
  destroy(pair: { canvas: NodeCanvas; context: CanvasRenderingContext2D }): void;
};
/** pdf.js's words when an image is over `maxImageSize` (it throws them because `stopAtErrors` is set). */
const PDFJS_IMAGE_TOO_LARGE = "Image exceeded maximum allowed size";

/**
 * Renders the pages of a PDF (every page up to 20, or the first `maxPages`) to PNG buffers (white background, about
 * 200 dpi, bounded size), calling `onPage` after each. Images above the pixel budget are refused before anything is decoded: from their
 * dictionaries first, and by pdf.js itself (`maxImageSize`, which also sees inline images) while drawing.
 * Runs in the loading child process only.
 */
export async function rasterizePdf(file: Buffer, maxPages = MAX_PAGES, onPage?: () => void): Promise<Buffer[]> {
  for (const { width, height } of pdfImageSizes(file)) checkImagePixels(width, height, "pdf");
  const { getDocument } = await loadPdfJs();
  const task = getDocument({
    data: new Uint8Array(file),
    isEvalSupported: false,
    useSystemFonts: false,
    stopAtErrors: true,
    maxImageSize: MAX_PDF_IMAGE_PIXELS,
    verbosity: 0,
  });
  let doc: Awaited<typeof task.promise>;
  try {
    doc = await task.promise;
  } catch (error) {
    await task.destroy().catch(() => {});
    // pdf.js signals a password (encrypted document) with an exception named PasswordException.
    if ((error as { name?: string })?.name === "PasswordException") {
      throw new OcrInputError("encrypted_pdf", "The PDF is password-protected; upload an unprotected copy.");
    }
    const detail = error instanceof Error ? error.message : String(error);
    throw new OcrInputError("corrupt_pdf", "The PDF could not be read: the file is damaged or incomplete.", detail);
  }
  try {
    if (doc.numPages < 1) throw new OcrInputError("no_pages", "The PDF has no pages.");
    const pages: Buffer[] = [];
    // pdf.js must draw on a canvas from the same @napi-rs/canvas build it loaded itself (its nested copy):
    // mixing DOMMatrix/Path2D objects of two native builds crashes the process.
    const canvasFactory = doc.canvasFactory as PdfCanvasFactory;
    for (let n = 1; n <= Math.min(doc.numPages, maxPages, MAX_PAGES); n++) {
      const page = await doc.getPage(n);
      const base = page.getViewport({ scale: 1 });
      const scale = Math.min(RENDER_DPI / 72, MAX_SIDE / Math.max(base.width, base.height));
      const viewport = page.getViewport({ scale });
      const { canvas, context } = canvasFactory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
      context.fillStyle = "#ffffff";
      context.fillRect(0, 0, canvas.width, canvas.height);
      await page.render({ canvas: canvas as unknown as HTMLCanvasElement, canvasContext: context, viewport }).promise;
      pages.push(canvas.toBuffer("image/png"));
      canvasFactory.destroy({ canvas, context });
      page.cleanup();
      onPage?.();
    }
    return pages;
  } catch (error) {
    if (error instanceof OcrInputError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    if (detail.includes(PDFJS_IMAGE_TOO_LARGE)) throw imageTooLarge("pdf");
    throw new OcrInputError("corrupt_pdf", "The PDF could not be rendered: the file is damaged.", detail);
  } finally {
    await doc.destroy();
  }
}

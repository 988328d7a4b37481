/**
 * Entry of an OCR child process. Models, pdf.js and every decoding of an uploaded PDF or image live here, not in
 * the web server: their native code and their memory (hundreds of MB while a page is read) stay out of the server,
 * and a crash, a hostile file or a runaway decode costs one job.
 */
import { documentText } from "./document-text";
import { fitImage } from "./fit-image";
import { loadWorksheetPages } from "./load-worksheet-pages";
import { OcrInputError } from "./ocr-input-error";
import type { OcrProgress, OcrReply, OcrRequest } from "./ocr-protocol";
import { readWorksheet } from "./read-worksheet";
import { analyzeForm } from "./templates/analyze-form";

type Reply = OcrReply extends infer R ? (R extends unknown ? Omit<R, "rss"> : never) : never;
const send = (reply: Reply) => process.send?.({ ...reply, rss: process.memoryUsage.rss() });

process.on("message", async (request: OcrRequest) => {
  try {
    if (request.kind === "load") {
      const onPage = () => process.send?.({ id: request.id, progress: "page" } satisfies OcrProgress);
      const pages = await loadWorksheetPages(Buffer.from(request.file), request.maxPages, onPage);
      send({ id: request.id, ok: true, pages });
    } else if (request.kind === "fit-image") {
      send({ id: request.id, ok: true, image: await fitImage(Buffer.from(request.file), request.box) });
    } else if (request.kind === "document-text") {
      send({ id: request.id, ok: true, text: await documentText(Buffer.from(request.file), request.mimeType) });
    } else if (request.kind === "analyze-form") {
      send({ id: request.id, ok: true, layout: await analyzeForm(Buffer.from(request.page)) });
    } else {
      const pages = request.pages.map((p) => Buffer.from(p));
      const onRead = () => process.send?.({ id: request.id, progress: "read" } satisfies OcrProgress);
      const result = await readWorksheet(pages, new Date(request.now), request.templates, request.aliases, onRead);
      send({ id: request.id, ok: true, result });
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    send({
      id: request.id,
      ok: false,
      error: { message, inputReason: error instanceof OcrInputError ? error.reason : undefined },
    });
  }
});

// The parent going away (crash, kill -9) must not leave an orphan holding the models.
process.on("disconnect", () => process.exit(0));

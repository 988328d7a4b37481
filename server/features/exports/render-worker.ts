import { parentPort, threadId } from "node:worker_threads";
import type { RenderReply, RenderRequest } from "./render-pool";

/**
 * A render-pool thread: takes a document view (plain data), answers the PDF or DOCX bytes. pdfkit, docx and the
 * parsed fonts load here on the first document of each kind and stay for the thread's life.
 */
async function render(request: RenderRequest): Promise<Buffer> {
  const { job } = request;
  if (job.format === "pdf") return (await import("./render-pdf")).renderPdf(job.view, job.pdf);
  return (await import("./render-docx")).renderDocx(job.view);
}

/** The bytes as a transferable array of their own (a small Buffer may share its memory with others). */
function ownBytes(data: Buffer): Uint8Array {
  if (data.byteOffset === 0 && data.byteLength === data.buffer.byteLength) return data;
  return new Uint8Array(data);
}

parentPort!.on("message", async (request: RenderRequest) => {
  let reply: RenderReply;
  try {
    const bytes = ownBytes(await render(request));
    reply = { id: request.id, ok: true, bytes, threadId };
    parentPort!.postMessage(reply, [bytes.buffer as ArrayBuffer]);
  } catch (error) {
    reply = { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
    parentPort!.postMessage(reply);
  }
});

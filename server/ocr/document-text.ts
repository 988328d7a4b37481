import mammoth from "mammoth";
import { loadPdfJs } from "../platform/pdfjs";

const MAX_TEXT = 50_000;
const MAX_PAGES = 20;
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/**
 * The text of a DOCX (mammoth) or PDF (pdf.js's text layer) document, cleaned and bounded; null for other types or
 * no text. Runs in the loading child process: a hostile document (a zip or Flate bomb) costs the child, within its
 * memory and time limits, never the server.
 */
export async function documentText(data: Buffer, mimeType: string): Promise<string | null> {
  if (mimeType === DOCX) return clean((await mammoth.extractRawText({ buffer: data })).value);
  if (mimeType === "application/pdf") return clean(await pdfText(data));
  return null;
}

async function pdfText(data: Buffer): Promise<string> {
  const { getDocument } = await loadPdfJs();
  const doc = await getDocument({ data: new Uint8Array(data), isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= Math.min(doc.numPages, MAX_PAGES); n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      pages.push(content.items.map((item) => ("str" in item ? `${item.str}${item.hasEOL ? "\n" : " "}` : "")).join(""));
    }
    return pages.join("\n");
  } finally {
    await doc.destroy();
  }
}

function clean(text: string): string | null {
  const normalised = text
    .replace(/[ \t]+/g, " ")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return normalised ? normalised.slice(0, MAX_TEXT) : null;
}

import mammoth from "mammoth";
import { loadPdfJs } from "../../platform/pdfjs";

const MAX_TEXT = 50_000;

/**
 * The text of a report file, for the language model's examples. DOCX through mammoth, PDF through
 * pdf.js's text layer. Old binary .doc files and images carry no extractable text here: null.
 */
export async function extractReportText(data: Buffer, mimeType: string): Promise<string | null> {
  try {
    if (mimeType === "application/vnd.openxmlformats-officedocument.wordprocessingml.document") {
      const { value } = await mammoth.extractRawText({ buffer: data });
      return clean(value);
    }
    if (mimeType === "application/pdf") return clean(await pdfText(data));
  } catch {
    // An unreadable document is still a valid upload; it just cannot serve as a text example.
  }
  return null;
}

async function pdfText(data: Buffer): Promise<string> {
  const { getDocument } = await loadPdfJs();
  const doc = await getDocument({ data: new Uint8Array(data), isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= Math.min(doc.numPages, 20); n++) {
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

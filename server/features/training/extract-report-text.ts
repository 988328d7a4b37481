import { extractDocumentText } from "../../ocr/ocr-service";

/**
 * The text of a report file, for the language model's examples: DOCX through mammoth, PDF through pdf.js's text
 * layer, both in the loading child process (never in the server). Old binary .doc files and images carry no
 * extractable text here: null.
 */
export async function extractReportText(data: Buffer, mimeType: string): Promise<string | null> {
  try {
    return await extractDocumentText(data, mimeType);
  } catch {
    // An unreadable (or over-budget) document is still a valid upload; it just cannot serve as a text example.
    return null;
  }
}

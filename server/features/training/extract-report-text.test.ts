import PDFDocument from "pdfkit";
import { describe, expect, it } from "vitest";
import { extractReportText } from "./extract-report-text";

function reportPdf(lines: string[]): Promise<Buffer> {
  const doc = new PDFDocument();
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on("end", () => resolve(Buffer.concat(chunks))));
  for (const line of lines) doc.text(line);
  doc.end();
  return done;
}

describe("extractReportText", () => {
  it("reads a PDF report's text layer", async () => {
    const pdf = await reportPdf(["FINDINGS: Right ICA PSV 250 cm/s.", "IMPRESSION: 70-99% stenosis."]);
    const text = await extractReportText(pdf, "application/pdf");
    expect(text).toMatch(/Right ICA PSV 250 cm\/s/);
    expect(text).toMatch(/IMPRESSION: 70-99% stenosis/);
  });

  it("answers null for a file that is not what it claims", async () => {
    expect(await extractReportText(Buffer.from("not a pdf"), "application/pdf")).toBeNull();
  });
});

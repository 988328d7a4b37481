import PDFDocument from "pdfkit";
import { afterAll, describe, expect, it } from "vitest";
import { shutdownOcr } from "../../ocr/ocr-service";
import { zerosZlib } from "../../test-support/hostile-files";
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

/** A one-page PDF whose content stream inflates to `size` bytes (zeros): a Flate bomb for the text layer. */
function contentBombPdf(size: number): Buffer {
  const data = zerosZlib(size);
  const head = "%PDF-1.4\n";
  const objects = [
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>"),
    Buffer.from("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
    Buffer.from("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>"),
    Buffer.concat([
      Buffer.from(`<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`),
      data,
      Buffer.from("\nendstream"),
    ]),
  ];
  const parts = [Buffer.from(head)];
  const offsets: number[] = [];
  let offset = head.length;
  objects.forEach((body, i) => {
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from("\nendobj\n")]);
    offsets.push(offset);
    parts.push(obj);
    offset += obj.length;
  });
  const rows = offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  parts.push(
    Buffer.from(
      `xref\n0 5\n0000000000 65535 f \n${rows}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(parts);
}

afterAll(() => shutdownOcr());

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

  it("reads the text in the loading child: a content-stream bomb leaves the server's memory alone", async () => {
    const before = process.memoryUsage.rss();
    // 512 MB of zeros in 0.5 MB: pdf.js inflates the whole stream to read it.
    expect(await extractReportText(contentBombPdf(512 * 1024 * 1024), "application/pdf")).toBeNull();
    expect(process.memoryUsage.rss() - before).toBeLessThan(150 * 1024 * 1024);
  });
});

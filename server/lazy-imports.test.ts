import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { valueSpecifiers } from "./test-support/value-imports";

/**
 * Libraries only some requests need are loaded by them (dynamic import()), not when the server starts: an idle
 * server holds less (issue 30, docs/benchmarks.md). This walks what server/main.ts loads at start.
 */
const here = path.dirname(fileURLToPath(import.meta.url));

function packagesLoadedAtStart(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of valueSpecifiers(file)) {
      if (path.isAbsolute(next)) visit(next);
      else packages.add(next);
    }
  };
  visit(entry);
  return packages;
}

describe("start-up imports", () => {
  it("leave the PDF and Word writers, the mail client, the S3 client, the OCR runtime, the image library and the DICOM reader to what uses them", () => {
    const loaded = packagesLoadedAtStart(path.join(here, "main.ts"));
    // The walk reached the server's own dependencies (a broken walk would find nothing and prove nothing).
    expect(loaded).toContain("fastify");
    for (const lazy of ["pdfkit", "docx", "nodemailer", "@aws-sdk/client-s3", "onnxruntime-node", "sharp", "dcmjs"])
      expect(loaded).not.toContain(lazy);
  });
});

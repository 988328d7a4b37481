import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadWorksheetPages, recognizeWorksheet, shutdownOcr } from "./ocr-service";
import { expectHeaderAsTruth, nameTokens } from "./testing/header-truth";

/** Sheets of the varied-layout corpus (bench/worksheets/generate-varied.mjs, seed 303), read end to end. */
const dir = path.join(import.meta.dirname, "../../fixtures/worksheets-varied");

afterAll(() => shutdownOcr());

async function readSheet(file: string, truthFile: string) {
  const truth = JSON.parse(await readFile(path.join(dir, truthFile), "utf8"));
  const pages = await loadWorksheetPages(await readFile(path.join(dir, file)));
  const result = await recognizeWorksheet(pages, { now: new Date("2026-12-31T12:00:00Z") });
  return { truth, result };
}

describe("OCR of other clinics' forms (varied layouts and label wordings)", () => {
  it.each([
    // Key/value table, "Pt:", "DATE OF BIRTH", "Scan date", "REF. DR", "Medical record no.:"; from its PDF.
    ["ws-clean-000.pdf", "ws-clean-000.json"],
    // Boxed fields with the label in the box's corner: "Name", "Birthdate", "UR:", "GENDER".
    ["ws-clean-002.png", "ws-clean-002.json"],
    // A phone photo of handwriting, labels over their write-on lines.
    ["ws-noisy-011.jpg", "ws-noisy-011.json"],
  ])(
    "reads every field of %s",
    async (file, truthFile) => {
      const { truth, result } = await readSheet(file, truthFile);
      expect(nameTokens(result.patientName)).toBe(nameTokens(truth.patientNameTokens.join(" ")));
      expect(result.patientDob).toBe(truth.patientDob);
      expect(result.examDate).toBe(truth.examDate);
      expectHeaderAsTruth(result, truth.header);
    },
    180_000,
  );
});

import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadWorksheetPages, recognizeWorksheet, shutdownOcr } from "./ocr-service";

const fixture = (name: string) => readFile(path.join(import.meta.dirname, "../../fixtures/worksheets", name));

afterAll(() => shutdownOcr());

describe("record numbers on a phone photo (OCR service, child process)", () => {
  it("reads a handwritten record number's digits with the digit classifier too", async () => {
    // The recogniser alone reads this MRN 9874763 (its second digit pair "82" as "87"); the strokes read 9824763.
    const pages = await loadWorksheetPages(await fixture("ws-noisy-031.jpg"));
    const result = await recognizeWorksheet(pages, { now: new Date("2026-11-22T12:00:00Z") });
    expect(result.fields.mrn.value).toBe("9824763");
  }, 180_000);
});

import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadWorksheetPages, recognizeWorksheet, shutdownOcr } from "./ocr-service";
import { expectHeaderAsTruth, nameTokens } from "./testing/header-truth";

/** Other clinics' header forms (form-family `--clinic-forms`, fixtures/clinic-forms), read through the OCR service. */
const dir = path.join(import.meta.dirname, "../../fixtures/clinic-forms");

afterAll(() => shutdownOcr());

describe("OCR of other clinics' header forms", () => {
  it.each([
    ["ws-clean-001.png", "ws-clean-001.json"],
    ["ws-clean-002.pdf", "ws-clean-002.json"],
    ["ws-clean-006.png", "ws-clean-006.json"],
    ["ws-clean-010.png", "ws-clean-010.json"],
  ])(
    "reads every header field of %s, and none wrong",
    async (file, truthFile) => {
      const truth = JSON.parse(await readFile(path.join(dir, truthFile), "utf8"));
      const pages = await loadWorksheetPages(await readFile(path.join(dir, file)));
      const result = await recognizeWorksheet(pages, { now: new Date("2026-12-31T12:00:00Z") });
      expect(nameTokens(result.patientName)).toBe(nameTokens(truth.patientNameTokens.join(" ")));
      expect(result.patientDob).toBe(truth.patientDob);
      expect(result.examDate).toBe(truth.examDate);
      // A circled choice the recogniser could not read is no answer: right to leave empty, wrong to guess.
      expectHeaderAsTruth(result, truth.header, (key) => key === "sex" && truth.form.sexStyle === "circled");
    },
    180_000,
  );
});

import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ocrResultSchema } from "../../domain/contracts/ocr";
import { readerPool } from "./ocr-runner";
import { loadWorksheetPages, OcrInputError, recognizeWorksheet, shutdownOcr } from "./ocr-service";

const fixture = (name: string) => readFile(path.join(import.meta.dirname, "../../fixtures/worksheets", name));

afterAll(() => shutdownOcr());

describe("OCR service (child process)", () => {
  it("reads a clean printed worksheet end to end", async () => {
    const pages = await loadWorksheetPages(await fixture("ws-clean-001.png"));
    const result = await recognizeWorksheet(pages, { now: new Date("2026-11-22T12:00:00Z") });
    expect(ocrResultSchema.safeParse(result).success).toBe(true);
    expect(result.patientName).toBe("Amanda McDonald");
    expect(result.patientDob).toBe("1950-10-27");
    expect(result.examDate).toBe("2020-01-11");
    expect(result.scanType).toBe("Carotid Duplex");
    expect(result.pageCount).toBe(1);
    expect(result.fields.patientName.box).toMatchObject({ page: 0 });
    expect(result.measurements).toContainEqual(
      expect.objectContaining({ site: "ICA_PROX", side: "right", parameter: "PSV", value: 347, unit: "cm/s" }),
    );
    expect(result.measurements).toContainEqual(
      expect.objectContaining({ site: "BULB", side: "left", parameter: "EDV", value: 20 }),
    );
    expect(result.measurements).toContainEqual(
      expect.objectContaining({ site: "VA", side: "left", parameter: "PSV", value: 52 }),
    );
    expect(result.text).toMatch(/CAROTID/);
    // About 3 s of CPU (child start, model load, one page); generous for a machine shared with other test runs.
  }, 120_000);

  it("reads a phone photo of a handwritten worksheet", async () => {
    // The pipeline's every reading of a doubtful value votes: this sheet reads whole only when they all line up.
    const pages = await loadWorksheetPages(await fixture("ws-noisy-022.jpg"));
    const result = await recognizeWorksheet(pages, { now: new Date("2026-11-22T12:00:00Z") });
    expect(result.patientName).toBe("JOHNSON, Jessica");
    expect(result.patientDob).toBe("1931-09-21");
    expect(result.examDate).toBe("2025-05-01");
    expect(result.scanType).toBe("Lower Limb Venous");
    expect(result.measurements.length).toBeGreaterThanOrEqual(36);
    expect(result.measurements).toContainEqual(
      expect.objectContaining({ site: "CFV", side: "right", parameter: "REFLUX_MS", value: 3500, unit: "ms" }),
    );
    expect(result.measurements).toContainEqual(
      expect.objectContaining({ site: "SFJ", side: "left", parameter: "DIAMETER_MM", value: 4.6 }),
    );
  }, 120_000);

  it("a reading child gives a page's memory back once the page is read", async () => {
    // It used to keep 560-650 MB after a photo page (the detector's buffers stayed resident; the name list alone took
    // 90 MB), right under its 650 MB recycle limit. Memory, unlike time, does not depend on the machine's load.
    const pages = await loadWorksheetPages(await fixture("ws-noisy-024.jpg"));
    const reply = await readerPool().run({ kind: "recognize", pages, now: Date.now() });
    expect(reply.rss).toBeLessThan(400 * 1024 * 1024);
  }, 120_000);

  it("passes a typed input error back from the child process", async () => {
    const error = await loadWorksheetPages(Buffer.from("#!/bin/sh\necho hi\n")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcrInputError);
    expect((error as OcrInputError).reason).toBe("unsupported_type");
  });

  it("serves concurrent calls", async () => {
    const files = await Promise.all([fixture("ws-clean-000.pdf"), fixture("ws-clean-003.png")]);
    const loaded = await Promise.all(files.map((f) => loadWorksheetPages(f)));
    expect(loaded.map((p) => p.length)).toEqual([1, 1]);
  });
});

import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";

/**
 * The loading child's last locks, for what the pixel checks cannot see: a job past the memory limit or the time limit
 * is stopped and answered as the file's problem (a clinician-worded OcrInputError), and the next file is served.
 * The limits are lowered for this file only (each Vitest file has its own modules).
 */
const fixture = (name: string) => readFile(path.join(import.meta.dirname, "../../fixtures/worksheets", name));

async function serviceWith(env: Record<string, string>) {
  vi.resetModules();
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
  return import("./ocr-service");
}

afterAll(() => vi.unstubAllEnvs());

describe("loading child limits", () => {
  it("stops a file that makes the child grow past the memory limit, then serves the next file", async () => {
    // Rendering a PDF takes the child past 300 MB; 200 MB stands in for a decode that slipped past the pixel checks.
    const ocr = await serviceWith({ OCR_LOADER_MEMORY_MB: "200", OCR_LOAD_TIMEOUT_MS: "60000" });
    try {
      const error = await ocr.loadWorksheetPages(await fixture("ws-clean-000.pdf")).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ocr.OcrInputError);
      expect((error as InstanceType<typeof ocr.OcrInputError>).reason).toBe("too_large");
      expect((error as Error).message).toMatch(/too much memory/);
      // A small photo stays far under the limit: the pool started a fresh child for it.
      const pages = await ocr.loadWorksheetPages(await fixture("ws-clean-001.png"));
      expect(pages).toHaveLength(1);
    } finally {
      await ocr.shutdownOcr();
    }
  });

  it("stops a file whose page takes longer than the page time limit", async () => {
    // Starting the child alone takes longer than 300 ms.
    const ocr = await serviceWith({ OCR_LOAD_TIMEOUT_MS: "300", OCR_LOAD_FILE_TIMEOUT_MS: "60000" });
    try {
      const error = await ocr.loadWorksheetPages(await fixture("ws-clean-000.pdf")).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ocr.OcrInputError);
      expect((error as InstanceType<typeof ocr.OcrInputError>).reason).toBe("too_slow");
      expect((error as Error).message).toMatch(/page of the file took longer than 0.3 seconds/);
    } finally {
      await ocr.shutdownOcr();
    }
  });

  it("stops a file that takes longer than the whole-file limit, however its pages progress", async () => {
    const ocr = await serviceWith({ OCR_LOAD_TIMEOUT_MS: "60000", OCR_LOAD_FILE_TIMEOUT_MS: "300" });
    try {
      const error = await ocr.loadWorksheetPages(await fixture("ws-clean-000.pdf")).catch((e: unknown) => e);
      expect((error as InstanceType<typeof ocr.OcrInputError>).reason).toBe("too_slow");
      expect((error as Error).message).toMatch(/^The file took longer than 0.3 seconds/);
    } finally {
      await ocr.shutdownOcr();
    }
  });
});

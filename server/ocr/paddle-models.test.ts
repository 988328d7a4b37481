import path from "node:path";
import type { InferenceSession } from "onnxruntime-node";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { loadPaddleModels } from "./paddle-models";
import { decodeRaster, type Raster } from "./raster";
import { detectText } from "./text-detector";

/** The top of a committed worksheet (title and patient block), small enough to detect quickly. */
async function pageTop(): Promise<Raster> {
  const file = path.join(import.meta.dirname, "../../fixtures/worksheets/ws-clean-001.png");
  const png = await sharp(file).extract({ left: 0, top: 0, width: 1000, height: 600 }).png().toBuffer();
  return decodeRaster(png);
}

describe("the detector's session, one a page", () => {
  it("is released when the page's detection ends, so its arena does not stay in the reading child", async () => {
    const models = await loadPaddleModels();
    const seen: InferenceSession[] = [];
    const image = await pageTop();
    const first = await models.withDetector((det) => {
      seen.push(det);
      return detectText(det, image);
    });
    const second = await models.withDetector((det) => {
      seen.push(det);
      return detectText(det, image);
    });
    expect(first.length).toBeGreaterThan(5);
    // A fresh session each page, and the same regions from both.
    expect(seen[0]).not.toBe(seen[1]);
    expect(second).toEqual(first);
    // A released session refuses to run: nothing of it is left to hold memory.
    await expect(detectText(seen[0]!, image)).rejects.toThrow();
    await expect(detectText(seen[1]!, image)).rejects.toThrow();
  });

  it("is released also when the page's reading fails", async () => {
    const models = await loadPaddleModels();
    let kept: InferenceSession | undefined;
    await expect(
      models.withDetector(async (det) => {
        kept = det;
        throw new Error("the page could not be read");
      }),
    ).rejects.toThrow("the page could not be read");
    await expect(detectText(kept!, await pageTop())).rejects.toThrow();
  });
});

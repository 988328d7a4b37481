import { readFile } from "node:fs/promises";
import path from "node:path";
import { deserialize } from "node:v8";
import { decodeRaster } from "../../server/ocr/raster";
import type { ReadRegion } from "../../server/ocr/read-region";
import type { PageFrame } from "../../server/ocr/text-regions";
import type { Truth } from "../ocr-truth";

/**
 * The phone photos ("noisy" sheets) of handwriting corpora with the recognition `bench:ocr --cache` kept for them:
 * each sheet's corpus folder, truth, recognised regions, and its pages decoded with their frames.
 */
export async function* cachedNoisySheets(dirs: string[], cache: string) {
  for (const dirArg of dirs) {
    const dir = path.resolve(dirArg);
    const manifest = JSON.parse(await readFile(path.join(dir, "manifest.json"), "utf8")) as {
      documents: { groundTruth: string; level: string }[];
    };
    for (const doc of manifest.documents) {
      if (doc.level !== "noisy") continue;
      const truth = JSON.parse(await readFile(path.join(dir, doc.groundTruth), "utf8")) as Truth;
      const base = path.join(cache, `${path.basename(dir)}-${truth.files.image}.v8`);
      const pages = deserialize(await readFile(base)) as ReadRegion[][];
      const { pages: images, frames } = deserialize(await readFile(`${base}.pages`)) as {
        pages: Buffer[];
        frames: PageFrame[];
      };
      const rasters = await Promise.all(images.map((b) => decodeRaster(b)));
      yield { dir, truth, pages, rasters, frames };
    }
  }
}

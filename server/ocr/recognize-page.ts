import { loadPaddleModels } from "./paddle-models";
import { decodeRaster } from "./raster";
import { type ReadRegion, toReadRegion } from "./read-region";
import { detectText } from "./text-detector";
import { foldTable, recognizeRegions } from "./text-recognizer";
import { estimateFrame, toRegions } from "./text-regions";

let fold: Int16Array | undefined;

/** Detects and reads every text region of one page image (PNG/JPEG), in the page's deskewed frame. */
export async function recognizePage(image: Buffer, page: number): Promise<ReadRegion[]> {
  const models = await loadPaddleModels();
  fold ??= foldTable(models.charset);
  const raster = await decodeRaster(image);
  const components = await detectText(models.det, raster);
  const frame = estimateFrame(components);
  // One detector pixel in page pixels, to give each region back the extent its outermost pixels cover.
  const pixel = Math.max(1, Math.max(raster.width, raster.height) / 1536);
  const regions = toRegions(components, frame, page, pixel);
  const matrices = await recognizeRegions(models.rec, fold, raster, frame, regions);
  return regions.map((r, i) => toReadRegion(r, matrices[i]!));
}

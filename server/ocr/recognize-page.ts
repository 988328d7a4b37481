import { loadPaddleModels } from "./paddle-models";
import { decodeRaster } from "./raster";
import { type ReadRegion, toReadRegion } from "./read-region";
import { detectText } from "./text-detector";
import { foldTable, recognizeRegions } from "./text-recognizer";
import { estimateFrame, toRegions } from "./text-regions";

let fold: Int16Array | undefined;
/** How much taller / wider (in text heights) the second and third crops of a short region are. */
const VARIANT_GROW = 0.12;

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
  const read = regions.map((r, i) => toReadRegion(r, matrices[i]!));
  // Short regions (table cells) the recogniser is not sure of are read again from a taller and a wider crop, so
  // their readings can vote. Confident ones (nearly all of a printed page) skip this: it costs a third more time.
  const doubtful = read.flatMap((r, i) => (r.u1 - r.u0 < 3.5 * (r.v1 - r.v0) && r.read.confidence < 0.98 ? [i] : []));
  const variants = doubtful.flatMap((i) => {
    const r = regions[i]!;
    const h = r.v1 - r.v0;
    return [
      { ...r, v0: r.v0 - VARIANT_GROW * h, v1: r.v1 + VARIANT_GROW * h },
      { ...r, u0: r.u0 - VARIANT_GROW * h, u1: r.u1 + VARIANT_GROW * h },
    ];
  });
  const extra = await recognizeRegions(models.rec, fold, raster, frame, variants);
  doubtful.forEach((ri, k) => {
    read[ri]!.alternates = [extra[2 * k]!, extra[2 * k + 1]!];
  });
  return read;
}

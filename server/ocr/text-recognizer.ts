import * as ort from "onnxruntime-node";
import { type Raster, sample } from "./raster";
import { fromFrame, type PageFrame, type TextRegion } from "./text-regions";

const REC_HEIGHT = 48;
const MAX_REC_WIDTH = 1280;
const BATCH = 8;
/** Upper bound of batch * strip width: activations grow with it, and wide lines would otherwise cost 600 MB. */
const BATCH_PIXEL_WIDTH = 2560;

/**
 * Printable ASCII, the only characters worksheets use. Column 0 of a folded matrix is the CTC blank, column k is
 * ASCII_CHARS[k - 1].
 */
export const ASCII_CHARS = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join("");

/** Per-time-step probabilities of one region, folded to blank + printable ASCII (T rows of 96). */
export type CharMatrix = { steps: number; probs: Float32Array };

/** Where each dictionary entry's probability goes: ASCII itself, full-width forms folded to ASCII, CJK dropped. */
export function foldTable(charset: string[]): Int16Array {
  const table = new Int16Array(charset.length).fill(-1);
  table[0] = 0;
  charset.forEach((ch, i) => {
    if (i === 0 || ch.length !== 1) return;
    let code = ch.charCodeAt(0);
    if (code >= 0xff01 && code <= 0xff5e) code -= 0xfee0;
    else if (ch === "。" || ch === "·") code = 46;
    if (code >= 32 && code < 127) table[i] = code - 31;
  });
  return table;
}

/** Crops a region from the page along the page's skew into the recogniser's normalised BGR strip layout. */
function writeStrip(
  image: Raster,
  frame: PageFrame,
  r: TextRegion,
  out: Float32Array,
  offset: number,
  width: number,
  stripWidth: number,
) {
  // Contrast stretching of each crop was tried and lost 11 points of recall on the photo half: the recogniser
  // was trained on natural photos and reads them best as they are.
  const plane = REC_HEIGHT * width;
  const du = (r.u1 - r.u0) / stripWidth;
  const dv = (r.v1 - r.v0) / REC_HEIGHT;
  for (let j = 0; j < REC_HEIGHT; j++) {
    for (let i = 0; i < width; i++) {
      const at = offset + j * width + i;
      if (i >= stripWidth) {
        // Padding is zero after normalisation, as in PaddleOCR's batching.
        out[at] = out[at + plane] = out[at + 2 * plane] = 0;
        continue;
      }
      const { x, y } = fromFrame(frame, r.u0 + (i + 0.5) * du, r.v0 + (j + 0.5) * dv);
      for (let c = 0; c < 3; c++) out[at + c * plane] = (sample(image, x, y, 2 - c) / 255 - 0.5) / 0.5;
    }
  }
}

/**
 * Reads regions in width-sorted batches. `stretch` widens every strip beyond the region's own aspect ratio,
 * giving the recogniser more steps per character.
 */
export async function recognizeRegions(
  session: ort.InferenceSession,
  fold: Int16Array,
  image: Raster,
  frame: PageFrame,
  regions: TextRegion[],
  stretch = 1,
): Promise<CharMatrix[]> {
  const widths = regions.map((r) =>
    Math.max(
      16,
      Math.min(MAX_REC_WIDTH, Math.round((stretch * REC_HEIGHT * (r.u1 - r.u0)) / Math.max(1, r.v1 - r.v0))),
    ),
  );
  const order = regions.map((_, i) => i).sort((a, b) => widths[a]! - widths[b]!);
  const results: CharMatrix[] = new Array(regions.length);
  for (let start = 0; start < order.length; ) {
    // Sorted by width, so the last member of a batch is its widest.
    let end = start + 1;
    while (end < order.length && end - start < BATCH && (end - start + 1) * widths[order[end]!]! <= BATCH_PIXEL_WIDTH)
      end++;
    const batch = order.slice(start, end);
    start = end;
    const width = Math.ceil(Math.max(...batch.map((i) => widths[i]!)) / 8) * 8;
    const input = new Float32Array(batch.length * 3 * REC_HEIGHT * width);
    batch.forEach((ri, b) => {
      writeStrip(image, frame, regions[ri]!, input, b * 3 * REC_HEIGHT * width, width, widths[ri]!);
    });
    const out = await session.run({
      [session.inputNames[0]!]: new ort.Tensor("float32", input, [batch.length, 3, REC_HEIGHT, width]),
    });
    const tensor = out[session.outputNames[0]!]!;
    const [, steps, classes] = tensor.dims as [number, number, number];
    const data = tensor.data as Float32Array;
    batch.forEach((ri, b) => {
      // Only the steps covering this strip (not the batch padding) belong to the region.
      const own = Math.min(steps, Math.ceil((widths[ri]! / width) * steps));
      const probs = new Float32Array(own * 96);
      for (let t = 0; t < own; t++) {
        const row = (b * steps + t) * classes;
        for (let k = 0; k < classes; k++) {
          const target = fold[k]!;
          if (target >= 0) probs[t * 96 + target] = probs[t * 96 + target]! + data[row + k]!;
        }
      }
      results[ri] = { steps: own, probs };
    });
  }
  return results;
}

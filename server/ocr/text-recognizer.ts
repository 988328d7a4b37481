import type * as ort from "onnxruntime-node";
import type { Raster } from "./raster";
import type { PageFrame, TextRegion } from "./text-regions";

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

/**
 * Where dictionary entries' probabilities go: ASCII itself, full-width forms folded to ASCII, CJK dropped. Only the
 * entries kept are listed (about 100 of 6,600), in dictionary order, so folding a step touches only them.
 */
export type FoldTable = { classes: Int32Array; targets: Int32Array };

export function foldTable(charset: string[]): FoldTable {
  const classes: number[] = [0];
  const targets: number[] = [0];
  charset.forEach((ch, i) => {
    if (i === 0 || ch.length !== 1) return;
    let code = ch.charCodeAt(0);
    if (code >= 0xff01 && code <= 0xff5e) code -= 0xfee0;
    else if (ch === "。" || ch === "·") code = 46;
    if (code < 32 || code >= 127) return;
    classes.push(i);
    targets.push(code - 31);
  });
  return { classes: Int32Array.from(classes), targets: Int32Array.from(targets) };
}

const inOrder = new Map<number, Int32Array>();
/** 0, 1, ..., n - 1: the columns of a recogniser output that holds only the fold's classes. */
const keptInOrder = (n: number) => {
  let columns = inOrder.get(n);
  if (!columns) {
    columns = Int32Array.from({ length: n }, (_, i) => i);
    inOrder.set(n, columns);
  }
  return columns;
};

/**
 * Crops a region from the page along the page's skew into the recogniser's normalised BGR strip layout: a bilinear
 * sample per strip pixel, written out inline because it runs for about two million pixels a page (through a helper
 * per pixel and channel it took as long as the recogniser itself). `out` is freshly zeroed, and zero is the
 * normalised padding, as in PaddleOCR's batching.
 */
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
  const { width: w, height: h, data } = image;
  const { cos, sin } = frame;
  const plane = REC_HEIGHT * width;
  const du = (r.u1 - r.u0) / stripWidth;
  const dv = (r.v1 - r.v0) / REC_HEIGHT;
  for (let j = 0; j < REC_HEIGHT; j++) {
    const v = r.v0 + (j + 0.5) * dv;
    for (let i = 0; i < stripWidth; i++) {
      const at = offset + j * width + i;
      const u = r.u0 + (i + 0.5) * du;
      const x = u * cos - v * sin;
      const y = u * sin + v * cos;
      if (x < 0 || y < 0 || x > w - 1 || y > h - 1) {
        // Outside the image reads as white paper.
        out[at] = out[at + plane] = out[at + 2 * plane] = 1;
        continue;
      }
      const x0 = Math.floor(x);
      const y0 = Math.floor(y);
      const fx = x - x0;
      const fy = y - y0;
      const p00 = (y0 * w + x0) * 3;
      const p01 = (y0 * w + Math.min(x0 + 1, w - 1)) * 3;
      const p10 = (Math.min(y0 + 1, h - 1) * w + x0) * 3;
      const p11 = (Math.min(y0 + 1, h - 1) * w + Math.min(x0 + 1, w - 1)) * 3;
      for (let c = 0; c < 3; c++) {
        // Channel order BGR: plane c holds RGB channel 2 - c.
        const k = 2 - c;
        const top = data[p00 + k]! * (1 - fx) + data[p01 + k]! * fx;
        const bottom = data[p10 + k]! * (1 - fx) + data[p11 + k]! * fx;
        out[at + c * plane] = ((top * (1 - fy) + bottom * fy) / 255 - 0.5) / 0.5;
      }
    }
  }
}

/**
 * Reads regions in width-sorted batches. `stretch` widens every strip beyond the region's own aspect ratio,
 * giving the recogniser more steps per character.
 */
export async function recognizeRegions(
  session: ort.InferenceSession,
  fold: FoldTable,
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
  // Loaded here, not at import: the server imports this module's constants and must not load the runtime (idle
  // memory, issue 30); in the reading child the models have loaded it already.
  const { Tensor } = await import("onnxruntime-node");
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
      [session.inputNames[0]!]: new Tensor("float32", input, [batch.length, 3, REC_HEIGHT, width]),
    });
    const tensor = out[session.outputNames[0]!]!;
    const [, steps, classes] = tensor.dims as [number, number, number];
    const data = tensor.data as Float32Array;
    // A recogniser that hands over only the kept columns (keep-output-columns.ts) has column n for class n of the
    // fold; one with the whole dictionary has every class in its own column.
    const column = classes === fold.classes.length ? keptInOrder(classes) : fold.classes;
    batch.forEach((ri, b) => {
      // Only the steps covering this strip (not the batch padding) belong to the region.
      const own = Math.min(steps, Math.ceil((widths[ri]! / width) * steps));
      const probs = new Float32Array(own * 96);
      for (let t = 0; t < own; t++) {
        const row = (b * steps + t) * classes;
        for (let n = 0; n < fold.classes.length; n++) {
          const target = t * 96 + fold.targets[n]!;
          probs[target] = probs[target]! + data[row + column[n]!]!;
        }
      }
      results[ri] = { steps: own, probs };
    });
  }
  return results;
}

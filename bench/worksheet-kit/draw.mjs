// Drawing values on the page: typed (print) or handwritten (a font drawn character by character with jitter).
import { setFont } from "./fonts.mjs";

export const W = 1654,
  H = 2339; // A4 @ 200 dpi
// Handwriting: draw character by character with jitter. Returns bbox.
export function drawHand(ctx, rng, text, x, y, style) {
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
    ctx.save();
    ctx.translate(cx, y + dy);
    ctx.rotate(rot);
    ctx.fillStyle = color;
    ctx.globalAlpha = 0.82 + rng.f(0, 0.18);
    ctx.fillText(ch, 0, 0);
    ctx.restore();
    cx += ctx.measureText(ch).width * (1 + rng.gauss() * 0.03) + (ch === " " ? size * 0.08 : size * 0.01);
    minY = Math.min(minY, y + dy - size);
    maxY = Math.max(maxY, y + dy + size * 0.3);
  }
  ctx.globalAlpha = 1;
  return { x0, y0: minY, x1: cx, y1: maxY };
}
export function drawPrintValue(ctx, text, x, y, style) {
  setFont(ctx, style.size, style.font);
  ctx.fillStyle = style.color;
  ctx.fillText(text, x, y);
  const w = ctx.measureText(text).width;
  return { x0: x, y0: y - style.size, x1: x + w, y1: y + style.size * 0.3 };
}

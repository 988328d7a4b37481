import { createCanvas } from "@napi-rs/canvas";
import type { InkMap } from "../ocr/digit-glyph";

export type Mark = { digit: string } | { sep: "/" | "." | "-" | " " } | { touchingSlash: "1" };

/**
 * A grey date crop (0 black .. 255 paper) written as a hand does: digits from a font, separators as pen strokes
 * (a slash leaning right, a low point, a dash at mid-height); `touchingSlash` draws a pen "1" with a slash
 * starting from its foot.
 */
export function dateCrop(marks: Mark[], options: { touchingDashes?: boolean } = {}): InkMap {
  const width = 40 + marks.length * 30;
  const canvas = createCanvas(width, 64);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#f2f2f2";
  ctx.fillRect(0, 0, width, 64);
  ctx.fillStyle = "#1a1a1a";
  ctx.strokeStyle = "#1a1a1a";
  ctx.lineWidth = 4;
  ctx.lineCap = "round";
  ctx.font = "40px DejaVu Sans";
  const base = 50;
  let x = 12;
  const slash = (at: number) => {
    ctx.beginPath();
    ctx.moveTo(at, base);
    ctx.lineTo(at + 14, base - 31);
    ctx.stroke();
  };
  for (const m of marks) {
    if ("digit" in m) {
      ctx.fillText(m.digit, x, base);
      x += ctx.measureText(m.digit).width + 3;
    } else if ("touchingSlash" in m) {
      // A pen "1" (one upright stroke) whose foot the slash after it starts from.
      ctx.beginPath();
      ctx.moveTo(x + 6, base - 30);
      ctx.lineTo(x + 5, base);
      ctx.stroke();
      slash(x + 6);
      x += 26;
    } else if (m.sep === "/") {
      slash(x + 2);
      x += 20;
    } else if (m.sep === ".") {
      ctx.beginPath();
      ctx.arc(x + 5, base - 3, 3, 0, Math.PI * 2);
      ctx.fill();
      x += 13;
    } else if (m.sep === "-") {
      // Touching: the dash runs into the digits on both sides.
      const reach = options.touchingDashes ? 9 : 0;
      ctx.beginPath();
      ctx.moveTo(x + 2 - reach, base - 15);
      ctx.lineTo(x + 16 + reach, base - 15);
      ctx.stroke();
      x += 20;
    } else x += 30;
  }
  const { data } = ctx.getImageData(0, 0, width, 64);
  const ink = new Float32Array(width * 64);
  for (let i = 0; i < ink.length; i++) ink[i] = data[i * 4]!;
  return { width, height: 64, ink };
}

export const parse = (text: string): Mark[] =>
  [...text].map((c) => (/\d/.test(c) ? { digit: c } : { sep: c as "/" | "." | "-" | " " }));

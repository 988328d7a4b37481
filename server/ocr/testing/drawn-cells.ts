import { type Canvas, createCanvas } from "@napi-rs/canvas";
import type { InkMap } from "../digit-glyph";

/** A blank cell crop, pale paper, for tests that draw a number's strokes by hand. */
export function blankCell(): Canvas {
  const canvas = createCanvas(160, 60);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#f0f0f0";
  ctx.fillRect(0, 0, 160, 60);
  ctx.strokeStyle = "#202020";
  ctx.fillStyle = "#202020";
  ctx.lineWidth = 4;
  return canvas;
}

/** "17" handwritten, the 7's bar starting on the 1's stroke. */
export function touchingSeventeen(): Canvas {
  const canvas = blankCell();
  const ctx = canvas.getContext("2d");
  ctx.beginPath();
  ctx.moveTo(36, 8);
  ctx.lineTo(32, 52);
  ctx.moveTo(37, 9);
  ctx.lineTo(68, 9);
  ctx.lineTo(50, 52);
  ctx.stroke();
  return canvas;
}

/** "66" written touching: one blob 1.3 digit heights wide, which the classifier reads whole as an 8. */
export function touchingSixtySix(): Canvas {
  const canvas = blankCell();
  const ctx = canvas.getContext("2d");
  ctx.font = "40px DejaVu Sans";
  ctx.fillText("6", 40, 48);
  ctx.fillText("6", 60, 48);
  return canvas;
}

/** The canvas as the reader's grey ink map (0 black .. 255 paper). */
export function inkOf(canvas: Canvas): InkMap {
  const { width, height } = canvas;
  const { data } = canvas.getContext("2d").getImageData(0, 0, width, height);
  const ink = new Float32Array(width * height);
  for (let i = 0; i < ink.length; i++) ink[i] = data[i * 4]!;
  return { width, height, ink };
}

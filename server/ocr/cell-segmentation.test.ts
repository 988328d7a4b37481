import { type Canvas, createCanvas } from "@napi-rs/canvas";
import { describe, expect, it } from "vitest";
import type { InkMap } from "./digit-glyph";
import { classifyCells } from "./digit-reading";

const argmax = (p: Float32Array) => p.indexOf(Math.max(...p));

function grey(canvas: Canvas): InkMap {
  const { width, height } = canvas;
  const { data } = canvas.getContext("2d").getImageData(0, 0, width, height);
  const ink = new Float32Array(width * height);
  for (let i = 0; i < ink.length; i++) ink[i] = data[i * 4]!;
  return { width, height, ink };
}

describe("a cell's strokes segmented and classified (issue 24)", () => {
  it("keeps a thin 1 whose stroke the next digit touches: 17 is two digits, not one", async () => {
    const canvas = createCanvas(160, 60);
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#f0f0f0";
    ctx.fillRect(0, 0, 160, 60);
    ctx.strokeStyle = "#202020";
    ctx.lineWidth = 4;
    ctx.beginPath();
    ctx.moveTo(36, 8);
    ctx.lineTo(32, 52);
    ctx.moveTo(37, 9);
    ctx.lineTo(68, 9);
    ctx.lineTo(50, 52);
    ctx.stroke();
    const [cell] = await classifyCells([grey(canvas)]);
    expect(cell?.chars.map((c) => c.kind)).toEqual(["glyph", "glyph"]);
    expect(cell?.probs.map((p) => argmax(p!))).toEqual([1, 7]);
  });

  it("keeps a 0 whole: its sides are not a 1 touching another digit", async () => {
    const canvas = createCanvas(160, 60);
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#f0f0f0";
    ctx.fillRect(0, 0, 160, 60);
    ctx.strokeStyle = "#202020";
    ctx.lineWidth = 4;
    ctx.beginPath();
    ctx.ellipse(50, 30, 15, 21, 0, 0, 2 * Math.PI);
    ctx.stroke();
    const [cell] = await classifyCells([grey(canvas)]);
    expect(cell?.chars.map((c) => c.kind)).toEqual(["glyph"]);
    expect(argmax(cell!.probs[0]!)).toBe(0);
  });

  it("reads a faint decimal point between two digits", async () => {
    const canvas = createCanvas(160, 60);
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#f0f0f0";
    ctx.fillRect(0, 0, 160, 60);
    ctx.fillStyle = "#202020";
    ctx.font = "40px DejaVu Sans";
    ctx.fillText("9", 20, 48);
    ctx.fillText("1", 70, 48);
    ctx.fillStyle = "#aaaaaa";
    ctx.beginPath();
    ctx.arc(58, 45, 2.5, 0, 2 * Math.PI);
    ctx.fill();
    const [cell] = await classifyCells([grey(canvas)]);
    expect(cell?.chars.map((c) => c.kind)).toEqual(["glyph", "point", "glyph"]);
  });
});

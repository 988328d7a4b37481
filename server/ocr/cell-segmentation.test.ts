import { describe, expect, it } from "vitest";
import { classifyCells } from "./digit-reading";
import { blankCell, inkOf, touchingSeventeen, touchingSixtySix } from "./testing/drawn-cells";

const argmax = (p: Float32Array) => p.indexOf(Math.max(...p));

describe("a cell's strokes segmented and classified (issue 24)", () => {
  it("keeps a thin 1 whose stroke the next digit touches: 17 is two digits, not one", async () => {
    const [cell] = await classifyCells([inkOf(touchingSeventeen())]);
    expect(cell?.chars.map((c) => c.kind)).toEqual(["glyph", "glyph"]);
    expect(cell?.probs.map((p) => argmax(p!))).toEqual([1, 7]);
  });

  it("keeps a 0 whole: its sides are not a 1 touching another digit", async () => {
    const canvas = blankCell();
    const ctx = canvas.getContext("2d");
    ctx.beginPath();
    ctx.ellipse(50, 30, 15, 21, 0, 0, 2 * Math.PI);
    ctx.stroke();
    const [cell] = await classifyCells([inkOf(canvas)]);
    expect(cell?.chars.map((c) => c.kind)).toEqual(["glyph"]);
    expect(argmax(cell!.probs[0]!)).toBe(0);
  });

  it("reads a faint decimal point between two digits", async () => {
    const canvas = blankCell();
    const ctx = canvas.getContext("2d");
    ctx.font = "40px DejaVu Sans";
    ctx.fillText("9", 20, 48);
    ctx.fillText("1", 70, 48);
    ctx.fillStyle = "#aaaaaa";
    ctx.beginPath();
    ctx.arc(58, 45, 2.5, 0, 2 * Math.PI);
    ctx.fill();
    const [cell] = await classifyCells([inkOf(canvas)]);
    expect(cell?.chars.map((c) => c.kind)).toEqual(["glyph", "point", "glyph"]);
  });

  it("offers a wide glyph cut in two where it may be two digits written touching (66 read whole as an 8)", async () => {
    const [cell] = await classifyCells([inkOf(touchingSixtySix())]);
    expect(cell?.chars.map((c) => c.kind)).toEqual(["glyph"]);
    expect(argmax(cell!.probs[0]!)).toBe(8);
    expect(cell?.split?.chars.map((c) => c.kind)).toEqual(["glyph", "glyph"]);
    expect(cell?.split?.probs.map((p) => argmax(p!))).toEqual([6, 6]);
  });

  it("offers no cut of glyphs as narrow as one digit", async () => {
    const canvas = blankCell();
    const ctx = canvas.getContext("2d");
    ctx.font = "40px DejaVu Sans";
    ctx.fillText("24", 40, 48);
    const [cell] = await classifyCells([inkOf(canvas)]);
    expect(cell?.probs.map((p) => argmax(p!))).toEqual([2, 4]);
    expect(cell?.split).toBeUndefined();
  });
});

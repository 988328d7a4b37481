import { describe, expect, it } from "vitest";
import { segmentCell } from "./cell-strokes";
import type { InkMap } from "./digit-glyph";
import { blankCell, inkOf, touchingSeventeen } from "./testing/drawn-cells";

/** A grey cell crop (0 black .. 255 paper) with `text` drawn and a table ruling across its top. */
function cell(text: string): InkMap {
  const canvas = blankCell();
  const ctx = canvas.getContext("2d");
  ctx.fillRect(0, 3, 160, 2);
  ctx.font = "40px DejaVu Sans";
  ctx.fillText(text, 20, 48);
  return inkOf(canvas);
}

describe("segmentCell", () => {
  it("finds the digits and the decimal point of a number, without the table ruling", () => {
    expect(segmentCell(cell("4.5"))?.map((c) => c.kind)).toEqual(["glyph", "point", "glyph"]);
    expect(segmentCell(cell("120"))?.map((c) => c.kind)).toEqual(["glyph", "glyph", "glyph"]);
  });

  it("finds a decimal point that a slanted digit's top overhangs, and one at the crop's lower edge", () => {
    // "7.4" written leaning right: the 7's bar reaches over the point, which the overlap rule alone joined to it.
    const canvas = blankCell();
    const ctx = canvas.getContext("2d");
    ctx.beginPath();
    ctx.moveTo(20, 10);
    ctx.lineTo(56, 10);
    ctx.lineTo(30, 50);
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(48, 53, 3, 0, 2 * Math.PI);
    ctx.fill();
    ctx.beginPath();
    ctx.moveTo(90, 10);
    ctx.lineTo(70, 38);
    ctx.lineTo(100, 38);
    ctx.moveTo(92, 22);
    ctx.lineTo(90, 52);
    ctx.stroke();
    expect(segmentCell(inkOf(canvas))?.map((c) => c.kind)).toEqual(["glyph", "point", "glyph"]);
  });

  it("finds nothing in an empty cell", () => {
    expect(segmentCell(cell(""))).toBeNull();
  });

  it("finds a decimal point too faint for the digits' threshold (a dot the photo's blur lightened)", () => {
    const canvas = blankCell();
    const ctx = canvas.getContext("2d");
    ctx.font = "40px DejaVu Sans";
    ctx.fillText("4", 20, 48);
    ctx.fillText("5", 70, 48);
    ctx.fillStyle = "#aaaaaa";
    ctx.beginPath();
    ctx.arc(58, 45, 2.5, 0, 2 * Math.PI);
    ctx.fill();
    expect(segmentCell(inkOf(canvas))?.map((c) => c.kind)).toEqual(["glyph", "point", "glyph"]);
  });

  it("cuts a thin leaning 1 from the digit it touches, where the cut is offered", () => {
    const canvas = touchingSeventeen();
    // Too narrow together for the width rule: one blob, unless the touching cut is asked for.
    expect(segmentCell(inkOf(canvas))?.map((c) => c.kind)).toEqual(["glyph"]);
    expect(segmentCell(inkOf(canvas), true)?.map((c) => c.kind)).toEqual(["glyph", "glyph"]);
  });
});

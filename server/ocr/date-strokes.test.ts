import { describe, expect, it } from "vitest";
import { dateCrop, parse } from "../test-support/date-crop";
import { segmentDate } from "./date-strokes";
import type { InkMap } from "./digit-glyph";

/** The segmented characters as text: digits as "d", separators as themselves, a likely slash as "/". */
const shapes = (crop: InkMap) =>
  segmentDate(crop)
    ?.map((c) => (c.kind === "glyph" ? (c.slash > 0.5 ? "/" : "d") : { point: ".", dash: "-", gap: " " }[c.kind]))
    .join("");

describe("segmentDate", () => {
  it("tells the separators from the digits", () => {
    expect(shapes(dateCrop(parse("03.04.1962")))).toBe("dd.dd.dddd");
    expect(shapes(dateCrop(parse("2025-01-06")))).toBe("dddd-dd-dd");
    expect(shapes(dateCrop(parse("23/09/23")))).toBe("dd/dd/dd");
    expect(shapes(dateCrop(parse("16 10 2022")))).toBe("dd dd dddd");
  });

  it("peels a slash off the digit it touches", () => {
    const crop = dateCrop([{ touchingSlash: "1" }, ...parse("11/1957")]);
    expect(shapes(crop)).toBe("d/dd/dddd");
  });

  it("cuts out a dash written touching the digits beside it", () => {
    const crop = dateCrop(parse("2022-02-22"), { touchingDashes: true });
    expect(shapes(crop)).toBe("dddd-dd-dd");
  });

  it("finds no date in an empty crop", () => {
    expect(segmentDate(dateCrop([]))).toBeNull();
  });
});

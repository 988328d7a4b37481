import { describe, expect, it } from "vitest";
import { DRAWING_VERSION, restoreDrawing, typedText } from "./drawing-document";
import { parseTypedMeasurements } from "./typed-measurements";

describe("restoreDrawing", () => {
  it("migrates version 0 strokes, fills defaults and keeps unknown properties", () => {
    const doc = restoreDrawing({
      strokes: [{ tool: "pen", points: [{ x: 0.1, y: 0.2 }], layer: "notes" }],
      title: "x",
    });
    expect(doc.version).toBe(DRAWING_VERSION);
    expect(doc.items).toHaveLength(1);
    expect(doc.items[0]).toMatchObject({ kind: "stroke", color: "#000000", size: 2, opacity: 1, layer: "notes" });
    expect(doc.items[0]!.kind === "stroke" && doc.items[0]!.points[0]!.pressure).toBe(0.5);
    expect(doc.title).toBe("x");
  });

  it("drops invalid items instead of guessing, and clamps coordinates", () => {
    const doc = restoreDrawing({
      version: 1,
      items: [
        { kind: "stroke", points: [] },
        { kind: "text", x: 2, y: -1, text: "PSV 250" },
        { kind: "text", x: 0.5, y: 0.5, text: "   " },
        7,
      ],
    });
    expect(doc.items).toEqual([{ kind: "text", x: 1, y: 0, text: "PSV 250", color: "#000000", size: 16 }]);
    expect(restoreDrawing("garbage")).toEqual({ version: 1, items: [] });
  });

  it("reads typed text top to bottom, left to right", () => {
    const doc = restoreDrawing({
      items: [
        { kind: "text", x: 0.5, y: 0.5, text: "second" },
        { kind: "text", x: 0.1, y: 0.1, text: "first" },
      ],
    });
    expect(typedText(doc)).toBe("first\nsecond");
  });
});

describe("parseTypedMeasurements", () => {
  it("reads sides, sites, segments, parameters and units", () => {
    expect(
      parseTypedMeasurements("R ICA prox PSV 250 EDV 80\nLeft CFV reflux 1.5 s\nAO diameter 52 mm\nRT ABI 0.8"),
    ).toEqual([
      { site: "ICA_PROX", side: "right", parameter: "PSV", value: 250, unit: "cm/s" },
      { site: "ICA_PROX", side: "right", parameter: "EDV", value: 80, unit: "cm/s" },
      { site: "CFV", side: "left", parameter: "REFLUX_MS", value: 1500, unit: "ms" },
      { site: "AO", side: null, parameter: "DIAMETER_MM", value: 52, unit: "mm" },
      { site: "ANKLE", side: "right", parameter: "ABI", value: 0.8, unit: "" },
    ]);
  });

  it("ignores statements without a site or a number", () => {
    expect(parseTypedMeasurements("PSV 250\nR ICA PSV high\nplaque noted")).toEqual([]);
  });
});

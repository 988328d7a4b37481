import { describe, expect, it } from "vitest";
import { checkOrder, compareOnSheet, groupRows, nextInOrder } from "./checking-order";
import type { MeasurementRow } from "./measurement-rows";

const row = (
  key: string,
  side: MeasurementRow["side"],
  y: number | null,
  confidence: number | null = 0.95,
  x = 100,
): MeasurementRow => ({
  key,
  site: "ICA_PROX",
  side,
  parameter: "PSV",
  valueText: "100",
  unit: "cm/s",
  confidence,
  readAs: "100",
  box: y === null ? null : { page: 0, x, y, width: 40, height: 20 },
  edited: confidence === null,
});

describe("checking order", () => {
  it("groups by side in the worksheet's order, rows added by hand last", () => {
    const rows = [
      row("l2", "left", 400),
      row("r2", "right", 300),
      row("added", "right", null, null),
      row("r1", "right", 100),
      row("mid", null, 50),
      row("l1", "left", 200),
      row("r-nobox", "right", null),
    ];
    const groups = groupRows(rows);
    expect(groups.map((g) => [g.label, g.rows.map((r) => r.key)])).toEqual([
      ["Right", ["r1", "r2", "r-nobox"]],
      ["Left", ["l1", "l2"]],
      ["No side (midline)", ["mid"]],
      ["Added by hand", ["added"]],
    ]);
  });

  it("reads one line left to right even when the handwriting is not level", () => {
    const a = { page: 0, x: 300, y: 100, width: 40, height: 20 };
    const b = { page: 0, x: 100, y: 106, width: 40, height: 20 };
    const below = { page: 0, x: 0, y: 140, width: 40, height: 20 };
    expect(compareOnSheet(b, a)).toBeLessThan(0);
    expect(compareOnSheet(a, below)).toBeLessThan(0);
    expect(compareOnSheet({ ...below, page: 1, y: 0 }, a)).toBeGreaterThan(0);
  });

  it("walks low-confidence values first, then the rest, and wraps", () => {
    const groups = groupRows([row("r1", "right", 100), row("r2", "right", 200, 0.5), row("l1", "left", 100, 0.6)]);
    const order = checkOrder(groups);
    expect(order).toEqual(["r2", "l1", "r1"]);
    expect(nextInOrder(order, "r2", 1)).toBe("l1");
    expect(nextInOrder(order, "r1", 1)).toBe("r2");
    expect(nextInOrder(order, "r2", -1)).toBe("r1");
    expect(nextInOrder(order, "gone", 1)).toBe("r2");
    expect(nextInOrder([], "x", 1)).toBeNull();
  });
});

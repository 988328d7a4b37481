import { describe, expect, it } from "vitest";
import { MEASUREMENT_RANGES, plausibility } from "./measurement-ranges";

describe("plausibility", () => {
  it("knows the issue's examples: a 91 mm vein, a 91 s reflux, a PSV of 9000 cm/s cannot be", () => {
    expect(plausibility("DIAMETER_MM", 91)).toBe("impossible");
    expect(plausibility("REFLUX_MS", 91_000)).toBe("impossible");
    expect(plausibility("PSV", 9000)).toBe("impossible");
  });

  it("finds usual values usual, severe ones included", () => {
    expect(plausibility("DIAMETER_MM", 9.1)).toBe("usual");
    expect(plausibility("REFLUX_MS", 4500)).toBe("usual");
    expect(plausibility("PSV", 460)).toBe("usual");
    expect(plausibility("EDV", 160)).toBe("usual");
  });

  it("doubts possible but unusual values", () => {
    expect(plausibility("DIAMETER_MM", 31)).toBe("unusual");
    expect(plausibility("REFLUX_MS", 8000)).toBe("unusual");
    expect(plausibility("PSV", 650)).toBe("unusual");
  });

  it("has no opinion on parameters without a range", () => {
    expect(plausibility("ABI", 0.4)).toBe("usual");
  });

  it("keeps each usual range inside its possible one", () => {
    for (const range of Object.values(MEASUREMENT_RANGES)) {
      expect(range.usual.min).toBeGreaterThanOrEqual(range.possible.min);
      expect(range.usual.max).toBeLessThanOrEqual(range.possible.max);
    }
  });
});

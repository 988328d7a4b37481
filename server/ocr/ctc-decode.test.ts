import { describe, expect, it } from "vitest";
import { ctcDecode } from "./ctc-decode";
import { syntheticRegion } from "./synthetic-region";

describe("ctcDecode", () => {
  it("reads every printable character without an alphabet", () => {
    expect(ctcDecode(syntheticRegion("DOB: 02/08/69", { u: 0, v: 0 }).matrix).text).toBe("DOB: 02/08/69");
  });

  it("folds look-alike letters into the digits a numeric field allows", () => {
    const region = syntheticRegion("1O4", { u: 0, v: 0 });
    expect(ctcDecode(region.matrix).text).toBe("1O4");
    expect(ctcDecode(region.matrix, "0123456789").text).toBe("104");
  });

  it("prefers an allowed character that is the runner-up", () => {
    const region = syntheticRegion("7a", { u: 0, v: 0 }, 0.6, { 1: { char: "9", prob: 0.3 } });
    expect(ctcDecode(region.matrix, "0123456789").text).toBe("79");
  });

  it("lowers confidence when one character is doubtful", () => {
    const sure = ctcDecode(syntheticRegion("118", { u: 0, v: 0 }, 0.99).matrix, "0123456789");
    const doubtful = ctcDecode(
      syntheticRegion("118", { u: 0, v: 0 }, 0.99, { 1: { char: "7", prob: 0 } }).matrix,
      "0123456789",
    );
    expect(sure.confidence).toBeGreaterThan(0.9);
    // Mean of (0.99, 0.25, 0.99) would be 0.74; the weakest character caps it at sqrt(0.25).
    const weakMiddle = syntheticRegion("118", { u: 0, v: 0 }, 0.99);
    weakMiddle.matrix.probs[3 * 96 + 18] = 0.25;
    weakMiddle.matrix.probs[3 * 96] = 0.2;
    expect(ctcDecode(weakMiddle.matrix, "0123456789").confidence).toBeLessThanOrEqual(0.5);
    expect(doubtful.text).toBe("118");
  });

  it("decodes only the requested steps", () => {
    const region = syntheticRegion("DOB:12", { u: 0, v: 0 });
    expect(ctcDecode(region.matrix, "0123456789", 8).text).toBe("12");
  });
});

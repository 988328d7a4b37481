import { describe, expect, it } from "vitest";
import { appendSnippet } from "./report-fields";

describe("appendSnippet", () => {
  it("replaces an empty or 'Not stated.' indication", () => {
    expect(appendSnippet("Not stated.", "Transient ischaemic attack.", "indication")).toBe(
      "Transient ischaemic attack.",
    );
    expect(appendSnippet("  Not stated. \n", "TIA.", "indication")).toBe("TIA.");
    expect(appendSnippet("", "TIA.", "indication")).toBe("TIA.");
  });

  it("appends after a blank line to text already there", () => {
    expect(appendSnippet("Recurrent varices.", "Pain.", "indication")).toBe("Recurrent varices.\n\nPain.");
    // Only the Indication's placeholder is replaced.
    expect(appendSnippet("Not stated.", "Normal.", "impression")).toBe("Not stated.\n\nNormal.");
  });
});

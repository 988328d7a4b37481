import { describe, expect, it } from "vitest";
import { clampPosition, pageOfPosition, pagesToPrefetch } from "./report-navigation";

describe("editor navigation across pages of 12", () => {
  it("maps a position of the whole list to its page", () => {
    expect(pageOfPosition(0)).toBe(1);
    expect(pageOfPosition(11)).toBe(1);
    expect(pageOfPosition(12)).toBe(2);
    expect(pageOfPosition(25)).toBe(3);
  });

  it("after a deletion shows the next report, at the end the previous one, and nothing when empty", () => {
    expect(clampPosition(11, 13)).toBe(11);
    expect(clampPosition(13, 13)).toBe(12);
    expect(clampPosition(0, 0)).toBeNull();
    expect(clampPosition(-1, 5)).toBe(0);
  });

  it("fetches ahead only the neighbouring page across a boundary", () => {
    expect(pagesToPrefetch(5, 30)).toEqual([]);
    expect(pagesToPrefetch(11, 30)).toEqual([2]);
    expect(pagesToPrefetch(12, 30)).toEqual([1]);
    expect(pagesToPrefetch(11, 12)).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { hasFilters, listQueryOf, queryOfView, viewFromQuery } from "./report-list-view";

describe("the Reports list in the address bar", () => {
  it("round-trips every filter, the sort and the page", () => {
    const query =
      "?search=smith&status=awaiting_signature&physicianId=4&scanType=Carotid+Duplex&examFrom=2026-11-01&examTo=2026-11-30&sort=exam_asc&page=3";
    const view = viewFromQuery(query);
    expect(view).toEqual({
      search: "smith",
      status: "awaiting_signature",
      physicianId: 4,
      scanType: "Carotid Duplex",
      examFrom: "2026-11-01",
      examTo: "2026-11-30",
      sort: "exam_asc",
      page: 3,
    });
    expect(queryOfView(view)).toBe(query);
    expect(listQueryOf(view)).not.toContain("page=");
    expect(hasFilters(view)).toBe(true);
  });

  it("is the plain list with nothing set, and drops what it does not know", () => {
    const plain = viewFromQuery("");
    expect(queryOfView(plain)).toBe("");
    expect(hasFilters(plain)).toBe(false);
    const odd = viewFromQuery("?status=lost&physicianId=-2&examFrom=5/11/2026&sort=name&page=0");
    expect(odd).toEqual(plain);
  });

  it("keeps the critical, not communicated filter (issue 26) as the API spells it", () => {
    const view = viewFromQuery("?critical=uncommunicated");
    expect(view.critical).toBe(true);
    expect(listQueryOf(view)).toBe("critical=uncommunicated");
    expect(hasFilters(view)).toBe(true);
    expect(viewFromQuery("?critical=yes").critical).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import { WEBSITE_MESSAGE, websiteAddress } from "./clinic";

describe("a clinic's website", () => {
  it("keeps an http(s) address and completes one typed without its scheme", () => {
    expect(websiteAddress.parse("https://www.riverside-vascular.com/contact")).toBe(
      "https://www.riverside-vascular.com/contact",
    );
    expect(websiteAddress.parse("http://clinic.example")).toBe("http://clinic.example");
    expect(websiteAddress.parse("www.clinic.co.uk")).toBe("https://www.clinic.co.uk");
  });

  it("clears with empty text and leaves the field alone when not sent", () => {
    expect(websiteAddress.parse("")).toBeNull();
    expect(websiteAddress.parse(undefined)).toBeUndefined();
  });

  it("refuses what is not a web address, in words staff understand", () => {
    for (const bad of ["not a url", "javascript:alert(1)", "ftp://clinic.example", "clinic", "https://localhost"]) {
      const parsed = websiteAddress.safeParse(bad);
      expect(parsed.success, bad).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(WEBSITE_MESSAGE);
    }
  });
});

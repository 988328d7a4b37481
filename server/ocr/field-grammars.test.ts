import { describe, expect, it } from "vitest";
import { joinNameParts, parseFreeText, parseMrn, parsePersonName, parseSex } from "./field-grammars";

describe("header field grammars", () => {
  it("normalises sex to male, female or other, and nothing else", () => {
    expect(["M", "m", "Male", "MALE", "Fernale", "F", "female", "X", "Other"].map(parseSex)).toEqual([
      "male",
      "male",
      "male",
      "male",
      "female",
      "female",
      "female",
      "other",
      "other",
    ]);
    expect(parseSex("63")).toBeNull();
    expect(parseSex("Outpatient")).toBeNull();
  });

  it("keeps a record number as written, its look-alike letters read as digits", () => {
    expect(parseMrn("MRN383901")).toBe("MRN383901");
    expect(parseMrn("UR 4392l7")).toBe("UR439217");
    expect(parseMrn("123-456-789")).toBe("123-456-789");
    expect(parseMrn(": 98O2436")).toBe("9802436");
    expect(parseMrn("Outpatient")).toBeNull();
    expect(parseMrn("12")).toBeNull();
  });

  it("keeps free text as written, without the label's colon or a zero read for an o", () => {
    expect(parseFreeText(": RECURRENT VARICES")).toBe("RECURRENT VARICES");
    expect(parseFreeText("R ICA PSV 120 cm/s n0 sig. sten0sis")).toBe("R ICA PSV 120 cm/s no sig. stenosis");
    expect(parseFreeText("50-69%")).toBeNull();
    expect(parseFreeText(" - ")).toBeNull();
  });

  it("reads a person's name or initials, never a number", () => {
    expect(parsePersonName(":Dr L.Moreau")).toBe("Dr L. Moreau");
    expect(parsePersonName("KL")).toBe("KL");
    expect(parsePersonName("0412 555 123")).toBeNull();
  });

  it("joins a name written as surname and given names", () => {
    expect(joinNameParts("DAVIS", "Elizabeth")).toBe("DAVIS, Elizabeth");
    expect(joinNameParts(null, "Elizabeth")).toBe("Elizabeth");
  });
});

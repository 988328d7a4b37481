import { describe, expect, it } from "vitest";
import { extractSheetFields } from "./field-extraction";
import { syntheticRegion as at } from "./synthetic-region";

const now = new Date("2026-12-31T12:00:00Z");

/** Other clinics' header forms (form-family --clinic-forms), cases found on their sheets (issue 23, clinicforms). */
describe("dates of birth with an age beside them on other clinics' forms", () => {
  it("keeps the year's last digit when an age region overlaps the date's end ('05/10/1950' under ')(70y)')", () => {
    // The age's region starts over the date's last "0": the date's span is cut there, and must run on over it.
    const regions = [at("D.O.B. / Age (MM/DD/YYYY): 05/10/1950", { u: 100, v: 300 }), at(")(70y)", { u: 530, v: 300 })];
    expect(extractSheetFields(regions, now).patientDob.value).toBe("1950-05-10");
  });

  it("reads 'D.O.B. / Age (DD/MM/YYYY)' in a box's corner as the label of the date under it", () => {
    const regions = [
      at("D.O.B. / Age (DD/MM/YYYY)", { u: 120, v: 451, h: 31 }),
      at("04/08/2005 Age 19", { u: 126, v: 490, h: 36 }),
    ];
    expect(extractSheetFields(regions, now).patientDob.value).toBe("2005-08-04");
  });
});

/** Regions one after another on a line, from `u`, a word's gap apart. */
const line = (texts: string[], v: number, u = 100) =>
  texts.map((text) => {
    const region = at(text, { u, v });
    u += text.length * 12 + 20;
    return region;
  });

describe("handwritten dates with the month's name on photos of other clinics' forms", () => {
  it("reads a named month misspelt by the recogniser", () => {
    expect(extractSheetFields(line(["Born:", "12 Febray 1946"], 300), now).patientDob.value).toBe("1946-02-12");
  });

  it("reads no date rather than a month's letters taken for digits", () => {
    // Before: "19 Novembxr 19" read 2019-06-19, "3 Jnuay 1950" read 1950-04-03.
    expect(extractSheetFields(line(["Born:", "19 Novembxr 19"], 300), now).patientDob.value).toBeNull();
    expect(extractSheetFields(line(["Born:", "3 Jnuay 1950"], 300), now).patientDob.value).toBeNull();
  });

  it("drops an age the photo's detector cut into regions of their own after the date ('Age' '78', '(56')", () => {
    const pieces = line(["DOB/Age (MM/DD/YYYY):", "04/17/1942", "Age", "78"], 300);
    expect(extractSheetFields(pieces, now).patientDob.value).toBe("1942-04-17");
    expect(extractSheetFields(line(["Date of birth / Age:", "Dec 17, 1963", "(56"], 300), now).patientDob.value).toBe(
      "1963-12-17",
    );
    // In the date's own region, its bracket left open or after a month's name and no separator.
    expect(extractSheetFields(line(["DOB/Age:", "Dec 17, 1963 (56"], 300), now).patientDob.value).toBe("1963-12-17");
    expect(extractSheetFields(line(["DOB/Age:", "17DECEMBER2003(17 YRS)"], 300), now).patientDob.value).toBe(
      "2003-12-17",
    );
  });
});

describe("sex circled among printed choices on photos of other clinics' forms", () => {
  it("reads the choices 'M' '/F' as the value, not as an 'M/F' label ending the field", () => {
    const m = at("M", { u: 706, v: 340, w: 39, h: 23 });
    const f = at("/F", { u: 742, v: 337, w: 46, h: 27 });
    m.choiceRings = [{ u0: 706, u1: 744 }];
    f.choiceRings = [{ u0: 705, u1: 742 }];
    const regions = [at("Sex", { u: 659, v: 337, w: 59 }), m, f, at("Performed by JM", { u: 658, v: 380 })];
    expect(extractSheetFields(regions, now).sex.value).toBe("male");
  });

  it("takes the ringed choice when the other was read in the label's own region ('Gender:M' then a ringed 'F')", () => {
    const f = at("F", { u: 1057, v: 632, w: 33 });
    f.choiceRings = [{ u0: 1047, u1: 1096 }];
    const regions = [at("Gender:M", { u: 845, v: 630, w: 154, h: 38 }), f];
    expect(extractSheetFields(regions, now).sex.value).toBe("female");
    // The ring round the label region's "M" ("GENDER:M/" then "/F"), seen from the "/F".
    const slashF = at("/F", { u: 306, v: 1568, w: 41 });
    slashF.choiceRings = [{ u0: 258, u1: 306 }];
    const label = at("GENDER:M/", { u: 143, v: 1565, w: 181, h: 40 });
    expect(extractSheetFields([label, slashF], now).sex.value).toBe("male");
  });

  it("gives no answer for one choice and its slash, the other unread ('Gender:M/')", () => {
    expect(extractSheetFields([at("Gender:M/", { u: 661, v: 568 })], now).sex.value).toBeNull();
    expect(extractSheetFields(line(["Sex:", "/F"], 300), now).sex.value).toBeNull();
    // A bracket the circle left at the read choice still answers.
    expect(extractSheetFields(line(["Sex:", "(M/"], 300), now).sex.value).toBe("male");
  });
});

describe("split names on photos of other clinics' forms", () => {
  it("reads a surname in capitals written against its label ('Family nameHENDERSON')", () => {
    const regions = [
      at("Family nameHENDERSON", { u: 150, v: 486, h: 56 }, 0.99),
      at("Given name: Richard", { u: 822, v: 484, h: 63 }, 0.99),
    ];
    expect(extractSheetFields(regions, now).patientName.value).toBe("HENDERSON, Richard");
  });
});

/** Cases found on the photos of the tuning seeds 2323, 4545 and 7171 (issue 23, formphotos). */
describe("photos of other clinics' header forms", () => {
  it("reads a date from its label's region when the date's own crop lost its first digit", () => {
    const label = at("Date of Service (MM/DD/YYYY): 11/06/2020", { u: 100, v: 300 });
    label.value = at(":1/06/2020", { u: 400, v: 300 });
    expect(extractSheetFields([label], now).examDate.value).toBe("2020-11-06");
    // An own crop that read the date whole is still the one read.
    label.value = at("11/08/2020", { u: 400, v: 300 });
    expect(extractSheetFields([label], now).examDate.value).toBe("2020-11-08");
  });

  it("ends a label's remark at its colon when the photo lost its ')' (the next field's label is cut off)", () => {
    const regions = [at("Name (Last,First:RODRIGUEZ Nancy Reason for exam:", { u: 100, v: 300 })];
    expect(extractSheetFields(regions, now).patientName.value).toBe("RODRIGUEZ Nancy");
  });
});

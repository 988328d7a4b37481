import { describe, expect, it } from "vitest";
import { ocrResult } from "../features/reports/report-test-fixtures";
import { aliasActive, correctionsOf, labelWordingOf } from "./reading-corrections";

const now = new Date("2026-11-22T12:00:00Z");

describe("what the clinician corrected in a reading", () => {
  const read = ocrResult({
    fields: {
      ...ocrResult().fields,
      patientName: { value: "ROE, Jane", confidence: 0.9, box: null },
      mrn: { value: "A1234", confidence: 0.8, box: null },
      sex: { value: "male", confidence: 0.7, box: null },
    },
  });

  it("is each field whose checked value differs from the reading (names in any order, case aside)", () => {
    const corrections = correctionsOf(read, {
      patientName: "Jane Roe",
      patientDob: "1950-04-02",
      examDate: "2024-03-16",
      mrn: "a1234",
      sex: "female",
      indication: "TIA",
      comments: "",
    });
    expect(corrections.map((c) => c.field)).toEqual(["examDate", "sex", "indication"]);
    expect(corrections[0]).toMatchObject({ read: "2024-03-15", corrected: "2024-03-16" });
    expect(corrections[2]).toMatchObject({ read: null, corrected: "TIA" });
  });

  it("counts a value read where the clinician left the field empty", () => {
    expect(correctionsOf(read, { mrn: "" })).toEqual([{ field: "mrn", read: "A1234", corrected: null, box: null }]);
  });

  it("leaves out a field the machine's DICOM SR filled beside the sheet: OCR did not read it", () => {
    const merged = ocrResult({
      fields: { ...read.fields, mrn: { value: "MRN-4471", confidence: 1, box: null, source: "DICOM SR" } },
    });
    expect(correctionsOf(merged, { mrn: "MRN-4472", sex: "female" }).map((c) => c.field)).toEqual(["sex"]);
  });
});

describe("the label wording a corrected value stood after", () => {
  const page = [
    "HILLCREST VASCULAR ASSOCIATES",
    "Client: Ashley R. Lewis   Natal day: 02/08/1969",
    "Sent by:",
    "Dr K. Osei",
    "Carotid bruit heard on the left side today",
    "Vessel Rt PSV Lt PSV",
  ].join("\n");

  it("is the label before the value on its line", () => {
    expect(labelWordingOf(page, "patientName", "Ashley Lewis", now)).toBeNull(); // a middle initial missing: not the value
    expect(labelWordingOf(page, "patientName", "Ashley R. Lewis", now)).toBe("client");
    expect(labelWordingOf(page, "patientName", "Lewis, Ashley R.", now)).toBe("client");
    // After another field's value on the same line: the label is the words after that value.
    expect(labelWordingOf(page, "patientDob", "1969-08-02", now, ["Ashley R. Lewis"])).toBe("natalday");
    const twoFields = "Natal day: 27.10.1986 Male/Female: M Visit 0n: 08.07.22";
    expect(labelWordingOf(twoFields, "examDate", "2022-07-08", now)).toBe("visiton");
  });

  it("is the label on the line above a value that stands alone", () => {
    expect(labelWordingOf(page, "referringPhysician", "Dr K. Osei", now)).toBe("sentby");
  });

  it("finds a sex written as a letter, and words written against punctuation", () => {
    expect(labelWordingOf("Male/Female: M Visit on: 08.07.22", "sex", "male", now)).toBe("malefemale");
    const comments = "Observations:\nR ICA PSV 456 cm/s c/w 70-99% stenosis";
    expect(labelWordingOf(comments, "comments", "R ICA PSV 456 cm/s c/w 70-99% stenosis", now)).toBe("observations");
  });

  it("finds a value read one letter off", () => {
    const misread = "Client: Ashley R. Lewls";
    expect(labelWordingOf(misread, "patientName", "Ashley R. Lewis", now)).toBe("client");
  });

  it("is none when the value is not on the page or follows no label", () => {
    expect(labelWordingOf(page, "patientName", "Karen Taylor", now)).toBeNull();
    // A title above a value that stands alone is no label.
    expect(labelWordingOf("CAROTID DUPLEX WORKSHEET\nKaren Taylor", "patientName", "Karen Taylor", now)).toBeNull();
    expect(labelWordingOf(page, "indication", "left side today", now)).toBeNull();
    const sentence = "Seen on 12/03/2024 with Ashley R. Lewis";
    expect(labelWordingOf(sentence, "patientName", "Ashley R. Lewis", now)).toBeNull();
  });
});

describe("when a wording becomes an alias of the clinic", () => {
  it("at once for a wording the lexicon does not know", () => {
    expect(aliasActive("client", "patientName", 1)).toBe(true);
  });
  it("after two corrections for a wording the lexicon gives to another field", () => {
    expect(aliasActive("date", "patientDob", 1)).toBe(false);
    expect(aliasActive("date", "patientDob", 2)).toBe(true);
    expect(aliasActive("ward", "mrn", 2)).toBe(true);
  });
  it("never for a wording the lexicon already gives to that field", () => {
    expect(aliasActive("dob", "patientDob", 9)).toBe(false);
    expect(aliasActive("surname", "patientName", 9)).toBe(false);
  });
});

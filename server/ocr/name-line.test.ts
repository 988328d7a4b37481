import { describe, expect, it } from "vitest";
import { extractSheetFields } from "./field-extraction";
import { isNameShaped } from "./name-line";
import { syntheticRegion as at } from "./synthetic-region";

const now = new Date("2026-11-22T12:00:00Z");

/** A sheet with no name label: a clinic header, a line, dates with their labels, and a measurement table. */
function sheet(top: ReturnType<typeof at>[]) {
  return [
    ...top,
    at("DOB:", { u: 100, v: 400 }),
    at("02/08/1969", { u: 170, v: 400 }),
    at("Exam date:", { u: 600, v: 400 }),
    at("19/09/2026", { u: 760, v: 400 }),
    at("Vessel", { u: 100, v: 600 }),
    at("Rt PSV", { u: 400, v: 600 }),
    at("Lt PSV", { u: 600, v: 600 }),
    at("CCA", { u: 100, v: 660 }),
    at("85", { u: 420, v: 660 }),
    at("90", { u: 620, v: 660 }),
    at("ICA Prox", { u: 100, v: 720 }),
    at("110", { u: 420, v: 720 }),
    at("95", { u: 620, v: 720 }),
    at("Sonographer signature", { u: 100, v: 1400 }),
  ];
}

describe("a patient's name without a label: the one name-shaped line near the top", () => {
  it("reads a line that is a name and nothing else, shown for checking", () => {
    const fields = extractSheetFields(
      sheet([at("RIVERSIDE VASCULAR LABORATORY", { u: 300, v: 100 }), at("Ashley R. Lewis", { u: 100, v: 300 })]),
      now,
    );
    expect(fields.patientName.value).toBe("Ashley R. Lewis");
    expect(fields.patientName.confidence).toBeLessThan(0.7);
    expect(fields.patientDob.value).toBe("1969-08-02");
  });

  it("never takes the clinic's name, a title, a doctor or an address for the patient", () => {
    for (const line of [
      "Hillcrest Vascular Associates",
      "Carotid Duplex Scan",
      "Dr Anna Reid",
      "Westmead Imaging Group",
      "Valley Heart Vascular",
      "Harbour Street Sydney",
    ]) {
      const fields = extractSheetFields(sheet([at(line, { u: 300, v: 100 })]), now);
      expect(fields.patientName.value, line).toBeNull();
    }
  });

  it("reads no name when two lines could be it, or the only one is a labelled field's value", () => {
    const two = sheet([at("Ashley Lewis", { u: 100, v: 200 }), at("Karen Taylor", { u: 100, v: 300 })]);
    expect(extractSheetFields(two, now).patientName.value).toBeNull();
    // An unknown label's value may be anyone's (a next of kin): the clinician's correction teaches the label.
    const labelled = sheet([at("Contact:", { u: 100, v: 300 }), at("Karen Taylor", { u: 220, v: 300 })]);
    expect(extractSheetFields(labelled, now).patientName.value).toBeNull();
  });

  it("leaves an empty name label empty: the page has a name field and it holds nothing", () => {
    const empty = sheet([at("Patient Name:", { u: 100, v: 300 }), at("Karen Taylor", { u: 100, v: 100 })]);
    expect(extractSheetFields(empty, now).patientName.value).toBeNull();
  });

  it("looks only near the top: a name at the foot of the page (a signature) is not the patient's", () => {
    const regions = sheet([]);
    regions.push(at("Karen Taylor", { u: 100, v: 1500 }));
    expect(extractSheetFields(regions, now).patientName.value).toBeNull();
  });
});

describe("the shape of a name", () => {
  it.each(["Ashley R. Lewis", "LEWIS, Ashley", "Mary-Jane O'Brien", "KAREN TAYLOR"])("%s is a name", (text) => {
    expect(isNameShaped(text)).toBe(true);
  });
  it.each([
    "Ashley",
    "ashley lewis",
    "Name Ashley Lewis",
    "Ashley Lewis 1969",
    "Patient: Ashley Lewis",
    "Qzxv Wrtp",
    "St. Brendan Vascular Imaging",
    "Northgate Vein & Artery Clinic",
  ])("%s is not", (text) => {
    expect(isNameShaped(text)).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { fieldOfLabel, lexiconFieldOf, matchLabel } from "./field-labels";
import { syntheticRegion } from "./synthetic-region";

describe("the field a printed label names on a blank form (one lexicon with the reader's)", () => {
  it.each([
    ["Patient Name:", "patientName"],
    ["Pt Name", "patientName"],
    ["Patient Name (Surname, Given):", "patientName"],
    ["Surname:", "patientName"],
    ["D.O.B.", "patientDob"],
    ["D.0.B.", "patientDob"],
    ["Birth Date:", "patientDob"],
    ["Date of Scan", "examDate"],
    ["Date:", "examDate"],
    ["Ref Dr:", "referringPhysician"],
    ["UR No.", "mrn"],
    ["Hospital no.:", "mrn"],
    ["Gender:", "sex"],
    ["Clinical history:", "indication"],
    ["Sonographer initials:", "sonographer"],
    ["Notes:", "comments"],
    ["Findings:", "comments"],
    ["Patent Name:", "patientName"],
  ])("%s names %s", (text, field) => {
    expect(fieldOfLabel(text)).toBe(field);
  });

  it.each([
    "Given names:", // a name in two fields has one zone, the surname's
    "FINDINGS", // a section heading, not a label without its colon
    "Age:",
    "Patient Name: Ashley Lewis", // a label with a value is not a blank label
    "DOB 12/03/1970",
    "Right ICA",
    "RIVERSIDE VASCULAR LAB",
  ])("%s names no field", (text) => {
    expect(fieldOfLabel(text)).toBeNull();
  });

  it("takes the clinic's own wording first, even over the lexicon's meaning", () => {
    expect(fieldOfLabel("Client:")).toBeNull();
    expect(fieldOfLabel("Client:", [{ wording: "client", field: "patientName" }])).toBe("patientName");
    expect(fieldOfLabel("Date:", [{ wording: "date", field: "patientDob" }])).toBe("patientDob");
  });

  it("says whether the lexicon knows a wording and for which field", () => {
    expect(lexiconFieldOf("dob")).toBe("patientDob");
    expect(lexiconFieldOf("age")).toBeNull();
    expect(lexiconFieldOf("client")).toBeUndefined();
  });
});

describe("labels of other clinics' wordings (issue 23, third session)", () => {
  it.each([
    ["GP / Referrer:", "referringPhysician"],
    ["Referring GP", "referringPhysician"],
    ["Sonographer notes:", "comments"],
    ["Patient name / ID:", "patientName"],
    ["Date of birth (DD/MM/YY)", "patientDob"],
  ])("%s names %s", (text, field) => {
    expect(fieldOfLabel(text)).toBe(field);
  });
});

describe("labels with their value against them on photos", () => {
  const hit = (text: string) => {
    const region = syntheticRegion(text, { u: 0, v: 0 }, 0.9);
    const found = matchLabel(region);
    const valueFrom = region.read.chars.find((c) => c.step > (found?.endStep ?? Number.POSITIVE_INFINITY));
    return {
      field: found?.field,
      value: valueFrom ? region.read.text.slice(region.read.chars.indexOf(valueFrom)) : "",
    };
  };

  it("ends the label before one capital ending its region, the overlapping value's first letter", () => {
    expect(hit("Patient NameP")).toEqual({ field: "patientName", value: "P" });
    // A small letter is no value's capital: "Patient" is the label, "Namep" its value (as before).
    expect(hit("Patient Namep")).toEqual({ field: "patientName", value: "Namep" });
  });

  it("takes a long label one letter off without its colon when capitals run against it", () => {
    expect(hit("Refering physicianDRICHEN")).toEqual({ field: "referringPhysician", value: "DRICHEN" });
    expect(hit("Refering physician DRICHEN").field).toBeUndefined();
  });

  it.each([
    ["Date of Bith: 17/5/1995", "17/5/1995"],
    ["Date of Birt: 17/5/1995", "17/5/1995"],
    ["Date ot Birth: 17/5/1995", "17/5/1995"],
    ["Date of Bjrth 17/5/1995", "17/5/1995"],
    ["Date of Bith 17/5/1995", "17/5/1995"],
  ])("takes %s, one letter off, for the birth date's label, not the exam's 'Date'", (text, value) => {
    expect(hit(text)).toEqual({ field: "patientDob", value });
  });

  it("keeps an exam date's own label when a longer one is not one letter off", () => {
    expect(hit("Date: 13/04/25")).toEqual({ field: "examDate", value: "13/04/25" });
    expect(hit("Date of Exam: 13/04/25")).toEqual({ field: "examDate", value: "13/04/25" });
    expect(hit("Date of Scan 13/04/25")).toEqual({ field: "examDate", value: "13/04/25" });
  });
});

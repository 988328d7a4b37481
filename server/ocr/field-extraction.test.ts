import { describe, expect, it } from "vitest";
import { extractPatientFields } from "./field-extraction";
import { syntheticRegion as at } from "./synthetic-region";

const now = new Date("2026-11-22T12:00:00Z");

describe("extractPatientFields", () => {
  it("anchors values to labels in separate regions on the same line", () => {
    const regions = [
      at("Patient Name:", { u: 100, v: 300 }),
      at("ROBERT", { u: 280, v: 304 }),
      at("KING", { u: 370, v: 302 }),
      at("DOB:", { u: 100, v: 360 }),
      at("02/08/69", { u: 160, v: 362 }),
      at("Sex:", { u: 400, v: 360 }),
      at("M", { u: 450, v: 360 }),
      at("Exam Date:", { u: 700, v: 360 }),
      at("19.09.26", { u: 840, v: 364 }),
    ];
    const fields = extractPatientFields(regions, now);
    expect(fields.patientName.value).toBe("ROBERT KING");
    expect(fields.patientDob.value).toBe("1969-08-02");
    expect(fields.examDate.value).toBe("2026-09-19");
    expect(fields.patientName.box).toMatchObject({ page: 0, x: 280, y: 302 });
    expect(fields.examDate.confidence).toBeGreaterThan(0.9);
  });

  it("splits a label and its value read as one region", () => {
    const regions = [
      at("Patient's Name:HERNANDEZ, Barbara", { u: 100, v: 300 }),
      at("D.O.B.:15-04-2002", { u: 100, v: 360 }),
    ];
    const fields = extractPatientFields(regions, now);
    expect(fields.patientName.value).toBe("HERNANDEZ, Barbara");
    expect(fields.patientDob.value).toBe("2002-04-15");
    expect(fields.examDate.value).toBeNull();
  });

  it("reads a digit-like letter in a date as the digit", () => {
    const fields = extractPatientFields(
      [at("Date of Birth:", { u: 100, v: 300 }), at("O1/O5/1931", { u: 260, v: 300 })],
      now,
    );
    expect(fields.patientDob.value).toBe("1931-05-01");
  });

  it("does not take the next field's label as a value", () => {
    const fields = extractPatientFields(
      [at("Name:", { u: 100, v: 300 }), at("MRN:", { u: 300, v: 300 }), at("12345", { u: 360, v: 300 })],
      now,
    );
    expect(fields.patientName.value).toBeNull();
  });

  it("gives an impossible date no value", () => {
    const fields = extractPatientFields(
      [at("Study Date:", { u: 100, v: 300 }), at("31.02.2020", { u: 250, v: 300 })],
      now,
    );
    expect(fields.examDate.value).toBeNull();
    expect(fields.examDate.confidence).toBe(0);
  });
});

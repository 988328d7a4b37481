import { describe, expect, it } from "vitest";
import { type OcrMeasurement, type OcrResult, unreadField, unreadHeaderFields } from "../../../domain/contracts/ocr";
import { CODES, vascularSr } from "../../test-support/dicom-sr-files";
import { readVascularSr } from "./dicom-sr";
import { mergeSrReading, patientMismatches } from "./sr-merge";

// Issue 28 item 5: the machine's SR beside the worksheet, merged into one reading.

const box = { page: 0, x: 10, y: 10, width: 40, height: 12 };
const read = (value: string, confidence = 0.9) => ({ value, confidence, box });

function ocrValue(
  site: string,
  side: "left" | "right",
  parameter: string,
  value: number,
  unit: string,
): OcrMeasurement {
  return { site, side, parameter, value, unit, confidence: 0.8, text: String(value), box, doubt: null };
}

/** What OCR read of a venous sheet: reflux times (no SR code has them) and two diameters. */
function sheet(overrides: Partial<OcrResult["fields"]> = {}): OcrResult {
  return {
    patientName: "Mei Thompson",
    patientDob: "1992-12-30",
    examDate: "2020-08-18",
    confidence: 0.9,
    scanType: "Lower Limb Venous",
    fields: {
      patientName: read("Mei Thompson"),
      patientDob: read("1992-12-30"),
      examDate: read("2020-08-18"),
      ...unreadHeaderFields(),
      mrn: read("MRN 7970734"),
      indication: read("recurrent varices"),
      ...overrides,
    },
    measurements: [
      ocrValue("CFV", "right", "REFLUX_MS", 3500, "ms"),
      ocrValue("CFV", "right", "DIAMETER_MM", 5.1, "mm"),
      ocrValue("SFJ", "left", "DIAMETER_MM", 9.7, "mm"),
    ],
    pageCount: 1,
    text: "Patient Name: Mei Thompson",
    worksheetTemplateId: null,
    layout: "general",
  };
}

const cfv = ["SCT", "397363009", "Common femoral vein"] as const;
const sfj = ["SCT", "128587003", "Saphenofemoral junction"] as const;

/** The machine's SR of the same study: the right CFV diameter measured as 5.3 mm, the left CFV's too. */
function machineSr(patient: { name?: string; birthDate?: string; id?: string } = {}) {
  return readVascularSr(
    vascularSr({
      patientName: patient.name ?? "Thompson^Mei",
      birthDate: patient.birthDate ?? "19921230",
      patientId: patient.id ?? "mrn7970734",
      studyDate: "20200818",
      sections: [
        {
          laterality: CODES.right,
          groups: [{ vessel: cfv, values: [{ code: CODES.lumenDiameter, value: 5.3, unit: "mm" }] }],
        },
        {
          laterality: CODES.left,
          groups: [
            { vessel: cfv, values: [{ code: CODES.lumenDiameter, value: 0.8, unit: "cm" }] },
            { vessel: sfj, values: [{ code: CODES.lumenDiameter, value: 9.7, unit: "mm" }] },
          ],
        },
      ],
    }),
  );
}

const keyOf = (m: OcrMeasurement) => `${m.site} ${m.side} ${m.parameter} ${m.value} ${m.source}`;

describe("a DICOM SR merged with the worksheet's reading", () => {
  it("takes the SR's value for the same site, side and parameter, and keeps the sheet's where the SR has none", () => {
    const merged = mergeSrReading(sheet(), machineSr());
    expect(merged.measurements.map(keyOf)).toEqual([
      "CFV right REFLUX_MS 3500 OCR",
      "CFV right DIAMETER_MM 5.3 DICOM SR",
      "SFJ left DIAMETER_MM 9.7 DICOM SR",
      "CFV left DIAMETER_MM 8 DICOM SR",
    ]);
    for (const m of merged.measurements.filter((m) => m.source === "DICOM SR")) expect(m.confidence).toBe(1);
    // One value differed (5.1 read, 5.3 measured); the same 9.7 is not a difference.
    expect(merged.notes).toContain(
      "For 1 measurement the worksheet was read with another value than the structured report; the structured report's value is shown.",
    );
    expect(merged).toMatchObject({
      source: "worksheet",
      pageCount: 1,
      machineSr: { studyDate: "2020-08-18", measurements: 3 },
    });
  });

  it("takes the SR's header where it has a value, the sheet's elsewhere, and marks which is which", () => {
    const merged = mergeSrReading(sheet(), machineSr());
    expect(merged.patientName).toBe("Mei Thompson");
    expect(merged.fields.patientName).toMatchObject({ value: "Mei Thompson", confidence: 1, source: "DICOM SR" });
    expect(merged.fields.mrn).toMatchObject({ value: "mrn7970734", source: "DICOM SR" });
    // The SR has no indication: the sheet's stays, with its box.
    expect(merged.fields.indication).toEqual(read("recurrent varices"));
    expect(merged.confidence).toBe(1);
  });

  it("sees the same patient through the SR's name order, a left-off middle name, case and MRN punctuation", () => {
    const sr = machineSr({ name: "Thompson^Mei^A", id: "MRN-7970734" });
    expect(patientMismatches(sheet(), sr)).toEqual([]);
    expect(patientMismatches(sheet({ patientName: read("THOMPSON, Mei") }), sr)).toEqual([]);
  });

  it("finds another patient by name, date of birth or MRN; a field one of them lacks is no difference", () => {
    const sr = machineSr({ name: "Thompson^May", birthDate: "19921203", id: "MRN7970743" });
    expect(patientMismatches(sheet(), sr)).toEqual([
      { field: "patientName", sr: "May Thompson", worksheet: "Mei Thompson" },
      { field: "patientDob", sr: "1992-12-03", worksheet: "1992-12-30" },
      { field: "mrn", sr: "MRN7970743", worksheet: "MRN 7970734" },
    ]);
    expect(patientMismatches(sheet({ mrn: unreadField() }), machineSr({ id: "OTHER" }))).toEqual([]);
    // Merged anyway (the clinician confirmed), the difference stays in the notes.
    const merged = mergeSrReading(sheet(), machineSr({ birthDate: "19500101" }));
    expect(merged.notes?.[0]).toMatch(
      /differ in the patient: date of birth "1950-01-01" in the structured report, "1992-12-30" on the worksheet/,
    );
  });
});

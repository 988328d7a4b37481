import { describe, expect, it } from "vitest";
import { parseParameterCodes } from "../../../domain/interop/dicom-sr-codes";
import { CODES, carotidSr, ultrasoundImage, vascularSr } from "../../test-support/dicom-sr-files";
import { DicomSrError, dicomDate, personName, readVascularSr } from "./dicom-sr";

const problemOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof DicomSrError) return { problem: error.problem, message: error.message };
    throw error;
  }
  return null;
};

describe("reading a vascular ultrasound DICOM SR", () => {
  it("gives every coded measurement with site, side and parameter from their codes, at confidence 1", () => {
    const result = readVascularSr(carotidSr());
    const rows = result.measurements.map((m) => [m.site, m.side, m.parameter, m.value, m.unit, m.confidence, m.source]);
    expect(rows).toEqual([
      ["CCA_DIST", "right", "PSV", 78, "cm/s", 1, "DICOM SR"],
      ["ICA_PROX", "right", "PSV", 245, "cm/s", 1, "DICOM SR"],
      ["ICA_PROX", "right", "EDV", 62, "cm/s", 1, "DICOM SR"],
      ["ICA", "right", "RATIO_ICA_CCA", 3.14, "", 1, "DICOM SR"],
      ["CCA_DIST", "left", "PSV", 81, "cm/s", 1, "DICOM SR"],
      // SNOMED RT (T-45300) from an older machine is the same vessel.
      ["ICA_PROX", "left", "PSV", 95, "cm/s", 1, "DICOM SR"],
      ["VA", "left", "PSV", 48, "cm/s", 1, "DICOM SR"],
    ]);
    // The SR's own writing is kept: 2.45 m/s became exactly 245 cm/s.
    expect(result.measurements[1]!.text).toBe("2.45 m/s");
    expect(result.source).toBe("dicom-sr");
    expect(result.notes).toEqual([]);
  });

  it("takes patient, birth date, study date, MRN, sex and referrer from the header", () => {
    const result = readVascularSr(carotidSr());
    expect(result.patientName).toBe("Jane Q Doe");
    expect(result.patientDob).toBe("1948-03-12");
    expect(result.examDate).toBe("2025-03-01");
    expect(result.confidence).toBe(1);
    expect(result.fields.mrn).toEqual({ value: "MRN-4471", confidence: 1, box: null, source: "DICOM SR" });
    expect(result.fields.sex.value).toBe("female");
    expect(result.fields.referringPhysician.value).toBe("Gregory House");
    expect(result.scanType).toBe("Carotid Duplex");
  });

  it("says a header field is not found rather than inventing it", () => {
    const result = readVascularSr(carotidSr({ birthDate: "", patientId: "", studyDescription: "" }));
    expect(result.patientDob).toBeNull();
    expect(result.fields.patientDob.confidence).toBe(0);
    expect(result.fields.mrn.value).toBeNull();
    expect(result.confidence).toBeCloseTo(2 / 3);
    // Without a description the vessels say it: carotid arteries.
    expect(result.scanType).toBe("Carotid Duplex");
  });

  it("ignores a side on a midline vessel, converts centimetres and reads the leg positions of saphenous veins", () => {
    const result = readVascularSr(
      vascularSr({
        studyDescription: "",
        sections: [
          {
            laterality: CODES.left,
            groups: [
              {
                vessel: CODES.aorta,
                segment: CODES.proximal,
                values: [{ code: CODES.outsideDiameter, value: 4.5, unit: "cm" }],
              },
            ],
          },
          {
            laterality: CODES.right,
            groups: [{ vessel: CODES.gsvThigh, values: [{ code: CODES.lumenDiameter, value: 5.2, unit: "mm" }] }],
          },
        ],
      }),
    );
    expect(result.measurements.map((m) => [m.site, m.side, m.parameter, m.value])).toEqual([
      ["AO_PROX", null, "DIAMETER_MM", 45],
      ["GSV_THIGH", "right", "DIAMETER_MM", 5.2],
    ]);
    // Two regions: the scan type is left to the clinician.
    expect(result.scanType).toBeNull();
  });

  it("keeps the value the sonographer chose when a measurement is repeated, else the first", () => {
    const result = readVascularSr(
      vascularSr({
        sections: [
          {
            laterality: CODES.right,
            groups: [
              {
                vessel: CODES.ica,
                values: [
                  { code: CODES.psv, value: 120, unit: "cm/s" },
                  { code: CODES.psv, value: 131, unit: "cm/s", selected: true },
                  { code: CODES.psv, value: 140, unit: "cm/s" },
                  { code: CODES.edv, value: 30, unit: "cm/s" },
                  { code: CODES.edv, value: 35, unit: "cm/s" },
                ],
              },
            ],
          },
        ],
      }),
    );
    expect(result.measurements.map((m) => [m.parameter, m.value])).toEqual([
      ["PSV", 131],
      ["EDV", 30],
    ]);
  });

  it("leaves out and counts values with codes it does not map, no known vessel or an unconvertible unit", () => {
    const result = readVascularSr(
      vascularSr({
        sections: [
          {
            laterality: CODES.right,
            groups: [
              {
                vessel: CODES.ica,
                values: [
                  { code: CODES.psv, value: 100, unit: "cm/s" },
                  { code: CODES.pulsatility, value: 1.2, unit: "1" },
                  { code: CODES.edv, value: 20, unit: "mmHg" },
                ],
              },
              { vessel: CODES.ophthalmic, values: [{ code: CODES.psv, value: 30, unit: "cm/s" }] },
            ],
          },
        ],
      }),
    );
    expect(result.measurements).toHaveLength(1);
    expect(result.notes).toEqual([
      "1 measurement in the structured report was not recognised and left out: Pulsatility Index. Enter it by hand.",
      "1 value named no vessel this product knows, and was left out.",
      "1 value had a unit that could not be converted, and was left out.",
    ]);
  });

  it("a paired vessel without laterality has no side (the checking table asks for it)", () => {
    const result = readVascularSr(
      vascularSr({
        sections: [{ groups: [{ vessel: CODES.eca, values: [{ code: CODES.psv, value: 90, unit: "cm/s" }] }] }],
      }),
    );
    expect(result.measurements[0]).toMatchObject({ site: "ECA", side: null });
  });

  it("refuses a DICOM image, an SR without vascular measurements, and a damaged file, in words", () => {
    expect(problemOf(() => readVascularSr(ultrasoundImage()))).toEqual({
      problem: "not_sr",
      message: expect.stringMatching(/DICOM US object .*not a Structured Report/),
    });
    expect(problemOf(() => readVascularSr(vascularSr({ sections: [] })))).toEqual({
      problem: "no_measurements",
      message: expect.stringMatching(/no vascular ultrasound measurements/),
    });
    const cut = carotidSr().subarray(0, 400);
    expect(problemOf(() => readVascularSr(cut))?.problem).toBe("not_dicom");
  });
});

describe("DICOM value types", () => {
  it("reads DA dates and refuses impossible ones", () => {
    expect(dicomDate("20240229")).toBe("2024-02-29");
    expect(dicomDate("20230229")).toBeNull();
    expect(dicomDate("2023")).toBeNull();
    expect(dicomDate("")).toBeNull();
  });

  it("reads PN names in the order they are said", () => {
    expect(personName([{ Alphabetic: "Doe^Jane" }])).toBe("Jane Doe");
    expect(personName("Smith^John^^Dr")).toBe("Dr John Smith");
    expect(personName([{ Alphabetic: "" }])).toBeNull();
  });
});

describe("vendor measurement codes configured by the clinic (DICOM_SR_PARAMETER_CODES)", () => {
  const reflux = ["99VENDOR", "RFX-T", "Reflux time"] as const;
  const abi = ["99VENDOR", "ABI", "Ankle brachial index"] as const;
  const gsv = ["SCT", "60734001", "Great saphenous vein"] as const;
  const sr = () =>
    vascularSr({
      sections: [
        {
          laterality: CODES.left,
          groups: [
            {
              vessel: gsv,
              values: [
                { code: CODES.lumenDiameter, value: 6.1, unit: "mm" },
                { code: reflux, value: 2.4, unit: "s" },
                { code: abi, value: 0.9, unit: "1" },
              ],
            },
          ],
        },
      ],
    });

  it("are not read unless configured, and then named in the notes by the SR's own words", () => {
    const result = readVascularSr(sr());
    expect(result.measurements.map((m) => m.parameter)).toEqual(["DIAMETER_MM"]);
    expect(result.machineSr.unrecognised).toEqual(["Reflux time", "Ankle brachial index"]);
  });

  it("map a (coding scheme, code value) pair to a parameter of the vocabulary, converted to its unit", () => {
    const parameterCodes = parseParameterCodes("99vendor:RFX-T=REFLUX_MS,\n 99VENDOR:ABI = ABI");
    const result = readVascularSr(sr(), { parameterCodes });
    expect(result.measurements.map((m) => `${m.site} ${m.parameter} ${m.value} ${m.text}`)).toEqual([
      "GSV DIAMETER_MM 6.1 6.1 mm",
      "GSV REFLUX_MS 2400 2.4 s",
      "GSV ABI 0.9 0.9",
    ]);
    expect(result.notes).toEqual([]);
  });

  it("refuses an entry that is malformed, names no parameter, or remaps a standard code", () => {
    expect(parseParameterCodes(undefined).size).toBe(0);
    expect(() => parseParameterCodes("RFX-T=REFLUX_MS")).toThrow(/is not SCHEME:CODE=PARAMETER/);
    expect(() => parseParameterCodes("99V:X=REFLUX")).toThrow(/REFLUX is not a parameter of the vocabulary/);
    expect(() => parseParameterCodes("LN:11726-7=EDV")).toThrow(/LN:11726-7 is a standard code/);
  });
});

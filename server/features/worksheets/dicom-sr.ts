import { createRequire } from "node:module";
import type Dcmjs from "dcmjs";
import { type OcrField, type OcrMeasurement, type OcrResult, unreadField } from "../../../domain/contracts/ocr";
import {
  type Coded,
  isFindingSite,
  isLaterality,
  isSelectionStatus,
  isTopographicalModifier,
  type ParameterCodes,
  parameterOf,
  segmentOf,
  sideOf,
  unitFromUcum,
  vesselOf,
} from "../../../domain/interop/dicom-sr-codes";
import { toCriteriaUnit } from "../../../domain/report-engine/units";
import { type Parameter, parameterUnits } from "../../../domain/vocabulary/parameters";
import type { Segment } from "../../../domain/vocabulary/segments";
import { parseSiteCode, siteCode } from "../../../domain/vocabulary/site-codes";
import { type BaseSiteCode, midlineSites, siteEntry } from "../../../domain/vocabulary/sites";
import type { Side } from "../../../domain/vocabulary/study-terms";
import { detectScanType } from "../../ocr/scan-type";

// Reads the measurements of a vascular ultrasound DICOM Structured Report (TID 5100) exported by an ultrasound
// machine into the same reading the worksheet's OCR gives, so the checking table, the report and everything
// after it are the same. The codes and their mapping to the vocabulary are in domain/interop/dicom-sr-codes.ts.
// Parsed in the server (structured data, no pixels are ever decoded) within the upload size limit, and within
// the bounds below so that a hostile nesting cannot run away.

let dcmjsData: typeof Dcmjs.data | undefined;
/**
 * dcmjs (17 MB resident) is loaded when the first SR is read, not at server start (issue 30,
 * server/lazy-imports.test.ts); its CommonJS build, so that reading stays synchronous for its callers.
 */
function dicomData(): typeof Dcmjs.data {
  if (dcmjsData) return dcmjsData;
  const dcmjs = createRequire(import.meta.url)("dcmjs") as typeof Dcmjs;
  // dcmjs logs every unusual element through loglevel; those are not ours to print (and may name the patient).
  dcmjs.log.setLevel("silent");
  dcmjsData = dcmjs.data;
  return dcmjsData;
}

/** SR Storage SOP classes (PS3.4 B.5: Basic, Enhanced, Comprehensive, Comprehensive 3D, Extensible). */
const SR_SOP_CLASS = /^1\.2\.840\.10008\.5\.1\.4\.1\.1\.88\.\d+$/;
const MAX_DEPTH = 32;
const MAX_ITEMS = 20_000;
/** How many distinct names of unrecognised measurements are kept to show (a vendor's SR may carry hundreds). */
const MAX_UNRECOGNISED = 20;

export type DicomSrProblem = "not_dicom" | "not_sr" | "no_measurements";

/** A DICOM file that cannot give measurements, with the reason in a clinician's words. */
export class DicomSrError extends Error {
  constructor(
    readonly problem: DicomSrProblem,
    message: string,
  ) {
    super(message);
    this.name = "DicomSrError";
  }
}

type Item = Record<string, unknown>;
type MachineSr = NonNullable<OcrResult["machineSr"]>;

const asArray = (value: unknown): Item[] =>
  Array.isArray(value) ? (value as Item[]) : value && typeof value === "object" ? [value as Item] : [];

const text = (value: unknown): string => {
  if (Array.isArray(value)) return text(value[0]);
  if (typeof value === "number") return String(value);
  return typeof value === "string" ? value.trim() : "";
};

/** The code's own words (CodeMeaning), for saying which measurements were not recognised. */
const meaningOf = (sequence: unknown): string => text(asArray(sequence)[0]?.CodeMeaning);

function coded(sequence: unknown): Coded | null {
  const code = asArray(sequence)[0];
  if (!code) return null;
  const value = text(code.CodeValue) || text(code.LongCodeValue) || text(code.URNCodeValue);
  const scheme = text(code.CodingSchemeDesignator);
  return value && scheme ? { scheme, code: value } : null;
}

/** DA "20250314" as "2025-03-14"; anything else (empty, partial, impossible) is not a date. */
export function dicomDate(value: unknown): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(text(value));
  if (!match) return null;
  const iso = `${match[1]}-${match[2]}-${match[3]}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso ? null : iso;
}

/** PN "Family^Given^Middle^Prefix^Suffix" as the name is said: "Given Middle Family". */
export function personName(value: unknown): string | null {
  const first = Array.isArray(value) ? value[0] : value;
  const raw = typeof first === "string" ? first : text((first as Item | undefined)?.Alphabetic);
  const [family = "", given = "", middle = "", prefix = "", suffix = ""] = raw.split("^").map((p) => p.trim());
  const name = [prefix, given, middle, family, suffix].filter(Boolean).join(" ");
  return name || null;
}

const sexes: Record<string, string> = { M: "male", F: "female", O: "other" };

/** Where the measurements below an item were taken, as its HAS CONCEPT MOD children (TID 5103/5104) say. */
type Place = { vessel: { base: BaseSiteCode; segment?: Segment } | null; side: Side | null; segment: Segment | null };

function placeOf(item: Item, outer: Place): Place {
  const place = { ...outer };
  for (const child of asArray(item.ContentSequence)) {
    if (text(child.ValueType) !== "CODE") continue;
    const name = coded(child.ConceptNameCodeSequence);
    const value = coded(child.ConceptCodeSequence);
    if (!name || !value) continue;
    if (isFindingSite(name)) place.vessel = vesselOf(value) ?? place.vessel;
    else if (isLaterality(name)) place.side = sideOf(value);
    else if (isTopographicalModifier(name)) place.segment = segmentOf(value) ?? place.segment;
  }
  return place;
}

const hasSelectionStatus = (item: Item) =>
  asArray(item.ContentSequence).some((child) => {
    const name = coded(child.ConceptNameCodeSequence);
    return name !== null && isSelectionStatus(name);
  });

type Found = { measurement: OcrMeasurement; selected: boolean };

function measurementOf(item: Item, place: Place, parameter: Parameter): Found | "unplaced" | "unit" | null {
  const measured = asArray(item.MeasuredValueSequence)[0];
  if (!measured) return null;
  const raw = text(measured.NumericValue);
  const number = Number(raw);
  if (raw === "" || !Number.isFinite(number)) return null;
  const ucum = coded(measured.MeasurementUnitsCodeSequence)?.code ?? "";
  const converted = toCriteriaUnit(parameter, number, unitFromUcum(ucum));
  if (!converted.ok) return "unit";
  if (!place.vessel) return "unplaced";
  const base = place.vessel.base;
  const code = siteCode(base, place.vessel.segment ?? place.segment) ?? base;
  return {
    measurement: {
      site: code,
      // A side given for a midline vessel (the aorta) means nothing; a paired vessel without one is shown as such.
      side: midlineSites.has(base) ? null : place.side,
      parameter,
      value: converted.value,
      unit: parameterUnits[parameter] ?? "",
      confidence: 1,
      text: `${raw}${ucum && ucum !== "1" ? ` ${ucum}` : ""}`,
      box: null,
      doubt: null,
      source: "DICOM SR",
    },
    selected: hasSelectionStatus(item),
  };
}

/** Every NUM item of the content tree with where it was taken; what cannot be placed or converted is counted. */
function collect(root: Item, configured?: ParameterCodes) {
  const found = new Map<string, Found>();
  const left = { unplaced: 0, unit: 0, uncoded: 0 };
  const unrecognised = new Set<string>();
  let items = 0;
  const walk = (item: Item, outer: Place, depth: number) => {
    if (depth > MAX_DEPTH || ++items > MAX_ITEMS)
      throw new DicomSrError("not_sr", "The structured report is nested too deeply to be read.");
    const place = placeOf(item, outer);
    if (text(item.ValueType) === "NUM") {
      const name = coded(item.ConceptNameCodeSequence);
      const parameter = name ? parameterOf(name, configured) : null;
      if (!parameter) {
        if (asArray(item.MeasuredValueSequence).length > 0) {
          left.uncoded++;
          const said = meaningOf(item.ConceptNameCodeSequence);
          if (said && unrecognised.size < MAX_UNRECOGNISED) unrecognised.add(said.slice(0, 80));
        }
        return;
      }
      const result = measurementOf(item, place, parameter);
      if (result === "unplaced" || result === "unit") left[result]++;
      else if (result) {
        const m = result.measurement;
        const key = `${m.site}|${m.side ?? ""}|${m.parameter}`;
        const kept = found.get(key);
        // The value the sonographer chose wins over the other readings of the same measurement; else the first.
        if (!kept || (result.selected && !kept.selected)) found.set(key, result);
      }
      return;
    }
    for (const child of asArray(item.ContentSequence)) walk(child, place, depth + 1);
  };
  walk(root, { vessel: null, side: null, segment: null }, 0);
  return { measurements: [...found.values()].map((f) => f.measurement), left, unrecognised: [...unrecognised] };
}

/** What the measured vessels say the study was, when the study description does not. */
function scanTypeOfSites(measurements: OcrMeasurement[]): string | null {
  const bases = new Set<BaseSiteCode>(measurements.flatMap((m) => parseSiteCode(m.site)?.base ?? []));
  const regions = new Set([...bases].map((b) => siteEntry(b).region));
  if (regions.size !== 1) return null;
  const region = [...regions][0];
  if (region === "neck") return bases.has("CCA") || bases.has("ICA") ? "Carotid Duplex" : "Vertebral Duplex";
  if (region === "intracranial") return "Transcranial Doppler";
  if (region === "legVein") return "Lower Limb Venous";
  if (region === "legArtery") return "Lower Limb Arterial";
  if (region === "armVein") return "Upper Limb Venous";
  if (region === "armArtery") return "Upper Limb Arterial";
  if (region === "abdomen") {
    if (bases.has("RA")) return "Renal Duplex";
    if (bases.has("SMA") || bases.has("CA") || bases.has("IMA")) return "Mesenteric Duplex";
    return "Abdominal Aorta";
  }
  return null;
}

function plural(n: number, one: string, many: string) {
  return `${n} ${n === 1 ? one : many}`;
}

/** What was left out, in words for the checking screen; unrecognised measurements by the SR's own names. */
function notesOf(left: { unplaced: number; unit: number; uncoded: number }, unrecognised: string[]): string[] {
  const notes: string[] = [];
  if (left.uncoded > 0) {
    const names = unrecognised.length > 0 ? `: ${unrecognised.join(", ")}` : "";
    notes.push(
      `${plural(left.uncoded, "measurement", "measurements")} in the structured report ${left.uncoded === 1 ? "was" : "were"} not recognised and left out${names}. Enter ${left.uncoded === 1 ? "it" : "any the report needs"} by hand.`,
    );
  }
  if (left.unplaced > 0) {
    notes.push(
      `${plural(left.unplaced, "value", "values")} named no vessel this product knows, and ${left.unplaced === 1 ? "was" : "were"} left out.`,
    );
  }
  if (left.unit > 0) {
    notes.push(
      `${plural(left.unit, "value", "values")} had a unit that could not be converted, and ${left.unit === 1 ? "was" : "were"} left out.`,
    );
  }
  return notes;
}

const field = (value: string | null): OcrField =>
  value ? { value, confidence: 1, box: null, source: "DICOM SR" } : unreadField();

function parse(data: Buffer): Item {
  const bytes = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  const { DicomMessage, DicomMetaDictionary } = dicomData();
  try {
    const dict = DicomMessage.readFile(bytes as ArrayBuffer);
    return DicomMetaDictionary.naturalizeDataset(dict.dict) as Item;
  } catch {
    throw new DicomSrError("not_dicom", "The file could not be read as DICOM: it may be damaged or incomplete.");
  }
}

/**
 * The measurements, patient and study of a vascular ultrasound SR as a reading with confidence 1 and source
 * "DICOM SR". Throws DicomSrError for a DICOM that is not an SR, or an SR without vascular measurements.
 */
export function readVascularSr(
  data: Buffer,
  options: { parameterCodes?: ParameterCodes } = {},
): OcrResult & { notes: string[]; machineSr: MachineSr } {
  const dataset = parse(data);
  const modality = text(dataset.Modality);
  if (!SR_SOP_CLASS.test(text(dataset.SOPClassUID)) && modality !== "SR") {
    const what = modality ? `a DICOM ${modality} object (images or other data)` : "a DICOM object of another kind";
    throw new DicomSrError(
      "not_sr",
      `This file is ${what}, not a Structured Report. Export the measurements from the ultrasound machine as a DICOM SR, or upload the worksheet.`,
    );
  }
  const { measurements, left, unrecognised } = collect(dataset, options.parameterCodes);
  if (measurements.length === 0) {
    throw new DicomSrError(
      "no_measurements",
      "This DICOM Structured Report has no vascular ultrasound measurements (vessel, side and velocity, ratio or diameter codes of a vascular ultrasound report). Upload the worksheet instead, or enter the values by hand.",
    );
  }
  const patientName = personName(dataset.PatientName);
  const patientDob = dicomDate(dataset.PatientBirthDate);
  const examDate = dicomDate(dataset.StudyDate) ?? dicomDate(dataset.ContentDate);
  const title = asArray(dataset.ConceptNameCodeSequence)[0];
  const description = [text(dataset.StudyDescription), text(dataset.SeriesDescription), text(title?.CodeMeaning)];
  const scanType = detectScanType(description.map((line) => `${line} ultrasound`)) ?? scanTypeOfSites(measurements);
  const found = [patientName, patientDob, examDate].filter(Boolean).length;
  return {
    patientName,
    patientDob,
    examDate,
    confidence: found === 3 ? 1 : found / 3,
    scanType,
    fields: {
      patientName: field(patientName),
      patientDob: field(patientDob),
      examDate: field(examDate),
      indication: unreadField(),
      referringPhysician: field(personName(dataset.ReferringPhysicianName)),
      mrn: field(text(dataset.PatientID) || null),
      sonographer: unreadField(),
      sex: field(sexes[text(dataset.PatientSex).toUpperCase()] ?? null),
      comments: unreadField(),
    },
    measurements,
    pageCount: 0,
    text: description.filter(Boolean).join("\n"),
    worksheetTemplateId: null,
    layout: "general",
    source: "dicom-sr",
    notes: notesOf(left, unrecognised),
    machineSr: {
      manufacturer: text(dataset.Manufacturer) || null,
      model: text(dataset.ManufacturerModelName) || null,
      studyDate: dicomDate(dataset.StudyDate),
      measurements: measurements.length,
      unrecognised,
    },
  };
}

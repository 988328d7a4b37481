import type { Box, OcrMeasurement } from "../../../../domain/contracts/ocr";
import {
  type BaseSiteCode,
  baseSiteCodes,
  type Parameter,
  parameters,
  parameterUnits,
  parseSiteCode,
  segmentNames,
  siteNames,
} from "../../../../domain/report-engine/vocabulary";
import type { StudyMeasurementInput } from "../reports/report-types";

/** Below this the value is shown in amber for the clinician to compare with the worksheet. */
export const LOW_CONFIDENCE = 0.8;

/** One row of the measurements table: what OCR read (or the clinician added), with the value as typed. */
export type MeasurementRow = {
  key: string;
  site: string;
  side: "left" | "right" | null;
  parameter: string;
  valueText: string;
  unit: string;
  /** null for rows the clinician added. */
  confidence: number | null;
  /** The characters as written on the sheet (reflux in seconds even when the value is in ms). */
  readAs: string | null;
  box: Box | null;
  edited: boolean;
};

let nextKey = 1;
const newKey = () => `m${nextKey++}`;

export function rowsFromOcr(measurements: OcrMeasurement[]): MeasurementRow[] {
  return measurements.map((m) => ({
    key: newKey(),
    site: m.site,
    side: m.side,
    parameter: m.parameter,
    valueText: String(m.value),
    unit: m.unit,
    confidence: m.confidence,
    readAs: m.text,
    box: m.box,
    edited: false,
  }));
}

export function blankRow(): MeasurementRow {
  const parameter: Parameter = "PSV";
  return {
    key: newKey(),
    site: "CCA",
    side: "right",
    parameter,
    valueText: "",
    unit: parameterUnits[parameter] ?? "",
    confidence: null,
    readAs: null,
    box: null,
    edited: true,
  };
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** "GSV_MID" -> "Great saphenous vein, mid"; codes outside the criteria vocabulary keep their extra words. */
export function siteWords(code: string): string {
  const parsed = parseSiteCode(code);
  if (parsed) {
    const name = siteNames[parsed.base];
    return capitalise(parsed.segment ? `${name}, ${segmentNames[parsed.segment]}` : name);
  }
  const cut = code.indexOf("_");
  const base = (cut > 0 ? code.slice(0, cut) : code) as BaseSiteCode;
  if (cut > 0 && base in siteNames) return capitalise(`${siteNames[base]}, ${code.slice(cut + 1).toLowerCase()}`);
  return code;
}

const parameterNames: Record<string, string> = {
  PSV: "Peak systolic velocity",
  EDV: "End diastolic velocity",
  MFV: "Mean flow velocity",
  RATIO_ICA_CCA: "ICA/CCA ratio",
  PSVR: "PSV ratio",
  RAR: "Renal-aortic ratio",
  LINDEGAARD: "Lindegaard ratio",
  REFLUX_MS: "Reflux time",
  DIAMETER_MM: "Diameter",
  DEPTH_MM: "Depth",
  FLOW_ML_MIN: "Volume flow",
  ABI: "Ankle-brachial index",
  RI: "Resistive index",
  EXTENSION_PCT: "Thrombus extension",
};
export const parameterWords = (code: string) => parameterNames[code] ?? code;

/** What worksheets print in their column headers: short enough for the table on a phone. */
const parameterShortNames: Record<string, string> = {
  RATIO_ICA_CCA: "ICA/CCA",
  LINDEGAARD: "LR",
  REFLUX_MS: "Reflux",
  DIAMETER_MM: "Diameter",
  DEPTH_MM: "Depth",
  FLOW_ML_MIN: "Flow",
  EXTENSION_PCT: "Extension",
};
export const parameterShort = (code: string) => parameterShortNames[code] ?? code;
export const unitOf = (parameter: string) => parameterUnits[parameter as Parameter] ?? "";

export const siteOptions = baseSiteCodes.map((code) => ({ code, label: siteWords(code) }));
export const parameterOptions = parameters.map((code) => ({ code, label: parameterWords(code) }));

/** A typed value as a number: decimal comma accepted (European worksheets), anything else is invalid. */
export function parseValue(text: string): number | null {
  const cleaned = text.trim().replace(",", ".");
  if (!/^-?\d+(\.\d+)?$/.test(cleaned)) return null;
  return Number(cleaned);
}

/** A blank value is a row still being filled in, not an error; anything else must be a number. */
export const isInvalidValue = (text: string) => text.trim() !== "" && parseValue(text) === null;

export const isLowConfidence = (row: MeasurementRow) =>
  !row.edited && row.confidence !== null && row.confidence < LOW_CONFIDENCE;

/** What the report is generated from: valid rows only (invalid ones are flagged in the table). */
export function toStudyMeasurements(rows: MeasurementRow[]): StudyMeasurementInput[] {
  return rows.flatMap((row) => {
    const value = parseValue(row.valueText);
    if (value === null) return [];
    return [{ site: row.site, side: row.side, parameter: row.parameter, value, unit: row.unit }];
  });
}

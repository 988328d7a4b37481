import type { Box, OcrMeasurement } from "../../../../domain/contracts/ocr";
import { implausibleReason } from "../../../../domain/measurement-ranges";
import { toCriteriaUnit } from "../../../../domain/report-engine/units";
import {
  isParameter,
  type Parameter,
  parameterNames,
  parameterShortNames,
  parameters,
  parameterUnits,
} from "../../../../domain/vocabulary/parameters";
import { limbPositions } from "../../../../domain/vocabulary/segments";
import { parseSiteCode, siteCode, siteWords } from "../../../../domain/vocabulary/site-codes";
import { baseSiteCodes } from "../../../../domain/vocabulary/sites";
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
  /** Why OCR doubts the value (outside the usual range, no decimal point read, ...); absent when it does not. */
  doubt?: string | null;
  /** "DICOM SR" for a value from the ultrasound machine's structured report; absent for OCR and typed values. */
  source?: "OCR" | "DICOM SR" | null;
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
    doubt: m.doubt ?? null,
    source: m.source ?? null,
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

export { siteWords };

export const parameterWords = (code: string) => (isParameter(code) ? parameterNames[code] : code);
export const parameterShort = (code: string) => (isParameter(code) ? parameterShortNames[code] : code);
export const unitOf = (parameter: string) => parameterUnits[parameter as Parameter] ?? "";

/** Every vessel, and the leg positions of the saphenous veins and perforators, which worksheets list as rows. */
export const siteOptions = baseSiteCodes.flatMap((base) =>
  [base, ...limbPositions.flatMap((position) => siteCode(base, position) ?? [])].map((code) => ({
    code,
    label: siteWords(code),
  })),
);
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

/**
 * Why the report will not use this value (the engine's physiological limits, the same ones it refuses with a
 * warning), for the checking table to say before the report is drafted; null when it will.
 */
export function outsideLimits(row: MeasurementRow): string | null {
  const value = parseValue(row.valueText);
  if (value === null || !isParameter(row.parameter)) return null;
  const converted = toCriteriaUnit(row.parameter, value, row.unit);
  if (!converted.ok) return null;
  const reason = implausibleReason(row.parameter, converted.value, parseSiteCode(row.site)?.base);
  if (!reason) return null;
  const unit = parameterUnits[row.parameter];
  return `${reason.replace(")", unit ? ` ${unit})` : ")")}: the report will not grade it. Check the worksheet.`;
}

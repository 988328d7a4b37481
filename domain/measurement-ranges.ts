import type { Parameter } from "./vocabulary/parameters";

/**
 * What a measurement can be and what it usually is, in the criteria's units (cm/s, ms, mm): the one source for the
 * OCR's reading of worksheet values and for anything else that judges a value's plausibility (the report engine).
 * Outside `possible` a reading is a misread and never offered; outside `usual` it is possible but doubtful (a
 * decimal point lost: 9.1 mm read as 91), so it is offered at lower confidence with the reason shown beside its
 * crop, for the clinician to check. The usual bounds are wide on purpose: a severe stenosis or a long reflux must
 * never look doubtful merely for being severe.
 */
export type MeasurementRange = {
  possible: { min: number; max: number };
  usual: { min: number; max: number };
  /** Whether worksheets write the value with a decimal part (in their own unit). */
  decimals: boolean;
  /** How the doubt names the quantity ("vein diameter"). */
  noun: string;
};

export const MEASUREMENT_RANGES: Partial<Record<Parameter, MeasurementRange>> = {
  PSV: {
    possible: { min: 5, max: 700 },
    usual: { min: 10, max: 550 },
    decimals: false,
    noun: "peak systolic velocity",
  },
  EDV: { possible: { min: 0, max: 400 }, usual: { min: 0, max: 250 }, decimals: false, noun: "end-diastolic velocity" },
  MFV: { possible: { min: 5, max: 400 }, usual: { min: 10, max: 250 }, decimals: false, noun: "mean flow velocity" },
  REFLUX_MS: { possible: { min: 0, max: 10_000 }, usual: { min: 0, max: 6_000 }, decimals: true, noun: "reflux time" },
  DIAMETER_MM: { possible: { min: 0.5, max: 40 }, usual: { min: 1, max: 20 }, decimals: true, noun: "vein diameter" },
};

export type Plausibility = "usual" | "unusual" | "impossible";

/** Where a value (in the criteria's unit) stands; parameters without a range are usual. */
export function plausibility(parameter: string, value: number): Plausibility {
  const range = MEASUREMENT_RANGES[parameter as Parameter];
  if (!range) return "usual";
  if (value < range.possible.min || value > range.possible.max) return "impossible";
  if (value < range.usual.min || value > range.usual.max) return "unusual";
  return "usual";
}

/**
 * What the report engine accepts, in the criteria's units: a value outside is refused with a warning, never graded
 * (an ABI of 50 or an aorta of 900 mm is a typing or reading error). Velocities, reflux and vein diameters take the
 * `possible` maxima above, so the OCR's checking table and the engine draw the same line; their minimum is 0 because
 * 0 is a recording (no flow, no reflux). Dimensionless ratios have no unit; "0 to 3" for the ABI covers the
 * non-compressible range.
 */
const limit = (parameter: Parameter, min = 0) => ({ min, max: MEASUREMENT_RANGES[parameter]?.possible.max ?? 0 });

export const PHYSIOLOGICAL_LIMITS: Record<Parameter, { min: number; max: number }> = {
  PSV: limit("PSV"),
  EDV: limit("EDV"),
  MFV: limit("MFV"),
  REFLUX_MS: limit("REFLUX_MS"),
  DIAMETER_MM: limit("DIAMETER_MM"),
  RATIO_ICA_CCA: { min: 0, max: 20 },
  PSVR: { min: 0, max: 30 },
  RAR: { min: 0, max: 20 },
  LINDEGAARD: { min: 0, max: 20 },
  DEPTH_MM: { min: 0, max: 100 },
  FLOW_ML_MIN: { min: 0, max: 10_000 },
  ABI: { min: 0, max: 3 },
  RI: { min: 0, max: 1.5 },
  EXTENSION_PCT: { min: 0, max: 100 },
};

/** The aorta and iliac arteries are measured in tens of millimetres: an aneurysm of 100 mm exists, a vein of 100 does not. */
const largeArteryDiameter = { min: 0.5, max: 150 };
const largeArteries = new Set(["AO", "CIA", "EIA"]);

export function physiologicalLimits(parameter: Parameter, siteBase?: string): { min: number; max: number } {
  if (parameter === "DIAMETER_MM" && siteBase && largeArteries.has(siteBase)) return largeArteryDiameter;
  return PHYSIOLOGICAL_LIMITS[parameter];
}

/** "outside the physiological range (0 to 700)" when the value cannot be; null when it can (bounds included). */
export function implausibleReason(parameter: Parameter, value: number, siteBase?: string): string | null {
  const { min, max } = physiologicalLimits(parameter, siteBase);
  if (value >= min && value <= max) return null;
  return `outside the physiological range (${min} to ${max})`;
}

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

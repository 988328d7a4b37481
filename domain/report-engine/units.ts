import type { Parameter } from "./vocabulary";
import { parameterUnits } from "./vocabulary";

// Units worksheets write, converted exactly to the criteria's units (m/s to cm/s, s to ms, cm to mm, L/min to
// mL/min). Exactly: 4.58 m/s is 458 cm/s, not 458.00000000000006, because the decimal point is moved in the
// number's decimal writing rather than multiplied in binary.

/** Spellings of each unit, lower case without spaces, with the power of ten to the criteria's unit. */
const conversions: Record<string, Record<string, number>> = {
  "cm/s": {
    "cm/s": 0,
    "cm/sec": 0,
    "cms-1": 0,
    "cm.s-1": 0,
    "cm/second": 0,
    "m/s": 2,
    "m/sec": 2,
    "ms-1": 2,
    "m.s-1": 2,
    "m/second": 2,
    "mm/s": -1,
    "mm/sec": -1,
  },
  ms: {
    ms: 0,
    msec: 0,
    msecs: 0,
    millisecond: 0,
    milliseconds: 0,
    s: 3,
    sec: 3,
    secs: 3,
    second: 3,
    seconds: 3,
  },
  mm: {
    mm: 0,
    millimetre: 0,
    millimetres: 0,
    millimeter: 0,
    millimeters: 0,
    cm: 1,
    centimetre: 1,
    centimetres: 1,
    centimeter: 1,
    centimeters: 1,
  },
  "ml/min": {
    "ml/min": 0,
    "ml/mn": 0,
    "cc/min": 0,
    mlmin: 0,
    "ml/minute": 0,
    "l/min": 3,
    "l/mn": 3,
    lpm: 3,
    "litre/min": 3,
    "litres/min": 3,
    "liter/min": 3,
    "liters/min": 3,
    "l/minute": 3,
  },
  "%": { "%": 0, percent: 0, pct: 0 },
};

const ratioSpellings = new Set(["", "ratio", "-", "none", "n/a"]);

/** Moves the decimal point of a number's decimal writing: shiftDecimal(4.58, 2) is exactly 458. */
export function shiftDecimal(value: number, places: number): number {
  if (places === 0) return value;
  const [mantissa, exponent = "0"] = String(value).split("e");
  return Number(`${mantissa}e${Number(exponent) + places}`);
}

export type Converted = { ok: true; value: number; original: string | null } | { ok: false; expected: string };

/** A value in the criteria's unit; `original` is what the sheet said when it was converted ("4.58 m/s"). */
export function toCriteriaUnit(parameter: Parameter, value: number, unit: string | null | undefined): Converted {
  const expected = parameterUnits[parameter];
  const written = (unit ?? "").replace(/\s+/g, "").toLowerCase();
  if (expected === null) {
    return ratioSpellings.has(written) ? { ok: true, value, original: null } : { ok: false, expected: "no unit" };
  }
  if (written === "") return { ok: true, value, original: null };
  const places = conversions[expected.toLowerCase()]?.[written];
  if (places === undefined) return { ok: false, expected };
  if (places === 0) return { ok: true, value, original: null };
  return { ok: true, value: shiftDecimal(value, places), original: `${value} ${unit?.trim()}` };
}

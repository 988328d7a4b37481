// How worksheets name sides and parameters in column headers, mapped to the codes of shared/clinical-criteria.md.
// Vessel and segment names come from the one clinical vocabulary (domain/vocabulary).
import { MEASUREMENT_RANGES } from "../../domain/measurement-ranges";
import { squash } from "../../domain/vocabulary/worksheet-labels";

export { siteFromLabel, squash } from "../../domain/vocabulary/worksheet-labels";

export type ColumnKind = { side: "left" | "right" | null; parameter: string; unit: string; sheetUnit: string };

/** Column headers such as "Rt PSV cm/s", "Lt reflux s", "Rt diam mm". */
export function columnFromHeader(header: string): ColumnKind | null {
  const s = squash(header);
  const sideMatch = /^(rt|right|r)(?=psv|edv|reflux|diam|dia|mfv)|^(lt|left|l)(?=psv|edv|reflux|diam|dia|mfv)/.exec(s);
  if (!sideMatch) return null;
  const side = sideMatch[1] ? "right" : "left";
  const rest = s.slice(sideMatch[0].length);
  if (rest.startsWith("psv")) return { side, parameter: "PSV", unit: "cm/s", sheetUnit: "cm/s" };
  if (rest.startsWith("edv")) return { side, parameter: "EDV", unit: "cm/s", sheetUnit: "cm/s" };
  if (rest.startsWith("mfv")) return { side, parameter: "MFV", unit: "cm/s", sheetUnit: "cm/s" };
  if (rest.startsWith("reflux")) {
    // Reflux is written in seconds unless the header says ms; the criteria use milliseconds.
    const sheetUnit = rest.includes("ms") ? "ms" : "s";
    return { side, parameter: "REFLUX_MS", unit: "ms", sheetUnit };
  }
  if (rest.startsWith("dia")) return { side, parameter: "DIAMETER_MM", unit: "mm", sheetUnit: "mm" };
  return null;
}

/**
 * Values a measurement can take and usually takes on a worksheet, in the sheet's unit (reflux in seconds), from the
 * one source in domain/measurement-ranges.ts; outside `min`..`max` is a misread.
 */
export const PLAUSIBLE: Record<
  string,
  { min: number; max: number; usualMin: number; usualMax: number; decimals: boolean; noun: string }
> = Object.fromEntries(
  Object.entries(MEASUREMENT_RANGES).map(([parameter, r]) => {
    const k = parameter === "REFLUX_MS" ? 1 / 1000 : 1;
    return [
      parameter,
      {
        min: r.possible.min * k,
        max: r.possible.max * k,
        usualMin: r.usual.min * k,
        usualMax: r.usual.max * k,
        decimals: r.decimals,
        noun: r.noun,
      },
    ];
  }),
);

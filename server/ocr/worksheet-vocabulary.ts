/**
 * How worksheets name vessels, sides and parameters, mapped to the codes of shared/clinical-criteria.md.
 * Matching works on "squashed" text (lower case, letters and digits only) because the recogniser often drops
 * spaces and punctuation in printed labels.
 */

export const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");

/** Vessel abbreviations as printed in row labels, longest first so "popv" wins over "pop". */
const VESSELS: [string, string][] = [
  ["commoncarotid", "CCA"],
  ["internalcarotid", "ICA"],
  ["externalcarotid", "ECA"],
  ["vertebral", "VA"],
  ["subclavian", "SCA"],
  ["popliteal", "POP"],
  ["bulb", "BULB"],
  ["cca", "CCA"],
  ["ica", "ICA"],
  ["eca", "ECA"],
  ["vert", "VA"],
  ["va", "VA"],
  ["sca", "SCA"],
  ["sfj", "SFJ"],
  ["spj", "SPJ"],
  ["saphenofemoral", "SFJ"],
  ["saphenopopliteal", "SPJ"],
  ["gsv", "GSV"],
  ["ssv", "SSV"],
  ["cfv", "CFV"],
  ["pfv", "PFV"],
  ["fv", "FV"],
  ["sfv", "FV"],
  ["popv", "POPV"],
  ["popa", "POPA"],
  ["ptv", "PTV"],
  ["perv", "PERV"],
  ["perf", "PERF"],
  ["cfa", "CFA"],
  ["pfa", "PFA"],
  ["sfa", "SFA"],
  ["ata", "ATA"],
  ["pta", "PTA"],
  ["pera", "PERA"],
  ["dpa", "DPA"],
  ["tpt", "TPT"],
  ["ijv", "IJV"],
  ["scv", "SCV"],
  ["axv", "AXV"],
  ["axa", "AXA"],
  ["ra", "RA"],
  ["sma", "SMA"],
  ["ao", "AO"],
  ["cia", "CIA"],
  ["eia", "EIA"],
  ["mca", "MCA"],
];

/** Segment words after the vessel; thigh positions of the GSV map to the criteria's segment suffixes. */
const SEGMENTS: [RegExp, string][] = [
  [/^(prox|proximal)(thigh)?$/, "_PROX"],
  [/^(mid|middle)(thigh)?$/, "_MID"],
  [/^(dist|distal)(thigh)?$/, "_DIST"],
  [/^knee$/, "_KNEE"],
  [/^calf$/, "_CALF"],
  [/^(ankle)$/, "_ANKLE"],
  [/^$/, ""],
];

/**
 * Maps a printed row label ("ICA Prox", "Pop V", "GSV Mid Thigh", "Bulb") to a site code, or null when the text
 * is not a vessel name. Words are compared squashed so "ICAProx" (a dropped space) still maps.
 */
export function siteFromLabel(label: string): string | null {
  let rest = squash(label);
  if (rest.startsWith("pop") && (rest[3] === "v" || rest[3] === "a")) {
    const code = rest[3] === "v" ? "POPV" : "POPA";
    rest = rest.slice(4);
    const segment = SEGMENTS.find(([re]) => re.test(rest));
    return segment ? code + segment[1] : null;
  }
  for (const [name, code] of [...VESSELS].sort((a, b) => b[0].length - a[0].length)) {
    if (!rest.startsWith(name)) continue;
    const tail = rest.slice(name.length);
    const segment = SEGMENTS.find(([re]) => re.test(tail));
    if (segment) return code + segment[1];
  }
  return null;
}

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

/** Values a measurement can plausibly take on a worksheet, in the sheet's unit; outside is a misread. */
export const PLAUSIBLE: Record<string, { min: number; max: number; decimals: boolean }> = {
  PSV: { min: 5, max: 700, decimals: false },
  EDV: { min: 0, max: 400, decimals: false },
  MFV: { min: 5, max: 400, decimals: false },
  REFLUX_MS: { min: 0, max: 10, decimals: true },
  DIAMETER_MM: { min: 0.5, max: 40, decimals: true },
};

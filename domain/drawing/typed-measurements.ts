/**
 * Reads measurements a sonographer typed in plain words, one or more per line, for example
 * "R ICA prox PSV 250 EDV 80", "Left CFV reflux 1.5 s", "AO diameter 52 mm", "RT ABI 0.8".
 * Only explicit, complete statements become measurements; anything ambiguous is left for the clinician.
 */
import { type BaseSiteCode, siteEntries } from "../vocabulary/sites";
import { siteFromLabel } from "../vocabulary/worksheet-labels";

export type TypedMeasurement = {
  site: string;
  side: "left" | "right" | null;
  parameter: string;
  value: number;
  unit: string;
};

/** Vessel words as typed: every code and abbreviation of the vocabulary that is a single word ("GSV", "LSV"). */
const siteTokens = new Map<string, BaseSiteCode>(
  siteEntries.flatMap((s) =>
    [s.code, ...(s.abbreviations ?? [])]
      .filter((w) => /^[A-Z]+$/i.test(w))
      .map((w) => [w.toUpperCase(), s.code] as const),
  ),
);
/** Words that place a value along the vessel ("prox", "mid thigh", "upper calf"), read as the worksheet labels are. */
const segmentWords = new Set([
  "PROX",
  "PROXIMAL",
  "MID",
  "MIDDLE",
  "DIST",
  "DISTAL",
  "UPPER",
  "LOWER",
  "THIGH",
  "KNEE",
  "CALF",
  "ANKLE",
]);
const sides: Record<string, "left" | "right"> = {
  R: "right",
  RT: "right",
  RIGHT: "right",
  L: "left",
  LT: "left",
  LEFT: "left",
};
const parameters: Record<string, { parameter: string; unit: string }> = {
  PSV: { parameter: "PSV", unit: "cm/s" },
  EDV: { parameter: "EDV", unit: "cm/s" },
  MFV: { parameter: "MFV", unit: "cm/s" },
  RI: { parameter: "RI", unit: "" },
  ABI: { parameter: "ABI", unit: "" },
  REFLUX: { parameter: "REFLUX_MS", unit: "ms" },
  DIAMETER: { parameter: "DIAMETER_MM", unit: "mm" },
  DIAM: { parameter: "DIAMETER_MM", unit: "mm" },
  DEPTH: { parameter: "DEPTH_MM", unit: "mm" },
  FLOW: { parameter: "FLOW_ML_MIN", unit: "mL/min" },
};

export function parseTypedMeasurements(text: string): TypedMeasurement[] {
  const found: TypedMeasurement[] = [];
  for (const line of text.split(/\n+/)) {
    const tokens = line.toUpperCase().match(/[A-Z]+|\d+(?:\.\d+)?/g) ?? [];
    let side: "left" | "right" | null = null;
    let site: string | null = null;
    let base: BaseSiteCode | null = null;
    let placeWords: string[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      if (token in sides && site === null) side = sides[token]!;
      else if (base && segmentWords.has(token)) {
        placeWords.push(token);
        const placed = siteFromLabel(`${base} ${placeWords.join(" ")}`);
        if (placed) site = placed;
      } else if (siteTokens.has(token)) {
        base = siteTokens.get(token)!;
        site = base;
        placeWords = [];
      } else if (token in parameters && site) {
        const value = Number(tokens[i + 1]);
        if (!Number.isFinite(Number.parseFloat(tokens[i + 1] ?? ""))) continue;
        const spec = parameters[token]!;
        const unitToken = tokens[i + 2];
        // Reflux is usually written in seconds on worksheets; the engine works in milliseconds.
        const inSeconds = spec.parameter === "REFLUX_MS" && (unitToken === "S" || unitToken === "SEC" || value < 10);
        found.push({
          site: token === "ABI" ? "ANKLE" : site,
          side,
          parameter: spec.parameter,
          value: inSeconds ? value * 1000 : value,
          unit: spec.unit,
        });
        i++;
      } else if (token === "ABI") {
        const value = Number.parseFloat(tokens[i + 1] ?? "");
        if (Number.isFinite(value)) {
          found.push({ site: "ANKLE", side, parameter: "ABI", value, unit: "" });
          i++;
        }
      }
    }
  }
  return found;
}

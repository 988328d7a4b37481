import type { Study } from "../contracts/study";
import { implausibleReason } from "../measurement-ranges";
import { accessSites, lowerLimbArteries, type ScanProfile, upperLimbArteries } from "./scan-profiles";
import { toCriteriaUnit } from "./units";
import {
  capitalize,
  formatMeasurement,
  formatValue,
  joinWords,
  observationPhrases,
  parameterLabels,
} from "./value-format";
import {
  type BaseSiteCode,
  gradedSites,
  midlineSites,
  type ObservationFinding,
  type Parameter,
  type ParsedSite,
  parameterUnits,
  parseSiteCode,
  plaqueCharacters,
  type Side,
  sideOptionalSites,
  siteLabel,
  vesselLabel,
} from "./vocabulary";

// Turns a study into the facts the graders read: site codes parsed, sides settled, and every
// measurement that cannot be used set aside with a warning that says why, instead of being guessed at.

export interface MeasurementFact {
  site: ParsedSite;
  side: Side | null;
  parameter: Parameter;
  /** In the criteria's unit. */
  value: number;
  /** What the sheet wrote when it was converted from another unit ("4.58 m/s"), for the findings. */
  original?: string;
}

/** A value given for a site of the study but not used: its unit is unknown or it cannot physiologically be. */
export interface RefusedFact {
  site: ParsedSite;
  side: Side | null;
  parameter: Parameter;
  /** As written: "9000 cm/s", "4.5 furlongs". */
  written: string;
  /** Why, in the findings' words: "outside the physiological range", "unit not recognised". */
  reason: string;
}

export interface ObservationFact {
  site: ParsedSite;
  side: Side | null;
  finding: ObservationFinding;
}

export interface StudyFacts {
  measurements: readonly MeasurementFact[];
  observations: readonly ObservationFact[];
  /** Values at vessels the criteria do not grade: the findings show them as measured, no grader reads them. */
  ungraded: { measurements: readonly MeasurementFact[]; observations: readonly ObservationFact[] };
  /** Values that were given but could not be used; no grade may say they were not recorded. */
  refused: readonly RefusedFact[];
}

const limbArteryCodes: readonly BaseSiteCode[] = [...lowerLimbArteries, ...upperLimbArteries, ...accessSites];

/** Ratios and indices only mean something at the sites they are defined for. */
const parameterSites: Partial<Record<Parameter, readonly BaseSiteCode[]>> = {
  ABI: ["ANKLE"],
  RATIO_ICA_CCA: ["ICA"],
  RAR: ["RA"],
  LINDEGAARD: ["MCA"],
  EXTENSION_PCT: ["SFJ", "SPJ"],
  PSVR: limbArteryCodes,
};

const contradictions: readonly (readonly [ObservationFinding, ObservationFinding])[] = [
  ["plaque", "no_plaque"],
  ["compressible", "non_compressible"],
  ["compressible", "thrombus"],
  ["compressible", "occluded"],
  ["antegrade", "retrograde"],
  ["antegrade", "to_and_fro"],
  ["retrograde", "to_and_fro"],
  ["antegrade", "no_flow"],
  ["retrograde", "no_flow"],
  ["to_and_fro", "no_flow"],
  ["antegrade", "occluded"],
  ["retrograde", "occluded"],
  ["to_and_fro", "occluded"],
  ["near_occlusion", "occluded"],
  ["near_occlusion", "no_flow"],
  ["triphasic", "biphasic"],
  ["triphasic", "monophasic"],
  ["biphasic", "monophasic"],
  ["triphasic", "dampened"],
  ["phasic_flow", "continuous_flow"],
  ["spontaneous_flow", "no_flow"],
  // A plaque's character says there is a plaque.
  ...plaqueCharacters.map((c) => ["no_plaque", c] as const),
  ["smooth_surface", "irregular_surface"],
  ["smooth_surface", "ulcerated"],
  ["echolucent", "echogenic"],
  ["echolucent", "calcified"],
];

function describeRaw(site: string, side: Side | null | undefined): string {
  const parsed = parseSiteCode(site);
  if (!parsed) return site;
  return siteLabel(parsed, midlineSites.has(parsed.base) ? null : (side ?? null));
}

interface SettledSite {
  site: ParsedSite;
  side: Side | null;
}

function settleSite(
  rawSite: string,
  rawSide: Side | null | undefined,
  what: string,
  profile: ScanProfile,
  scanType: string,
  warnings: string[],
): SettledSite | null {
  const site = parseSiteCode(rawSite);
  if (!site) {
    warnings.push(`${what} at unknown site ${JSON.stringify(rawSite)} was not used.`);
    return null;
  }
  if (!profile.sites.includes(site.base) && !profile.notGraded?.includes(site.base)) {
    warnings.push(
      `${what} at the ${describeRaw(rawSite, rawSide)} does not belong to a ${scanType} study and was not used.`,
    );
    return null;
  }
  if (midlineSites.has(site.base)) return { site, side: null };
  if (!rawSide && !sideOptionalSites.has(site.base)) {
    warnings.push(`${what} at the ${siteLabel(site, null)} has no side (right or left) and was not used.`);
    return null;
  }
  return { site, side: rawSide ?? null };
}

export function collectFacts(study: Study, profile: ScanProfile): { facts: StudyFacts; warnings: string[] } {
  const warnings: string[] = [];
  const measurements: MeasurementFact[] = [];
  const observations: ObservationFact[] = [];
  const ungraded = { measurements: [] as MeasurementFact[], observations: [] as ObservationFact[] };
  const refused: RefusedFact[] = [];

  for (const m of study.measurements) {
    const what = capitalize(formatMeasurement(m.parameter, [m.value]));
    if (typeof m.value !== "number" || !Number.isFinite(m.value)) {
      warnings.push(`${capitalize(parameterLabels[m.parameter])} at ${m.site} has no numeric value and was not used.`);
      continue;
    }
    const settled = settleSite(m.site, m.side, what, profile, study.scanType, warnings);
    if (!settled) continue;
    const allowed = parameterSites[m.parameter];
    const ankleOnlyAbi = settled.site.base === "ANKLE" && m.parameter !== "ABI";
    if ((allowed && !allowed.includes(settled.site.base)) || ankleOnlyAbi) {
      warnings.push(
        `${what} at the ${siteLabel(settled.site, settled.side)} is not a valid site for ${m.parameter} and was not used.`,
      );
      refused.push({
        ...settled,
        parameter: m.parameter,
        written: formatValue(m.parameter, m.value),
        reason: "not a measurement of this vessel",
      });
      continue;
    }
    const where = siteLabel(settled.site, settled.side);
    const label = capitalize(parameterLabels[m.parameter]);
    const converted = toCriteriaUnit(m.parameter, m.value, m.unit);
    if (!converted.ok) {
      const written = `${m.value} ${m.unit?.trim() ?? ""}`.trim();
      warnings.push(
        `${label} ${m.value} at the ${where} is in ${JSON.stringify(m.unit)}, a unit that cannot be converted to ${converted.expected}, and was not used.`,
      );
      refused.push({ ...settled, parameter: m.parameter, written, reason: "unit not recognised" });
      continue;
    }
    const implausible = implausibleReason(m.parameter, converted.value, settled.site.base);
    if (implausible) {
      const written = converted.original ?? formatValue(m.parameter, m.value);
      const unit = parameterUnits[m.parameter];
      warnings.push(
        `${label} ${written} at the ${where} is ${implausible.replace(")", unit ? ` ${unit})` : ")")} and was not used: check the worksheet.`,
      );
      // The report's text names no number that is not the study's: the range itself is in the warning.
      refused.push({ ...settled, parameter: m.parameter, written, reason: "outside the physiological range" });
      continue;
    }
    const fact: MeasurementFact = {
      ...settled,
      parameter: m.parameter,
      value: converted.value,
      ...(converted.original ? { original: converted.original } : {}),
    };
    (gradedSites.has(settled.site.base) ? measurements : ungraded.measurements).push(fact);
  }

  for (const o of study.observations) {
    const what = `Observation "${observationPhrases[o.finding] ?? o.finding}"`;
    const settled = settleSite(o.site, o.side, what, profile, study.scanType, warnings);
    if (!settled) continue;
    const fact = { ...settled, finding: o.finding };
    (gradedSites.has(settled.site.base) ? observations : ungraded.observations).push(fact);
  }

  warnings.push(
    ...duplicateWarnings([...measurements, ...ungraded.measurements]),
    ...contradictionWarnings(observations),
    ...ungradedWarnings(ungraded),
  );
  if (measurements.length === 0 && observations.length === 0) {
    warnings.push("The study has no usable measurements or observations, so nothing could be graded.");
  }
  return { facts: { measurements, observations, ungraded, refused }, warnings };
}

/** One warning per vessel and side whose values are shown but not graded. */
function ungradedWarnings(ungraded: StudyFacts["ungraded"]): string[] {
  const vessels = new Set(
    [...ungraded.measurements, ...ungraded.observations].map((f) => vesselLabel(f.site.base, f.side)),
  );
  return [...vessels].map(
    (vessel) =>
      `The criteria do not grade the ${vessel}: its values are shown in the findings as measured, marked "not graded".`,
  );
}

const keyOf = (site: ParsedSite, side: Side | null) => `${side ?? "-"}|${site.code}`;

function duplicateWarnings(measurements: readonly MeasurementFact[]): string[] {
  const groups = new Map<string, MeasurementFact[]>();
  for (const m of measurements) {
    const key = `${keyOf(m.site, m.side)}|${m.parameter}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  const warnings: string[] = [];
  for (const group of groups.values()) {
    const values = [...new Set(group.map((m) => m.value))];
    const first = group[0];
    if (first && values.length > 1) {
      warnings.push(
        `Different values were recorded for the ${siteLabel(first.site, first.side)}: ${formatMeasurement(first.parameter, values)}. Check which one is right.`,
      );
    }
  }
  return warnings;
}

function contradictionWarnings(observations: readonly ObservationFact[]): string[] {
  const bySite = new Map<string, { fact: ObservationFact; findings: Set<ObservationFinding> }>();
  for (const o of observations) {
    const key = keyOf(o.site, o.side);
    const entry = bySite.get(key) ?? { fact: o, findings: new Set<ObservationFinding>() };
    entry.findings.add(o.finding);
    bySite.set(key, entry);
  }
  const warnings: string[] = [];
  for (const { fact, findings } of bySite.values()) {
    const clashes = contradictions.filter(([a, b]) => findings.has(a) && findings.has(b));
    for (const [a, b] of clashes) {
      warnings.push(
        `Conflicting observations at the ${siteLabel(fact.site, fact.side)}: ${joinWords([observationPhrases[a], observationPhrases[b]])}. The more severe finding was used for grading.`,
      );
    }
  }
  // What is said of a whole vessel holds for each of its segments: "femoral vein: compressible" and
  // "femoral vein (mid): thrombus" cannot both be right.
  const entries = [...bySite.values()];
  for (const whole of entries.filter((e) => e.fact.site.segment === null)) {
    for (const part of entries) {
      const { site, side } = part.fact;
      if (site.segment === null || site.base !== whole.fact.site.base || side !== whole.fact.side) continue;
      const clashes = contradictions.filter(
        ([a, b]) => (whole.findings.has(a) && part.findings.has(b)) || (whole.findings.has(b) && part.findings.has(a)),
      );
      for (const [a, b] of clashes) {
        const [wholeSays, partSays] = whole.findings.has(a) && part.findings.has(b) ? [a, b] : [b, a];
        warnings.push(
          `Conflicting observations: the ${siteLabel(whole.fact.site, side)} is recorded as ${observationPhrases[wholeSays]} but the ${siteLabel(site, side)} as ${observationPhrases[partSays]}. The segment's finding was used for grading; check the recording.`,
        );
      }
    }
  }
  return warnings;
}

// Queries the graders use. A null `side` asks for midline (or side-less) facts.

export function measurementsAt(
  facts: StudyFacts,
  base: BaseSiteCode,
  side: Side | null,
  parameter: Parameter,
): MeasurementFact[] {
  return facts.measurements.filter((m) => m.site.base === base && m.side === side && m.parameter === parameter);
}

export function highestAt(
  facts: StudyFacts,
  base: BaseSiteCode,
  side: Side | null,
  parameter: Parameter,
): MeasurementFact | null {
  return pickBy(measurementsAt(facts, base, side, parameter), (a, b) => a.value > b.value);
}

export function lowestAt(
  facts: StudyFacts,
  base: BaseSiteCode,
  side: Side | null,
  parameter: Parameter,
): MeasurementFact | null {
  return pickBy(measurementsAt(facts, base, side, parameter), (a, b) => a.value < b.value);
}

function pickBy(list: readonly MeasurementFact[], better: (a: MeasurementFact, b: MeasurementFact) => boolean) {
  let best: MeasurementFact | null = null;
  for (const m of list) if (!best || better(m, best)) best = m;
  return best;
}

export function findingsAt(facts: StudyFacts, base: BaseSiteCode, side: Side | null): Set<ObservationFinding> {
  return new Set(facts.observations.filter((o) => o.site.base === base && o.side === side).map((o) => o.finding));
}

export function hasDataAt(facts: StudyFacts, base: BaseSiteCode, side: Side | null): boolean {
  return (
    facts.measurements.some((m) => m.site.base === base && m.side === side) ||
    facts.observations.some((o) => o.site.base === base && o.side === side)
  );
}

/** The sides with any usable fact, right first. */
export function sidesWithData(facts: StudyFacts): Side[] {
  // A side whose only values were refused was still scanned: the report speaks about it.
  const present = new Set([...facts.measurements, ...facts.observations, ...facts.refused].map((f) => f.side));
  return (["right", "left"] as const).filter((side) => present.has(side));
}

import type { DerivedValue } from "./grading/grader-types";
import { keyVesselsForSide, type ScanProfile } from "./scan-profiles";
import type { StudyFacts } from "./study-facts";
import {
  capitalize,
  formatComputed,
  formatMeasurement,
  formatValue,
  observationPhrases,
  parameterLabels,
  plaqueCharacterWords,
} from "./value-format";
import {
  allSegments,
  type BaseSiteCode,
  gradedSites,
  isPlaqueCharacter,
  midlineSites,
  type ObservationFinding,
  observationFindings,
  type Parameter,
  type ParsedSite,
  parameters,
  plaqueCharacters,
  type Side,
  segmentNames,
  segmentOrder,
  siteOrder,
  vesselLabel,
} from "./vocabulary";

/** How the findings mark the values of a vessel the criteria do not grade. */
export const NOT_GRADED = "(not graded)";

// Findings describe, vessel by vessel: right then left (midline vessels first in abdominal studies),
// proximal to distal. Every number printed is an input value or a ratio labelled "(computed)".

interface SegmentEntry {
  site: ParsedSite;
  values: Map<Parameter, number[]>;
  /** What the sheet wrote for a converted value ("4.58 m/s"), by parameter and value. */
  originals: Map<string, string>;
  /** Values given but not used, with why: "PSV 9000 cm/s (not used: outside the physiological range (0 to 700))". */
  refused: string[];
  findings: Set<ObservationFinding>;
  derived: DerivedValue[];
}

interface VesselEntry {
  side: Side | null;
  base: BaseSiteCode;
  segments: Map<string, SegmentEntry>;
  /** Ratios computed for the vessel as a whole, printed after its segments. */
  derived: DerivedValue[];
}

export function sideRank(side: Side | null, midlineFirst: boolean): number {
  if (side === null) return midlineFirst ? 0 : 3;
  return side === "right" ? 1 : 2;
}

export function compareSites(
  a: { side: Side | null; site: ParsedSite },
  b: { side: Side | null; site: ParsedSite },
  midlineFirst: boolean,
): number {
  return (
    sideRank(a.side, midlineFirst) - sideRank(b.side, midlineFirst) ||
    siteOrder(a.site.base) - siteOrder(b.site.base) ||
    segmentOrder(a.site.segment) - segmentOrder(b.site.segment)
  );
}

function vesselEntries(
  facts: Pick<StudyFacts, "measurements" | "observations"> & { refused?: StudyFacts["refused"] },
  derived: readonly DerivedValue[],
): Map<string, VesselEntry> {
  const vessels = new Map<string, VesselEntry>();
  const vesselOf = (site: ParsedSite, side: Side | null): VesselEntry => {
    const key = `${side}|${site.base}`;
    const vessel = vessels.get(key) ?? {
      side,
      base: site.base,
      segments: new Map<string, SegmentEntry>(),
      derived: [],
    };
    vessels.set(key, vessel);
    return vessel;
  };
  const segmentOf = (site: ParsedSite, side: Side | null): SegmentEntry => {
    const vessel = vesselOf(site, side);
    const found = vessel.segments.get(site.code);
    if (found) return found;
    const created: SegmentEntry = {
      site,
      values: new Map(),
      originals: new Map(),
      refused: [],
      findings: new Set(),
      derived: [],
    };
    vessel.segments.set(site.code, created);
    return created;
  };
  for (const m of facts.measurements) {
    const entry = segmentOf(m.site, m.side);
    const list = entry.values.get(m.parameter) ?? [];
    if (!list.includes(m.value)) list.push(m.value);
    entry.values.set(m.parameter, list);
    if (m.original) entry.originals.set(`${m.parameter}|${m.value}`, m.original);
  }
  for (const r of facts.refused ?? []) {
    segmentOf(r.site, r.side).refused.push(`${parameterLabels[r.parameter]} ${r.written} (not used: ${r.reason})`);
  }
  for (const o of facts.observations) segmentOf(o.site, o.side).findings.add(o.finding);
  for (const d of derived) {
    if (d.site.segment) segmentOf(d.site, d.side).derived.push(d);
    else vesselOf(d.site, d.side).derived.push(d);
  }
  return vessels;
}

const findingsOrder = (segment: ParsedSite["segment"]) => (segment ? segmentOrder(segment) : allSegments.length + 1);

function segmentText(entry: SegmentEntry): string {
  const items: string[] = [];
  for (const parameter of parameters) {
    const values = entry.values.get(parameter);
    if (!values) continue;
    const originals = values.map((v) => entry.originals.get(`${parameter}|${v}`));
    // A converted value keeps what the sheet wrote beside it: "PSV 458 cm/s (recorded as 4.58 m/s)".
    if (originals.some(Boolean)) {
      items.push(
        `${parameterLabels[parameter]} ${values
          .map((v, i) => `${formatValue(parameter, v)}${originals[i] ? ` (recorded as ${originals[i]})` : ""}`)
          .join(" and ")}`,
      );
    } else items.push(formatMeasurement(parameter, values));
  }
  items.push(...entry.refused);
  const characters = plaqueCharacters.filter((c) => entry.findings.has(c));
  for (const finding of observationFindings) {
    if (!entry.findings.has(finding) || isPlaqueCharacter(finding)) continue;
    // A plaque's echogenicity and surface describe it: "plaque present (echolucent, ulcerated surface)".
    if (finding === "plaque" && characters.length > 0) {
      items.push(`${observationPhrases.plaque} (${characters.map((c) => plaqueCharacterWords[c]).join(", ")})`);
    } else items.push(observationPhrases[finding]);
  }
  if (characters.length > 0 && !entry.findings.has("plaque")) {
    items.push(`plaque (${characters.map((c) => plaqueCharacterWords[c]).join(", ")})`);
  }
  for (const d of entry.derived) items.push(formatComputed(d.parameter, d.value));
  const words = items.join(", ");
  return entry.site.segment ? `${segmentNames[entry.site.segment]} ${words}` : words;
}

export function composeFindings(
  facts: StudyFacts,
  derived: readonly DerivedValue[],
  profile: ScanProfile,
  reportedSides: readonly Side[],
): string {
  const refusedGraded = facts.refused.filter((r) => gradedSites.has(r.site.base));
  const refusedUngraded = facts.refused.filter((r) => !gradedSites.has(r.site.base));
  const vessels = vesselEntries({ ...facts, refused: refusedGraded }, derived);
  const ungraded = vesselEntries({ ...facts.ungraded, refused: refusedUngraded }, []);
  const lines: { side: Side | null; site: ParsedSite; text: string }[] = [];
  for (const [vessel, graded] of [
    ...[...vessels.values()].map((v) => [v, true] as const),
    ...[...ungraded.values()].map((v) => [v, false] as const),
  ]) {
    // Segments read proximal to distal; what was recorded for the whole vessel follows them.
    const segments = [...vessel.segments.values()].sort(
      (a, b) => findingsOrder(a.site.segment) - findingsOrder(b.site.segment),
    );
    const parts = segments.map(segmentText);
    parts.push(...vessel.derived.map((d) => formatComputed(d.parameter, d.value)));
    const label = capitalize(vesselLabel(vessel.base, vessel.side)) + (graded ? "" : ` ${NOT_GRADED}`);
    lines.push({
      side: vessel.side,
      site: { code: vessel.base, base: vessel.base, segment: null },
      text: `${label}: ${parts.join("; ")}.`,
    });
  }
  for (const { side, base } of unassessedKeyVessels(facts, profile, reportedSides, vessels)) {
    lines.push({
      side,
      site: { code: base, base, segment: null },
      text: `${capitalize(vesselLabel(base, side))}: not assessed.`,
    });
  }
  if (lines.length === 0) return "No measurements or observations were recorded.";
  lines.sort((a, b) => compareSites(a, b, profile.midlineFirst));
  return lines.map((line) => line.text).join("\n");
}

function unassessedKeyVessels(
  facts: StudyFacts,
  profile: ScanProfile,
  reportedSides: readonly Side[],
  vessels: ReadonlyMap<string, VesselEntry>,
): { side: Side | null; base: BaseSiteCode }[] {
  const missing: { side: Side | null; base: BaseSiteCode }[] = [];
  const sides: (Side | null)[] = [...reportedSides, null];
  for (const side of sides) {
    const onSide = new Set(
      [...facts.measurements, ...facts.observations].filter((f) => f.side === side).map((f) => f.site.base),
    );
    for (const base of keyVesselsForSide(profile, onSide)) {
      const midline = midlineSites.has(base);
      if (midline !== (side === null)) continue;
      if (!vessels.has(`${side}|${base}`)) missing.push({ side, base });
    }
  }
  return missing;
}

import type { DerivedValue } from "./grading/grader-types";
import { keyVesselsForSide, type ScanProfile } from "./scan-profiles";
import type { StudyFacts } from "./study-facts";
import { capitalize, formatComputed, formatMeasurement, observationPhrases } from "./value-format";
import {
  allSegments,
  type BaseSiteCode,
  midlineSites,
  type ObservationFinding,
  observationFindings,
  type Parameter,
  type ParsedSite,
  parameters,
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
  facts: Pick<StudyFacts, "measurements" | "observations">,
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
    const created: SegmentEntry = { site, values: new Map(), findings: new Set(), derived: [] };
    vessel.segments.set(site.code, created);
    return created;
  };
  for (const m of facts.measurements) {
    const values = segmentOf(m.site, m.side).values;
    const list = values.get(m.parameter) ?? [];
    if (!list.includes(m.value)) list.push(m.value);
    values.set(m.parameter, list);
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
    if (values) items.push(formatMeasurement(parameter, values));
  }
  for (const finding of observationFindings) {
    if (entry.findings.has(finding)) items.push(observationPhrases[finding]);
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
  const vessels = vesselEntries(facts, derived);
  const ungraded = vesselEntries(facts.ungraded, []);
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

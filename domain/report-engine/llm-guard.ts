import type { Conclusion, Draft, Study } from "../contracts/study";
import { gradePhrase } from "./grade-phrases";
import { checkAddedContent } from "./llm-guard-content";
import { gradeLexicon } from "./llm-guard-lexicon";
import { type NumberMention, numbersIn, type SideMention, sideMentionsIn, sideSegments } from "./text-scan";
import { unknownVesselMentions, vesselMentions } from "./vessel-names";
import {
  type BaseSiteCode,
  type ConclusionCategory,
  midlineSites,
  parameterUnits,
  parseSiteCode,
  type Side,
  siteLabel,
} from "./vocabulary";

// A language model may only rephrase and organise. Its text is accepted when every number, side and
// vessel it states can be traced to the study or to the engine's draft, and its impression states the
// engine's grades, no other. Anything else rejects the whole text with a reason the clinician can read.

export interface LlmText {
  indication: string;
  findings: string;
  impression: string;
}

export type GuardResult = { ok: true } | { ok: false; reason: string };

interface KnownNumber {
  value: number;
  side: Side | null;
  unit: string | null;
}

interface KnownVessel {
  family: BaseSiteCode;
  side: Side | null;
  /** Known only from a "not assessed" statement: the text may say so, and nothing else about it. */
  unassessed: boolean;
}

const notAssessed = /\bnot (?:assessed|examined|evaluated|imaged|visuali[sz]ed|seen)\b/i;

const sameNumber = (a: number, b: number) => Math.abs(a - b) < 1e-9;
const sideFits = (known: Side | null, said: "right" | "left") => known === null || known === said;
const otherSide = (side: "right" | "left") => (side === "right" ? "left" : "right");

function knownNumbers(study: Study, draft: Draft): KnownNumber[] {
  const known: KnownNumber[] = study.measurements.map((m) => {
    const site = parseSiteCode(m.site);
    const midline = site ? midlineSites.has(site.base) : false;
    return {
      value: m.value,
      side: midline ? null : (m.side ?? null),
      unit: parameterUnits[m.parameter]?.toLowerCase() ?? null,
    };
  });
  for (const text of [draft.findings, draft.impression, draft.indication, study.indication ?? ""]) {
    for (const segment of sideSegments(text)) {
      const sides: (Side | null)[] = segment.side === "both" ? ["right", "left"] : [segment.side];
      for (const n of numbersIn(segment.text))
        for (const side of sides) known.push({ value: n.value, side, unit: n.unit });
    }
  }
  return known;
}

function knownVessels(study: Study, draft: Draft): KnownVessel[] {
  const known: KnownVessel[] = [];
  for (const entry of [...study.measurements, ...study.observations]) {
    const site = parseSiteCode(entry.site);
    if (site) {
      known.push({
        family: site.base,
        side: midlineSites.has(site.base) ? null : (entry.side ?? null),
        unassessed: false,
      });
    }
  }
  for (const text of [draft.findings, draft.impression, study.indication ?? ""]) {
    for (const segment of sideSegments(text)) {
      const sides: (Side | null)[] = segment.side === "both" ? ["right", "left"] : [segment.side];
      const unassessed = notAssessed.test(segment.text);
      for (const mention of vesselMentions(segment.text)) {
        for (const family of mention.families) for (const side of sides) known.push({ family, side, unassessed });
      }
    }
  }
  return known;
}

function said(n: NumberMention, text: string): string {
  return text.slice(n.start, n.end).trim();
}

function checkNumbers(text: string, known: readonly KnownNumber[]): string | null {
  for (const segment of sideSegments(text)) {
    for (const n of numbersIn(segment.text)) {
      const matches = known.filter(
        (k) => sameNumber(k.value, n.value) && (k.unit === null || n.unit === null || k.unit === n.unit),
      );
      const shown = said(n, segment.text);
      if (matches.length === 0) return `it mentions ${shown}, which is not in the study`;
      const sides = segment.side === "both" ? (["right", "left"] as const) : segment.side ? [segment.side] : [];
      for (const side of sides) {
        if (!matches.some((k) => sideFits(k.side, side))) {
          return `it puts ${shown} on the ${side} side, but the study records it on the ${otherSide(side)} side`;
        }
      }
    }
  }
  return null;
}

function checkVessels(text: string, known: readonly KnownVessel[], allowedUnknown: string): string | null {
  for (const segment of sideSegments(text)) {
    for (const mention of vesselMentions(segment.text)) {
      const saysUnassessed = notAssessed.test(segment.text);
      const matches = known.filter((k) => mention.families.includes(k.family) && (saysUnassessed || !k.unassessed));
      const everywhere = known.filter((k) => mention.families.includes(k.family));
      if (everywhere.length === 0) return `it names the ${mention.text}, which is not in the study`;
      const lateral = mention.families.some((f) => !midlineSites.has(f));
      const sides = segment.side === "both" ? (["right", "left"] as const) : segment.side ? [segment.side] : [];
      for (const side of lateral ? sides : [null]) {
        if (matches.some((k) => side === null || sideFits(k.side, side))) continue;
        if (side && everywhere.some((k) => sideFits(k.side, side))) {
          return `it describes the ${side} ${mention.text}, which the study did not assess`;
        }
        if (!side) return `it describes the ${mention.text}, which the study did not assess`;
        return `it places the ${mention.text} on the ${side} side, but the study has it only on the ${otherSide(side)} side`;
      }
    }
    for (const unknown of unknownVesselMentions(segment.text)) {
      if (!allowedUnknown.includes(unknown.toLowerCase())) return `it names the ${unknown}, which is not in the study`;
    }
  }
  return null;
}

interface GradeMatch {
  start: number;
  end: number;
  text: string;
  readings: { category: ConclusionCategory; grade: string }[];
}

/** Grade wordings in one stretch of text; where two overlap, the longer one is what was said. */
function gradeMatches(text: string, categories: ReadonlySet<ConclusionCategory>): GradeMatch[] {
  const raw: GradeMatch[] = [];
  for (const category of categories) {
    for (const [grade, patterns] of Object.entries(gradeLexicon[category])) {
      for (const pattern of patterns) {
        for (const m of text.matchAll(new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`))) {
          const start = m.index ?? 0;
          if (m[0].length === 0) continue;
          raw.push({ start, end: start + m[0].length, text: m[0], readings: [{ category, grade }] });
        }
      }
    }
  }
  raw.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: GradeMatch[] = [];
  for (const match of raw) {
    const same = kept.find((k) => k.start === match.start && k.end === match.end);
    if (same) same.readings.push(...match.readings);
    else if (!kept.some((k) => match.start < k.end && match.end > k.start)) kept.push(match);
  }
  return kept;
}

function conclusionFits(c: Conclusion, reading: { category: string; grade: string }, side: SideMention): boolean {
  if (c.category !== reading.category || c.grade !== reading.grade) return false;
  return side === null || side === "both" || c.side === null || c.side === side;
}

function checkGrades(impression: string, conclusions: readonly Conclusion[]): string | null {
  const categories = new Set(conclusions.map((c) => c.category));
  const stated = new Set<Conclusion>();
  for (const segment of sideSegments(impression)) {
    for (const match of gradeMatches(segment.text, categories)) {
      const sides: SideMention[] = segment.side === "both" ? ["right", "left"] : [segment.side];
      const fitting = conclusions.filter((c) =>
        match.readings.some((r) => sides.some((side) => conclusionFits(c, r, side))),
      );
      const everySide = sides.every((side) =>
        conclusions.some((c) => match.readings.some((r) => conclusionFits(c, r, side))),
      );
      if (!everySide) {
        const where = segment.side && segment.side !== "both" ? ` for the ${segment.side} side` : "";
        return `it states "${match.text}"${where}, which differs from the criteria-based grading`;
      }
      for (const c of fitting) stated.add(c);
    }
  }
  const missing = conclusions.find((c) => !stated.has(c));
  if (missing) {
    const site = parseSiteCode(missing.site);
    const where = site ? siteLabel(site, missing.side) : missing.site;
    return `it leaves out the grade of the ${where} (${gradePhrase(missing.category, missing.grade as never)})`;
  }
  return null;
}

function checkIndication(study: Study, draft: Draft, candidate: string): string | null {
  const given = study.indication?.trim() ?? "";
  if (!given) {
    const normalised = candidate.trim().replace(/\.$/, "").toLowerCase();
    const allowed = ["", draft.indication.replace(/\.$/, "").toLowerCase()];
    return allowed.includes(normalised) ? null : "it adds an indication that the study does not give";
  }
  const sides = sideMentionsIn(given);
  for (const side of sideMentionsIn(candidate)) {
    if (!sides.has(side)) return `it changes the side of the indication to ${side}`;
  }
  return null;
}

/**
 * Checks a language model's text against the study, the engine's draft and the clinic's legend (its entries'
 * titles and meanings, which the model may use). Pure.
 */
export function guardLlmText(
  study: Study,
  draft: Draft,
  candidate: LlmText,
  legend: readonly string[] = [],
): GuardResult {
  const numbers = knownNumbers(study, draft);
  const vessels = knownVessels(study, draft);
  const allowedUnknown = `${draft.findings}\n${draft.impression}\n${study.indication ?? ""}`.toLowerCase();
  const content = {
    draftText: [draft.indication, draft.findings, draft.impression, study.indication ?? ""].join("\n"),
    legendText: legend.join("\n"),
  };
  const traceable = (text: string) => checkNumbers(text, numbers) ?? checkVessels(text, vessels, allowedUnknown);
  // Grades first for the impression: a grade on the wrong side is better named as such than as a number.
  const reason =
    checkIndication(study, draft, candidate.indication) ??
    traceable(candidate.indication) ??
    traceable(candidate.findings) ??
    checkGrades(candidate.impression, draft.conclusions) ??
    traceable(candidate.impression) ??
    checkAddedContent(candidate.findings, content) ??
    checkAddedContent(candidate.impression, content);
  return reason ? { ok: false, reason } : { ok: true };
}

/**
 * The report engine on many random studies (issue 31): counts, from the drafts' text and conclusions, what a
 * physician would have to fix. Every count must be 0.
 *
 *   npm run -s bench:engine                     20,000 studies, seed 31
 *   npm run -s bench:engine -- --runs 5000 --seed 7
 *
 * The studies come from the property tests' generator (domain/report-engine/testing/study-arbitrary.ts) with
 * values in other units (m/s, s, cm, L/min) and impossible values (PSV 9000 cm/s, ABI 50, aorta 900 mm, MCA MFV
 * 5000, reflux 1e7 ms) mixed in. The checks read the output as a reader would, with their own thresholds, not
 * the engine's tables:
 * - contradictions: a vessel stated both with and without thrombosis (same side, the vessel or a segment of it);
 *   a vasospasm grade and hyperemia on one line; a Lindegaard reading at an MCA MFV below 120 cm/s; an occluded
 *   artery with a PSV above 0 and no warning that says so; two different grades of one category at one site;
 * - "not recorded" (or "not assessed", "no ... recorded") said of a vessel and side for which the study gave the
 *   very parameter (in any unit, even an impossible value);
 * - confident grades from implausible values: a conclusion whose basis states a value beyond what a body can have
 *   (PSV or EDV > 1000 cm/s, MFV > 1000, ABI > 5, a diameter > 200 mm, reflux > 60 s).
 */
import { parseArgs } from "node:util";
import fc from "fast-check";
import type { Draft, Study } from "../domain/contracts/study";
import { generateDraft } from "../domain/report-engine/generate-draft";
import { studyArbitrary } from "../domain/report-engine/testing/study-arbitrary";
import { numbersIn, sideSegments } from "../domain/report-engine/text-scan";
import { vesselMentions } from "../domain/report-engine/vessel-names";
import { parseSiteCode } from "../domain/vocabulary/site-codes";

const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "20000" },
    seed: { type: "string", default: "31" },
  },
});
const runs = Number(args.runs);
const seed = Number(args.seed);

type Finding = { kind: string; study: Study; detail: string };
const found: Finding[] = [];
const note = (kind: string, study: Study, detail: string) => found.push({ kind, study, detail });

const baseOf = (code: string) => parseSiteCode(code)?.base ?? code;
const given = (study: Study, base: string, side: string | null, parameters: readonly string[] | null) =>
  study.measurements.some(
    (m) =>
      baseOf(m.site) === base &&
      (m.side ?? null) === side &&
      (parameters === null || parameters.includes(m.parameter)) &&
      Number.isFinite(m.value),
  );

/** What a "not recorded" phrase says is missing; null: anything at all ("not assessed"). */
const missingPhrases: readonly [RegExp, readonly string[] | null][] = [
  [/PSV ratio/i, ["PSVR"]],
  [/peak systolic velocity|\bPSV\b/i, ["PSV"]],
  [/maximum diameter|\bdiameter not recorded/i, ["DIAMETER_MM"]],
  [/mean flow velocity not recorded/i, ["MFV"]],
  [/reflux time not recorded/i, ["REFLUX_MS"]],
  [/ankle-brachial index not assessed/i, ["ABI"]],
  [/extension into the deep vein not recorded/i, ["EXTENSION_PCT"]],
  [/volume flow not recorded/i, ["FLOW_ML_MIN"]],
  [/^\s*not assessed\s*$/i, null],
];

function checkNotRecorded(study: Study, draft: Draft): void {
  for (const line of draft.impression.split("\n")) {
    // "Vessel: phrase." or "Limitations: vessel (phrase); vessel (phrase)."
    const pieces = line.startsWith("Limitations: ")
      ? line
          .slice("Limitations: ".length)
          .replace(/\.$/, "")
          .split(/;\s(?=(?:right|left)?\s?[a-z])/)
          .map((p) => {
            const open = p.indexOf(" (");
            return { where: p.slice(0, open), what: p.slice(open + 2, -1) };
          })
      : [{ where: line.split(":")[0] ?? "", what: line.split(":").slice(1).join(":") }];
    for (const { where, what } of pieces) {
      if (!/not recorded|not assessed|no .* recorded/i.test(what)) continue;
      const rule = missingPhrases.find(([pattern]) => pattern.test(what));
      if (!rule) continue;
      for (const segment of sideSegments(where)) {
        const side = segment.side === "right" || segment.side === "left" ? segment.side : null;
        for (const mention of vesselMentions(segment.text)) {
          // The vessel the name means first ("internal carotid artery" is the ICA, not the TCD's extracranial ICA).
          const base = mention.families[0];
          if (base && given(study, base, side, rule[1])) {
            note("not recorded about a given value", study, `${where}: ${what}`);
          }
        }
      }
    }
  }
}

const beyondBody: Record<string, number> = {
  PSV: 1000,
  EDV: 1000,
  MFV: 1000,
  ABI: 5,
  DIAMETER_MM: 200,
  REFLUX_MS: 60_000,
};

function checkImplausible(study: Study, draft: Draft): void {
  const impossible = study.measurements.filter((m) => {
    const limit = beyondBody[m.parameter];
    return limit !== undefined && m.value > limit && !m.unit;
  });
  for (const c of draft.conclusions) {
    for (const m of impossible) {
      if (baseOf(m.site) !== baseOf(c.site) || ((m.side ?? null) !== c.side && c.side !== null)) continue;
      if (numbersIn(c.basis).some((n) => n.value === m.value)) {
        note("confident grade from an implausible value", study, `${c.category} ${c.grade}: ${c.basis}`);
      }
    }
  }
}

function checkContradictions(study: Study, draft: Draft): void {
  // One category, one site and side, two grades.
  const grades = new Map<string, Set<string>>();
  for (const c of draft.conclusions) {
    const key = `${c.category}|${c.site}|${c.side}`;
    grades.set(key, (grades.get(key) ?? new Set()).add(c.grade));
  }
  for (const [key, set] of grades) if (set.size > 1) note("contradiction", study, `${key}: ${[...set].join(" and ")}`);
  // Thrombosis and no thrombosis in one vessel (a segment counts as part of its vessel).
  const dvt = draft.conclusions.filter((c) => c.category === "dvt");
  for (const a of dvt) {
    for (const b of dvt) {
      if (a.grade === "present" && b.grade === "absent" && a.side === b.side && baseOf(a.site) === baseOf(b.site)) {
        const aWhole = a.site === baseOf(a.site);
        const bWhole = b.site === baseOf(b.site);
        // A whole vessel occluded or non-compressible leaves no segment of it free; thrombus somewhere in it may.
        const wholeClaim = aWhole && /occluded|non-compressible/.test(a.basis.split(": ").at(-1) ?? "");
        if (a.site === b.site || wholeClaim || bWhole) {
          note("contradiction", study, `${a.site} thrombosis / ${b.site} none`);
        }
      }
    }
  }
  for (const line of draft.impression.split("\n")) {
    if (/\b(?:mild|moderate|severe) vasospasm\b/i.test(line) && /hyper(?:a)?emi/i.test(line)) {
      note("contradiction", study, line);
    }
  }
  for (const c of draft.conclusions.filter((x) => x.category === "lindegaard")) {
    const mfvs = study.measurements.filter(
      (m) => baseOf(m.site) === "MCA" && (m.side ?? null) === c.side && m.parameter === "MFV" && !m.unit,
    );
    const highest = Math.max(...mfvs.map((m) => m.value));
    if (mfvs.length > 0 && highest < 120) note("contradiction", study, `Lindegaard read at MFV ${highest}`);
  }
  // An occluded artery with a velocity: the draft must warn.
  const arterial = new Set(["carotid_stenosis", "arterial_stenosis", "renal_stenosis", "mesenteric_stenosis"]);
  for (const c of draft.conclusions) {
    const occluded =
      (arterial.has(c.category) && c.grade === "occlusion") ||
      (c.category === "vertebral_flow" && c.grade === "absent");
    if (!occluded) continue;
    const psv = study.measurements.some(
      (m) =>
        m.site.toUpperCase() === c.site &&
        (m.side ?? null) === c.side &&
        m.parameter === "PSV" &&
        m.value > 0 &&
        m.value <= (beyondBody.PSV ?? 0),
    );
    if (psv && !draft.warnings.some((w) => /recorded as occluded but has a PSV/.test(w))) {
      note("contradiction", study, `${c.site} ${c.side} occluded with a PSV, no warning`);
    }
  }
}

const started = Date.now();
const samples = fc.sample(studyArbitrary({ units: true, impossible: true }), { numRuns: runs, seed });
let conclusions = 0;
let converted = 0;
let impossibleGiven = 0;
/** Impression lines that are a vessel "not assessed" (issue 31 item 8: 376 in 470 studies before). */
let notAssessedLines = 0;
for (const study of samples) {
  const draft = generateDraft(study);
  conclusions += draft.conclusions.length;
  converted += study.measurements.filter((m) => m.unit).length;
  impossibleGiven += study.measurements.filter((m) => (beyondBody[m.parameter] ?? Infinity) < m.value).length;
  notAssessedLines += draft.impression
    .split("\n")
    .filter((line) => !line.startsWith("Limitations:") && /: (?:compression )?not assessed\.$/.test(line)).length;
  checkContradictions(study, draft);
  checkNotRecorded(study, draft);
  checkImplausible(study, draft);
}
const seconds = (Date.now() - started) / 1000;

const kinds = ["contradiction", "not recorded about a given value", "confident grade from an implausible value"];
const counts = Object.fromEntries(kinds.map((k) => [k, found.filter((f) => f.kind === k).length]));
const summary = {
  runs,
  seed,
  conclusions,
  valuesInOtherUnits: converted,
  impossibleValuesGiven: impossibleGiven,
  notAssessedImpressionLines: notAssessedLines,
  counts,
  seconds,
};
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
for (const f of found.slice(0, 10)) {
  process.stdout.write(`\n${f.kind}: ${f.detail}\n  ${JSON.stringify(f.study)}\n`);
}
process.exitCode = found.length === 0 ? 0 : 1;

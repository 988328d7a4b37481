import { gradePhrase } from "../grade-phrases";
import { findingsAt, hasDataAt, highestAt } from "../study-facts";
import { observationPhrases } from "../value-format";
import { type GradeOf, type ObservationFinding, vesselLabel } from "../vocabulary";
import {
  emptyOutput,
  type GradeContext,
  type GraderOutput,
  occludedWithVelocityWarning,
  vesselSite,
} from "./grader-types";

type VertebralGrade = GradeOf<"vertebral_flow">;

/** Most severe first: when observations conflict the worse one grades (and a warning says so). */
const rules: readonly { findings: readonly ObservationFinding[]; grade: VertebralGrade }[] = [
  { findings: ["no_flow", "occluded"], grade: "absent" },
  { findings: ["retrograde"], grade: "retrograde" },
  { findings: ["to_and_fro"], grade: "partial_steal" },
  { findings: ["antegrade"], grade: "antegrade" },
];

export function gradeVertebral({ facts, criteria, scanType }: GradeContext): GraderOutput {
  const out = emptyOutput();
  // In a carotid study the vertebral arteries are an addition; only a vertebral study must report both.
  const required = scanType === "Vertebral Duplex";
  for (const side of ["right", "left"] as const) {
    const seen = findingsAt(facts, "VA", side);
    const rule = rules.find((r) => r.findings.some((f) => seen.has(f)));
    if (!rule) {
      if (hasDataAt(facts, "VA", side)) {
        out.notes.push({ site: vesselSite("VA"), side, phrase: "flow direction not assessed" });
      } else if (required) {
        out.notes.push({ site: vesselSite("VA"), side, phrase: "not assessed" });
      }
      continue;
    }
    const used = rule.findings.filter((f) => seen.has(f)).map((f) => observationPhrases[f]);
    const psv = highestAt(facts, "VA", side, "PSV");
    if (rule.grade === "absent" && psv && psv.value > 0) {
      out.warnings.push(occludedWithVelocityWarning(vesselLabel("VA", side), psv.value, "absent flow"));
    }
    out.conclusions.push({
      conclusion: {
        site: "VA",
        side,
        category: "vertebral_flow",
        grade: rule.grade,
        basis: `${criteria.vertebral.source}: ${used.join(", ")}`,
      },
      site: vesselSite("VA"),
      phrase: gradePhrase("vertebral_flow", rule.grade),
    });
  }
  return out;
}

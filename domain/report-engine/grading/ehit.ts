import type { EhitCriteria } from "../criteria-sets";
import { gradePhrase } from "../grade-phrases";
import { findingsAt, hasDataAt, highestAt } from "../study-facts";
import { formatValue } from "../value-format";
import type { BaseSiteCode, GradeOf } from "../vocabulary";
import { emptyOutput, type GradeContext, type GraderOutput, vesselSite } from "./grader-types";

export function ehitClass(extensionPct: number, rules: EhitCriteria): GradeOf<"ehit"> {
  if (extensionPct >= rules.class4FromPct) return "class4";
  if (extensionPct >= rules.class3FromPct) return "class3";
  return extensionPct > 0 ? "class2" : "class1";
}

const classWords: Record<GradeOf<"ehit">, string> = {
  class1: "thrombus to the junction, not into the deep vein",
  class2: "extension into the deep vein, less than half of its lumen",
  class3: "extension into the deep vein, half of its lumen or more",
  class4: "occlusive deep vein thrombus",
};

/** The deep vein each treated junction drains into. */
const junctions: readonly { junction: BaseSiteCode; deepVein: BaseSiteCode }[] = [
  { junction: "SFJ", deepVein: "CFV" },
  { junction: "SPJ", deepVein: "POPV" },
];

export function gradeEhit({ facts, criteria, reportedSides }: GradeContext): GraderOutput {
  const out = emptyOutput();
  const rules = criteria.ehit;
  let graded = 0;
  for (const side of reportedSides) {
    for (const { junction, deepVein } of junctions) {
      const extension = highestAt(facts, junction, side, "EXTENSION_PCT");
      const deepOccluded = findingsAt(facts, deepVein, side).has("occluded");
      if (!extension && !deepOccluded) {
        if (hasDataAt(facts, junction, side)) {
          out.notes.push({
            site: vesselSite(junction),
            side,
            phrase: "EHIT not graded, extension into the deep vein not recorded",
          });
        }
        continue;
      }
      const grade = deepOccluded ? "class4" : ehitClass(extension?.value ?? 0, rules);
      const parts = [
        extension ? `extension ${formatValue("EXTENSION_PCT", extension.value)} at ${extension.site.code}` : null,
        deepOccluded ? `${deepVein} occluded` : null,
      ].filter(Boolean);
      graded += 1;
      out.conclusions.push({
        conclusion: {
          site: extension?.site.code ?? junction,
          side,
          category: "ehit",
          grade,
          basis: `${rules.source}: ${parts.join("; ")}`,
        },
        site: extension?.site ?? vesselSite(junction),
        phrase: `${gradePhrase("ehit", grade)} (${classWords[grade]})`,
      });
    }
  }
  if (graded === 0) {
    out.warnings.push(
      "No thrombus extension (EXTENSION_PCT) was recorded at the saphenofemoral or saphenopopliteal junction, so no EHIT class was assigned.",
    );
    out.statements.push(
      "EHIT class not assessed: extension into the deep vein was not recorded at a treated junction.",
    );
  }
  return out;
}

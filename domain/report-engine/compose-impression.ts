import { compareSites } from "./compose-findings";
import { gradePhrase } from "./grade-phrases";
import type { GradedConclusion, ImpressionNote } from "./grading/grader-types";
import { capitalize, joinWords } from "./value-format";
import {
  type BaseSiteCode,
  type ConclusionCategory,
  type ParsedSite,
  type Side,
  segmentNames,
  siteNames,
} from "./vocabulary";

// The impression concludes as a physician writes it: what is abnormal first (with the numbers that decided it),
// then what is normal, one line per side and grade naming every vessel that shares it ("Right common femoral vein,
// femoral vein and popliteal vein: no thrombosis."), then one line of limitations (what was not assessed or could
// not be graded), then the recommendations the criteria give, and the criteria used.

interface Item {
  side: Side | null;
  site: ParsedSite;
  phrase: string;
}

/** The grades that are normal results: stated after the abnormal ones. */
const normalGrades: Partial<Record<ConclusionCategory, readonly string[]>> = {
  carotid_stenosis: ["normal"],
  vertebral_flow: ["antegrade"],
  arterial_stenosis: ["none"],
  abi: ["normal"],
  dvt: ["absent"],
  venous_reflux: ["absent"],
  perforator: ["normal"],
  aortic_diameter: ["normal"],
  renal_stenosis: ["lt60"],
  mesenteric_stenosis: ["lt70"],
  tcd_vasospasm: ["none"],
};

/** How the impression words normal results, for readers of its text (tests, the bench). */
export const normalPhrases: readonly string[] = Object.entries(normalGrades).flatMap(([category, grades]) =>
  (grades ?? []).map((grade) => gradePhrase(category as ConclusionCategory, grade as never)),
);

export const isNormal = (c: GradedConclusion) =>
  normalGrades[c.conclusion.category]?.includes(c.conclusion.grade) ?? false;

/** "right great saphenous vein (proximal and mid) and small saphenous vein". */
export function locationList(sites: readonly ParsedSite[], side: Side | null): string {
  const byVessel = new Map<BaseSiteCode, ParsedSite[]>();
  for (const site of sites) byVessel.set(site.base, [...(byVessel.get(site.base) ?? []), site]);
  const vessels = [...byVessel.entries()].map(([base, list]) => {
    const segmentWords = list.flatMap((s) => (s.segment ? [segmentNames[s.segment]] : []));
    return segmentWords.length > 0 ? `${siteNames[base]} (${joinWords(segmentWords)})` : siteNames[base];
  });
  const names = joinWords(vessels);
  return side ? `${side} ${names}` : names;
}

/** Items sharing a side and a phrase, in reading order: one entry per location. */
function grouped(items: readonly Item[], midlineFirst: boolean): { where: string; phrases: string[] }[] {
  const sorted = [...items].sort((a, b) => compareSites(a, b, midlineFirst));
  const groups = new Map<string, Item[]>();
  for (const item of sorted) {
    const key = `${item.side}|${item.phrase}`;
    const group = groups.get(key) ?? [];
    if (!group.some((g) => g.site.code === item.site.code)) group.push(item);
    groups.set(key, group);
  }
  const lines: { where: string; phrases: string[] }[] = [];
  for (const group of groups.values()) {
    const first = group[0] as Item;
    const where = locationList(
      group.map((g) => g.site),
      first.side,
    );
    // Two statements about the same vessel (MCA velocity and Lindegaard ratio) read as one line.
    const previous = lines.at(-1);
    if (previous?.where === where) previous.phrases.push(first.phrase);
    else lines.push({ where, phrases: [first.phrase] });
  }
  return lines;
}

const asItem = (c: GradedConclusion): Item => ({
  side: c.conclusion.side,
  site: c.site,
  phrase: c.detail ? `${c.phrase} (${c.detail})` : c.phrase,
});

export function composeImpression(
  conclusions: readonly GradedConclusion[],
  notes: readonly ImpressionNote[],
  statements: readonly string[],
  recommendations: readonly string[],
  midlineFirst: boolean,
  criteriaLine: string | null = null,
): string {
  const findingNotes = notes.filter((n) => n.kind === "finding");
  const limitations = notes.filter((n) => n.kind !== "finding");
  const abnormal = [...conclusions.filter((c) => !isNormal(c)).map(asItem), ...findingNotes];
  const normal = conclusions.filter(isNormal).map(asItem);

  const text = [...grouped(abnormal, midlineFirst), ...grouped(normal, midlineFirst)].map(
    (line) => `${capitalize(line.where)}: ${line.phrases.join("; ")}.`,
  );
  text.push(...statements);
  if (limitations.length > 0) {
    const parts = grouped(limitations, midlineFirst).map((line) => `${line.where} (${line.phrases.join("; ")})`);
    text.push(`Limitations: ${parts.join("; ")}.`);
  }
  if (text.length === 0) text.push("No grade could be assigned from the recorded data.");
  text.push(...recommendations);
  if (criteriaLine && conclusions.length > 0) text.push(criteriaLine);
  return text.join("\n");
}

import { compareSites } from "./compose-findings";
import type { GradedConclusion, ImpressionNote } from "./grading/grader-types";
import { capitalize, joinWords } from "./value-format";
import { type BaseSiteCode, type ParsedSite, type Side, segmentNames, siteNames } from "./vocabulary";

// The impression concludes: one line per side and grade, naming every vessel that shares it
// ("Right common femoral vein, femoral vein and popliteal vein: no thrombosis."), then the
// recommendations the criteria give.

interface Item {
  side: Side | null;
  site: ParsedSite;
  phrase: string;
}

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

export function composeImpression(
  conclusions: readonly GradedConclusion[],
  notes: readonly ImpressionNote[],
  statements: readonly string[],
  recommendations: readonly string[],
  midlineFirst: boolean,
): string {
  const items: Item[] = [
    ...conclusions.map((c) => ({ side: c.conclusion.side, site: c.site, phrase: c.phrase })),
    ...notes.map((n) => ({ side: n.side, site: n.site, phrase: n.phrase })),
  ].sort((a, b) => compareSites(a, b, midlineFirst));

  const groups = new Map<string, Item[]>();
  for (const item of items) {
    const key = `${item.side}|${item.phrase}`;
    const group = groups.get(key) ?? [];
    if (!group.some((g) => g.site.code === item.site.code)) group.push(item);
    groups.set(key, group);
  }
  const lines: { where: string; phrases: string[] }[] = [];
  for (const group of groups.values()) {
    const first = group[0] as Item;
    const where = capitalize(
      locationList(
        group.map((g) => g.site),
        first.side,
      ),
    );
    // Two grades of the same vessel (MCA velocity and Lindegaard ratio) read as one line.
    const previous = lines.at(-1);
    if (previous?.where === where) previous.phrases.push(first.phrase);
    else lines.push({ where, phrases: [first.phrase] });
  }
  const text = lines.map((line) => `${line.where}: ${line.phrases.join("; ")}.`);
  text.push(...statements, ...recommendations);
  return text.length > 0 ? text.join("\n") : "No grade could be assigned from the recorded data.";
}

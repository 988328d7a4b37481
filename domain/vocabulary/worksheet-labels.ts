import { type Segment, segmentLabels } from "./segments";
import { siteCode } from "./site-codes";
import { type BaseSiteCode, siteEntries } from "./sites";

// How worksheets print the vessel of a row ("ICA Prox", "Pop V", "GSV Mid Thigh", "SSV Calf"), mapped to site
// codes. Labels are compared "squashed" (lower case, letters and digits only) because the recogniser often
// drops spaces and punctuation in printed labels.

export const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");

/** Every printed form of every vessel (code, abbreviations, names), longest first so "popv" wins over "pop". */
const vesselLabels: readonly (readonly [string, BaseSiteCode])[] = (() => {
  const table = new Map<string, BaseSiteCode>();
  for (const s of siteEntries) {
    const forms = [s.code, ...(s.abbreviations ?? []), s.name, ...(s.otherNames ?? []), ...(s.worksheetLabels ?? [])];
    for (const form of forms) if (!table.has(squash(form))) table.set(squash(form), s.code);
  }
  return [...table.entries()].sort((a, b) => b[0].length - a[0].length);
})();

const segmentByLabel = new Map<string, Segment>(
  (Object.entries(segmentLabels) as [Segment, readonly string[]][]).flatMap(([segment, words]) =>
    words.map((word) => [word, segment] as const),
  ),
);

/**
 * Maps a printed row label to a site code of the vocabulary, or null when the text is not a vessel name (or
 * names a segment the vessel cannot have). "ICAProx" (a dropped space) still maps.
 */
export function siteFromLabel(label: string): string | null {
  const rest = squash(label);
  for (const [name, base] of vesselLabels) {
    if (!rest.startsWith(name)) continue;
    const tail = rest.slice(name.length);
    const segment = tail === "" ? null : segmentByLabel.get(tail);
    if (segment === undefined) continue;
    const code = siteCode(base, segment);
    if (code) return code;
  }
  return null;
}

import { type Segment, segmentLabels } from "./segments";
import { siteCode } from "./site-codes";
import { type BaseSiteCode, siteEntries } from "./sites";
import { type PlaqueCharacter, plaqueCharacterLabels } from "./study-terms";

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

const plaqueByLabel = new Map<string, PlaqueCharacter>(
  (Object.entries(plaqueCharacterLabels) as [PlaqueCharacter, readonly string[]][]).flatMap(([finding, words]) =>
    words.map((word) => [word, finding] as const),
  ),
);

/** One substitution, insertion or deletion apart (a misread letter in a printed word). */
function nearlyEqual(a: string, b: string): boolean {
  const [long, short] = a.length >= b.length ? [a, b] : [b, a];
  if (long.length - short.length > 1) return false;
  let i = 0;
  while (i < short.length && long[i] === short[i]) i++;
  // Past the first difference the rest must agree, after skipping one letter of the longer (or of both).
  return long.length === short.length ? long.slice(i + 1) === short.slice(i + 1) : long.slice(i + 1) === short.slice(i);
}

/**
 * The plaque character a check box's printed label names ("Hypoechoic" -> echolucent), or null. Words of six
 * letters or more may carry one misread letter; shorter ones must match exactly.
 */
export function plaqueCharacterFromLabel(label: string, { exact = false } = {}): PlaqueCharacter | null {
  const word = squash(label).replace(/[0-9]/g, "");
  const same = plaqueByLabel.get(word);
  if (same || exact) return same ?? null;
  if (word.length < 6) return null;
  const near = [...plaqueByLabel].filter(([w]) => w.length >= 6 && nearlyEqual(w, word));
  return near.length > 0 && near.every(([, f]) => f === near[0]![1]) ? near[0]![1] : null;
}

import { siteEntries } from "../vocabulary/sites";
import type { BaseSiteCode } from "./vocabulary";

// How free text names the vessels of the vocabulary (names and abbreviations: ../vocabulary/sites.ts), so that
// text written by someone else (a language model) can be checked against the study. Longer names come first so that "common femoral vein" is
// not also read as "femoral vein".

interface Alias {
  text: string;
  families: readonly BaseSiteCode[];
  /** Abbreviations are matched case-sensitively ("CA", not the "ca" of another word). */
  exactCase?: boolean;
}

/** Names that cover several vessels of the vocabulary ("carotid artery", "saphenous veins"). */
type NameRow = readonly [families: readonly BaseSiteCode[], words: readonly string[], abbreviations: readonly string[]];

const groupNames: readonly NameRow[] = [
  [["CCA", "ICA", "ECA"], ["carotid artery", "carotid arteries"], []],
  [["SMA", "IMA"], ["mesenteric artery", "mesenteric arteries"], []],
  [["CIA", "EIA"], ["iliac artery", "iliac arteries"], []],
  [["CFA", "SFA"], ["femoral artery", "femoral arteries"], []],
  [["GSV", "SSV"], ["saphenous vein", "saphenous veins"], []],
  [["AVF_ARTERY", "AVF_ANAST", "AVF_VEIN"], ["fistula", "graft"], ["AVF"]],
];

/** Text about the internal carotid artery may mean its extracranial part (the Lindegaard ratio's ICA). */
const familyOf = (code: BaseSiteCode): readonly BaseSiteCode[] => (code === "ICA" ? ["ICA", "ICA_EXTRA"] : [code]);

const named: readonly NameRow[] = [
  ...siteEntries.map((s): NameRow => [familyOf(s.code), [s.name, ...(s.otherNames ?? [])], s.abbreviations ?? []]),
  ...groupNames,
];

const aliases: readonly Alias[] = named
  .flatMap(([families, words, abbreviations]) => [
    ...words.map((text) => ({ text, families })),
    ...abbreviations.map((text) => ({ text, families, exactCase: true })),
  ])
  .sort((a, b) => b.text.length - a.text.length);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const aliasPattern = new RegExp(
  aliases.map((a) => (a.exactCase ? `\\b${escapeRegExp(a.text)}\\b` : `\\b(?:${caseless(a.text)})\\b`)).join("|"),
  "g",
);

function caseless(text: string): string {
  return [...escapeRegExp(text)]
    .map((ch) => (/[a-z]/i.test(ch) ? `[${ch.toLowerCase()}${ch.toUpperCase()}]` : ch))
    .join("");
}

export interface VesselMention {
  text: string;
  families: readonly BaseSiteCode[];
  start: number;
  end: number;
}

export function vesselMentions(text: string): VesselMention[] {
  const found: VesselMention[] = [];
  for (const match of text.matchAll(aliasPattern)) {
    const said = match[0];
    const alias = aliases.find((a) => (a.exactCase ? a.text === said : a.text === said.toLowerCase()));
    if (!alias) continue;
    const start = match.index ?? 0;
    found.push({ text: said, families: alias.families, start, end: start + said.length });
  }
  return found;
}

/** Anatomical words that, before "artery" or "vein", name a vessel. */
const anatomicalWords = new Set(
  (
    "iliac femoral tibial peroneal popliteal carotid vertebral subclavian axillary brachial radial ulnar renal " +
    "mesenteric celiac coeliac splenic hepatic gastric jugular cephalic basilic saphenous gonadal lumbar cerebral " +
    "basilar communicating ophthalmic digital palmar plantar pedal gastrocnemius soleal genicular sural obturator " +
    "pudendal epigastric internal external common anterior posterior middle inferior superior innominate " +
    "brachiocephalic portal caval pulmonary coronary facial lingual thyroid occipital temporal"
  ).split(" "),
);

const otherVessels =
  /\b(?:inferior vena cava|vena cava|IVC|EIV|CIV|IIA|IIV|ATV|brachiocephalic|innominate|carotid siphon)\b/g;

/** Vessel names in the text that are not in the vocabulary at all ("anterior tibial vein", "IVC"). */
export function unknownVesselMentions(text: string): string[] {
  const known = vesselMentions(text);
  const covered = (start: number, end: number) => known.some((k) => start < k.end && end > k.start);
  const unknown: string[] = [];
  for (const match of text.matchAll(/\b([A-Za-z-]+\s+)?([A-Za-z-]+)\s+(arteries|artery|veins|vein|trunk)\b/g)) {
    const start = match.index ?? 0;
    const word = (match[2] ?? "").toLowerCase();
    if (!anatomicalWords.has(word) || covered(start, start + match[0].length)) continue;
    const first = (match[1] ?? "").trim().toLowerCase();
    unknown.push(anatomicalWords.has(first) ? match[0].trim() : `${match[2]} ${match[3]}`);
  }
  for (const match of text.matchAll(otherVessels)) {
    const start = match.index ?? 0;
    if (!covered(start, start + match[0].length)) unknown.push(match[0]);
  }
  return unknown;
}

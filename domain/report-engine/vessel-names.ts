import type { BaseSiteCode } from "./vocabulary";

// How free text names the vessels of the vocabulary, so that text written by someone else (a language
// model) can be checked against the study. Longer names come first so that "common femoral vein" is
// not also read as "femoral vein".

interface Alias {
  text: string;
  families: readonly BaseSiteCode[];
  /** Abbreviations are matched case-sensitively ("CA", not the "ca" of another word). */
  exactCase?: boolean;
}

const named: readonly [BaseSiteCode | readonly BaseSiteCode[], readonly string[], readonly string[]][] = [
  ["CCA", ["common carotid artery", "common carotid arteries", "common carotid"], ["CCA", "CCAs"]],
  ["BULB", ["carotid bulb", "bulb"], []],
  [
    ["ICA", "ICA_EXTRA"],
    ["internal carotid artery", "internal carotid arteries", "internal carotid"],
    ["ICA", "ICAs"],
  ],
  ["ICA_EXTRA", ["extracranial internal carotid artery", "extracranial internal carotid"], []],
  ["ECA", ["external carotid artery", "external carotid"], ["ECA"]],
  [["CCA", "ICA", "ECA"], ["carotid artery", "carotid arteries"], []],
  ["VA", ["vertebral artery", "vertebral arteries", "vertebral"], ["VA"]],
  ["SCV", ["subclavian vein"], ["SCV"]],
  ["SCA", ["subclavian artery", "subclavian"], ["SCA"]],
  ["AO", ["abdominal aorta", "aorta"], []],
  ["CA", ["celiac artery", "coeliac artery", "celiac trunk", "coeliac trunk", "celiac axis", "coeliac axis"], ["CA"]],
  ["SMA", ["superior mesenteric artery"], ["SMA"]],
  ["IMA", ["inferior mesenteric artery"], ["IMA"]],
  [["SMA", "IMA"], ["mesenteric artery", "mesenteric arteries"], []],
  ["RA", ["renal artery", "renal arteries"], ["RA"]],
  ["CIA", ["common iliac artery", "common iliac arteries", "common iliac"], ["CIA"]],
  ["EIA", ["external iliac artery", "external iliac arteries", "external iliac"], ["EIA"]],
  [["CIA", "EIA"], ["iliac artery", "iliac arteries"], []],
  ["CFA", ["common femoral artery"], ["CFA"]],
  ["PFA", ["profunda femoris artery", "deep femoral artery"], ["PFA"]],
  ["SFA", ["superficial femoral artery"], ["SFA"]],
  [["CFA", "SFA"], ["femoral artery", "femoral arteries"], []],
  ["POPA", ["popliteal artery"], []],
  ["TPT", ["tibioperoneal trunk", "tibio-peroneal trunk"], ["TPT"]],
  ["ATA", ["anterior tibial artery"], ["ATA"]],
  ["PTA", ["posterior tibial artery"], ["PTA"]],
  ["PERA", ["peroneal artery"], []],
  ["DPA", ["dorsalis pedis artery", "dorsalis pedis"], ["DPA"]],
  ["ANKLE", ["ankle"], []],
  ["AXA", ["axillary artery"], []],
  ["BA_ARM", ["brachial artery"], []],
  ["RADA", ["radial artery"], []],
  ["ULNA", ["ulnar artery"], []],
  ["CFV", ["common femoral vein"], ["CFV"]],
  ["SFJ", ["saphenofemoral junction", "sapheno-femoral junction"], ["SFJ"]],
  ["PFV", ["profunda femoris vein", "deep femoral vein"], ["PFV"]],
  ["FV", ["superficial femoral vein", "femoral vein"], ["FV"]],
  ["POPV", ["popliteal vein"], []],
  ["SPJ", ["saphenopopliteal junction", "sapheno-popliteal junction"], ["SPJ"]],
  ["PTV", ["posterior tibial veins", "posterior tibial vein"], ["PTV"]],
  ["PERV", ["peroneal veins", "peroneal vein"], []],
  ["GSV", ["great saphenous vein", "long saphenous vein"], ["GSV", "LSV"]],
  ["SSV", ["small saphenous vein", "short saphenous vein"], ["SSV"]],
  [["GSV", "SSV"], ["saphenous vein", "saphenous veins"], []],
  ["PERF", ["perforator vein", "perforating vein", "perforator veins", "perforators", "perforator"], []],
  ["IJV", ["internal jugular vein"], ["IJV"]],
  ["AXV", ["axillary vein"], []],
  ["BRV", ["brachial veins", "brachial vein"], []],
  ["CEPV", ["cephalic vein"], []],
  ["BASV", ["basilic vein"], []],
  ["AVF_ARTERY", ["access inflow artery", "inflow artery"], []],
  ["AVF_ANAST", ["access anastomosis", "anastomosis"], []],
  ["AVF_VEIN", ["access outflow vein", "outflow vein"], []],
  [["AVF_ARTERY", "AVF_ANAST", "AVF_VEIN"], ["fistula", "graft"], ["AVF"]],
  ["MCA", ["middle cerebral artery", "middle cerebral arteries"], ["MCA"]],
  ["ACA", ["anterior cerebral artery"], ["ACA"]],
  ["PCA", ["posterior cerebral artery"], ["PCA"]],
  ["BA", ["basilar artery"], ["BA"]],
];

const aliases: readonly Alias[] = named
  .flatMap(([families, words, abbreviations]) => {
    const list = typeof families === "string" ? [families] : families;
    return [
      ...words.map((text) => ({ text, families: list })),
      ...abbreviations.map((text) => ({ text, families: list, exactCase: true })),
    ];
  })
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

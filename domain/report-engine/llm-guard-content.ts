import { sentencesOf } from "./text-scan";

// What a language model may not add to a draft: a recommendation, a diagnosis or a grade the engine did not
// state, or a quantity written in words. The number, side, vessel and grade checks of llm-guard.ts read digits
// and the engine's grade wordings; these read the words around them. A sentence is refused when it brings in
// content that neither the engine's draft nor the clinic's legend contains, so a faithful rephrasing (other
// connecting words, the same content) passes.

/** Words that make a sentence a recommendation. The content they introduce must be the draft's own. */
const recommendationCue =
  /\b(?:recommend\w*|suggest(?:ed|s)?|advis\w*|consider\w*|refer(?:ral|red|s)?|should|follow[- ]?up|repeat\w*|re-?imag\w*|urgent\w*|correlat\w*|further (?:imaging|evaluation|assessment|investigation|work-?up)|warrant\w*|indicated)\b/i;

/** Words a recommendation is made of that carry no content of their own. */
const recommendationWords = new Set(
  (
    "recommend recommended recommends recommendation recommendations suggest suggested suggests advise advised " +
    "advises advisable consider considered refer referral referred refers should follow followup follow-up repeat " +
    "repeated reimaging re-imaging further is are be was were a an the and or of to in on for with at by as it this " +
    "that these those patient patients is would could may might can please also then if when within"
  ).split(" "),
);

/** Conditions a report may diagnose. Each must already be in the draft or the legend. */
const diagnosisTerms: readonly { name: string; pattern: RegExp }[] = [
  ["fibromuscular dysplasia", /\bfibromuscular dysplasia\b|\bFMD\b/i],
  ["dysplasia", /\bdysplas\w*/i],
  ["dissection", /\bdissect\w*/i],
  ["arteritis or vasculitis", /\barteritis\b|\bvasculitis\b|\bTakayasu\b/i],
  ["pseudoaneurysm", /\bpseudo-?aneurysm\w*/i],
  ["aneurysm", /(?<!pseudo-?)\baneurysm\w*|\bAAA\b/i],
  ["dilatation", /\bdilat\w*|\bectatic\b|\bectasia\b/i],
  ["thrombosis", /\bthromb(?:osis|oses|us|i)\b|\bclot\w*|\bDVT\b/i],
  ["embolism", /\bembol\w*/i],
  ["phlebitis", /\b(?:thrombo)?phlebitis\b/i],
  ["steal", /\bsteal\b/i],
  ["entrapment", /\bentrapment\b/i],
  ["compression syndrome", /\bcompression syndrome\b|\bMay[- ]Thurner\b|\bnutcracker\b|\bthoracic outlet\b/i],
  ["haematoma", /\bha?ematoma\w*/i],
  ["cyst", /\bcyst\w*/i],
  ["mass or tumour", /\bmass(?:es)?\b|\btumou?r\w*|\bneoplas\w*|\bmalignan\w*/i],
  ["lymph node", /\blymph\w*/i],
  ["cellulitis or oedema", /\bcellulitis\b|\bo?edema\w*|\boedema\w*/i],
  ["arteriovenous malformation", /\bmalformation\b|\bAVM\b/i],
  ["hyperplasia", /\bhyperplas\w*/i],
  ["ischaemia", /\bischa?emi\w*|\binfarct\w*|\bgangren\w*|\bstroke\b/i],
  ["vasospasm", /\bvasospasm\w*|\bspasm\b/i],
  ["hyperaemia", /\bhypera?emi\w*/i],
  ["venous insufficiency", /\b(?:chronic )?venous insufficien\w*|\bvaricos\w*|\bvarices\b|\bCVI\b/i],
  ["peripheral arterial disease", /\bperipheral arter\w* disease\b|\bPAD\b|\bclaudication\b/i],
  ["hypoplasia", /\bhypoplas\w*|\baplas\w*|\batres\w*/i],
  ["stent or graft failure", /\bin-?stent\b|\bstent\w*|\bgraft (?:failure|stenosis)\b/i],
  ["stenosis", /\bstenos[ie]s\b|\bstenotic\b|\bnarrow\w*/i],
  ["occlusion", /\bocclu\w*/i],
].map(([name, pattern]) => ({ name: name as string, pattern: pattern as RegExp }));

/** Words that grade a stenosis or a disease; the grade must be the engine's. */
const severityPhrase =
  /\b(?:mild(?:ly)?|moderate(?:ly)?|severe(?:ly)?|critical(?:ly)?|significant(?:ly)?|insignificant|high-?grade|low-?grade|tight|sub-?total|pre-?occlusive|minimal|marked(?:ly)?|trivial|haemodynamically|hemodynamically)\b(?:\s+\w+){0,2}?\s+(?:stenos[ie]s|narrowing|disease|occlusion|reflux|thrombosis|aneurysm|dilatation|vasospasm)\b/gi;

const units = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
];
const tens = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
/** Number words, fractions and multiples: a quantity in words is as much a number as one in digits. */
const numberWord = new RegExp(
  `\\b(?:(?:${tens.join("|")})(?:[- ](?:${units.slice(1, 10).join("|")}))?|${units.join("|")}|hundreds?|thousands?|half|halves|third|thirds|quarters?|twice|double[ds]?|triple[ds]?|threefold|twofold|fourfold)\\b`,
  "gi",
);

/** "A single", "one of" and "no one" use "one" as a word, not a quantity: "one" is only a number before a unit. */
const oneAsQuantity = /\bone\s+(?:cm|mm|ms|millimet|centimet|second|year|month|week|per ?cent|%)/i;

export interface ContentCheck {
  /** The engine's draft text (indication, findings, impression) and the study's indication. */
  draftText: string;
  /** The clinic's legend: titles and meanings, which the model may use. */
  legendText: string;
}

const normalise = (text: string) => text.toLowerCase().replace(/\s+/g, " ");

/** Word stems of a text, so that "aortic" matches "aorta" and "referral" matches "refer". */
function stems(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[a-z][a-z'-]*|\d+(?:\.\d+)?/g) ?? []).map(stem));
}

function stem(word: string): string {
  const w = word.replace(/'s$/, "");
  return w.length <= 4 ? w : w.slice(0, 4);
}

function quote(sentence: string): string {
  const s = sentence.trim();
  return s.length > 90 ? `"${s.slice(0, 87)}..."` : `"${s}"`;
}

/** The first sentence of the candidate that adds content; null when there is none. */
export function checkAddedContent(candidate: string, known: ContentCheck): string | null {
  const reference = `${known.draftText}\n${known.legendText}`;
  const referenceText = normalise(reference);
  const referenceStems = stems(reference);
  const draftRecommends = sentencesOf(known.draftText).some((s) => recommendationCue.test(s));

  for (const sentence of sentencesOf(candidate)) {
    for (const term of diagnosisTerms) {
      const found = sentence.match(term.pattern);
      if (found && !term.pattern.test(reference)) {
        return `it adds a diagnosis the criteria-based draft does not make ("${found[0]}")`;
      }
    }
    for (const match of sentence.matchAll(severityPhrase)) {
      if (!referenceText.includes(normalise(match[0]))) {
        return `it adds a grade the criteria-based draft does not give ("${match[0]}")`;
      }
    }
    for (const match of sentence.matchAll(numberWord)) {
      const word = match[0].toLowerCase();
      if (word === "one" && !oneAsQuantity.test(sentence.slice(match.index ?? 0))) continue;
      if (!new RegExp(`\\b${word}\\b`, "i").test(reference)) {
        return `it writes a number in words ("${match[0]}"), which the criteria-based draft does not state`;
      }
    }
    if (recommendationCue.test(sentence)) {
      if (!draftRecommends) {
        return `it adds a recommendation the criteria-based draft does not make: ${quote(sentence)}`;
      }
      const added = (sentence.toLowerCase().match(/[a-z][a-z'-]*/g) ?? []).filter(
        (w) => !recommendationWords.has(w) && !recommendationCue.test(w) && !referenceStems.has(stem(w)),
      );
      if (added.length > 0) {
        return `it adds a recommendation the criteria-based draft does not make: ${quote(sentence)}`;
      }
    }
  }
  return null;
}

// Reading report text back: the numbers it states, and which side each part of it speaks about.
// Used to check text that the engine did not write itself, and by the tests of the engine's own text.

export type SideMention = "right" | "left" | "both" | null;

export interface NumberMention {
  value: number;
  raw: string;
  /** Normalised unit written right after the number, if any: "cm/s", "mm", "ms", "ml/min", "%", ... */
  unit: string | null;
  start: number;
  end: number;
}

export interface TextSegment {
  side: SideMention;
  text: string;
}

const unitWords: Record<string, string> = {
  "cm/s": "cm/s",
  "cm/sec": "cm/s",
  "cm s-1": "cm/s",
  "m/s": "m/s",
  mm: "mm",
  cm: "cm",
  ms: "ms",
  msec: "ms",
  s: "s",
  sec: "s",
  seconds: "s",
  "ml/min": "ml/min",
  "%": "%",
  percent: "%",
  month: "months",
  months: "months",
  year: "years",
  years: "years",
  week: "weeks",
  weeks: "weeks",
};

// A digit glued to letters ("M1", "T2") is part of a name, not a stated value.
const numberPattern =
  /(?<![A-Za-z\d.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![A-Za-z\d])(?:\s*(cm\/sec|cm\/s|cm s-1|m\/s|mL\/min|ml\/min|msec|ms|mm|cm|seconds|sec|s|%|percent|months?|years?|weeks?)\b|\s*(%))?/g;

export function numbersIn(text: string): NumberMention[] {
  const found: NumberMention[] = [];
  for (const match of text.matchAll(numberPattern)) {
    const digits = `${(match[1] ?? "").replace(/,/g, "")}${match[2] ?? ""}`;
    const unitText = (match[3] ?? match[4] ?? "").toLowerCase();
    const start = match.index ?? 0;
    found.push({
      value: Number(digits),
      raw: `${match[1] ?? ""}${match[2] ?? ""}`,
      unit: unitText ? (unitWords[unitText] ?? unitText) : null,
      start,
      end: start + match[0].length,
    });
  }
  return found;
}

/** Sentences end at a full stop or line break; the point of a decimal ("2.5") does not end one. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<!\d)\.(?!\d)|\.(?=\s|$)|\n/)
    .map((s) => s.trim())
    .filter(Boolean);
}

const sidePattern =
  /\b(?:right|left|bilateral(?:ly)?|both (?:sides|legs|arms|lower limbs|upper limbs|ICAs|internal carotid arteries))\b|\b(?:Rt|Lt|R|L)\b(?=\.?\s*[A-Z]{2,})/gi;

function sideOf(word: string): SideMention {
  const lower = word.toLowerCase();
  if (lower.startsWith("bilateral") || lower.startsWith("both")) return "both";
  return lower.startsWith("r") ? "right" : "left";
}

/**
 * Splits text into stretches that each speak about one side: a stretch starts at a side word and runs to
 * the next side word or the end of the sentence. Text before the first side word of a sentence has no side.
 */
export function sideSegments(text: string): TextSegment[] {
  const segments: TextSegment[] = [];
  for (const sentence of sentencesOf(text)) {
    let side: SideMention = null;
    let from = 0;
    for (const match of sentence.matchAll(sidePattern)) {
      const at = match.index ?? 0;
      // "R"/"L" only count as sides written as abbreviations ("R ICA", "Lt CFV").
      if (match[0].length <= 2 && !/^(?:R|L|Rt|Lt|RT|LT)$/.test(match[0])) continue;
      const piece = sentence.slice(from, at).trim();
      if (piece) segments.push({ side, text: piece });
      side = sideOf(match[0]);
      from = at;
    }
    const rest = sentence.slice(from).trim();
    if (rest) segments.push({ side, text: rest });
  }
  return segments;
}

export function sideMentionsIn(text: string): Set<"right" | "left"> {
  const sides = new Set<"right" | "left">();
  for (const segment of sideSegments(text)) {
    if (segment.side === "both") {
      sides.add("right");
      sides.add("left");
    } else if (segment.side) sides.add(segment.side);
  }
  return sides;
}

import type { Box, OcrFieldName, OcrResult } from "../../domain/contracts/ocr";
import { parseDateText, parseSex } from "./field-grammars";
import { lexiconFieldOf } from "./field-labels";
import { editDistance } from "./name-lexicon";
import { squash } from "./worksheet-vocabulary";

/** The values a clinician checked before generating, by the field of the reading they correct. */
export type CheckedValues = Partial<Record<OcrFieldName, string | null>>;
/** One field the clinician changed: what was read, what it is, where it was read. */
export type Correction = { field: OcrFieldName; read: string | null; corrected: string | null; box: Box | null };

const words = (s: string | null | undefined) =>
  (s ?? "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
/** Names compare as their words in any order ("LEWIS, Ashley" is "Ashley Lewis"); other text as its words. */
const same = (field: OcrFieldName, a: string | null, b: string | null) =>
  field === "patientName"
    ? words(a).split(" ").sort().join(" ") === words(b).split(" ").sort().join(" ")
    : words(a) === words(b);

/** The fields the clinician changed (a value the reader missed, misread or read where the sheet has none). */
export function correctionsOf(result: OcrResult, checked: CheckedValues): Correction[] {
  const out: Correction[] = [];
  for (const [name, value] of Object.entries(checked)) {
    const field = name as OcrFieldName;
    const read = result.fields[field];
    // A value from the machine's DICOM SR was not read from the page: changing it teaches the reader nothing.
    if (value === undefined || !read || read.source === "DICOM SR") continue;
    const corrected = value?.trim() || null;
    if (same(field, read.value, corrected)) continue;
    out.push({ field, read: read.value, corrected, box: read.box });
  }
  return out;
}

/** A label's wording: one to five words of letters, ending with its colon (or standing alone on its line). */
const LABEL_TEXT = /^[A-Za-z][A-Za-z.'’/()\s-]{0,50}$/;
const MAX_WORDING = 40;

/**
 * The printed label the corrected value stood after on the page, squashed: the words with their colon just before
 * the value on its line ("Client: Ashley R. Lewis" -> "client"; after another field's value, `others`, or a
 * number, which no label holds), or the line above when the value stands alone under its label. Null when the
 * value is not found on the page, or what precedes it is no label (a sentence, digits, a value).
 */
export function labelWordingOf(
  pageText: string,
  field: OcrFieldName,
  corrected: string,
  now: Date,
  others: readonly (string | null | undefined)[] = [],
): string | null {
  const otherWords = new Set(others.flatMap((o) => words(o).split(" ").filter(Boolean)));
  const lines = pageText.split("\n").map((l) => l.trim());
  for (let i = 0; i < lines.length; i++) {
    const at = valueStart(lines[i]!, field, corrected, now);
    if (at === null) continue;
    const before = lines[i]!.slice(0, at).trim().split(/\s+/).filter(Boolean);
    let from = 0;
    before.forEach((token, k) => {
      // A zero against letters is a misread O ("0n:"), not a number.
      const digits = /\d/.test(token.replace(/0(?=[a-z])|(?<=[a-z])0/gi, "o"));
      if (digits || otherWords.has(words(token))) from = k + 1;
    });
    let rest = before.slice(from);
    // Another label earlier on the line ("Sex: M Visit on:"): its value is the word after its colon.
    const inner = rest.slice(0, -1).findLastIndex((token) => token.endsWith(":"));
    if (inner >= 0) rest = rest.slice(inner + 2);
    const label = rest.join(" ");
    const wording = before.length ? labelOf(label) : i > 0 ? labelOf(lines[i - 1]!) : null;
    if (wording) return wording;
  }
  return null;
}

/**
 * A label's squashed wording: one to five words of letters ending with its colon (a title or a sentence on the
 * line above a value has none).
 */
function labelOf(text: string): string | null {
  // A label has no digits: a zero read for an O ("Visit 0n:") is undone.
  const trimmed = text.replace(/0/g, "o").replace(/[:\s.#]+$/, "");
  if (!/:\s*$/.test(text)) return null;
  if (!LABEL_TEXT.test(trimmed) || trimmed.split(/\s+/).length > 5) return null;
  const wording = squash(trimmed.replace(/\([^)]*\)/g, " "));
  return wording.length >= 2 && wording.length <= MAX_WORDING ? wording : null;
}

/** Where on a line of read text the corrected value starts (a date in any written form; words one letter off). */
function valueStart(line: string, field: OcrFieldName, corrected: string, now: Date): number | null {
  const tokens = [...line.matchAll(/\S+/g)].map((m) => ({ text: m[0], at: m.index! }));
  if (field === "patientDob" || field === "examDate") {
    const hit = tokens.find((t) => parseDateText(t.text.replace(/^[^\d]+|[^\d]+$/g, ""), now).value === corrected);
    return hit ? hit.at : null;
  }
  if (field === "sex") {
    // "M" or "Female" as written; the clinician's value is the reading's word ("male").
    const hit = tokens.find((t) => parseSex(t.text) === corrected);
    return hit ? hit.at : null;
  }
  const want = words(corrected).split(" ").filter(Boolean);
  if (want.length === 0) return null;
  // Each word of a token on its own ("c/w" is "c" and "w"), at the token's place.
  const have = tokens.flatMap((t) =>
    words(t.text)
      .split(" ")
      .filter(Boolean)
      .map((word) => ({ ...t, word })),
  );
  const close = (a: string, b: string) => a === b || (b.length >= 4 && editDistance(a, b, 1) <= 1);
  for (let k = 0; k + want.length <= have.length; k++) {
    const window = have.slice(k, k + want.length).map((t) => t.word);
    // Names may be written surname first: the window holds the same words in any order.
    const pool = [...window];
    const all = want.every((w) => {
      const j = pool.findIndex((p) => close(p, w));
      if (j < 0) return false;
      pool.splice(j, 1);
      return true;
    });
    if (all && (field === "patientName" || window.every((w, j) => close(w, want[j]!)))) return have[k]!.at;
  }
  return null;
}

/** How many corrections must show a wording before it becomes an alias. */
export const ALIAS_EVIDENCE = {
  /** A wording the lexicon does not know: its first correction. */
  unknown: 1,
  /** A wording the lexicon gives to another field (or to none of the result's): twice, to overrule it. */
  overrule: 2,
} as const;

/**
 * Whether a wording shown `seen` times naming `field` is an alias the reader should use: never for a wording the
 * lexicon already gives to that field (nothing to learn).
 */
export function aliasActive(wording: string, field: OcrFieldName, seen: number): boolean {
  const known = lexiconFieldOf(wording);
  if (known === field || (field === "patientName" && known === "surname")) return false;
  return seen >= (known === undefined ? ALIAS_EVIDENCE.unknown : ALIAS_EVIDENCE.overrule);
}

/** The label wording each corrected field's value stood after (the other fields' values bound it on its line). */
export function correctedWordings(
  result: OcrResult,
  checked: CheckedValues,
  corrections: Correction[],
  now: Date,
): (string | null)[] {
  return corrections.map((c) => {
    if (!c.corrected) return null;
    const others = Object.entries(checked).flatMap(([f, v]) =>
      f === c.field ? [] : [v, result.fields[f as OcrFieldName]?.value],
    );
    return labelWordingOf(result.text, c.field, c.corrected, now, others);
  });
}

/** A wording's count after one more correction shows it naming `field`; last seen naming another, it starts again. */
export const nextAliasCount = (existing: { field: string; seen: number } | undefined, field: OcrFieldName) =>
  existing && existing.field === field ? existing.seen + 1 : 1;

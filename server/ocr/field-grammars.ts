/**
 * What a header field's value may look like, as small pure parsers of read text (also used to read a template's
 * zones). Each returns the value to show, or null when the text cannot be that field: a field the page does not
 * support is never emitted.
 */
import { parseWorksheetDate } from "../../domain/dates";

/** Punctuation a recogniser leaves at a value's ends (a colon of the label, an underline's end read as "-"). */
const trimEnds = (text: string) =>
  text
    .replace(/\s+/g, " ")
    .replace(/^[\s:;,.\-_=|#*]+/, "")
    .replace(/[\s:;,\-_=|*]+$/, "")
    .trim();

/** Free text kept as written (indication, comments): null when nothing like a word was read. */
export function parseFreeText(text: string): string | null {
  // A zero against a letter in a word is the letter O ("sten0sis", "n0 sig.").
  const value = trimEnds(text).replace(/(?<=[A-Za-z])0(?![0-9])|(?<![0-9])0(?=[A-Za-z])/g, "o");
  return /[A-Za-z]{2}|[A-Za-z]\s*\d|\d\s*[A-Za-z]/.test(value) ? value : null;
}

/** A person named on the sheet (referring physician, sonographer's name or initials), as written. */
export function parsePersonName(text: string): string | null {
  const value = trimEnds(text)
    .replace(/\s*\.\s*/g, ". ")
    .replace(/\.\s+$/, ".")
    .trim();
  const letters = value.replace(/[^A-Za-z]/g, "");
  // Initials ("KL") are a name; digits are not part of one.
  if (letters.length < 2 || /\d/.test(value)) return null;
  return value;
}

/** Letters a recogniser confuses with digits, inside the number part of a record number. */
const DIGIT_LOOKALIKES: Record<string, string> = {
  O: "0",
  o: "0",
  D: "0",
  I: "1",
  l: "1",
  "|": "1",
  i: "1",
  S: "5",
  s: "5",
  B: "8",
  Z: "2",
  z: "2",
  g: "9",
};

/**
 * A medical record number as written ("MRN383901", "UR 00123", "123-456-789"): an optional letter prefix, then
 * digits with separators. Letters among the digits are the recogniser's look-alikes and read as digits.
 */
export function parseMrn(text: string): string | null {
  // A point after the number is a sentence's or a dotted line's, never the number's ("UR755471.").
  const value = trimEnds(text)
    .replace(/[\s.]+$/, "")
    .replace(/^(no|#)\.?\s*/i, "");
  const match = /^([A-Za-z]{0,4})\s*(.*)$/.exec(value)!;
  const prefix = match[1]!;
  const rest = match[2]!.replace(/\s+/g, "");
  const digits = rest.replace(/[^0-9]/g, "").length;
  if (digits < 3 || digits < 0.6 * rest.replace(/[-/.]/g, "").length) return null;
  const number = [...rest].map((c) => DIGIT_LOOKALIKES[c] ?? c).join("");
  if (!/^[0-9][0-9\-/.]*[0-9]$/.test(number)) return null;
  return `${prefix.toUpperCase()}${number}`;
}

/** Sex as the contract has it: "male", "female" or "other", from "M", "F", "Male", "female", "X", "Other", ... */
export function parseSex(text: string): "male" | "female" | "other" | null {
  const options = optionList(text);
  if (options !== undefined) return options;
  const words = text.split(/[\s.\-_=~·…|]+/).filter((w) => /[A-Za-z]/.test(w));
  if (words.length > 1) {
    // A leader's end read as a letter beside the value ("I m"): the one word that is a sex, if only one is.
    const read = words.map(parseWord).filter((w) => w !== null);
    return read.length === 1 ? read[0]! : null;
  }
  return parseWord(text);
}

/** The printed choices "M / F", each letter perhaps with a bracket the pen's circle left ("(M", "F)"). */
const OPTION_LIST = /^[^A-Za-z0-9]*?(\(?)\s*([A-Za-z])\s*(\)?)\s*[/|]\s*(\(?)\s*([A-Za-z])\s*(\)?)[^A-Za-z0-9]*$/;

/** A choice and the slash of the list with no other letter and no bracket a circle left: "M /", "/ F". */
const HALF_OPTION_LIST =
  /^[^A-Za-z0-9/|()]*(?:[A-Za-z][^A-Za-z0-9/|()]*[/|]|[/|][^A-Za-z0-9/|()]*[A-Za-z])[^A-Za-z0-9/|()]*$/;

/**
 * Sex printed as its choices with one circled ("M / F"): the circle reads, if at all, as a bracket at its letter.
 * The one letter with a bracket is the answer; none or both (the circle unread, or both read alike) is no answer,
 * never the first letter that happens to be a sex ("M / E", where a circle made the F an E). Undefined: no list.
 */
function optionList(text: string): "male" | "female" | "other" | null | undefined {
  // One choice and the slash only ("M/", "/F"): the other choice was not read, most likely the one the pen's
  // circle hid. No answer, never the choice that was read.
  if (HALF_OPTION_LIST.test(text.trim())) return null;
  const m = OPTION_LIST.exec(text.trim());
  if (!m) return undefined;
  const first = !!(m[1] || m[3]);
  const second = !!(m[4] || m[6]);
  if (first === second) return null;
  return parseWord(first ? m[2]! : m[5]!);
}

function parseWord(text: string): "male" | "female" | "other" | null {
  const word = text.toLowerCase().replace(/[^a-z]/g, "");
  if (word === "m" || word === "male" || word === "man") return "male";
  if (word === "f" || word === "female" || word === "woman") return "female";
  if (word === "x" || word === "other" || word === "o" || word === "indeterminate" || word === "nonbinary") {
    return "other";
  }
  // One letter misread in a long word ("Femaie", "Mate"); an "m" read as "rn" ("Fernale").
  const joined = word.replace(/rn/g, "m");
  if (joined.length >= 5 && distanceWithin(joined, "female", 1)) return "female";
  if (joined.length >= 3 && joined.length <= 5 && distanceWithin(joined, "male", 1)) return "male";
  return null;
}

function distanceWithin(a: string, b: string, max: number): boolean {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]! <= max;
}

/**
 * Splits of a date's digits into day, month and year that respect the separators that were read: the recogniser
 * loses thin handwritten points and slashes ("29.051999"), but keeps most digits.
 */
function dateCandidates(text: string): string[] {
  const digits = text.replace(/\D/g, "");
  const boundaries = new Set<number>();
  let count = 0;
  for (const ch of text) {
    if (/\d/.test(ch)) count++;
    else if (count > 0) boundaries.add(count);
  }
  const out: string[] = [];
  const isoFirst = /^(19|20)\d\d/.test(digits);
  const layouts: [number, number, number, boolean][] = [];
  for (const d of [1, 2]) for (const m of [1, 2]) for (const y of [2, 4]) layouts.push([d, m, y, false]);
  if (isoFirst) layouts.push([4, 2, 2, true]);
  for (const [a, b, c, iso] of layouts) {
    if (a + b + c !== digits.length) continue;
    // Every separator that was read must fall between two groups.
    if ([...boundaries].some((k) => k !== a && k !== a + b)) continue;
    const g = [digits.slice(0, a), digits.slice(a, a + b), digits.slice(a + b)];
    out.push(iso ? g.join("-") : g.join("."));
  }
  return out;
}

/**
 * A date read as text, as ISO: strict parse first; then the repairs a recogniser needs (a lost or mixed-up
 * separator), with the factor its confidence is to be multiplied by.
 */
export function parseDateText(text: string, now: Date): { value: string | null; factor: number } {
  const exact = parseWorksheetDate(text, now);
  if (exact) return { value: exact, factor: 1 };
  const trimmed = text.replace(/^[./-]+|[./-]+$/g, "");
  const groups = trimmed.split(/[./-]+/).filter(Boolean);
  if (groups.length === 3) {
    // Keep the digits, use one separator: ISO when the year comes first, day-month-year otherwise.
    const repaired = parseWorksheetDate(groups.join(groups[0]!.length === 4 ? "-" : "."), now);
    if (repaired) return { value: repaired, factor: 0.6 };
  }
  const readings = new Set(
    dateCandidates(trimmed)
      .map((c) => parseWorksheetDate(c, now))
      .filter((d): d is string => d !== null),
  );
  // Only an unambiguous split counts: "1152020" could be 1.15.2020 (invalid) or 11.5.2020, but 1.1.52020 never.
  if (readings.size === 1) return { value: [...readings][0]!, factor: 0.5 };
  return { value: null, factor: 0 };
}

/** A word written in capitals often comes back with a few lower-case letters ("EDWaRD"); show it in capitals. */
const mostlyCapitals = (word: string) => {
  const letters = word.replace(/[^A-Za-z]/g, "");
  return letters.length >= 3 && letters.replace(/[^A-Z]/g, "").length / letters.length >= 0.6;
};

/** A patient's name as shown: capitals kept, one space after a comma, no stray punctuation at its ends. */
export function cleanName(text: string): string {
  return text
    .split(" ")
    .map((word) => (mostlyCapitals(word) ? word.toUpperCase() : word))
    .join(" ")
    .replace(/\s*,\s*/g, ", ")
    .replace(/^[\s,.'-]+|[\s,'-]+$/g, "")
    .replace(/\s+/g, " ");
}

/** A name written in two fields, as one: "SURNAME, Given names". */
export function joinNameParts(surname: string | null, given: string | null): string | null {
  if (surname && given) return `${surname}, ${given}`;
  return surname ?? given ?? null;
}

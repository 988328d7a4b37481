import type { OcrFieldName, OcrHeaderFieldName } from "../../domain/contracts/ocr";
import { columnOf, type DecodedChar } from "./ctc-decode";
import { parseSex } from "./field-grammars";
import { editDistance } from "./name-lexicon";
import { centerV, heightOf, type ReadRegion, toReadRegion } from "./read-region";
import { squash } from "./worksheet-vocabulary";

/** What a printed label asks for: a field of the result, or one half of a name written in two fields. */
export type LabelField = "patientName" | "surname" | "givenName" | "patientDob" | "examDate" | OcrHeaderFieldName;

/**
 * How clinics word their labels, by meaning, squashed (lower case, letters and digits only). Matched as a prefix of
 * a region, longest first, so "patientid" (MRN) wins over "patient" (name) and "sonographercomments" (comments)
 * over "sonographer". `null` marks labels of fields the result does not carry: they only end the value before them.
 */
const LEXICON: Record<LabelField | "other", string[]> = {
  patientName: [
    "patientname",
    "patientsname",
    "patientfullname",
    "fullname",
    "nameofpatient",
    "ptname",
    // Allied-health and private clinics call the patient a client ("Client name:"); "Client:" alone is left unknown.
    "clientname",
    "clientsname",
    "patient",
    "name",
    "pt",
  ],
  // "Last:" and "First:" name the name's parts only with their colon: alone they are words of any sentence.
  surname: ["surname", "lastname", "familyname", "patientsurname", "last:"],
  givenName: ["givennames", "givenname", "firstnames", "firstname", "forenames", "forename", "christianname", "first:"],
  patientDob: ["dateofbirth", "birthdate", "dob", "born", "birthday", "dobirth"],
  examDate: [
    "examdate",
    "examinationdate",
    "studydate",
    "scandate",
    "testdate",
    "servicedate",
    "proceduredate",
    "visitdate",
    "dateofexam",
    "dateofexamination",
    "dateofstudy",
    "dateofscan",
    "dateoftest",
    "dateofservice",
    "dateofprocedure",
    "dateofvisit",
    // "Study Dt:", "DOS:" (date of service).
    "studydt",
    "examdt",
    "scandt",
    "testdt",
    "dos:",
    "date",
  ],
  referringPhysician: [
    "referringphysician",
    "referringdoctor",
    "referringclinician",
    "referringdr",
    "referringmo",
    "referring",
    "referredby",
    "referrer",
    "refdoctor",
    "refphysician",
    "refdr",
    "ref",
    "requestingdoctor",
    "requestingphysician",
    "requestingdr",
    "requestedby",
    "requestingclinician",
    "requestingconsultant",
    "referringconsultant",
    "referringprovider",
    // Who orders the study is its referrer on American forms.
    "orderingphysician",
    "orderingprovider",
    "orderingdoctor",
    "orderedby",
    // A general practitioner is who refers in much of the world ("GP / Referrer:", "Referring GP:").
    "gpreferrer",
    "referringgp",
    "generalpractitioner",
    "familydoctor",
    "gp:",
    // What is left of "Ref Dr:" when its first word ran into the value before it; a form's doctor is its referrer.
    "doctor:",
    "dr:",
  ],
  mrn: [
    "medicalrecordnumber",
    "medicalrecordno",
    "hospitalnumber",
    "hospitalno",
    "hospitalid",
    "hospno",
    "hospid",
    "chartnumber",
    "patientid",
    "patientnumber",
    "patientno",
    "recordnumber",
    "recordno",
    "mrno",
    "mrn",
    "urnumber",
    "urno",
    "urn",
    "ur",
    "ptid",
    "ptno",
    "idno",
    "id",
    "nhsnumber",
    "nhsno",
    "chartno",
  ],
  indication: [
    "clinicalindication",
    "clinicalhistory",
    "clinicaldetails",
    "clinicalinformation",
    "clinicalinfo",
    "reasonforstudy",
    "reasonforexam",
    "reasonforexamination",
    "reasonforscan",
    "reasonforreferral",
    "reasonfortest",
    "indications",
    "indication",
    "history",
    "reason",
    "symptoms",
    "presentingcomplaint",
  ],
  sonographer: [
    "sonographerinitials",
    "sonographer",
    "technologist",
    "technician",
    "tech",
    "scannedby",
    "performedby",
    "operator",
    "vascularscientist",
  ],
  // "M/F:" asks for the sex only with its colon: the printed choices "M / F" are its value.
  sex: ["gender", "sex", "mf:"],
  comments: [
    "sonographersimpression",
    "sonographerimpression",
    "sonographerscomments",
    "sonographercomments",
    "sonographersnotes",
    "technicalcomments",
    "techimpression",
    "techcomments",
    "technologistcomments",
    "preliminaryfindings",
    "preliminaryimpression",
    "preliminaryreport",
    "impressioncomments",
    "impression",
    // A section heading more often than a label: only with its colon.
    "findings:",
    "comments",
    "comment",
    "notes",
    "remarks",
  ],
  other: [
    // A section's heading over the patient's fields ("Patient details"), no label of the name.
    "patientdetails",
    "patientinformation",
    "patientinfo",
    "patientdemographics",
    "sonographersignature",
    "signature",
    "age",
    "ward",
    "phone",
    "telephone",
    "tel",
    "height",
    "weight",
    "bmi",
    "address",
    "room",
    "bed",
    // An accession number is the study's, not the patient's record number.
    "accessionnumber",
    "accessionno",
    "accession",
    "accno",
  ],
};

/** A squashed label wording and the field it names (null: a field the result does not carry). */
type Entry = { label: string; field: LabelField | null; colonOnly: boolean };

const ENTRIES: Entry[] = Object.entries(LEXICON)
  .flatMap(([field, words]) =>
    words.map((w) => ({
      label: w.replace(/:$/, ""),
      field: field === "other" ? null : (field as LabelField),
      colonOnly: w.endsWith(":"),
    })),
  )
  .sort((a, b) => b.label.length - a.label.length);

/** A clinic's own wording of a label, learnt from its clinicians' corrections: squashed wording and field. */
export type LabelAlias = { wording: string; field: LabelField };

/** The clinic's aliases before the lexicon, so that its own meaning of a wording wins; longest first in each. */
function entriesWith(aliases: readonly LabelAlias[]): Entry[] {
  if (aliases.length === 0) return ENTRIES;
  const own = aliases
    .map((a) => ({ label: a.wording, field: a.field, colonOnly: false }))
    .sort((a, b) => b.label.length - a.label.length);
  return [...own, ...ENTRIES];
}

/** Whether a squashed wording names a field in the lexicon alone (which one; null: known, of no field). */
export function lexiconFieldOf(wording: string): LabelField | null | undefined {
  const hit = ENTRIES.find((e) => e.label === wording);
  return hit ? hit.field : undefined;
}

export type LabelHit = {
  field: LabelField | null;
  endStep: number;
  length?: number;
  colon?: boolean;
  /** A leader of points or dashes runs from the label towards its value. */
  leader?: boolean;
  /** A referrer's or sonographer's label without its colon, known by the person's name after it. */
  person?: boolean;
};

/** Labels this long may have one letter misread, added or lost. */
const FUZZY_LABEL_LENGTH = 6;
/** A label this long (letters) one letter off is still a label without its colon when nothing else is in its region. */
const FUZZY_ALONE_LENGTH = 10;
/** A label's own words may run on to its colon ("Sonographer initials:", "Patient Name (Surname, Given):"). */
const MAX_LABEL_TAIL = 30;

/** The length of the prefix of `text` one edit from a long `label`, or 0. */
function fuzzyPrefixLength(text: string, label: string): number {
  if (label.length < FUZZY_LABEL_LENGTH) return 0;
  for (const length of [label.length, label.length - 1, label.length + 1]) {
    // Labels have no digits: a digit is the value's ("Date of Birt: 17/5" is not "dateofbirt1").
    if (length > text.length || /\d/.test(text[length - 1]!)) continue;
    if (editDistance(text.slice(0, length), label, 1) <= 1) return length;
  }
  return 0;
}

/**
 * Finds a label at the start of a region: which field it names (null: a label of something else) and the
 * recogniser step where a value written in the same region (e.g. "DOB:02/08/69") begins.
 */
export function matchLabel(region: ReadRegion, aliases: readonly LabelAlias[] = []): LabelHit | null {
  const hit = matchChars(region.read.chars, region.matrix.steps, true, entriesWith(aliases));
  if (hit) return hit;
  // Any other "Something:" region is a label too: it bounds the value of the label before it.
  const colonAt = region.read.text.indexOf(":");
  if (colonAt > 1 && colonAt >= region.read.text.length - 2) return { field: null, endStep: region.matrix.steps };
  return null;
}

/**
 * A region that starts with one to three words and their colon before its value ("File no.: 9309054"): a label the
 * lexicon does not know, whose value is no field of the result but must not run into the one before. Only after
 * merged fields are cut (splitMergedFields): before, "ALLENIndication: TIA" would pass for one.
 */
export function unknownLabel(region: ReadRegion): LabelHit | null {
  const colonAt = region.read.text.indexOf(":");
  if (colonAt <= 1 || !UNKNOWN_LABEL.test(region.read.text.slice(0, colonAt))) return null;
  const colon = region.read.chars.find((c) => c.char === ":");
  return { field: null, endStep: colon ? colon.step : region.matrix.steps, colon: true };
}

/** One to three words of letters (a zero misread for an O aside), as an unknown label's words before its colon. */
const UNKNOWN_LABEL = /^[A-Za-z][A-Za-z0.'’/-]*(?:\s[A-Za-z0][A-Za-z0.'’/-]*){0,2}$/;

/** A lexicon label at the start of decoded characters, as matchLabel. */
function matchChars(
  chars: Pick<DecodedChar, "char" | "step">[],
  steps: number,
  fuzzyToo = true,
  entries: Entry[] = ENTRIES,
): LabelHit | null {
  let squashed = "";
  const prefixes: { length: number; step: number }[] = [];
  for (let i = 0; i < chars.length; i++) {
    // Printed labels sometimes read with a zero for an O ("D.0.B."); labels have no digits, so undo that. A "#"
    // stands for "number" ("Hosp #", "Chart #", "Patient #" ask for the record number, not the name).
    squashed += chars[i]!.char === "#" ? "no" : squash(chars[i]!.char).replace("0", "o");
    prefixes.push({ length: squashed.length, step: chars[i]!.step });
  }
  // Exact labels first; then a long label with one letter misread ("Patent Name:"), when its colon follows.
  const exact = firstHit(false, 0);
  if (!fuzzyToo) return exact;
  if (!exact) return firstHit(true, 0);
  // A long label one letter off that reaches further than the exact one ("Date of Bith:" over "Date") is that
  // label: the short one is only the first word of it.
  const longer = firstHit(true, exact.length ?? 0);
  return longer && longer.field !== exact.field ? longer : exact;

  /** The first label (longest first) matched exactly or one letter off, over more than `beyond` squashed letters. */
  function firstHit(fuzzy: boolean, beyond: number): LabelHit | null {
    for (const { label, field, colonOnly } of entries) {
      const length = fuzzy ? fuzzyPrefixLength(squashed, label) : squashed.startsWith(label) ? label.length : 0;
      if (length <= beyond) continue;
      const endIndex = prefixes.findIndex((p) => p.length === length);
      if (endIndex < 0) continue;
      // A label is a whole word ("Ref" is no label in "Reflux at SFJ") and ends at its colon ("Referring: Dr").
      // A referrer's title run against the label is the value's ("REF.DRDr. D Ferreira").
      if (
        /[A-Za-z]/.test(chars[endIndex + 1]?.char ?? "") &&
        !titleFollows(field, chars, endIndex) &&
        !capitalsRunIn(label, chars, endIndex)
      )
        continue;
      if (chars.slice(0, endIndex).some((c) => c.char === ":")) continue;
      // A label's words stop at a remark in brackets: "Patient (Surname, Given)" is the name's label with its
      // remark, not "Patient surname".
      if (chars.slice(0, endIndex).some((c) => c.char === "(")) continue;
      let next = endIndex + 1;
      // Points after the label are its abbreviation's, or a leader's run ("UR No. ------", "Exam date .......").
      while (next < chars.length && LEADER.test(chars[next]!.char)) next++;
      const tailFrom = next;
      next = labelTailEnd(chars, next, label.length >= 5 && label !== "date");
      // A leader after the label's remark ("Sex (M/F) ----") is the label's too.
      while (next > tailFrom && next < chars.length && /[-_=~·…]/.test(chars[next]!.char)) next++;
      const colon = chars[next]?.char === ":";
      // "REFERRING Dr N. Gupta": the longer label "Referring Dr" would take the value's title. When a shorter label
      // of the same field ends before the title and the title stands apart from the label's words (a wider gap before
      // it than after it, or printed in another case), the title is the value's.
      if (!colon && titleIsValues(label, field, chars, endIndex, entries)) continue;
      const named = headWordField(chars.slice(tailFrom, next), field, entries);
      const whole =
        chars.slice(next).every((c) => /[\s:.#]/.test(c.char) || LEADER.test(c.char)) || slashTail(chars.slice(next));
      // A run of points or dashes from the label to its value, as printed forms lead the eye ("Tech .......  CF",
      // "Name .THOMAS LEE." written over the dots), stands for the colon.
      const leader = leaderFollows(chars, endIndex) || (next > tailFrom && leaderFollows(chars, next - 1));
      // A short label like "name" or "id" must be followed by a colon, otherwise it is a word of some value; or by
      // digits, which no name has ("DOB 1/3/1975" whose faint colon was not read); or stand alone.
      const digitsFollow = chars.slice(next).some((c) => /\d/.test(c.char));
      // The typed value may follow the label's remark ("Name (Last, First) SCHNEIDER, Patricia").
      const typed =
        typedValueFollows(field, chars, endIndex) || (next > tailFrom && typedValue(field, chars.slice(next)));
      // A person's label without its colon ("TECH J. Morton", "REF N. Gupta"), printed with a capital, then a
      // person's name or initials: a label, which ends the value before it.
      const person = !colon && /^[A-Z]/.test(chars[0]?.char ?? "") && personFollows(field, chars, endIndex);
      if (label.length <= 4 && !colon && !digitsFollow && !whole && !typed && !leader && !person) continue;
      if (colonOnly && !colon) continue;
      // A long label one letter off stands without its colon only alone in its region ("Reterring Doctor") or with
      // a value in capitals against it ("Refering physicianDRICHEN").
      const alone = whole || capitalsRunIn(label, chars, endIndex);
      // Over a shorter exact label, a value's digits after it do as well as its colon ("Date of Bith 17/5/1995").
      const overExact = beyond > 0 && digitsFollow;
      if (fuzzy && !colon && !leader && !overExact && !(alone && label.length >= FUZZY_ALONE_LENGTH)) continue;
      // ")" closes a remark the label word took the last letter of ("Given name(s)").
      while (next < chars.length && (/[:\s.#)]/.test(chars[next]!.char) || LEADER.test(chars[next]!.char))) next++;
      if (whole) next = chars.length;
      const endStep = next < chars.length ? chars[next]!.step - 1 : steps;
      return {
        field: named,
        endStep: Math.max(0, endStep),
        length,
        colon,
        ...(leader ? { leader } : {}),
        ...(person ? { person } : {}),
      };
    }
    return null;
  }
}

/** What a leader line reads as: points, dashes, underscores, and the spaces between them. */
const LEADER = /[.\s\-_=~·…]/;

/**
 * A leader after the label: two or more of its points or dashes, or a point standing alone before the value's first
 * letter (".THOMAS", a dotted line under the value showing at its ends).
 */
function leaderFollows(chars: { char: string }[], endIndex: number): boolean {
  const rest = chars
    .slice(endIndex + 1)
    .map((c) => c.char)
    .join("");
  // After the label's colon too ("REASON: .venous. ulcer.").
  const colon = /^\s*:/.test(rest);
  const after = rest.replace(/^\s*:/, "");
  const single = colon ? /^\s*[.\-_~·…]\s*[A-Za-z0-9]/ : /^\s+[.\-_~·…]\s*[A-Za-z0-9]/;
  return /^\s*[.\-_=~·…]\s*[.\-_=~·…]/.test(after) || single.test(after);
}

/**
 * What follows a label in its own region is the label's when it is a second short label after a slash ("Patient
 * name / ID", "Name/UR"), perhaps with a format remark in brackets ("D.O.B. / Age (DD/MM/YYYY)" over its value in
 * a box), the value standing apart on the line or below.
 */
function slashTail(chars: { char: string }[]): boolean {
  const rest = chars
    .map((c) => c.char)
    .join("")
    .replace(/[.\-_=~·…\s]+$/, "");
  return /^\s*\/\s*[A-Za-z]{1,4}(?:\s*\/\s*[A-Za-z]{1,4})?\s*(?:\([^)0-9]*\))?\s*:?$/.test(rest);
}

/** A person's name as a referrer or sonographer writes it: a title, initials, a surname ("Dr N. Gupta", "J. Morton"). */
const PERSON_NAME =
  /^(?:(?:Dr|DR|Prof|PROF|Mr|MR|Mrs|MRS|Ms|MS)\.?\s+)?(?:[A-Z]\.?\s*){0,2}[A-Z][A-Za-z'’-]+$|^(?:Dr|DR|Prof|PROF)\.?\s+[A-Z]\.?$/;
/** A sonographer's initials ("CF", "J.M."). */
const INITIALS = /^(?:[A-Z]{2,3}|(?:[A-Z]\.\s*){2,3})$/;

/**
 * Whether a referrer's or sonographer's name follows a label word, a space apart, and nothing more: "TECH J. Morton",
 * "TECH CF", "Ref Dr N. Gupta". Someone's name alone, with an initial or a title: two plain words of a sentence
 * ("Tech difficult", "ref to vascular") are no name.
 */
function personFollows(field: LabelField | null, chars: { char: string }[], endIndex: number): boolean {
  if (field !== "sonographer" && field !== "referringPhysician") return false;
  if (chars[endIndex + 1]?.char !== " ") return false;
  const rest = chars
    .slice(endIndex + 1)
    .map((c) => c.char)
    .join("")
    .trim();
  if (field === "sonographer" && INITIALS.test(rest)) return true;
  // A surname alone may be a word of a sentence; an initial or a title before it makes it a name.
  return PERSON_NAME.test(rest) && /^(?:[A-Z]|Dr|DR|Prof|PROF|Mr|MR|Mrs|MRS|Ms|MS)\.?\s/.test(rest);
}

/**
 * Whether the title a long referrer's label ends with ("Referring Dr", "Ref Dr") is the value's own: a shorter
 * label of the field ends before it, the title is a word of its own followed by a name, and it stands apart from
 * the label's words - a wider gap before it than after it ("REFERRING  Dr N. Gupta"), or in another case than an
 * all-capital label ("REFERRING Dr").
 */
function titleIsValues(
  label: string,
  field: LabelField | null,
  chars: { char: string; step: number }[],
  endIndex: number,
  entries: Entry[],
): boolean {
  if (field !== "referringPhysician" || !label.endsWith("dr")) return false;
  if (!entries.some((e) => e.field === field && e.label === label.slice(0, -2) && !e.colonOnly)) return false;
  const r = endIndex;
  const d = r - 1;
  if (!/^[Dd]$/.test(chars[d]?.char ?? "") || !/^[Rr]$/.test(chars[r]?.char ?? "")) return false;
  if (chars[d - 1]?.char !== " ") return false;
  let before = d - 1;
  while (before >= 0 && !/[A-Za-z]/.test(chars[before]!.char)) before--;
  let after = r + 1;
  while (after < chars.length && /[.\s]/.test(chars[after]!.char)) after++;
  if (before < 0 || after >= chars.length) return false;
  const rest = chars
    .slice(r + 1)
    .map((c) => c.char)
    .join("")
    .replace(/^\.?\s+/, "")
    .trim();
  if (rest.includes(":") || !PERSON_NAME.test(rest)) return false;
  const labelWords = chars
    .slice(0, d)
    .map((c) => c.char)
    .join("")
    .replace(/[^A-Za-z]/g, "");
  const otherCase = labelWords === labelWords.toUpperCase() && chars[r]!.char === "r";
  const gapBefore = chars[d]!.step - chars[before]!.step;
  const gapAfter = chars[after]!.step - chars[r]!.step;
  return otherCase || gapBefore >= 1.5 * gapAfter;
}

/**
 * A long label printed in small letters with a value in capitals written against it, no colon or space between
 * ("Family nameHENDERSON"): the case changes where the label ends. One capital ending the region is the value's
 * first letter, which the value's own region overlapping the label's took too ("Patient NameP", "PAUL E ...").
 */
function capitalsRunIn(label: string, chars: { char: string }[], endIndex: number): boolean {
  const run = chars
    .slice(endIndex, endIndex + 3)
    .map((c) => c.char)
    .join("");
  return label.length >= 5 && (/^[a-z][A-Z]{2}$/.test(run) || /^[a-z][A-Z]$/.test(run));
}

/** A doctor's title starts the value right after a referrer's label, with no space between ("Ref DrDr. Y Hughes"). */
function titleFollows(field: LabelField | null, chars: { char: string }[], endIndex: number): boolean {
  if (field !== "referringPhysician") return false;
  const rest = chars
    .slice(endIndex + 1, endIndex + 6)
    .map((c) => c.char)
    .join("");
  return /^(Dr|DR|Prof|PROF)(\.|\s)/.test(rest);
}

/**
 * The field a label names when more words run on to its colon: the last word decides when it is a long label of
 * its own ("Sonographer notes:" asks for notes, the comments, not the sonographer; "Patient name / ID:" stays the
 * name, "id" being short).
 */
function headWordField(tail: { char: string }[], field: LabelField | null, entries: Entry[]): LabelField | null {
  const words = tail
    .map((c) => c.char)
    .join("")
    .split(/[\s/]+/)
    .map(squash)
    .filter(Boolean);
  const last = words.at(-1);
  if (!last || last.length < 5) return field;
  const own = entries.find((e) => e.label === last && !e.colonOnly);
  return own?.field && own.field !== field ? own.field : field;
}

/**
 * The detector sometimes merges two fields of a line into one region ("Patient Name: FATIMA B REF. DR Dr X. Osei").
 * A region that starts with a label and holds a second one further on (a long label, or one with its colon) is cut
 * in two where the second starts, so that each label keeps its own value.
 */
export function splitMergedFields(regions: ReadRegion[], aliases: readonly LabelAlias[] = []): ReadRegion[] {
  const entries = entriesWith(aliases);
  return regions.flatMap((region) => {
    const parts: ReadRegion[] = [];
    let rest = region;
    for (;;) {
      const leading = matchLabel(rest, aliases);
      // "Words:" taken for a label by its colon alone may be a value run into the next label (trailingLabelStart).
      const first =
        leading && (leading.length !== undefined || trailingLabelStart(rest.read.chars, entries) < 0) ? leading : null;
      const chars = rest.read.chars;
      const from = first ? first.endStep + 1 : 0;
      if (first && first.endStep >= rest.matrix.steps - 1) break;
      const at = chars.findIndex((c, i) => {
        if (c.step <= from || i === 0 || !/[A-Za-z]/.test(c.char)) return false;
        // Inside a label's remark in brackets the words are the label's ("Patient (Surname, Given)"); so is a
        // second label word after a slash ("D.O.B. / Age:", "Name / ID:").
        if (insideBrackets(chars, i)) return false;
        if (first && /^[\s.]*\/[\s.]*$/.test(textOf(chars.filter((ch) => ch.step > first.endStep && ch.step < c.step))))
          return false;
        // Exact labels only: one edit from a label is too easy to find at every letter of a value.
        const hit = matchChars(chars.slice(i), rest.matrix.steps, false, entries);
        if (!hit) return false;
        // After a label's value, a long label or one with its colon, as a word of its own; in a region that does
        // not start with a label (a value run into the next field), only a long label with its colon, which no
        // value has, even written against the value ("ALLENIndication:").
        const long = (hit.length ?? 0) >= 6 && hit.colon === true;
        if (!first) return long;
        // A short person's label without colon counts too, after a value of its own ("aching legs TECH J. Morton").
        return (
          long ||
          (!/[A-Za-z0-9]/.test(chars[i - 1]!.char) &&
            ((hit.length ?? 0) >= 5 || hit.colon === true || hit.person === true))
        );
      });
      const end = first || at >= 0 ? -1 : trailingLabelStart(chars, entries);
      if (at < 0 && end < 0) break;
      const cut = chars[at >= 0 ? at : end]!.step - 1;
      parts.push(sliceRegion(rest, 0, cut));
      rest = sliceRegion(rest, cut, rest.matrix.steps);
    }
    parts.push(rest);
    return parts;
  });
}

const textOf = (chars: { char: string }[]) => chars.map((c) => c.char).join("");

/**
 * Whether character `i` lies inside brackets opened before it and not closed yet. A colon closes them: a label's
 * remark ends before its colon, also when a photo lost the ")" ("Name (Last,First:RODRIGUEZ Nancy Reason for exam:").
 */
function insideBrackets(chars: { char: string }[], i: number): boolean {
  let depth = 0;
  for (const c of chars.slice(0, i))
    depth = c.char === ":" ? 0 : depth + (c.char === "(" ? 1 : c.char === ")" ? -1 : 0);
  return depth > 0;
}

/**
 * A label printed as two regions, its words apart ("Birth" "date", "Referred" "by", "Date of" "service"): the two
 * side by side on a line, a word's gap apart, are one region when together they are a longer label than the first
 * alone. Otherwise the second word alone may be a label of another field ("date": the exam's) and take the value.
 */
export function joinSplitLabels(regions: ReadRegion[], aliases: readonly LabelAlias[] = []): ReadRegion[] {
  const out = [...regions];
  for (const a of regions) {
    if (!out.includes(a) || a.read.text.includes(":")) continue;
    const h = heightOf(a);
    const b = out
      .filter(
        (r) =>
          r !== a &&
          Math.abs(centerV(r) - centerV(a)) < 0.5 * h &&
          r.u0 > a.u0 &&
          r.u0 - a.u1 < 1.2 * h &&
          r.u0 - a.u1 > -0.5 * h,
      )
      .sort((x, y) => x.u0 - y.u0)[0];
    if (!b) continue;
    const own = matchLabel(a, aliases);
    const joined = joinRegions(a, b);
    const hit = matchLabel(joined, aliases);
    const alone = squash(a.read.text).replace(/0/g, "o").length;
    if (!hit?.length || hit.length <= alone || (own?.length ?? 0) >= hit.length) continue;
    out.splice(out.indexOf(a), 1, joined);
    out.splice(out.indexOf(b), 1);
  }
  return out;
}

const SPACE_INDEX = columnOf(" ");

/** Two regions of a line as one: their readings one after the other, a space between. */
function joinRegions(a: ReadRegion, b: ReadRegion): ReadRegion {
  const probs = new Float32Array((a.matrix.steps + b.matrix.steps + 1) * 96);
  probs.set(a.matrix.probs.subarray(0, a.matrix.steps * 96), 0);
  // One step of space between the two readings.
  probs[a.matrix.steps * 96 + SPACE_INDEX] = 1;
  probs.set(b.matrix.probs.subarray(0, b.matrix.steps * 96), (a.matrix.steps + 1) * 96);
  const x0 = Math.min(a.box.x, b.box.x);
  const y0 = Math.min(a.box.y, b.box.y);
  const x1 = Math.max(a.box.x + a.box.width, b.box.x + b.box.width);
  const y1 = Math.max(a.box.y + a.box.height, b.box.y + b.box.height);
  return toReadRegion(
    {
      u0: a.u0,
      u1: Math.max(a.u1, b.u1),
      v0: Math.min(a.v0, b.v0),
      v1: Math.max(a.v1, b.v1),
      score: Math.min(a.score, b.score),
      box: { ...a.box, x: x0, y: y0, width: x1 - x0, height: y1 - y0 },
    },
    { steps: a.matrix.steps + b.matrix.steps + 1, probs },
  );
}

/**
 * Where a label run on after a value starts, in a region that ends with a colon but is no label itself: "MICHELLE
 * X. MOORE Dr:" (a name written against the next column's "Ref Dr:"). The words before the colon are a label when
 * they are one to three plain words (unknownLabel's rule); more words, or digits and stray marks, are a value and
 * the label's start. The label is its last word, or the last two or three when together they are a lexicon label.
 * Returns the character index of the label's first letter, or -1.
 */
function trailingLabelStart(chars: { char: string }[], entries: Entry[]): number {
  const text = chars.map((c) => c.char).join("");
  const colon = text.trimEnd().length - 1;
  if (colon < 3 || text[colon] !== ":" || text.indexOf(":") !== colon) return -1;
  const before = text.slice(0, colon).trim();
  if (UNKNOWN_LABEL.test(before)) return -1;
  const starts = [...before.matchAll(/(?<=^|\s)\S/g)].map((m) => m.index!);
  if (starts.length < 2) return -1;
  let start = starts.at(-1)!;
  for (const k of [2, 3]) {
    const from = starts.at(-k);
    if (from !== undefined && k < starts.length && entries.some((e) => e.label === squash(before.slice(from)))) {
      start = from;
    }
  }
  // The label is letters; the value must keep some ("MOORE").
  if (!/[A-Za-z]/.test(text[start]!) || !/[A-Za-z]{2}/.test(before.slice(0, start))) return -1;
  return start;
}

/** The part of a region read in recogniser steps [from, to): its own matrix, extent and box, in proportion. */
function sliceRegion(region: ReadRegion, from: number, to: number): ReadRegion {
  if (from === 0 && to === region.matrix.steps) return region;
  const width = region.u1 - region.u0;
  const u0 = region.u0 + (from / region.matrix.steps) * width;
  const u1 = region.u0 + (to / region.matrix.steps) * width;
  const bx = region.box.x + (from / region.matrix.steps) * region.box.width;
  const bw = ((to - from) / region.matrix.steps) * region.box.width;
  const matrix = { steps: to - from, probs: region.matrix.probs.slice(from * 96, to * 96) };
  return toReadRegion(
    { u0, u1, v0: region.v0, v1: region.v1, score: region.score, box: { ...region.box, x: bx, width: bw } },
    matrix,
  );
}

/**
 * A short label without its colon, then a space and a value of the label's own type: "Name Kenneth McDonald" (two
 * to four words of letters), "Sex M". A sex's few words may follow a point too ("Sex.FEMALE", the colon's lower dot
 * or a leader's one point read): no other value reads as one of them.
 */
function typedValueFollows(field: LabelField | null, chars: { char: string }[], endIndex: number): boolean {
  const after = chars[endIndex + 1]?.char;
  return (after === " " || (after === "." && field === "sex")) && typedValue(field, chars.slice(endIndex + 1));
}

/** Whether `chars` read as a value of the label's own type (typedValueFollows). */
function typedValue(field: LabelField | null, chars: { char: string }[]): boolean {
  // Over a dotted line the value reads with points at its ends and between its words (".THOMAS....LEE.").
  const rest = chars
    .map((c) => c.char)
    .join("")
    .replace(/[.\-_=~·…]{2,}/g, " ")
    .replace(/^[\s.\-_=~·…]+|[\s.\-_=~·…]+$/g, "")
    .trim();
  if (field === "patientName") return /^[A-Za-z][A-Za-z'.-]*(,?\s+[A-Za-z][A-Za-z'.-]*){1,3}$/.test(rest);
  if (field === "sex") return parseSex(rest) !== null;
  return false;
}

/**
 * Where a label's own words end: a parenthesised remark ("(Surname, Given)") or a few more words before a colon
 * ("initials:") after a long label belong to the label, as long as they hold no digit (which only values have).
 */
function labelTailEnd(chars: { char: string }[], from: number, words: boolean): number {
  if (chars[from]?.char === ":") return from;
  // A remark in brackets is the label's even without a colon after it ("Date of birth (DD/MM/YY) 07.04.03").
  if (chars[from]?.char === "(") {
    const close = chars.findIndex((c, i) => i > from && c.char === ")");
    const remark = chars.slice(from, close);
    if (close > 0 && close - from <= MAX_LABEL_TAIL && remark.every((c) => !/\d/.test(c.char))) {
      let after = close + 1;
      while (after < chars.length && chars[after]!.char === " ") after++;
      if (chars[after]?.char === ":" || !words) return after;
      const more = labelTailEnd(chars, after, words);
      return chars[more]?.char === ":" ? more : after;
    }
  }
  // Short labels ("Sex (M/F):") take only a remark in brackets: their next word is likely the value's.
  if (!words && chars[from]?.char !== "(") return from;
  let i = from;
  let letters = 0;
  while (i < chars.length && letters <= MAX_LABEL_TAIL) {
    const c = chars[i]!.char;
    if (c === ":") return i;
    if (/\d/.test(c)) break;
    if (/[A-Za-z]/.test(c)) letters++;
    i++;
  }
  return from;
}

/** Labels this long may carry one misread letter when they stand alone. */
const FUZZY_WHOLE_LENGTH = 6;

/**
 * The field a printed text names when it is a label and nothing else ("Patient Name:", "D.O.B.", "Date of Scan",
 * "Sonographer initials:"), as on a blank form; a text with a value after its label, or no label, names nothing.
 * A name written in two fields has one zone, the surname's; the given names' label names no field of its own.
 */
export function fieldOfLabel(text: string, aliases: readonly LabelAlias[] = []): OcrFieldName | null {
  const field = labelOf(text, aliases);
  if (field === "surname") return "patientName";
  return field === "givenName" ? null : field;
}

function labelOf(text: string, aliases: readonly LabelAlias[]): LabelField | null {
  // A remark in brackets belongs to the label ("Patient Name (Surname, Given)"); a label has no digits, so a zero
  // read for an O ("D.0.B.") is undone.
  const plain = text.replace(/\([^)]*\)/g, " ").replace(/0/g, "o");
  const s = squash(plain);
  if (s.length < 2) return null;
  const entries = entriesWith(aliases);
  const colon = /:\s*$/.test(plain);
  const usable = (e: Entry) => colon || !e.colonOnly;
  const exact = entries.find((e) => e.label === s && usable(e));
  if (exact) return exact.field;
  // A label with more words up to its colon, as the reader matches labels on a filled sheet.
  const chars = [...plain.trim()].map((char, step) => ({ char, step }));
  const hit = matchChars(chars, chars.length, false, entries);
  if (hit && hit.endStep >= chars.length) return hit.field;
  if (s.length >= FUZZY_WHOLE_LENGTH) {
    const near = entries.find(
      (e) => e.label.length >= FUZZY_WHOLE_LENGTH && usable(e) && editDistance(s, e.label, 1) <= 1,
    );
    if (near) return near.field;
  }
  return null;
}

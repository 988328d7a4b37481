import { z } from "zod";

// The sentences a person reads when input is refused. A contract that says something specific writes it
// beside the field ("Title is required"); every other check is worded here, once, for server and client,
// naming the field in words rather than as the validator's code ("Too big: expected string to have <=255").

/** Field names as the screens call them; any other field is named from its key ("studyType" -> "Study type"). */
const fieldNames: Record<string, string> = {
  patientName: "Patient name",
  patientDob: "Date of birth",
  examDate: "Exam date",
  physicianId: "Reporting physician",
  sonographerId: "Sonographer",
  worksheetId: "Worksheet",
  templateId: "Template",
  scanType: "Scan type",
  studyType: "Study type",
  email: "E-mail address",
  token: "Invitation link",
  logoUrl: "Logo",
  signatureUrl: "Signature",
  site: "Vessel",
  side: "Side",
  parameter: "Parameter",
  value: "Value",
  unit: "Unit",
  finding: "Observation",
  id: "Record number",
  q: "Search text",
};

/** "studyType" -> "Study type"; "measurements", 0, "value" -> "Value of measurement 1". */
export function fieldName(path: readonly PropertyKey[]): string {
  const keys = path.filter((k): k is string => typeof k === "string");
  const last = keys.at(-1);
  const name = last ? (fieldNames[last] ?? words(last)) : "This value";
  const index = path.findLastIndex((k) => typeof k === "number");
  if (index < 0) return name;
  const list = path[index - 1];
  const item = typeof list === "string" ? words(list).toLowerCase().replace(/s$/, "") : "item";
  const position = `${item} ${Number(path[index]) + 1}`;
  return index === path.length - 1 ? capital(position) : `${name} of ${position}`;
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const words = (key: string) => capital(key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase());

const kinds: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "yes or no",
  array: "a list",
  object: "a set of fields",
  date: "a date",
};

const formats: Record<string, string> = {
  email: "a valid e-mail address",
  url: "a web address",
  date: "a date written as YYYY-MM-DD",
  datetime: "a date and time",
  uuid: "a valid identifier",
};

const plural = (n: number | bigint, one: string) => `${n} ${one}${Number(n) === 1 ? "" : "s"}`;

/** One sentence for a refused value: what is wrong with which field, in the screens' words. */
export function validationSentence(issue: z.core.$ZodRawIssue): string {
  const name = fieldName(issue.path ?? []);
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined || issue.input === null) return `${name} is required.`;
      return `${name} must be ${kinds[issue.expected] ?? issue.expected}.`;
    case "too_big": {
      const bound = issue.maximum as number;
      if (issue.origin === "string") return `${name} must be at most ${plural(bound, "character")}.`;
      if (issue.origin === "array" || issue.origin === "set")
        return `${name} can have at most ${plural(bound, "item")}.`;
      if (issue.origin === "file") return `${name} is too large.`;
      return `${name} must be ${issue.inclusive ? "at most" : "less than"} ${bound}.`;
    }
    case "too_small": {
      const bound = issue.minimum as number;
      if (issue.origin === "string") {
        return bound <= 1 ? `${name} is required.` : `${name} must be at least ${plural(bound, "character")}.`;
      }
      if (issue.origin === "array" || issue.origin === "set") return `${name} needs at least ${plural(bound, "item")}.`;
      return `${name} must be ${issue.inclusive ? "at least" : "more than"} ${bound}.`;
    }
    case "invalid_format":
      return `${name} must be ${formats[issue.format] ?? "in the expected format"}.`;
    case "invalid_value": {
      const choices = issue.values.map(String);
      return choices.length <= 8
        ? `${name} must be one of: ${choices.join(", ")}.`
        : `${name} is not one of the allowed choices.`;
    }
    case "not_multiple_of":
      return `${name} must be a multiple of ${String(issue.divisor)}.`;
    case "unrecognized_keys":
      return `The request has fields the server does not accept: ${issue.keys.join(", ")}.`;
    default:
      return `${name} is not valid.`;
  }
}

let installed = false;

/** Makes every check without its own message speak in these sentences (server start and client start). */
export function installValidationMessages(): void {
  if (installed) return;
  installed = true;
  z.config({ customError: validationSentence });
}

import { paragraphsOf } from "../exports/report-document";
import { base64Of, type InteropReport, resultStatus, splitPersonName } from "./interop-report";
import { codeMeasurement, HL7_LOCAL_CODING_SYSTEM } from "./vascular-codes";

/**
 * A report as an HL7 v2.5.1 ORU^R01 message: MSH, PID, PV1, OBR, then OBX lines for the Findings and
 * Impression (FT), one per measurement (NM, LOINC where it has the measurement, the local code beside it,
 * the site and side as the sub-ID, UCUM units) and the PDF (ED, base64). Segments end with a carriage return
 * and text is escaped with the message's own encoding characters, as chapter 2 of the standard says.
 */

export const HL7_SEGMENT_END = "\r";
const SENDING_APPLICATION = "SONOSCRIBE";

/** Escapes text for a field: the escape character first, then the delimiters (HL7 v2.5.1, 2.7.4). */
export function escapeHl7(text: string): string {
  return text
    .replace(/\\/g, "\\E\\")
    .replace(/\|/g, "\\F\\")
    .replace(/\^/g, "\\S\\")
    .replace(/&/g, "\\T\\")
    .replace(/~/g, "\\R\\");
}

/** Text on one line (ST, XPN): line breaks are not allowed there, so they become spaces. */
const oneLine = (text: string) => escapeHl7(text.replace(/\s*[\r\n]+\s*/g, " ").trim());

/** Formatted text (FT): paragraphs and lines kept with the `\.br\` formatting command. */
const formatted = (text: string) =>
  paragraphsOf(text)
    .map((p) => p.split("\n").map(escapeHl7).join("\\.br\\"))
    .join("\\.br\\\\.br\\");

/** HL7 TS: YYYYMMDDHHMMSS+0000 in UTC; a calendar date is YYYYMMDD. */
export function hl7Timestamp(value: Date | string): string {
  const d = value instanceof Date ? value : new Date(value);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}+0000`;
}
const hl7Date = (isoDate: string | null) => (isoDate ? isoDate.slice(0, 10).replace(/-/g, "") : "");

const resultCode = { preliminary: "P", final: "F", amended: "C" } as const;
const sexCode = (sex: string | null) => (sex === "female" ? "F" : sex === "male" ? "M" : sex === "other" ? "O" : "U");

function personName(full: string) {
  const { family, given } = splitPersonName(full);
  return `${oneLine(family)}^${oneLine(given.join(" "))}`;
}

export type Hl7Options = {
  /** MSH-10: unique per message (at most 20 characters). */
  controlId: string;
  now: Date;
  receivingApplication?: string;
  receivingFacility?: string;
  /** MSH-11: P production, T training, D debugging. */
  processingId?: "P" | "T" | "D";
};

export function reportToOruR01(input: InteropReport, options: Hl7Options): string {
  const { report, clinic } = input;
  const status = resultCode[resultStatus(report)];
  const facility = oneLine(clinic.name);
  const segments: string[] = [];
  const segment = (...fields: string[]) => {
    // Trailing empty fields are left out, as senders usually do.
    while (fields.length > 1 && fields[fields.length - 1] === "") fields.pop();
    segments.push(fields.join("|"));
  };

  segments.push(
    [
      "MSH",
      "^~\\&",
      SENDING_APPLICATION,
      facility,
      oneLine(options.receivingApplication ?? ""),
      oneLine(options.receivingFacility ?? ""),
      hl7Timestamp(options.now),
      "",
      "ORU^R01^ORU_R01",
      oneLine(options.controlId).slice(0, 20),
      options.processingId ?? "P",
      "2.5.1",
      "",
      "",
      "",
      "",
      "",
      // MSH-18: names and text may be outside ASCII.
      "UNICODE UTF-8",
    ].join("|"),
  );
  const mrn = report.mrn?.trim();
  segment(
    "PID",
    "1",
    "",
    mrn ? `${oneLine(mrn)}^^^${facility}^MR` : "",
    "",
    personName(report.patientName),
    "",
    hl7Date(report.patientDob),
    sexCode(report.patientSex),
  );
  segment("PV1", "1", "O");

  const physician = input.physician
    ? (() => {
        const { family, given } = splitPersonName(input.physician.name);
        // NDL's first component is a CNN, whose parts are subcomponents (&): id, family, given, ..., degree.
        return [
          String(input.physician.id),
          oneLine(family),
          oneLine(given.join(" ")),
          "",
          "",
          "",
          oneLine(input.physician.title ?? ""),
        ]
          .join("&")
          .replace(/&+$/, "");
      })()
    : "";
  const statusChanged = report.isFinalized && report.finalizedAt ? report.finalizedAt : report.updatedAt;
  const obr: string[] = ["OBR", "1", "", `${report.id}^${SENDING_APPLICATION}`];
  obr.push(`${oneLine(report.studyType)}^${oneLine(report.studyType)}^${HL7_LOCAL_CODING_SYSTEM}`); // OBR-4
  obr.push("", "", hl7Date(report.examDate)); // OBR-5..7
  while (obr.length < 13) obr.push(""); // OBR-8..12
  obr.push(oneLine(report.indication)); // OBR-13 relevant clinical information
  while (obr.length < 22) obr.push(""); // OBR-14..21
  obr.push(hl7Timestamp(statusChanged)); // OBR-22
  obr.push("", "VUS", status); // OBR-23..25
  while (obr.length < 32) obr.push(""); // OBR-26..31
  obr.push(physician); // OBR-32 principal result interpreter
  segment(...obr);

  let n = 0;
  const obx = (type: string, id: string, subId: string, value: string, units = "") =>
    segment("OBX", String(++n), type, id, subId, value, units, "", "", "", "", status);

  if (report.findings.trim()) {
    obx(
      "FT",
      `18782-3^Radiology Study observation (narrative)^LN^FINDINGS^Findings^${HL7_LOCAL_CODING_SYSTEM}`,
      "",
      formatted(report.findings),
    );
  }
  if (report.impression.trim()) {
    obx(
      "FT",
      `19005-8^Radiology Imaging study [Impression] (narrative)^LN^IMPRESSION^Impression^${HL7_LOCAL_CODING_SYSTEM}`,
      "",
      formatted(report.impression),
    );
  }
  for (const m of input.measurements ?? []) {
    const c = codeMeasurement(m);
    const local = `${c.parameter}^${oneLine(c.parameterName)}^${HL7_LOCAL_CODING_SYSTEM}`;
    const id = c.loinc ? `${c.loinc.code}^${oneLine(c.loinc.display)}^LN^${local}` : local;
    obx("NM", id, oneLine(c.siteCode), String(c.value), `${oneLine(c.ucum.code)}^${oneLine(c.ucum.unit)}^UCUM`);
  }
  // ED: source application ^ type of data ^ subtype ^ encoding ^ data. Base64 has none of the delimiters.
  obx(
    "ED",
    `PDF^Report PDF^${HL7_LOCAL_CODING_SYSTEM}`,
    "",
    `${SENDING_APPLICATION}^AP^PDF^Base64^${base64Of(input.pdf)}`,
  );

  return segments.join(HL7_SEGMENT_END) + HL7_SEGMENT_END;
}

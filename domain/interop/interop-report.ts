import type { Measurement } from "../contracts/study";

/**
 * One report as it leaves the product for another system (FHIR, HL7 v2): read by the server from the export
 * read model (docs/decisions/003-export-read-model.md) plus the measurements the draft was made from.
 */
export type InteropReport = {
  clinic: { id: number; name: string };
  report: {
    id: number;
    patientName: string;
    patientDob: string | null;
    patientSex: string | null;
    examDate: string | null;
    mrn: string | null;
    studyType: string;
    indication: string;
    findings: string;
    impression: string;
    isFinalized: boolean;
    finalizedAt: Date | string | null;
    /** Amendments signed or pending; a signed report with one or more is "amended", not "final". */
    amendmentCount: number;
    finalizedOnBehalf: boolean;
    generatedAt: Date | string;
    updatedAt: Date | string;
  };
  /** The report's physician (who the report is from); null when none is chosen. */
  physician: { id: number; name: string; title: string | null } | null;
  /** The account that signed (the physician's own, or staff on their behalf); null on drafts. */
  signer: { id: string; name: string } | null;
  /** Null on reports drafted before measurements were kept: then no measurement leaves with the report. */
  measurements: Measurement[] | null;
  /** The report's PDF as the clinic's template lays it out. */
  pdf: Uint8Array;
};

export type ResultStatus = "preliminary" | "final" | "amended";

/** Drafts (also an amendment awaiting its signature) are preliminary; a signed report after an amendment is amended. */
export function resultStatus(report: InteropReport["report"]): ResultStatus {
  if (!report.isFinalized) return "preliminary";
  return report.amendmentCount > 0 ? "amended" : "final";
}

/** "Chen, Maria" or "Maria Chen" as family and given names; one word is the family name. */
export function splitPersonName(full: string): { family: string; given: string[] } {
  const text = full.trim().replace(/\s+/g, " ");
  const comma = text.indexOf(",");
  if (comma > 0) {
    const given = text.slice(comma + 1).trim();
    return { family: text.slice(0, comma).trim(), given: given ? given.split(" ") : [] };
  }
  const words = text.split(" ").filter(Boolean);
  // Titles written before a name ("Dr Maria Chen", "Dr. Chen") are not a given name.
  while (words.length > 1 && /^(dr|dr\.|prof|prof\.|mr|mrs|ms|miss)$/i.test(words[0]!)) words.shift();
  const family = words.pop() ?? text;
  return { family, given: words };
}

/** A moment as an ISO instant (UTC); a calendar date stays a date. */
export function isoInstant(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** Standard base64 of the bytes, in browsers and Node alike. */
export function base64Of(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

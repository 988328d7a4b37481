import { type CommunicationMethod, communicationLine } from "../contracts/critical-communication";
import { type ClinicLocale, DEFAULT_CLINIC_LOCALE, formatCalendarDate, formatMoment } from "../date-format";
import { signatureLine } from "../signing";
import {
  cssFontStacks,
  type ExportLayout,
  type ExportSignaturePosition,
  type TemplateSettings,
} from "./template-settings";

/**
 * The document every export renders: one report read together with its template, clinic, physician and
 * signer (see docs/decisions/003-export-read-model.md), and the format-neutral view built from it.
 * The print page, the PDF, the DOCX and the web's print window all draw the same view, so a flag or a
 * label changes in one place.
 */

/** An image as bytes (server renderers) or as a same-origin URL (the web's print window). */
export type DocumentImage = {
  mimeType: string;
  data?: Uint8Array;
  url?: string;
  /** Pixel size when known: renderers keep the aspect ratio. */
  width?: number;
  height?: number;
  /** A stored clinic file named instead of carried (a signed version's archive is rendered later from these). */
  fileId?: number;
  sha256?: string;
};

export type ExportReport = {
  id: number;
  patientName: string;
  patientDob: string | null;
  examDate: string | null;
  /** Shown in the patient block when the report has one (issue 22). */
  referringPhysician?: string | null;
  studyType: string;
  indication: string;
  findings: string;
  impression: string;
  isFinalized: boolean;
  finalizedAt: Date | string | null;
  isAmended: boolean;
  amendedAt: Date | string | null;
  amendmentReason: string | null;
  amendmentCount?: number | null;
  generatedAt: Date | string;
  /** Signed by staff for the report's physician (the clinic allows it): the signature says so. */
  finalizedOnBehalf?: boolean;
};

export type ExportClinic = {
  name: string | null;
  address: string | null;
  city?: string | null;
  state?: string | null;
  zipCode?: string | null;
  phone: string | null;
  logo: DocumentImage | null;
  /** How the clinic writes dates (its report spelling setting), as the client does; en-US when not given. */
  locale?: ClinicLocale;
};

export type ExportPhysician = {
  name: string;
  title: string | null;
  specialty: string | null;
  signature: DocumentImage | null;
};

export type ReportDocument = {
  report: ExportReport;
  template: TemplateSettings;
  clinic: ExportClinic;
  physician: ExportPhysician | null;
  /** Display name of the user who finalized the report. */
  signedBy: string | null;
  /** Display name of the user who made the latest amendment. */
  amendedBy: string | null;
  /** The clinic's patient identifier: the report's MRN, null when it has none. */
  patientId: string | null;
  /** Critical results and their communication records (issue 26); absent or empty when none. */
  critical?: ExportCritical | null;
};

export type ExportCritical = {
  results: { finding: string; ruleName: string; communicated: boolean }[];
  communications: {
    recipient: string;
    method: CommunicationMethod;
    readBack: boolean;
    communicatedAt: Date | string;
    recordedByName: string | null;
    results: { finding: string }[];
  }[];
};

export type LabelledValue = { label: string; value: string };

export type DocumentSection = { key: "indication" | "findings" | "impression"; heading: string; paragraphs: string[] };

export type DocumentView = {
  fontFamily: TemplateSettings["fontFamily"];
  cssFontStack: string;
  fontSizePt: number;
  primaryColor: string;
  letterhead: { clinicName: string; addressLines: string[]; phone: string | null; logo: DocumentImage | null } | null;
  title: string;
  /** "Report #12", "Generated Nov 22, 2026, 10:14 AM UTC" (en-US) as the flags allow. */
  metaLine: string[];
  isDraft: boolean;
  watermark: string | null;
  patient: { heading: string; layout: ExportLayout; fields: LabelledValue[] };
  amendment: { heading: string; lines: string[] } | null;
  /** "Critical result communicated to X by Y on DATE by phone, read back", and results not yet communicated. */
  critical: { heading: string; lines: string[] } | null;
  sections: DocumentSection[];
  signature: {
    position: ExportSignaturePosition;
    image: DocumentImage | null;
    name: string | null;
    title: string | null;
    specialty: string | null;
    /** "Electronically signed by ... on ..." on finalized reports. */
    signedLine: string | null;
    /** Said instead on drafts, so a printed draft cannot pass for a signed report. */
    pendingLine: string | null;
  } | null;
  footer: { text: string | null };
  /** Document title and file metadata. */
  documentTitle: string;
};

export const DEFAULT_CLINIC_NAME = "Medical Clinic";
export const DOCUMENT_TITLE = "Ultrasound Report";
export const DRAFT_MARK = "DRAFT";

export type FormatOptions = { timeZone?: string; now?: Date };

/** Paragraphs of a free-text field: blank lines separate them, single line breaks are kept inside. */
export function paragraphsOf(value: string): string[] {
  return value
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

function addressLines(doc: ReportDocument): string[] {
  const override = doc.template.clinicAddress;
  if (override)
    return override
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l.length > 0);
  const { clinic } = doc;
  const lines = (clinic.address ?? "").split(/\r?\n/).map((l) => l.trim());
  const region = [clinic.state, clinic.zipCode].filter(Boolean).join(" ");
  const cityLine = [clinic.city, region].filter(Boolean).join(", ");
  return [...lines, cityLine].filter((l) => l.length > 0);
}

/** The format-neutral view of a report document: what is shown, in which order, with which words. */
export function buildDocumentView(doc: ReportDocument, options: FormatOptions = {}): DocumentView {
  const { report, template } = doc;
  // Dates as the clinic's screens write them (domain/date-format.ts), the zone named: paper leaves the clinic.
  const locale = doc.clinic.locale ?? DEFAULT_CLINIC_LOCALE;
  const moment = (value: Date | string | null | undefined) =>
    formatMoment(value, locale, { timeZone: options.timeZone, zoneName: true });
  const calendarDate = (value: string | null) => formatCalendarDate(value, locale);
  const isDraft = !report.isFinalized;

  const clinicName = template.clinicName ?? (doc.clinic.name?.trim() || DEFAULT_CLINIC_NAME);
  const letterhead = template.showHeader
    ? {
        clinicName,
        addressLines: addressLines(doc),
        phone: template.clinicPhone ?? (doc.clinic.phone?.trim() || null),
        logo: template.showLogo ? doc.clinic.logo : null,
      }
    : null;

  const metaLine: string[] = [];
  if (template.showReportId) metaLine.push(`Report #${report.id}`);
  if (template.showGenerationDate) metaLine.push(`Generated ${moment(report.generatedAt)}`);

  const fields: LabelledValue[] = [{ label: "Patient Name", value: report.patientName }];
  // A report's MRN is always printed (a second identifier beside the name); "Show patient ID" also keeps the
  // line when there is none, so a missing number is seen on paper.
  const mrn = doc.patientId?.trim() || null;
  if (mrn || template.showPatientId) fields.push({ label: "MRN", value: mrn ?? "Not recorded" });
  fields.push({ label: "Date of Birth", value: calendarDate(report.patientDob) });
  fields.push({ label: "Exam Date", value: calendarDate(report.examDate) });
  const referrer = report.referringPhysician?.trim();
  if (referrer) fields.push({ label: "Referring Physician", value: referrer });
  if (template.showStudyType) fields.push({ label: "Study Type", value: report.studyType });

  const sections: DocumentSection[] = [];
  if (template.showIndication) {
    sections.push({ key: "indication", heading: "Indication", paragraphs: paragraphsOf(report.indication) });
  }
  if (template.showFindings) {
    sections.push({ key: "findings", heading: "Findings", paragraphs: paragraphsOf(report.findings) });
  }
  if (template.showImpression) {
    sections.push({ key: "impression", heading: "Impression", paragraphs: paragraphsOf(report.impression) });
  }

  let amendment: DocumentView["amendment"] = null;
  if (report.isAmended) {
    const number = Math.max(1, report.amendmentCount ?? 1);
    const when = moment(report.amendedAt);
    const by = doc.amendedBy ? ` by ${doc.amendedBy}` : "";
    amendment = {
      heading: "Amended Report",
      lines: [
        `Amendment ${number}${when ? ` on ${when}` : ""}${by}.`,
        `Reason: ${report.amendmentReason?.trim() || "Not recorded"}`,
      ],
    };
  }

  const physician = doc.physician;
  const critical = criticalNotice(doc.critical, moment);
  const signer = doc.signedBy ?? physician?.name ?? null;
  const signature: DocumentView["signature"] = template.showSignature
    ? {
        position: template.signaturePosition,
        // A signature image on a draft would make it look signed: drafts show the block without it.
        image: isDraft ? null : (physician?.signature ?? null),
        name: physician?.name ?? null,
        title: physician?.title?.trim() || null,
        specialty: physician?.specialty?.trim() || null,
        signedLine:
          !isDraft && report.finalizedAt
            ? report.finalizedOnBehalf && doc.signedBy && physician
              ? `${signatureLine(doc.signedBy, physician.name, true)}, electronically, on ${moment(report.finalizedAt)}`
              : `Electronically signed by ${signer ?? "the reporting physician"} on ${moment(report.finalizedAt)}`
            : null,
        pendingLine: isDraft
          ? report.isAmended
            ? "Amended: awaiting re-finalization. Not electronically signed."
            : "Draft: not electronically signed."
          : null,
      }
    : null;

  return {
    fontFamily: template.fontFamily,
    cssFontStack: cssFontStacks[template.fontFamily],
    fontSizePt: template.fontSizePt,
    primaryColor: template.primaryColor,
    letterhead,
    title: DOCUMENT_TITLE,
    metaLine,
    isDraft,
    watermark: isDraft ? DRAFT_MARK : null,
    patient: { heading: "Patient Information", layout: template.patientInfoLayout, fields },
    amendment,
    critical,
    sections,
    signature,
    footer: { text: template.showFooter ? template.footerText : null },
    documentTitle: `${DOCUMENT_TITLE}: ${report.patientName}`,
  };
}

/** The critical-result notice: each communication record, then any result no record covers yet. */
function criticalNotice(
  critical: ExportCritical | null | undefined,
  moment: (value: Date | string) => string,
): DocumentView["critical"] {
  if (!critical || (critical.results.length === 0 && critical.communications.length === 0)) return null;
  const lines: string[] = [];
  for (const record of critical.communications) {
    lines.push(
      `${communicationLine(record, record.recordedByName ?? "an unknown user", moment(record.communicatedAt))}.`,
    );
    if (record.results.length > 0) lines.push(`Result: ${record.results.map((r) => r.finding).join("; ")}.`);
  }
  const open = critical.results.filter((r) => !r.communicated);
  if (open.length > 0) {
    lines.push(`Critical result not yet communicated: ${open.map((r) => `${r.finding} (${r.ruleName})`).join("; ")}.`);
  }
  return { heading: "Critical Result", lines };
}

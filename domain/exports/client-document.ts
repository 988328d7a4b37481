import type { ClinicLocale } from "../date-format";
import type { DocumentImage, ExportCritical, ExportReport, ReportDocument } from "./report-document";
import { resolveTemplateSettings, type TemplateSettingsInput } from "./template-settings";

/**
 * The report screen's print window builds its document in the browser from what the screen already
 * holds (spec part 1, section 7): the report as the API returns it, a template (or none) and, when the
 * screen has them, the clinic and the physician. Images stay same-origin URLs (/api/files/{id}).
 */

export type PrintableReport = Omit<ExportReport, "amendmentCount" | "finalizedAt" | "amendedAt" | "generatedAt"> & {
  mrn?: string | null;
  amendmentCount?: number | null;
  finalizedAt?: string | Date | null;
  amendedAt?: string | Date | null;
  generatedAt: string | Date;
};

export type PrintContext = {
  clinic?: {
    name?: string | null;
    logoUrl?: string | null;
    address?: string | null;
    city?: string | null;
    state?: string | null;
    zipCode?: string | null;
    phone?: string | null;
  } | null;
  physician?: { name: string; title?: string | null; specialty?: string | null; signatureUrl?: string | null } | null;
  signedBy?: string | null;
  amendedBy?: string | null;
  critical?: ExportCritical | null;
  /** The clinic's locale (the signed-in user's clinicLocale): the printed dates match the screen's. */
  locale?: ClinicLocale;
};

/** Only our own file URLs are drawn: the print window must not fetch from anywhere else. */
function fileImage(url: string | null | undefined): DocumentImage | null {
  return url && /^\/api\/files\/\d+$/.test(url) ? { mimeType: "image/*", url } : null;
}

export function clientReportDocument(
  report: PrintableReport,
  template: TemplateSettingsInput | null | undefined,
  context: PrintContext = {},
): ReportDocument {
  const { clinic, physician } = context;
  return {
    report: {
      ...report,
      finalizedAt: report.finalizedAt ?? null,
      amendedAt: report.amendedAt ?? null,
      amendmentCount: report.amendmentCount ?? null,
    },
    template: resolveTemplateSettings(template),
    clinic: {
      name: clinic?.name ?? null,
      address: clinic?.address ?? null,
      city: clinic?.city ?? null,
      state: clinic?.state ?? null,
      zipCode: clinic?.zipCode ?? null,
      phone: clinic?.phone ?? null,
      logo: fileImage(clinic?.logoUrl),
      locale: context.locale,
    },
    physician: physician
      ? {
          name: physician.name,
          title: physician.title ?? null,
          specialty: physician.specialty ?? null,
          signature: fileImage(physician.signatureUrl),
        }
      : null,
    signedBy: context.signedBy ?? null,
    amendedBy: context.amendedBy ?? null,
    patientId: report.mrn ?? null,
    critical: context.critical ?? null,
  };
}

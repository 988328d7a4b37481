import { z } from "zod";
import type { ClinicInfo } from "../../../../domain/contracts/clinic";
import { clinicInfo } from "../../../../domain/contracts/clinic";
import type { Report } from "../../../../domain/contracts/reports";
import type { ReportTemplate } from "../../../../domain/contracts/templates";
import { reportTemplate } from "../../../../domain/contracts/templates";
import { docxFileNameFromList, docxFileNameFromPreview } from "../../../../domain/exports/file-names";
import { toast } from "../../components/ui/use-toast";
import { useApiQuery } from "../../lib/api";
import { downloadDocx, openPrintPage, printReportInWindow } from "../exports/export-actions";

/** The spec's default template name when a report has none. */
export const DEFAULT_TEMPLATE_NAME = "Standard Report";

export function useTemplates() {
  return useApiQuery(["/api/templates"], z.array(reportTemplate));
}

export function useClinicInfo() {
  return useApiQuery(["/api/clinic/info"], clinicInfo);
}

/** The report's own template, else the clinic's default one, else none (the built-in layout). */
export function templateFor(report: Pick<Report, "templateId">, templates: ReportTemplate[] | undefined) {
  const list = templates ?? [];
  return list.find((t) => t.id === report.templateId) ?? list.find((t) => t.isDefault) ?? null;
}

export const templateName = (report: Pick<Report, "templateId">, templates: ReportTemplate[] | undefined) =>
  templateFor(report, templates)?.name ?? DEFAULT_TEMPLATE_NAME;

const noReport = () =>
  toast({ title: "No Report Available", description: "Please generate a report first", variant: "destructive" });

export function exportPdf(report: Report | null, templates: ReportTemplate[] | undefined) {
  if (!report) return noReport();
  openPrintPage(report.id, { templateId: templateFor(report, templates)?.id ?? null });
}

/** naming: the preview names the file after the exam date, the list and the editor after the report id. */
export function exportDocx(report: Report | null, templates: ReportTemplate[] | undefined, naming: "preview" | "list") {
  if (!report) return noReport();
  const fileName =
    naming === "preview"
      ? docxFileNameFromPreview(report.patientName, report.examDate)
      : docxFileNameFromList(report.patientName, report.id);
  void downloadDocx(report.id, { templateId: templateFor(report, templates)?.id ?? null, fileName });
}

export function printReport(report: Report | null, templates: ReportTemplate[] | undefined, clinic?: ClinicInfo) {
  if (!report) return noReport();
  printReportInWindow(report, templateFor(report, templates), {
    // The whole letterhead, as the server's PDF prints it: name, logo, address and phone.
    clinic: clinic ?? null,
    physician: report.physician,
    signedBy: report.finalizedByName,
    amendedBy: report.amendedByName,
    critical: { results: report.criticalResults, communications: report.criticalCommunications },
  });
}

import {
  clientReportDocument,
  type PrintableReport,
  type PrintContext,
} from "../../../../domain/exports/client-document";
import { buildPrintHtml } from "../../../../domain/exports/print-html";
import { buildDocumentView } from "../../../../domain/exports/report-document";
import type { TemplateSettingsInput } from "../../../../domain/exports/template-settings";
import { toast } from "../../components/ui/use-toast";
import { ApiError } from "../../lib/api";
import { currentClinicLocale } from "../../lib/dates";
import { handleUnauthorized } from "../../lib/session-expiry";

/**
 * Export actions the report screens call (spec part 1, sections 2, 7 and 8). Files are fetched and
 * saved under the name the caller chose (see domain/exports/file-names.ts); the patient's name is
 * never put in a URL, so it does not reach access logs.
 */

/** The spec: the print dialog opens 250 ms after the window is written. */
export const PRINT_DIALOG_DELAY_MS = 250;

export type DownloadOptions = { templateId?: number | null; fileName: string };

function exportUrl(reportId: number, kind: "docx" | "pdf-file", templateId?: number | null): string {
  const query = templateId ? `?templateId=${encodeURIComponent(String(templateId))}` : "";
  return `/api/reports/${reportId}/${kind}${query}`;
}

function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked later: some browsers read the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

type Texts = { success: [string, string]; exportFailed: [string, string]; downloadFailed: [string, string] };

async function download(url: string, fileName: string, texts: Texts): Promise<boolean> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: "include" });
  } catch {
    toast({ title: texts.downloadFailed[0], description: texts.downloadFailed[1], variant: "destructive" });
    return false;
  }
  if (!response.ok) {
    const error = new ApiError(response.status, await response.text().catch(() => ""), response.statusText);
    if (!handleUnauthorized(error)) {
      toast({ title: texts.exportFailed[0], description: texts.exportFailed[1], variant: "destructive" });
    }
    return false;
  }
  try {
    saveBlob(await response.blob(), fileName);
  } catch {
    toast({ title: texts.downloadFailed[0], description: texts.downloadFailed[1], variant: "destructive" });
    return false;
  }
  toast({ title: texts.success[0], description: texts.success[1], variant: "success" });
  return true;
}

/** GET /api/reports/{id}/docx, saved as fileName. */
export function downloadDocx(reportId: number, options: DownloadOptions): Promise<boolean> {
  return download(exportUrl(reportId, "docx", options.templateId), options.fileName, {
    success: ["DOCX Downloaded", "Report downloaded successfully"],
    exportFailed: ["Export Failed", "Failed to export DOCX file"],
    downloadFailed: ["Download Failed", "Failed to download DOCX file"],
  });
}

/** GET /api/reports/{id}/pdf-file (the real PDF, "Download PDF"), saved as fileName. */
export function downloadPdfFile(reportId: number, options: DownloadOptions): Promise<boolean> {
  return download(exportUrl(reportId, "pdf-file", options.templateId), options.fileName, {
    success: ["PDF Downloaded", "Report downloaded successfully"],
    exportFailed: ["Export Failed", "Failed to export PDF file"],
    downloadFailed: ["Download Failed", "Failed to download PDF file"],
  });
}

/** The spec's PDF link: the printable page of GET /api/reports/{id}/pdf in a new tab. */
export function openPrintPage(reportId: number, options: { templateId?: number | null } = {}): boolean {
  const query = options.templateId ? `?templateId=${encodeURIComponent(String(options.templateId))}` : "";
  const opened = window.open(`/api/reports/${reportId}/pdf${query}`, "_blank");
  if (!opened) {
    toast({
      title: "Print Page Blocked",
      description: "Allow pop-ups for this site to open the print page",
      variant: "destructive",
    });
    return false;
  }
  opened.opener = null;
  toast({ title: "Print Page Opened", description: "Use the print button or Ctrl+P to save as PDF" });
  return true;
}

/**
 * The reports screen's client-side print: a window written with the report laid out by the template
 * (the same document code as the server's print page), and the print dialog 250 ms later.
 */
export function printReportInWindow(
  report: PrintableReport,
  template: TemplateSettingsInput | null | undefined,
  context: PrintContext = {},
): boolean {
  const document = clientReportDocument(report, template, { locale: currentClinicLocale(), ...context });
  const html = buildPrintHtml(buildDocumentView(document));
  const printWindow = window.open("", "_blank");
  if (!printWindow) {
    toast({
      title: "Print Blocked",
      description: "Allow pop-ups for this site to print the report",
      variant: "destructive",
    });
    return false;
  }
  printWindow.document.open();
  printWindow.document.write(html);
  printWindow.document.close();
  setTimeout(() => {
    printWindow.focus();
    printWindow.print();
  }, PRINT_DIALOG_DELAY_MS);
  return true;
}

import { buildPrintHtml } from "../../../domain/exports/print-html";
import type { DocumentView } from "../../../domain/exports/report-document";

/** Same-origin script of the print page's button: the CSP allows no inline script. */
export const PRINT_SCRIPT_PATH = "/api/exports/print-page.js";

export const PRINT_SCRIPT = `document.addEventListener("DOMContentLoaded", function () {
  var button = document.getElementById("print-button");
  if (button) button.addEventListener("click", function () { window.print(); });
});
`;

/** The printable page served at GET /api/reports/:id/pdf (images already inlined as data: URLs). */
export function renderPrintHtml(view: DocumentView): string {
  return buildPrintHtml(view, { printScriptSrc: PRINT_SCRIPT_PATH });
}

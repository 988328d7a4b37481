/**
 * Export file names (spec part 1, section 5). The preview names a DOCX after the patient and the exam
 * date; the reports list and the editor after the patient and the report id. The server accepts a
 * client's choice only in the safe shape below, so a name never carries a path or a header break.
 */

/** What a client-chosen download name must look like: no spaces, slashes or quotes. */
export const DOCX_FILE_NAME = /^[A-Za-z0-9_.-]{1,200}\.docx$/;
export const PDF_FILE_NAME = /^[A-Za-z0-9_.-]{1,200}\.pdf$/;

/** Non-alphanumerics become underscores (the preview rule). */
const underscored = (text: string) => text.replace(/[^A-Za-z0-9]/g, "_");

/** A name part for the list rule: letters and digits, words joined by hyphens, never empty. */
function slug(text: string): string {
  const cleaned = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return cleaned || "patient";
}

/** From the preview: "Jane O'Neil", "2026-11-02" -> "Jane_O_Neil_Report_2026-11-02.docx". */
export function docxFileNameFromPreview(patientName: string, examDate: string | null | undefined): string {
  const date = (examDate ?? "").replace(/[^0-9-]/g, "") || "undated";
  return `${underscored(patientName.trim()) || "Patient"}_Report_${date}.docx`;
}

/** From the reports list and the editor: "Jane O'Neil", 42 -> "report-Jane-O-Neil-42.docx". */
export function docxFileNameFromList(patientName: string, id: number): string {
  return `report-${slug(patientName)}-${id}.docx`;
}

/** The PDF file's name by the list rule. */
export function pdfFileName(patientName: string, id: number): string {
  return `report-${slug(patientName)}-${id}.pdf`;
}

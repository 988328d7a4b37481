import { describe, expect, it } from "vitest";
import { DOCX_FILE_NAME, docxFileNameFromList, docxFileNameFromPreview, pdfFileName } from "./file-names";

describe("export file names (spec part 1, section 5)", () => {
  it("from the preview: non-alphanumerics become underscores, then _Report_ and the exam date", () => {
    expect(docxFileNameFromPreview("Jane O'Neil", "2026-11-02")).toBe("Jane_O_Neil_Report_2026-11-02.docx");
    expect(docxFileNameFromPreview("José  Müller-Smith", "2026-01-05")).toBe(
      "Jos___M_ller_Smith_Report_2026-01-05.docx",
    );
    expect(docxFileNameFromPreview("", null)).toBe("Patient_Report_undated.docx");
  });

  it("from the list and the editor: report-patient-id", () => {
    expect(docxFileNameFromList("Jane O'Neil", 42)).toBe("report-Jane-O-Neil-42.docx");
    expect(docxFileNameFromList("José Müller", 7)).toBe("report-Jose-Muller-7.docx");
    expect(docxFileNameFromList("  ", 3)).toBe("report-patient-3.docx");
    expect(pdfFileName("Jane O'Neil", 42)).toBe("report-Jane-O-Neil-42.pdf");
  });

  it("every generated name passes the server's safe-name check; unsafe names do not", () => {
    for (const name of [
      docxFileNameFromPreview('A/B\\C "D"', "2026-11-02"),
      docxFileNameFromList("../../etc/passwd", 1),
      docxFileNameFromList("名前", 2),
    ]) {
      expect(name).toMatch(DOCX_FILE_NAME);
    }
    for (const bad of ["../a.docx", "a b.docx", "a.pdf", 'a".docx', "a\r\n.docx"])
      expect(bad).not.toMatch(DOCX_FILE_NAME);
  });
});

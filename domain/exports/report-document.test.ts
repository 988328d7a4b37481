import { describe, expect, it } from "vitest";
import { clientReportDocument } from "./client-document";
import { buildPrintHtml } from "./print-html";
import { buildDocumentView, paragraphsOf, type ReportDocument } from "./report-document";
import { fontSizePoints, normalizeColor, resolveTemplateSettings, templateFallback } from "./template-settings";

const report = {
  id: 12,
  patientName: "Ann <b>Lee</b>",
  patientDob: "1950-10-27",
  examDate: "2026-11-02",
  studyType: "Renal Duplex",
  indication: "Hypertension.",
  findings: "Line one\nline two\n\nSecond paragraph.",
  impression: "Normal renal arteries.",
  isFinalized: true,
  finalizedAt: "2026-11-03T09:30:00Z",
  isAmended: false,
  amendedAt: null,
  amendmentReason: null,
  generatedAt: "2026-11-02T10:00:00Z",
};

function doc(overrides: Partial<ReportDocument> = {}): ReportDocument {
  return {
    report,
    template: resolveTemplateSettings(null),
    clinic: {
      name: "Riverside",
      address: "1 Main St",
      city: "Springfield",
      state: "IL",
      zipCode: "62701",
      phone: "555",
      logo: null,
      locale: "en-GB",
    },
    physician: { name: "Dr. Chen", title: "MD", specialty: "Radiology", signature: null },
    signedBy: "Ada Admin",
    amendedBy: null,
    patientId: null,
    ...overrides,
  };
}

describe("template resolution", () => {
  it("falls back to the spec's defaults without a template", () => {
    const t = resolveTemplateSettings(undefined);
    expect(t).toEqual(templateFallback);
    expect([t.fontFamily, t.fontSizeToken, t.primaryColor, t.signaturePosition]).toEqual([
      "Arial",
      "12px",
      "#0066cc",
      "right",
    ]);
  });

  it("shows each flag unless it is false, and showPatientId only when true", () => {
    const t = resolveTemplateSettings({ showFindings: false, showIndication: null, showPatientId: null });
    expect(t.showFindings).toBe(false);
    expect(t.showIndication).toBe(true);
    expect(t.showPatientId).toBe(false);
  });

  it("rejects unknown choices and unreadable values", () => {
    const t = resolveTemplateSettings({
      patientInfoLayout: "table",
      signaturePosition: "top",
      fontFamily: "Comic Sans",
      primaryColor: "red",
      fontSize: "90px",
    });
    expect([t.patientInfoLayout, t.signaturePosition, t.fontFamily, t.primaryColor, t.fontSizePt]).toEqual([
      "grid",
      "right",
      "Arial",
      "#0066cc",
      12,
    ]);
    expect(normalizeColor("#B91C1C")).toBe("#b91c1c");
    expect(normalizeColor("#abc")).toBe("#aabbcc");
    expect(fontSizePoints("14px")).toBe(14);
  });
});

describe("document view", () => {
  it("splits paragraphs at blank lines", () => {
    expect(paragraphsOf("a\nb\n\n\nc")).toEqual(["a\nb", "c"]);
  });

  it("writes every date in the clinic's locale, as its screens do (en-US without a setting)", () => {
    const dated = (locale?: "en-US" | "en-GB") => {
      const clinic = { ...doc().clinic, locale };
      const view = buildDocumentView(doc({ clinic, report: { ...report, patientDob: null } }), { timeZone: "UTC" });
      const exam = view.patient.fields.find((f) => f.label === "Exam Date")?.value;
      const born = view.patient.fields.find((f) => f.label === "Date of Birth")?.value;
      return [exam, born, view.metaLine.at(-1), view.signature?.signedLine];
    };
    expect(dated("en-GB")).toEqual([
      "2 Nov 2026",
      "Not recorded",
      "Generated 2 Nov 2026, 10:00 UTC",
      "Electronically signed by Ada Admin on 3 Nov 2026, 09:30 UTC",
    ]);
    const us = [
      "Nov 2, 2026",
      "Not recorded",
      "Generated Nov 2, 2026, 10:00 AM UTC",
      "Electronically signed by Ada Admin on Nov 3, 2026, 9:30 AM UTC",
    ];
    expect(dated("en-US")).toEqual(us);
    expect(dated(undefined)).toEqual(us);
  });

  it("signs finalized reports and marks drafts", () => {
    const signed = buildDocumentView(doc(), { timeZone: "UTC" });
    expect(signed.watermark).toBeNull();
    expect(signed.signature?.signedLine).toBe("Electronically signed by Ada Admin on 3 Nov 2026, 09:30 UTC");
    const draft = buildDocumentView(doc({ report: { ...report, isFinalized: false } }), { timeZone: "UTC" });
    expect(draft.watermark).toBe("DRAFT");
    expect(draft.signature?.signedLine).toBeNull();
    expect(draft.signature?.pendingLine).toBe("Draft: not electronically signed.");
  });

  it("carries the amendment number, reason and date", () => {
    const view = buildDocumentView(
      doc({
        report: {
          ...report,
          isAmended: true,
          amendedAt: "2026-11-04T12:00:00Z",
          amendmentReason: "Wrong side",
          amendmentCount: 3,
        },
        amendedBy: "Ada Admin",
      }),
      { timeZone: "UTC" },
    );
    expect(view.amendment?.lines).toEqual(["Amendment 3 on 4 Nov 2026, 12:00 UTC by Ada Admin.", "Reason: Wrong side"]);
  });

  it("uses the template's clinic details over the clinic's, and the default heading without either", () => {
    const template = resolveTemplateSettings({
      clinicName: "Vein Centre",
      clinicAddress: "2 High St\nSuite 4",
      clinicPhone: "999",
    });
    const view = buildDocumentView(doc({ template }));
    expect(view.letterhead).toMatchObject({
      clinicName: "Vein Centre",
      addressLines: ["2 High St", "Suite 4"],
      phone: "999",
    });
    const unnamed = buildDocumentView(doc({ clinic: { name: null, address: null, phone: null, logo: null } }));
    expect(unnamed.letterhead?.clinicName).toBe("Medical Clinic");
    expect(buildDocumentView(doc({ template: resolveTemplateSettings({ showHeader: false }) })).letterhead).toBeNull();
  });

  it("prints the MRN and the referring physician in the patient block when the report has them", () => {
    const labelled = (d: ReportDocument) => buildDocumentView(d).patient.fields.map((f) => `${f.label}: ${f.value}`);
    const withBoth = doc({ report: { ...report, referringPhysician: "Dr A. Patel" }, patientId: "MRN-0048213" });
    expect(labelled(withBoth)).toEqual([
      "Patient Name: Ann <b>Lee</b>",
      "MRN: MRN-0048213",
      "Date of Birth: 27 Oct 1950",
      "Exam Date: 2 Nov 2026",
      "Referring Physician: Dr A. Patel",
      "Study Type: Renal Duplex",
    ]);
    expect(labelled(doc()).join("|")).not.toMatch(/MRN|Referring/);
    // "Show patient ID" keeps the line when the MRN is missing.
    const shown = doc({ template: resolveTemplateSettings({ showPatientId: true }) });
    expect(labelled(shown)).toContain("MRN: Not recorded");
    expect(buildPrintHtml(buildDocumentView(withBoth))).toContain("Dr A. Patel");
  });

  it("leaves hidden sections and fields out", () => {
    const template = resolveTemplateSettings({
      showFindings: false,
      showStudyType: false,
      showSignature: false,
      showReportId: false,
      showGenerationDate: false,
      showFooter: false,
      footerText: "x",
    });
    const view = buildDocumentView(doc({ template }));
    expect(view.sections.map((s) => s.key)).toEqual(["indication", "impression"]);
    expect(view.patient.fields.map((f) => f.label)).not.toContain("Study Type");
    expect(view.signature).toBeNull();
    expect(view.metaLine).toEqual([]);
    expect(view.footer.text).toBeNull();
  });
});

describe("print HTML", () => {
  it("escapes every text and keeps the sections of the flags", () => {
    const html = buildPrintHtml(buildDocumentView(doc()));
    expect(html).toContain("Ann &lt;b&gt;Lee&lt;/b&gt;");
    expect(html).not.toContain("<b>Lee</b>");
    expect(html).toContain("Line one<br>line two");
    expect(html).not.toMatch(/<script/);
    const hidden = buildPrintHtml(
      buildDocumentView(doc({ template: resolveTemplateSettings({ showImpression: false }) })),
    );
    expect(hidden).not.toContain('data-section="impression"');
  });

  it("builds the print window's document from the screen's report, with same-origin images only", () => {
    const document = clientReportDocument(
      report,
      { fontFamily: "Times New Roman" },
      {
        clinic: { name: "Riverside", logoUrl: "/api/files/4" },
        physician: { name: "Dr. Chen", signatureUrl: "https://evil.example/x.png" },
      },
    );
    const html = buildPrintHtml(buildDocumentView(document));
    expect(html).toContain('src="/api/files/4"');
    expect(html).not.toContain("evil.example");
    expect(html).toContain('"Times New Roman"');
  });

  it("prints the window's dates in the clinic's locale the screen passes", () => {
    const exam = (locale: "en-US" | "en-GB") =>
      buildDocumentView(clientReportDocument(report, null, { locale })).patient.fields.find(
        (f) => f.label === "Exam Date",
      )?.value;
    expect([exam("en-US"), exam("en-GB")]).toEqual(["Nov 2, 2026", "2 Nov 2026"]);
  });
});

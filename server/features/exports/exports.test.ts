import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditEvents, clinics, reports, reportTemplates } from "../../db/schema";
import { physicianWithSignature } from "../../test-support/signing-physician";
import { statementsOf, tablesRead } from "../../test-support/statements";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { sampleReportText } from "./export-samples";

const run = promisify(execFile);

let t: TestApp;
let admin: SignedIn;
let other: SignedIn;
let work: string;
const ids = { draft: 0, finalized: 0, amended: 0, deleted: 0, plain: 0, otherReport: 0, hidden: 0, otherTemplate: 0 };

async function seed() {
  const { db } = t.deps.database;
  const physician = await physicianWithSignature(t, admin.clinicId, {
    physician: { title: "MD, RPVI", specialty: "Vascular Surgery" },
    // A British clinic: the date assertions below read "3 Nov 2026"; "dates in the clinic's locale" switches it.
    letterhead: { address: "12 River Road", phone: "(217) 555-0100", zipCode: "62701", reportSpelling: "en-GB" },
  });
  const [hidden] = await db
    .insert(reportTemplates)
    .values({
      clinicId: admin.clinicId,
      name: "Minimal",
      showIndication: false,
      showFindings: false,
      showStudyType: false,
      showSignature: false,
      showReportId: false,
      patientInfoLayout: "list",
      fontFamily: "Times New Roman",
      fontSize: "14px",
      primaryColor: "#b91c1c",
    })
    .returning();
  const [foreign] = await db.insert(reportTemplates).values({ clinicId: other.clinicId, name: "Theirs" }).returning();
  ids.hidden = hidden!.id;
  ids.otherTemplate = foreign!.id;

  const base = {
    clinicId: admin.clinicId,
    physicianId: physician.id,
    ...sampleReportText,
    mrn: "MRN-0048213",
    referringPhysician: "Dr Anil Patel",
  };
  const now = new Date("2026-11-03T09:30:00Z");
  const insert = async (values: Partial<typeof reports.$inferInsert>) => {
    const [row] = await db
      .insert(reports)
      .values({ ...base, ...values })
      .returning({ id: reports.id });
    return row!.id;
  };
  ids.draft = await insert({});
  ids.finalized = await insert({ isFinalized: true, isDraft: false, finalizedAt: now, finalizedBy: admin.userId });
  ids.amended = await insert({
    isFinalized: true,
    isDraft: false,
    finalizedAt: now,
    finalizedBy: admin.userId,
    isAmended: true,
    amendedAt: new Date("2026-11-03T08:00:00Z"),
    amendedBy: admin.userId,
    amendmentReason: "Corrected the side of the stenosis",
    amendmentCount: 2,
  });
  ids.deleted = await insert({ deletedAt: now });
  ids.plain = await insert({ physicianId: null, patientName: "Plain Template" });
  const [theirs] = await db
    .insert(reports)
    .values({ ...sampleReportText, clinicId: other.clinicId })
    .returning({ id: reports.id });
  ids.otherReport = theirs!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await registerClinic(t.app, "Riverside Vascular");
  other = await registerClinic(t.app, "Other Clinic");
  work = fs.mkdtempSync(path.join(os.tmpdir(), "exports-test-"));
  await seed();
});

afterAll(async () => {
  await t?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

async function pdfText(body: Buffer, name: string) {
  const file = path.join(work, name);
  fs.writeFileSync(file, body);
  await run("qpdf", ["--check", file]); // rejects on a damaged file
  const { stdout } = await run("pdftotext", ["-layout", file, "-"]);
  return stdout;
}

const SECTIONS = ["PATIENT INFORMATION", "INDICATION", "FINDINGS", "IMPRESSION"];

describe("PDF file", () => {
  it("renders a finalized report with every section, the signature and page numbers", async () => {
    const res = await as(t.app, admin)({ url: `/api/reports/${ids.finalized}/pdf-file` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toBe(
      `attachment; filename="report-Margaret-O-Neil-${ids.finalized}.pdf"`,
    );
    expect(res.headers["cache-control"]).toContain("no-store");
    const text = await pdfText(res.rawPayload, "final.pdf");
    for (const s of SECTIONS) expect(text).toContain(s);
    expect(text).toContain("Margaret O'Neil");
    expect(text).toContain("REFERRING PHYSICIAN");
    expect(text).toContain("MRN-0048213");
    expect(text).toContain("Dr Anil Patel");
    expect(text).toContain("Riverside Vascular");
    expect(text).toContain("12 River Road");
    expect(text).toContain("Dr. Maria Chen");
    expect(text).toContain("Vascular Surgery");
    expect(text).toMatch(/Electronically signed by Ada Admin on 3 Nov 2026/);
    expect(text).toContain("Left internal carotid artery stenosis of 70-99%");
    expect(text).toMatch(/Page 1 of \d/);
    expect(text).not.toContain("(DRAFT)");
  });

  it("marks a draft and leaves it unsigned", async () => {
    const res = await as(t.app, admin)({ url: `/api/reports/${ids.draft}/pdf?format=file` });
    expect(res.headers["content-type"]).toBe("application/pdf");
    const text = await pdfText(res.rawPayload, "draft.pdf");
    expect(text).toContain("ULTRASOUND REPORT (DRAFT)");
    expect(text).toContain("Draft: not electronically signed.");
    expect(text).not.toContain("Electronically signed by");
    for (const s of SECTIONS) expect(text).toContain(s);
  });

  it("shows the amendment notice with its number, reason and date", async () => {
    const res = await as(t.app, admin)({ url: `/api/reports/${ids.amended}/pdf-file?filename=amended.pdf` });
    expect(res.headers["content-disposition"]).toBe('attachment; filename="amended.pdf"');
    const text = await pdfText(res.rawPayload, "amended.pdf");
    expect(text).toContain("AMENDED REPORT");
    expect(text).toMatch(/Amendment 2 on 3 Nov 2026, \d\d:\d\d .* by Ada Admin\./);
    expect(text).toContain("Reason: Corrected the side of the stenosis");
  });
});

describe("logo and signature", () => {
  it("are read from the file store once, not for every export (the prepared image is found by its SHA-256)", async () => {
    const url = `/api/reports/${ids.finalized}/pdf-file`;
    expect((await as(t.app, admin)({ url })).statusCode).toBe(200);
    const reads = vi.spyOn(t.deps.fileStore, "get");
    for (const path of [url, `/api/reports/${ids.finalized}/docx`, url]) {
      expect((await as(t.app, admin)({ url: path })).statusCode).toBe(200);
    }
    // Without the lookup by hash: two reads (logo, signature) an export.
    expect(reads).not.toHaveBeenCalled();
    reads.mockRestore();
  });
});

describe("round trips", () => {
  it("exports a signed report in 6 statements: clinic and physician with the report, both images in one (issue 27)", async () => {
    const url = `/api/reports/${ids.finalized}/pdf-file`;
    expect((await as(t.app, admin)({ url })).statusCode).toBe(200);
    const statements = await statementsOf(async () => {
      expect((await as(t.app, admin)({ url })).statusCode).toBe(200);
    });
    // The report joined with its clinic and physician; the clinic's default template; the signer's name; the
    // logo's and signature's file rows together; the clinic's critical rules with the report's communications;
    // the audit event, appended in one statement (decision 027). Reading the clinic, physician or an image apart,
    // or the chain's lock, head and insert one by one, is a round trip too many.
    expect(tablesRead(statements)).toEqual([
      "reports",
      "clinics",
      "physicians",
      "report_templates",
      "users",
      "stored_files",
      "clinics",
      "critical_communications",
      "users",
    ]);
    expect(statements.at(-1)).toMatch(/^select audit_append\(/);
    expect(statements).toHaveLength(6);
  });
});

describe("print page", () => {
  it("is the printable HTML of the spec, with images inline and no inline script", async () => {
    const res = await as(t.app, admin)({ url: `/api/reports/${ids.finalized}/pdf` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.headers["content-disposition"]).toBeUndefined();
    expect(String(res.headers["content-security-policy"])).toContain("script-src 'self'");
    const html = res.body;
    for (const key of ["indication", "findings", "impression"]) expect(html).toContain(`data-section="${key}"`);
    expect(html).toContain("Margaret O&#39;Neil");
    expect(html).toContain("MRN-0048213");
    expect(html).toContain("Dr Anil Patel");
    expect(html).toMatch(/<img src="data:image\/png;base64,[^"]+" alt="Riverside Vascular logo">/);
    expect(html).toMatch(/class="signature-image" src="data:image\/png;base64,/);
    expect(html).toContain("Electronically signed by Ada Admin on 3 Nov 2026");
    expect(html).toContain('id="print-button"');
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).toContain("Arial");
    expect(html).toContain("#0066cc");
    const script = await t.app.inject({ url: "/api/exports/print-page.js" });
    expect(script.statusCode).toBe(200);
    expect(script.body).toContain("window.print()");
  });

  it("follows the template: hidden flags leave their sections out", async () => {
    const res = await as(t.app, admin)({ url: `/api/reports/${ids.finalized}/pdf?templateId=${ids.hidden}` });
    const html = res.body;
    expect(html).not.toContain('data-section="indication"');
    expect(html).not.toContain('data-section="findings"');
    expect(html).toContain('data-section="impression"');
    expect(html).not.toContain("Study Type");
    expect(html).not.toContain('aria-label="Signature"');
    expect(html).not.toContain(`Report #${ids.finalized}`);
    expect(html).toContain("patient-list");
    expect(html).toContain('"Times New Roman"');
    expect(html).toContain("font-size: 14pt");
    expect(html).toContain("#b91c1c");
  });

  it("uses the clinic's default template when none is asked for, else the spec's fallbacks", async () => {
    const before = await as(t.app, admin)({ url: `/api/reports/${ids.plain}/pdf` });
    expect(before.body).toContain("patient-grid");
    const { db } = t.deps.database;
    await db.update(reportTemplates).set({ isDefault: true }).where(eq(reportTemplates.id, ids.hidden));
    const after = await as(t.app, admin)({ url: `/api/reports/${ids.plain}/pdf` });
    expect(after.body).toContain("patient-list");
    await db.update(reportTemplates).set({ isDefault: false }).where(eq(reportTemplates.id, ids.hidden));
  });

  it("marks drafts with a DRAFT watermark and says they are unsigned", async () => {
    const res = await as(t.app, admin)({ url: `/api/reports/${ids.draft}/pdf` });
    expect(res.body).toContain('<div class="watermark" aria-hidden="true">DRAFT</div>');
    expect(res.body).toContain("Draft: not electronically signed.");
    expect(res.body).not.toContain(`class="signature-image"`);
  });
});

describe("DOCX", () => {
  it("converts in LibreOffice and shows every section, the patient and the signature", async () => {
    const res = await as(t.app, admin)({ url: `/api/reports/${ids.amended}/docx` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    expect(res.headers["content-disposition"]).toBe(
      `attachment; filename="report-Margaret-O-Neil-${ids.amended}.docx"`,
    );
    const file = path.join(work, "amended.docx");
    fs.writeFileSync(file, res.rawPayload);
    await run("soffice", [
      `-env:UserInstallation=file://${path.join(work, "lo-profile")}`,
      "--headless",
      "--convert-to",
      "pdf",
      "--outdir",
      work,
      file,
    ]);
    const text = await pdfText(fs.readFileSync(path.join(work, "amended.pdf")), "amended-docx.pdf");
    for (const s of SECTIONS) expect(text).toContain(s);
    expect(text).toContain("Margaret O'Neil");
    expect(text).toContain("MRN-0048213");
    expect(text).toContain("Dr Anil Patel");
    expect(text).toContain("Riverside Vascular");
    expect(text).toContain("AMENDED REPORT");
    expect(text).toContain("Reason: Corrected the side of the stenosis");
    expect(text).toMatch(/Electronically signed by Ada Admin on 3 Nov 2026/);
    expect(text).toMatch(/Page 1 of \d/);
  }, 120_000);

  it("takes a safe file name and refuses any other", async () => {
    const ok = await as(
      t.app,
      admin,
    )({ url: `/api/reports/${ids.draft}/docx?filename=Margaret_O_Neil_Report_2026-11-02.docx` });
    expect(ok.headers["content-disposition"]).toBe('attachment; filename="Margaret_O_Neil_Report_2026-11-02.docx"');
    for (const bad of ["../x.docx", "a b.docx", "x.pdf", 'x".docx']) {
      const res = await as(t.app, admin)({ url: `/api/reports/${ids.draft}/docx?filename=${encodeURIComponent(bad)}` });
      expect(res.statusCode, bad).toBe(400);
    }
  });
});

describe("dates in the clinic's locale", () => {
  const setLocale = (reportSpelling: "en-US" | "en-GB") =>
    t.deps.database.db.update(clinics).set({ reportSpelling }).where(eq(clinics.id, admin.clinicId));

  /** The words of the PDF file (pdftotext) and of the DOCX (its document.xml without tags), spaces folded. */
  async function exportedWords(name: string) {
    const pdf = await as(t.app, admin)({ url: `/api/reports/${ids.finalized}/pdf-file` });
    const pdfWords = (await pdfText(pdf.rawPayload, `${name}.pdf`)).replace(/\s+/g, " ");
    const docxFile = path.join(work, `${name}.docx`);
    fs.writeFileSync(docxFile, (await as(t.app, admin)({ url: `/api/reports/${ids.finalized}/docx` })).rawPayload);
    const xml = (await run("unzip", ["-p", docxFile, "word/document.xml"])).stdout;
    const print = (await as(t.app, admin)({ url: `/api/reports/${ids.finalized}/pdf` })).body;
    return { pdf: pdfWords, docx: xml.replace(/<[^>]+>/g, " ").replace(/\s+/g, " "), print };
  }

  it("writes US dates for an en-US clinic and British ones for an en-GB clinic, like its screens", async () => {
    try {
      await setLocale("en-US");
      const us = await exportedWords("locale-us");
      for (const [format, words] of Object.entries(us)) {
        expect(words, format).toContain("Nov 2, 2026"); // the exam date
        expect(words, format).toContain("Oct 27, 1950"); // the date of birth
        expect(words, format).toMatch(/Electronically signed by Ada Admin on Nov 3, 2026, \d{1,2}:30 [AP]M/);
        expect(words, format).not.toContain("3 Nov 2026");
      }
      await setLocale("en-GB");
      const gb = await exportedWords("locale-gb");
      for (const [format, words] of Object.entries(gb)) {
        expect(words, format).toContain("2 Nov 2026");
        expect(words, format).toContain("27 Oct 1950");
        expect(words, format).toMatch(/Electronically signed by Ada Admin on 3 Nov 2026, \d\d:30 /);
        expect(words, format).not.toContain("Nov 3, 2026");
      }
    } finally {
      await setLocale("en-GB");
    }
  }, 120_000);
});

describe("access", () => {
  const routes = (id: number) => [`/api/reports/${id}/pdf`, `/api/reports/${id}/pdf-file`, `/api/reports/${id}/docx`];

  it("answers 401 without a session", async () => {
    for (const url of routes(ids.finalized)) expect((await t.app.inject({ url })).statusCode, url).toBe(401);
  });

  it("answers 404 for another clinic's report, a deleted report and an unknown one", async () => {
    for (const id of [ids.otherReport, ids.deleted, 999_999]) {
      for (const url of routes(id)) expect((await as(t.app, admin)({ url })).statusCode, url).toBe(404);
    }
    const theirs = await as(t.app, other)({ url: `/api/reports/${ids.finalized}/docx` });
    expect(theirs.statusCode).toBe(404);
  });

  it("answers 404 for an unknown template or another clinic's, 400 for a malformed one", async () => {
    for (const templateId of [999_999, ids.otherTemplate]) {
      const res = await as(t.app, admin)({ url: `/api/reports/${ids.finalized}/docx?templateId=${templateId}` });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe("Template not found");
    }
    expect((await as(t.app, admin)({ url: `/api/reports/${ids.finalized}/pdf?templateId=abc` })).statusCode).toBe(400);
    expect((await as(t.app, admin)({ url: `/api/reports/x/pdf` })).statusCode).toBe(400);
  });

  it("audits every export with its format and no patient data", async () => {
    const { db } = t.deps.database;
    const countFor = async (id: number) =>
      (
        await db
          .select()
          .from(auditEvents)
          .where(and(eq(auditEvents.action, "report.exported"), eq(auditEvents.entityId, String(id))))
      ).map((e) => e.details as { format: string });
    const before = await countFor(ids.plain);
    await as(t.app, admin)({ url: `/api/reports/${ids.plain}/docx` });
    await as(t.app, admin)({ url: `/api/reports/${ids.plain}/pdf-file` });
    const after = await countFor(ids.plain);
    expect(after.length - before.length).toBe(2);
    expect(after.map((d) => d.format)).toEqual(expect.arrayContaining(["docx", "pdf"]));
    expect(JSON.stringify(after)).not.toContain("Plain Template");
    const refused = await countFor(ids.otherReport);
    expect(refused).toHaveLength(0);
  });
});

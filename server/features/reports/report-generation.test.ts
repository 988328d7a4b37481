import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report, ReportVersion } from "../../../domain/contracts/reports";
import { studySchema } from "../../../domain/contracts/study";
import { generateDraft } from "../../../domain/report-engine/generate-draft";
import { auditEvents, reports, reportVersions, sonographers } from "../../db/schema";
import { statementsOf } from "../../test-support/statements";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { legendNotes } from "./legend-match";
import { insertLegendEntry, insertPhysician, insertWorksheet, ocrResult } from "./report-test-fixtures";

let t: TestApp;
let owner: SignedIn;
let other: SignedIn;
let physicianId: number;

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerClinic(t.app, "Generation Clinic");
  other = await registerClinic(t.app, "Other Clinic");
  physicianId = (await insertPhysician(t, owner.clinicId)).id;
});
afterAll(() => t.close());

const post = (payload: object, user = owner) =>
  as(t.app, user)({ method: "POST", url: "/api/reports/generate", payload });

describe("POST /api/reports/generate", () => {
  it("answers the spec's texts when the worksheet or the physician is missing", async () => {
    const worksheet = await insertWorksheet(t, owner.clinicId);
    const noWorksheet = await post({ physicianId, logoUrl: null });
    expect(noWorksheet.statusCode).toBe(400);
    expect(noWorksheet.json()).toMatchObject({ error: "Please upload a worksheet first", field: "worksheetId" });
    const noPhysician = await post({ worksheetId: worksheet.id, physicianId: null, logoUrl: null });
    expect(noPhysician.statusCode).toBe(400);
    expect(noPhysician.json()).toMatchObject({ error: "Please select a reporting physician", field: "physicianId" });
  });

  it("answers 404 for another clinic's worksheet or physician", async () => {
    const foreignWorksheet = await insertWorksheet(t, other.clinicId);
    const foreignPhysician = await insertPhysician(t, other.clinicId);
    const mine = await insertWorksheet(t, owner.clinicId);
    expect((await post({ worksheetId: foreignWorksheet.id, physicianId })).statusCode).toBe(404);
    expect((await post({ worksheetId: mine.id, physicianId: foreignPhysician.id })).statusCode).toBe(404);
  });

  it("drafts from the worksheet's OCR result, stores version 1 and audits, with the language model off", async () => {
    const worksheet = await insertWorksheet(t, owner.clinicId);
    const res = await post({ worksheetId: worksheet.id, physicianId: String(physicianId), logoUrl: null });
    expect(res.statusCode, res.body).toBe(201);
    const report = res.json() as Report;
    const engine = generateDraft(
      studySchema.parse({
        scanType: "Carotid Duplex",
        measurements: ocrResult().measurements.map(({ site, side, parameter, value, unit }) => ({
          site,
          side,
          parameter,
          value,
          unit,
        })),
      }),
    );
    // No LLM configured: the text is exactly the engine's.
    expect(report).toMatchObject({
      patientName: "Jane Roe",
      patientDob: "1950-04-02",
      examDate: "2024-03-15",
      studyType: "Carotid Duplex",
      findings: engine.findings,
      impression: engine.impression,
      isDraft: true,
      isFinalized: false,
      worksheetId: worksheet.id,
      physicianId,
      physician: { name: "Dr. Grace Hopper", title: "MD", specialty: "Vascular Surgeon", signatureUrl: null },
    });
    expect(report.findings).toContain("250");
    expect(report.conclusions.length).toBeGreaterThan(0);
    expect(report.warnings).toEqual(engine.warnings);
    const [v1] = await t.deps.database.db.select().from(reportVersions).where(eq(reportVersions.reportId, report.id));
    expect(v1).toMatchObject({ versionNumber: 1, kind: "generated", createdBy: owner.userId });
    expect((v1!.snapshot as ReportVersion["snapshot"]).schemaVersion).toBe(1);
    const events = await t.deps.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.entityId, String(report.id)));
    const generated = events.find((e) => e.action === "report.generated");
    expect(generated).toBeDefined();
    // Audit details never carry patient names.
    expect(JSON.stringify(generated!.details)).not.toContain("Jane");
  });

  it("uses the clinician's checked measurements and patient fields when sent", async () => {
    const worksheet = await insertWorksheet(t, owner.clinicId);
    const res = await post({
      worksheetId: worksheet.id,
      physicianId,
      logoUrl: null,
      scanType: "Carotid Duplex",
      measurements: [{ site: "ICA_PROX", side: "left", parameter: "PSV", value: 131, unit: "cm/s" }],
      patient: { patientName: "John Smith", patientDob: "", examDate: "2024-05-01" },
    });
    expect(res.statusCode, res.body).toBe(201);
    const report = res.json() as Report;
    expect(report).toMatchObject({ patientName: "John Smith", patientDob: null, examDate: "2024-05-01" });
    expect(report.findings).toContain("131");
    expect(report.findings).not.toContain("250");
    // Kept on the report as checked: FHIR Observations and HL7 OBX lines carry them (issue 28).
    const [row] = await t.deps.database.db
      .select({ measurements: reports.measurements })
      .from(reports)
      .where(eq(reports.id, report.id));
    expect(row!.measurements).toEqual([{ site: "ICA_PROX", side: "left", parameter: "PSV", value: 131, unit: "cm/s" }]);
  });

  it("writes the draft in the clinic's spelling (issue 31 item 9)", async () => {
    const draftFor = async () => {
      const worksheet = await insertWorksheet(t, owner.clinicId);
      const res = await post({
        worksheetId: worksheet.id,
        physicianId,
        logoUrl: null,
        scanType: "Abdominal Aorta",
        measurements: [{ site: "AO", side: null, parameter: "DIAMETER_MM", value: 20, unit: "mm" }],
        patient: { patientName: "Jane Roe", patientDob: "", examDate: "2024-05-01" },
      });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as Report).impression;
    };
    expect(await draftFor()).toContain("normal caliber");
    const setSpelling = (reportSpelling: string) =>
      as(
        t.app,
        owner,
      )({
        method: "PUT",
        url: `/api/clinic/${owner.clinicId}`,
        payload: { name: "Generation Clinic", email: "gen@clinic.test", reportSpelling },
      });
    expect((await setSpelling("en-GB")).statusCode).toBe(200);
    expect(await draftFor()).toContain("normal calibre");
    expect((await setSpelling("en-US")).statusCode).toBe(200);
  });

  it("reads the clinic's spelling and criteria set in one statement (issue 27)", async () => {
    const worksheet = await insertWorksheet(t, owner.clinicId);
    const statements = await statementsOf(async () => {
      expect((await post({ worksheetId: worksheet.id, physicianId, logoUrl: null })).statusCode).toBe(201);
    });
    // The clinic row read on its own (not joined): once for the draft's settings. Twice is a round trip too many.
    const clinicReads = statements.filter((text) => /^select [^(]* from "clinics" where/.test(text));
    expect(clinicReads).toHaveLength(1);
    expect(clinicReads[0]).toContain('"report_spelling"');
    expect(clinicReads[0]).toContain('"carotid_criteria_set"');
  });

  it("drafts a venous sheet with great saphenous knee and calf rows and a vessel the criteria do not grade", async () => {
    const worksheet = await insertWorksheet(t, owner.clinicId);
    const res = await post({
      worksheetId: worksheet.id,
      physicianId,
      scanType: "Lower Limb Venous",
      measurements: [
        { site: "GSV_KNEE", side: "left", parameter: "REFLUX_MS", value: 2400, unit: "ms" },
        { site: "GSV_CALF", side: "left", parameter: "DIAMETER_MM", value: 3.1, unit: "mm" },
        { site: "AASV", side: "left", parameter: "REFLUX_MS", value: 900, unit: "ms" },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const report = res.json() as Report;
    expect(report.conclusions).toEqual([
      expect.objectContaining({ site: "GSV_KNEE", category: "venous_reflux", grade: "present" }),
    ]);
    expect(report.findings).toContain("Left great saphenous vein: knee reflux time 2400 ms; calf diameter 3.1 mm.");
    expect(report.findings).toContain("Left anterior accessory saphenous vein (not graded): reflux time 900 ms.");
    expect(report.warnings.join(" ")).toMatch(/do not grade the left anterior accessory saphenous vein/);
  });

  it("names a bad measurement or scan type", async () => {
    const worksheet = await insertWorksheet(t, owner.clinicId, ocrResult({ scanType: null }));
    const badSite = await post({
      worksheetId: worksheet.id,
      physicianId,
      scanType: "Carotid Duplex",
      measurements: [{ site: "NOPE", side: "left", parameter: "PSV", value: 10, unit: "cm/s" }],
    });
    expect(badSite.statusCode).toBe(400);
    expect(badSite.json().field).toBe("measurements[0].site");
    const badValue = await post({
      worksheetId: worksheet.id,
      physicianId,
      scanType: "Carotid Duplex",
      measurements: [{ site: "ICA_PROX", side: "left", parameter: "PSV", value: "fast", unit: "cm/s" }],
    });
    expect(badValue.json().field).toBe("measurements[0].value");
    const noScanType = await post({ worksheetId: worksheet.id, physicianId });
    expect(noScanType.statusCode).toBe(400);
    expect(noScanType.json().field).toBe("scanType");
    const unknownType = await post({ worksheetId: worksheet.id, physicianId, scanType: "Brain MRI" });
    expect(unknownType.statusCode).toBe(400);
    expect(unknownType.json().field).toBe("scanType");
  });

  it("leaves out OCR values outside the vocabulary, with a warning", async () => {
    const ocr = ocrResult();
    ocr.measurements.push({ ...ocr.measurements[0]!, site: "SMUDGE", text: "7?" });
    const worksheet = await insertWorksheet(t, owner.clinicId, ocr);
    const report = (await post({ worksheetId: worksheet.id, physicianId })).json() as Report;
    expect(report.warnings[0]).toMatch(/^1 value\(s\) read from the worksheet were not recognised/);
  });

  it("adds the meaning of active legend entries whose keywords occur in the worksheet text", async () => {
    await insertLegendEntry(t, owner.clinicId, {
      title: "Calcified plaque",
      medicalMeaning: "Acoustic shadowing from calcified plaque limits assessment.",
      keywords: "calcified, shadowing",
    });
    await insertLegendEntry(t, owner.clinicId, {
      title: "Inactive",
      medicalMeaning: "Must not appear.",
      keywords: "plaque",
      isActive: false,
    });
    await insertLegendEntry(t, owner.clinicId, { title: "Partial", medicalMeaning: "Nor this.", keywords: "plaq" });
    await insertLegendEntry(t, other.clinicId, { title: "Foreign", medicalMeaning: "Nor that.", keywords: "plaque" });
    const worksheet = await insertWorksheet(t, owner.clinicId);
    const report = (await post({ worksheetId: worksheet.id, physicianId })).json() as Report;
    expect(report.findings).toMatch(
      /\n\nLegend notes: Calcified plaque: Acoustic shadowing from calcified plaque limits assessment\.$/,
    );
    expect(report.findings).not.toContain("Must not appear");
    expect(report.findings).not.toContain("Nor this");
    expect(report.findings).not.toContain("Nor that");
  });

  it("keeps only the clinic's own template and our own logo URLs", async () => {
    const worksheet = await insertWorksheet(t, owner.clinicId);
    const report = (
      await post({ worksheetId: worksheet.id, physicianId, templateId: 999_999, logoUrl: "https://evil.example/x.png" })
    ).json() as Report;
    expect(report.templateId).toBeNull();
    expect(report.logoUrl).toBeNull();
    const withLogo = (await post({ worksheetId: worksheet.id, physicianId, logoUrl: "/api/files/12" })).json();
    expect(withLogo.logoUrl).toBe("/api/files/12");
  });
});

describe("the worksheet's header fields", () => {
  const field = (value: string | null) => ({ value, confidence: 0.9, box: null });
  const sheetWith = (fields: Record<string, string | null>) => {
    const ocr = ocrResult();
    for (const [name, value] of Object.entries(fields)) Object.assign(ocr.fields, { [name]: field(value) });
    return ocr;
  };
  let janeSmith: number;

  beforeAll(async () => {
    const db = t.deps.database.db;
    const [jane] = await db
      .insert(sonographers)
      .values([
        { clinicId: owner.clinicId, name: "Jane Smith", initials: "JS" },
        { clinicId: owner.clinicId, name: "Priya Raghunathan", initials: "PR" },
      ])
      .returning();
    janeSmith = jane!.id;
    // The same person in another clinic must never be named on this clinic's report.
    await db.insert(sonographers).values({ clinicId: other.clinicId, name: "Maria Garcia", initials: "MG" });
  });

  it("puts the sheet's indication into the report unchanged, and stores MRN, sex, referrer and comments", async () => {
    const worksheet = await insertWorksheet(
      t,
      owner.clinicId,
      sheetWith({
        indication: "RECURRENT VARICES",
        mrn: "MRN-0048213",
        sex: "female",
        referringPhysician: "Dr A. Patel",
        sonographer: "J. SMYTH RDMS",
        comments: "Possible severe R ICA stenosis, please review",
      }),
    );
    const res = await post({ worksheetId: worksheet.id, physicianId });
    expect(res.statusCode, res.body).toBe(201);
    const report = res.json() as Report;
    expect(report).toMatchObject({
      indication: "RECURRENT VARICES",
      mrn: "MRN-0048213",
      patientSex: "female",
      referringPhysician: "Dr A. Patel",
      sonographerName: "J. SMYTH RDMS",
      sonographerId: janeSmith,
      sonographerComments: "Possible severe R ICA stenosis, please review",
    });
    // The sonographer's impression is shown beside the draft, never copied into it.
    expect(report.impression).not.toContain("please review");
    expect(report.findings).not.toContain("please review");
    const [version] = await t.deps.database.db
      .select()
      .from(reportVersions)
      .where(eq(reportVersions.reportId, report.id));
    expect(version!.snapshot).toMatchObject({ mrn: "MRN-0048213", referringPhysician: "Dr A. Patel" });
  });

  it("says 'Not stated.' when the sheet has no indication", async () => {
    const worksheet = await insertWorksheet(t, owner.clinicId);
    const report = (await post({ worksheetId: worksheet.id, physicianId })).json() as Report;
    expect(report.indication).toBe("Not stated.");
    expect(report).toMatchObject({ mrn: null, referringPhysician: null, sonographerId: null, sonographerName: null });
  });

  it("keeps a sonographer it cannot match as written, with no id", async () => {
    const worksheet = await insertWorksheet(t, owner.clinicId, sheetWith({ sonographer: "Maria Garcia" }));
    const report = (await post({ worksheetId: worksheet.id, physicianId })).json() as Report;
    expect(report).toMatchObject({ sonographerName: "Maria Garcia", sonographerId: null });
  });

  it("takes the clinician's checked header fields over what OCR read; blank means none", async () => {
    const worksheet = await insertWorksheet(
      t,
      owner.clinicId,
      sheetWith({ indication: "TIA", mrn: "MRN-1", referringPhysician: "Dr Misread", sex: "male" }),
    );
    const res = await post({
      worksheetId: worksheet.id,
      physicianId,
      patient: {
        patientName: "Jane Roe",
        patientDob: "1950-04-02",
        examDate: "2024-03-15",
        indication: "  Left-sided transient ischaemic attack  ",
        mrn: "MRN-7",
        referringPhysician: "",
        sonographerName: "PR",
        patientSex: null,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      indication: "Left-sided transient ischaemic attack",
      mrn: "MRN-7",
      referringPhysician: null,
      patientSex: null,
      sonographerName: "PR",
    });
    expect((res.json() as Report).sonographerId).not.toBeNull();
  });

  it("refuses a sex it does not know and an over-long MRN in words", async () => {
    const worksheet = await insertWorksheet(t, owner.clinicId);
    const patient = { patientName: "Jane Roe" };
    const badSex = await post({ worksheetId: worksheet.id, physicianId, patient: { ...patient, patientSex: "x" } });
    expect(badSex.statusCode).toBe(400);
    expect(badSex.json().error).toContain("Sex must be male, female or other");
    const longMrn = await post({
      worksheetId: worksheet.id,
      physicianId,
      patient: { ...patient, mrn: "9".repeat(65) },
    });
    expect(longMrn.statusCode).toBe(400);
    expect(longMrn.json().error).toContain("MRN must be at most 64 characters");
  });

  it("matches an edited sonographer name again, and edits MRN and referrer", async () => {
    const worksheet = await insertWorksheet(t, owner.clinicId, sheetWith({ sonographer: "Someone Else" }));
    const report = (await post({ worksheetId: worksheet.id, physicianId })).json() as Report;
    expect(report.sonographerId).toBeNull();
    const patch = (payload: object) => as(t.app, owner)({ method: "PATCH", url: `/api/reports/${report.id}`, payload });
    const matched = await patch({ sonographerName: "smith, jane", mrn: "A-1", referringPhysician: "Dr B" });
    expect(matched.statusCode, matched.body).toBe(200);
    expect(matched.json()).toMatchObject({
      sonographerName: "smith, jane",
      sonographerId: janeSmith,
      mrn: "A-1",
      referringPhysician: "Dr B",
    });
    const cleared = await patch({ sonographerName: "", mrn: " " });
    expect(cleared.json()).toMatchObject({ sonographerName: null, sonographerId: null, mrn: null });
  });
});

describe("legend notes", () => {
  it("writes one labelled sentence", () => {
    expect(legendNotes([])).toBe("");
    expect(
      legendNotes([
        { title: "A", medicalMeaning: "First." },
        { title: "B", medicalMeaning: "Second" },
      ]),
    ).toBe("Legend notes: A: First; B: Second.");
  });
});

import type { Bundle, DiagnosticReport, Observation, Patient, Practitioner } from "@medplum/fhirtypes";
import { eq } from "drizzle-orm";
import { Message } from "node-hl7-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Measurement } from "../../../domain/contracts/study";
import { auditEvents, physicians, reports } from "../../db/schema";
import { fhirSchemaErrors } from "../../test-support/fhir-schema";
import { addClinicMember } from "../../test-support/signing";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { sampleReportText } from "./export-samples";
import { fhirBundleOf, loadInteropReport } from "./interop.service";

let t: TestApp;
let admin: SignedIn;
let other: SignedIn;
let physicianId = 0;
const ids = { draft: 0, finalized: 0, amended: 0, legacy: 0, awkward: 0, otherReport: 0 };

const measurements: Measurement[] = [
  { site: "ICA_PROX", side: "left", parameter: "PSV", value: 262, unit: "cm/s" },
  { site: "ICA_PROX", side: "left", parameter: "EDV", value: 84, unit: "cm/s" },
  { site: "ICA", side: "left", parameter: "RATIO_ICA_CCA", value: 4.2, unit: null },
  { site: "GSV_KNEE", side: "right", parameter: "REFLUX_MS", value: 1800, unit: "ms" },
  { site: "AORTA_PROX", side: null, parameter: "DIAMETER_MM", value: 31, unit: "mm" },
];

beforeAll(async () => {
  t = await createTestApp();
  admin = await registerClinic(t.app, "Riverside Vascular");
  other = await registerClinic(t.app, "Other Clinic");
  const { db } = t.deps.database;
  const [physician] = await db
    .insert(physicians)
    .values({ clinicId: admin.clinicId, name: "Dr. Maria Chen", title: "MD, RPVI", userId: admin.userId })
    .returning();
  physicianId = physician!.id;
  const base = {
    clinicId: admin.clinicId,
    physicianId,
    ...sampleReportText,
    mrn: "MRN-0048213",
    patientSex: "female",
    measurements,
  };
  const signed = {
    isFinalized: true,
    isDraft: false,
    finalizedAt: new Date("2026-11-03T09:30:00Z"),
    finalizedBy: admin.userId,
  };
  const insert = async (values: Partial<typeof reports.$inferInsert>) => {
    const [row] = await db
      .insert(reports)
      .values({ ...base, ...values })
      .returning({ id: reports.id });
    return row!.id;
  };
  ids.draft = await insert({});
  ids.finalized = await insert(signed);
  ids.amended = await insert({
    ...signed,
    isAmended: true,
    amendedAt: new Date("2026-11-03T08:00:00Z"),
    amendedBy: admin.userId,
    amendmentReason: "Corrected the side of the stenosis",
    amendmentCount: 1,
  });
  ids.legacy = await insert({ ...signed, measurements: null, mrn: null });
  ids.awkward = await insert({
    ...signed,
    patientName: "Anne|Marie ^O'Neil & Sons~\\",
    indication: "Bruit | left ^ side & more ~ text \\ end\nsecond line",
    impression: "First line\nsecond line\n\nNew paragraph | with a bar",
  });
  const [theirs] = await db
    .insert(reports)
    .values({ ...sampleReportText, clinicId: other.clinicId })
    .returning({ id: reports.id });
  ids.otherReport = theirs!.id;
});

afterAll(async () => {
  await t?.close();
});

const fhir = async (id: number, user: SignedIn = admin) => {
  const res = await as(t.app, user)({ url: `/api/reports/${id}/fhir` });
  return { res, bundle: res.statusCode === 200 ? (res.json() as Bundle) : null };
};

const resources = <T>(bundle: Bundle, type: string) =>
  (bundle.entry ?? []).map((e) => e.resource).filter((r) => r?.resourceType === type) as T[];

function expectValid(bundle: Bundle) {
  expect(fhirSchemaErrors(bundle)).toEqual([]);
  for (const entry of bundle.entry ?? []) expect(fhirSchemaErrors(entry.resource!)).toEqual([]);
}

describe("GET /api/reports/{id}/fhir", () => {
  it("answers a finalized report as a Bundle that validates against the FHIR R4 schema", async () => {
    const { res, bundle } = await fhir(ids.finalized);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/fhir+json; charset=utf-8");
    expect(res.headers["cache-control"]).toContain("no-store");
    expect(bundle!.type).toBe("collection");
    expectValid(bundle!);

    const [report] = resources<DiagnosticReport>(bundle!, "DiagnosticReport");
    expect(report!.status).toBe("final");
    expect(report!.conclusion).toBe(sampleReportText.impression);
    expect(report!.category?.[0]?.coding?.[0]).toMatchObject({ code: "VUS" });
    expect(report!.effectiveDateTime).toBe("2026-11-02");
    expect(report!.issued).toBe("2026-11-03T09:30:00.000Z");
    const form = report!.presentedForm![0]!;
    expect(form.contentType).toBe("application/pdf");
    const pdf = Buffer.from(form.data!, "base64");
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.length).toBeGreaterThan(2000);

    const [patient] = resources<Patient>(bundle!, "Patient");
    expect(patient!.name![0]).toMatchObject({ family: "O'Neil", given: ["Margaret"] });
    expect(patient!.birthDate).toBe("1950-10-27");
    expect(patient!.gender).toBe("female");
    expect(patient!.identifier![0]).toMatchObject({ value: "MRN-0048213", type: { coding: [{ code: "MR" }] } });
    expect(report!.subject?.reference).toBe(
      bundle!.entry!.find((e) => e.resource === patient || e.resource?.resourceType === "Patient")!.fullUrl,
    );

    const [practitioner] = resources<Practitioner>(bundle!, "Practitioner");
    expect(practitioner!.name![0]).toMatchObject({ family: "Chen", given: ["Maria"], suffix: ["MD, RPVI"] });
    const practitionerUrl = bundle!.entry!.find((e) => e.resource?.resourceType === "Practitioner")!.fullUrl;
    expect(report!.resultsInterpreter?.[0]?.reference).toBe(practitionerUrl);
  });

  it("gives an Observation per measurement: LOINC where LOINC has it, local site, side and parameter codes, UCUM units", async () => {
    const { bundle } = await fhir(ids.finalized);
    const observations = resources<Observation>(bundle!, "Observation");
    expect(observations).toHaveLength(measurements.length);
    const [psv, edv, ratio, reflux, aorta] = observations;
    expect(psv!.code.coding).toEqual([
      { system: "http://loinc.org", code: "11726-7", display: "Peak Systolic Velocity" },
      { system: "urn:sonoscribe:codesystem:vascular-parameter", code: "PSV", display: "Peak systolic velocity" },
    ]);
    expect(psv!.valueQuantity).toEqual({ value: 262, unit: "cm/s", system: "http://unitsofmeasure.org", code: "cm/s" });
    expect(psv!.bodySite?.coding?.[0]).toMatchObject({
      system: "urn:sonoscribe:codesystem:vascular-site",
      code: "ICA_PROX:left",
      display: "left proximal internal carotid artery",
    });
    expect(edv!.code.coding?.[0]?.code).toBe("11653-3");
    expect(ratio!.code.coding?.map((c) => c.code)).toEqual(["33867-3", "RATIO_ICA_CCA"]);
    expect(ratio!.valueQuantity).toMatchObject({ value: 4.2, code: "1" });
    // No LOINC code for reflux time or a vessel diameter: local codes only, never an invented LOINC.
    expect(reflux!.code.coding).toHaveLength(1);
    expect(reflux!.code.coding?.[0]?.system).toBe("urn:sonoscribe:codesystem:vascular-parameter");
    expect(reflux!.valueQuantity).toMatchObject({ value: 1800, code: "ms" });
    expect(reflux!.bodySite?.coding?.[0]?.code).toBe("GSV_KNEE:right");
    expect(aorta!.bodySite?.coding?.[0]?.code).toBe("AORTA_PROX");
    expect(aorta!.valueQuantity).toMatchObject({ value: 31, code: "mm" });
    for (const o of observations) expect(o.status).toBe("final");
    const report = resources<DiagnosticReport>(bundle!, "DiagnosticReport")[0]!;
    expect(report.result).toHaveLength(measurements.length);
  });

  it("says amended for a signed amendment and preliminary for a draft, and both validate", async () => {
    const amended = (await fhir(ids.amended)).bundle!;
    expectValid(amended);
    expect(resources<DiagnosticReport>(amended, "DiagnosticReport")[0]!.status).toBe("amended");
    expect(resources<Observation>(amended, "Observation").every((o) => o.status === "amended")).toBe(true);
    const draft = (await fhir(ids.draft)).bundle!;
    expectValid(draft);
    const report = resources<DiagnosticReport>(draft, "DiagnosticReport")[0]!;
    expect(report.status).toBe("preliminary");
    expect(report.presentedForm?.[0]?.title).toContain("(draft)");
  });

  it("carries no Observation when the report's measurements were not kept, and no identifier without an MRN", async () => {
    const bundle = (await fhir(ids.legacy)).bundle!;
    expectValid(bundle);
    expect(resources(bundle, "Observation")).toHaveLength(0);
    expect(resources<Patient>(bundle, "Patient")[0]!.identifier).toBeUndefined();
  });

  it("builds the transaction form delivery sends: conditional updates on identifiers, valid too", async () => {
    const ctx = {
      user: { id: admin.userId, role: "admin", clinicId: admin.clinicId } as never,
      clinicId: admin.clinicId,
    };
    const bundle = fhirBundleOf(
      await loadInteropReport({ db: t.deps.database.db, fileStore: t.deps.fileStore }, ctx, ids.amended),
      "transaction",
    );
    expectValid(bundle);
    const requests = bundle.entry!.map((e) => e.request!);
    expect(requests.every((r) => r.method === "PUT")).toBe(true);
    expect(requests.find((r) => r.url.startsWith("DiagnosticReport?"))!.url).toBe(
      `DiagnosticReport?identifier=${encodeURIComponent(`urn:sonoscribe:clinic:${admin.clinicId}:report`)}|${ids.amended}`,
    );
  });

  it("fails the schema check when a resource is wrong (the check can fail)", async () => {
    const bundle = (await fhir(ids.finalized)).bundle!;
    const report = resources<DiagnosticReport>(bundle, "DiagnosticReport")[0]!;
    expect(fhirSchemaErrors({ ...report, status: "signed" } as never).length).toBeGreaterThan(0);
    expect(fhirSchemaErrors({ ...report, conclusions: "x" } as never).length).toBeGreaterThan(0);
  });

  it("is audited as an export, answers 404 for another clinic's report and 401 without a session", async () => {
    const before = await t.deps.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.entityId, String(ids.draft)));
    await fhir(ids.draft);
    const after = await t.deps.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.entityId, String(ids.draft)));
    const added = after.filter((a) => !before.some((b) => b.id === a.id));
    expect(added.map((a) => [a.action, (a.details as { format?: string }).format])).toEqual([
      ["report.exported", "fhir"],
    ]);
    expect((await fhir(ids.otherReport)).res.statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/reports/${ids.finalized}/fhir` })).statusCode).toBe(401);
    // Every clinic role may read reports, so a sonographer gets it too.
    const sonographer = await addClinicMember(t, admin.clinicId, "sonographer", { firstName: "Sam", lastName: "Sono" });
    expect((await fhir(ids.finalized, sonographer)).res.statusCode).toBe(200);
  });
});

describe("GET /api/reports/{id}/hl7", () => {
  const hl7 = async (id: number) => as(t.app, admin)({ url: `/api/reports/${id}/hl7` });

  it("is an ORU^R01 v2.5.1 that a third-party parser reads, with the PDF in an ED OBX", async () => {
    const res = await hl7(ids.finalized);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("hl7-v2");
    expect(res.headers["cache-control"]).toContain("no-store");
    const text = res.body;
    // Segments end with a carriage return, never a line feed.
    expect(text.endsWith("\r")).toBe(true);
    expect(text).not.toContain("\n");
    expect(
      text
        .split("\r")
        .filter(Boolean)
        .map((s) => s.slice(0, 3)),
    ).toEqual(["MSH", "PID", "PV1", "OBR", "OBX", "OBX", ...measurements.map(() => "OBX"), "OBX"]);
    const message = new Message({ text });
    expect(message.get("MSH.9.1").toString()).toBe("ORU");
    expect(message.get("MSH.9.2").toString()).toBe("R01");
    expect(message.get("MSH.12").toString()).toBe("2.5.1");
    expect(message.get("PID.3.1").toString()).toBe("MRN-0048213");
    expect(message.get("PID.5.1").toString()).toBe("O'Neil");
    expect(message.get("PID.5.2").toString()).toBe("Margaret");
    expect(message.get("PID.7").toString()).toBe("19501027");
    expect(message.get("OBR.25").toString()).toBe("F");
    expect(message.get("OBR.24").toString()).toBe("VUS");

    const segments = text.split("\r").filter((s) => s.startsWith("OBX"));
    const obx = segments.map((s) => new Message({ text: `${text.split("\r")[0]}\r${s}\r` }));
    expect(obx[1]!.get("OBX.3.1").toString()).toBe("19005-8");
    const psv = obx[2]!;
    expect(psv.get("OBX.2").toString()).toBe("NM");
    expect(psv.get("OBX.3.1").toString()).toBe("11726-7");
    expect(psv.get("OBX.3.3").toString()).toBe("LN");
    expect(psv.get("OBX.3.4").toString()).toBe("PSV");
    expect(psv.get("OBX.4").toString()).toBe("ICA_PROX:left");
    expect(psv.get("OBX.5").toString()).toBe("262");
    expect(psv.get("OBX.6.1").toString()).toBe("cm/s");
    expect(psv.get("OBX.6.3").toString()).toBe("UCUM");
    expect(psv.get("OBX.11").toString()).toBe("F");
    const pdfObx = obx[obx.length - 1]!;
    expect(pdfObx.get("OBX.2").toString()).toBe("ED");
    expect(pdfObx.get("OBX.5.4").toString()).toBe("Base64");
    const pdf = Buffer.from(pdfObx.get("OBX.5.5").toString(), "base64");
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("escapes the delimiters in text so that the parser gives back what was written", async () => {
    const text = (await hl7(ids.awkward)).body;
    expect(text).toContain("\\F\\");
    expect(text).toContain("\\S\\");
    expect(text).toContain("\\T\\");
    expect(text).toContain("\\R\\");
    expect(text).toContain("\\E\\");
    const message = new Message({ text });
    // The name's last word is the family name; the rest are given names.
    expect(`${message.get("PID.5.2").toString()} ${message.get("PID.5.1").toString()}`).toBe(
      "Anne|Marie ^O'Neil & Sons~\\",
    );
    // One-line fields lose their line breaks; the number of segments is unchanged by the text.
    expect(message.get("OBR.13").toString()).toBe("Bruit | left ^ side & more ~ text \\ end second line");
    expect(text.split("\r").filter(Boolean)).toHaveLength(4 + 2 + measurements.length + 1);
  });

  it("says C (corrected) for a signed amendment and P for a draft; another clinic's report is a 404", async () => {
    expect(new Message({ text: (await hl7(ids.amended)).body }).get("OBR.25").toString()).toBe("C");
    expect(new Message({ text: (await hl7(ids.draft)).body }).get("OBR.25").toString()).toBe("P");
    expect((await hl7(ids.otherReport)).statusCode).toBe(404);
  });
});

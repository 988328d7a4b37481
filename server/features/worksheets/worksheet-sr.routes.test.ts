import path from "node:path";
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OcrMeasurement, OcrResult } from "../../../domain/contracts/ocr";
import { auditEvents, storedFiles, worksheets } from "../../db/schema";
import { shutdownOcr } from "../../ocr/ocr-service";
import { CODES, carotidSr, ultrasoundImage, vascularSr } from "../../test-support/dicom-sr-files";
import { as, createTestApp, multipart, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { filesOnDisk, fixture } from "./worksheet-test-files";

// Issue 28 item 5: the machine's DICOM SR beside the worksheet of the same study, POST /api/worksheets/{id}/dicom-sr.

let t: TestApp;
let owner: SignedIn;
let stranger: SignedIn;
/** ws-clean-003 (Mei Thompson, venous) uploaded and read by OCR, and what OCR read. */
let worksheetId: number;
let sheetReading: OcrResult;

const cfv = ["SCT", "397363009", "Common femoral vein"] as const;
const reflux = ["99VENDOR", "RFX-T", "Reflux time"] as const;

/** The machine's SR of ws-clean-003's study: the right CFV diameter as measured (5.3 mm), and a vendor-coded reflux. */
const venousSr = (patient: { name?: string; birthDate?: string } = {}) =>
  vascularSr({
    patientName: patient.name ?? "Thompson^Mei",
    birthDate: patient.birthDate ?? "19921230",
    patientId: "MRN7970734",
    studyDate: "20200818",
    sections: [
      {
        laterality: CODES.right,
        groups: [
          {
            vessel: cfv,
            values: [
              { code: CODES.lumenDiameter, value: 5.3, unit: "mm" },
              { code: reflux, value: 3.5, unit: "s" },
            ],
          },
        ],
      },
    ],
  });

const addSr = (user: SignedIn, id: number, data: Buffer, samePatient?: string) =>
  as(
    t.app,
    user,
  )({
    method: "POST",
    url: `/api/worksheets/${id}/dicom-sr`,
    ...multipart([
      { name: "dicomSr", filename: "study.dcm", contentType: "application/dicom", data },
      ...(samePatient ? [{ name: "samePatient", value: samePatient }] : []),
    ]),
  });

async function stored() {
  const { db } = t.deps.database;
  const [files] = await db.select({ n: count() }).from(storedFiles);
  return { files: files!.n, onDisk: filesOnDisk(path.join(t.dataDir, "files")) };
}

/** Another worksheet with the same page and reading, as the OCR job stores it (no second OCR run). */
async function readWorksheet(status: "completed" | "pending" = "completed"): Promise<number> {
  const { db } = t.deps.database;
  const [row] = await db.select().from(worksheets).where(eq(worksheets.id, worksheetId));
  const { id: _id, srFileId: _sr, ...copy } = row!;
  const [inserted] = await db
    .insert(worksheets)
    .values({ ...copy, ocrStatus: status, ocrResult: status === "completed" ? sheetReading : null })
    .returning();
  return inserted!.id;
}

const keyOf = (m: OcrMeasurement) => `${m.site} ${m.side} ${m.parameter} ${m.value} ${m.source ?? "OCR"}`;

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerClinic(t.app, "Owner Clinic");
  stranger = await registerClinic(t.app, "Other Clinic");
  const body = multipart([
    { name: "worksheet", filename: "ws.png", contentType: "image/png", data: await fixture("ws-clean-003.png") },
  ]);
  const res = await as(t.app, owner)({ method: "POST", url: "/api/worksheets/upload", ...body });
  worksheetId = res.json().id;
  const ocr = await as(t.app, owner)({ method: "POST", url: `/api/worksheets/${worksheetId}/ocr` });
  expect(ocr.statusCode, ocr.body).toBe(200);
  sheetReading = ocr.json().ocrResult;
}, 180_000);

afterAll(async () => {
  await t?.close();
  await shutdownOcr();
});

describe("a DICOM SR added beside a read worksheet", () => {
  it("merges into one reading: the SR's values win, the sheet's fill the rest; kept, and merged again on a new OCR run", async () => {
    const sheetCfv = sheetReading.measurements.find(
      (m) => m.site === "CFV" && m.side === "right" && m.parameter === "DIAMETER_MM",
    );
    // OCR read 5.1 from the sheet; the machine measured 5.3.
    expect(sheetCfv?.value).toBe(5.1);
    const res = await addSr(owner, worksheetId, venousSr());
    expect(res.statusCode, res.body).toBe(200);
    const merged: OcrResult = res.json().ocrResult;
    const keys = merged.measurements.map(keyOf);
    expect(keys).toContain("CFV right DIAMETER_MM 5.3 DICOM SR");
    expect(keys).not.toContain("CFV right DIAMETER_MM 5.1 OCR");
    // Reflux times come from the sheet (the SR's is vendor-coded, named in the notes rather than guessed).
    expect(keys).toContain("CFV right REFLUX_MS 3500 OCR");
    expect(merged.measurements).toHaveLength(sheetReading.measurements.length);
    expect(merged).toMatchObject({
      source: "worksheet",
      patientName: "Mei Thompson",
      patientDob: "1992-12-30",
      fields: { patientName: { source: "DICOM SR" }, mrn: { value: "MRN7970734", source: "DICOM SR" } },
      machineSr: {
        manufacturer: "Sonoscribe test",
        studyDate: "2020-08-18",
        measurements: 1,
        unrecognised: ["Reflux time"],
      },
    });
    expect(merged.notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/For 1 measurement the worksheet was read with another value/),
        expect.stringMatching(/1 measurement in the structured report was not recognised and left out: Reflux time/),
      ]),
    );

    const detail = await as(t.app, owner)({ method: "GET", url: `/api/worksheets/${worksheetId}` });
    expect(detail.json().ocrResult).toEqual(merged);

    const again = await as(t.app, owner)({ method: "POST", url: `/api/worksheets/${worksheetId}/ocr` });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().ocrResult.measurements.map(keyOf)).toContain("CFV right DIAMETER_MM 5.3 DICOM SR");

    const second = await addSr(owner, worksheetId, venousSr());
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toMatch(/already added/);
  }, 180_000);

  it("refuses an SR of another patient in words, stores nothing, and merges once the clinician confirms it is the same", async () => {
    const id = await readWorksheet();
    const before = await stored();
    const res = await addSr(owner, id, venousSr({ birthDate: "19500101" }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      field: "samePatient",
      error:
        'The structured report may be of another patient: date of birth "1950-01-01" in the structured report, "1992-12-30" on the worksheet. Check that both are from the same study. Nothing was added.',
    });
    expect(await stored()).toEqual(before);
    const { db } = t.deps.database;
    const [row] = await db.select().from(worksheets).where(eq(worksheets.id, id));
    expect(row!.srFileId).toBeNull();

    const confirmed = await addSr(owner, id, venousSr({ birthDate: "19500101" }), "yes");
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().ocrResult.notes[0]).toMatch(
      /They were confirmed as the same patient; check before signing/,
    );
    const audit = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "worksheet.dicom_sr_added"), eq(auditEvents.entityId, String(id))));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toMatchObject({ patientMismatchConfirmed: ["patientDob"] });
    // The audit names the field only, never the patient's values.
    expect(JSON.stringify(audit[0]!.details)).not.toMatch(/1950|1992|Thompson/);
  });

  it("refuses what cannot be merged, in words, and answers another clinic 404", async () => {
    const id = await readWorksheet();
    const png = await addSr(owner, id, await fixture("ws-clean-003.png"));
    expect(png.statusCode).toBe(415);
    expect(png.json().error).toMatch(/not a DICOM file/);
    const image = await addSr(owner, id, ultrasoundImage());
    expect(image.statusCode).toBe(400);
    expect(image.json().error).toMatch(/not a Structured Report/);

    const unread = await readWorksheet("pending");
    const early = await addSr(owner, unread, venousSr());
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toMatch(/has not been read/);

    const srUpload = await as(
      t.app,
      owner,
    )({
      method: "POST",
      url: "/api/worksheets/upload",
      ...multipart([{ name: "worksheet", filename: "a.dcm", contentType: "application/dicom", data: carotidSr() }]),
    });
    const onSr = await addSr(owner, srUpload.json().id, carotidSr());
    expect(onSr.statusCode).toBe(400);
    expect(onSr.json().error).toMatch(/itself a structured report/);

    expect((await addSr(stranger, id, venousSr())).statusCode).toBe(404);
  });
});

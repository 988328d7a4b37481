import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OcrResult } from "../../../domain/contracts/ocr";
import { ocrCorrections, ocrLabelAliases, ocrReviews, worksheets, worksheetTemplates } from "../../db/schema";
import type { FormLayout } from "../../ocr/templates/propose-zones";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { saveFile } from "../files/files.service";
import { insertPhysician, ocrResult } from "../reports/report-test-fixtures";
import { activeAliasesOf, ZONE_NOTICE } from "./reading-corrections.service";

let t: TestApp;
let a: SignedIn;
let b: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  a = await registerClinic(t.app, "Clinic A");
  b = await registerClinic(t.app, "Clinic B");
});
afterAll(async () => {
  await t?.close();
});

const NAME_BOX = { page: 0, x: 60, y: 20, width: 100, height: 20 };

/** A sheet whose name stood after a label the reader did not know ("Client:"), so it read no name. */
function unknownLabelReading(overrides: Partial<OcrResult> = {}): OcrResult {
  const base = ocrResult();
  return ocrResult({
    patientName: null,
    fields: { ...base.fields, patientName: { value: null, confidence: 0, box: NAME_BOX } },
    text: "HILLCREST VASCULAR\nClient: Ashley R. Lewis\nDOB: 02/04/1950 Exam date: 15/03/2024",
    ...overrides,
  });
}

/** A worksheet row with a 300 x 200 page image, as the OCR pipeline would leave it. */
async function insertWorksheet(clinicId: number, ocr: OcrResult) {
  const image = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#fff" } })
    .png()
    .toBuffer();
  const file = await saveFile(t.deps.database.db, t.deps.fileStore, {
    clinicId,
    kind: "worksheet",
    data: image,
    mimeType: "image/png",
  });
  const [row] = await t.deps.database.db
    .insert(worksheets)
    .values({
      clinicId,
      filename: "ws.png",
      originalName: "ws.png",
      fileUrl: file.url,
      fileId: file.id,
      imageFileId: file.id,
      patientName: ocr.patientName,
      patientDob: ocr.patientDob,
      examDate: ocr.examDate,
      scanType: ocr.scanType,
      ocrProcessed: true,
      ocrStatus: "completed",
      ocrResult: ocr,
    })
    .returning();
  return row!;
}

async function generate(user: SignedIn, worksheetId: number, patientName: string) {
  const physician = await insertPhysician(t, user.clinicId);
  const res = await as(
    t.app,
    user,
  )({
    method: "POST",
    url: "/api/reports/generate",
    payload: {
      worksheetId,
      physicianId: physician.id,
      patient: { patientName, patientDob: "1950-04-02", examDate: "2024-03-15" },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
}

const reviewsOf = (worksheetId: number) =>
  t.deps.database.db.select().from(ocrReviews).where(eq(ocrReviews.worksheetId, worksheetId));
const aliasRow = (clinicId: number, wording: string) =>
  t.deps.database.db
    .select()
    .from(ocrLabelAliases)
    .where(and(eq(ocrLabelAliases.clinicId, clinicId), eq(ocrLabelAliases.wording, wording)));

describe("learning from a clinician's corrections before generating", () => {
  it("keeps the corrected field sealed with its crop, and learns the label wording for the clinic", async () => {
    const ws = await insertWorksheet(a.clinicId, unknownLabelReading());
    await generate(a, ws.id, "Ashley R. Lewis");
    const [review] = await reviewsOf(ws.id);
    expect(review).toMatchObject({ clinicId: a.clinicId, correctedFields: ["patientName"] });
    const [correction] = await t.deps.database.db
      .select()
      .from(ocrCorrections)
      .where(eq(ocrCorrections.reviewId, review!.id));
    expect(correction).toMatchObject({ field: "patientName", labelWording: "client", clinicId: a.clinicId });
    // Patient data only sealed: the row does not hold the name in the clear.
    expect(correction!.sealed).not.toMatch(/Ashley|Lewis/);
    const opened = JSON.parse(t.deps.fileStore.decrypt(Buffer.from(correction!.sealed, "base64")).toString());
    expect(opened).toMatchObject({ read: null, corrected: "Ashley R. Lewis", box: NAME_BOX });
    const crop = await sharp(Buffer.from(opened.crop, "base64")).metadata();
    expect([crop.width, crop.height]).toEqual([120, 40]); // the box and half its height around it
    expect(await activeAliasesOf(t.deps.database.db, a.clinicId)).toEqual([
      { wording: "client", field: "patientName" },
    ]);
  });

  it("never gives one clinic's wordings or corrections to another", async () => {
    expect(await activeAliasesOf(t.deps.database.db, b.clinicId)).toEqual([]);
    const ws = await insertWorksheet(b.clinicId, unknownLabelReading());
    await generate(b, ws.id, "Ashley R. Lewis");
    // B learns its own alias; A's count is not B's.
    expect((await aliasRow(a.clinicId, "client"))[0]!.seen).toBe(1);
    expect((await aliasRow(b.clinicId, "client"))[0]!.seen).toBe(1);
    // A clinic cannot generate from (and so correct) another clinic's worksheet.
    const foreign = await insertWorksheet(a.clinicId, unknownLabelReading());
    const physician = await insertPhysician(t, b.clinicId);
    const res = await as(
      t.app,
      b,
    )({
      method: "POST",
      url: "/api/reports/generate",
      payload: { worksheetId: foreign.id, physicianId: physician.id, patient: { patientName: "X Y" } },
    });
    expect(res.statusCode).toBe(404);
    expect(await reviewsOf(foreign.id)).toEqual([]);
  });

  it("keeps one review per worksheet: a second report from it teaches nothing more", async () => {
    const ws = await insertWorksheet(a.clinicId, unknownLabelReading());
    await generate(a, ws.id, "Ashley R. Lewis");
    await generate(a, ws.id, "Someone Else");
    expect(await reviewsOf(ws.id)).toHaveLength(1);
    expect((await aliasRow(a.clinicId, "client"))[0]!.seen).toBe(2);
  });

  it("records a checked sheet with nothing corrected, and learns no wording the lexicon has for the field", async () => {
    const read = ocrResult({ text: "Patient Name: Jane Roe" });
    const ws = await insertWorksheet(a.clinicId, read);
    await generate(a, ws.id, "Jane Roe");
    expect((await reviewsOf(ws.id))[0]!.correctedFields).toEqual([]);
    const misread = await insertWorksheet(a.clinicId, ocrResult({ text: "Patient Name: Jane Rce" }));
    await generate(a, misread.id, "Jane Roe");
    expect(await aliasRow(a.clinicId, "patientname")).toEqual([]);
  });
});

describe("a reading zone that keeps being corrected", () => {
  const layout: FormLayout = {
    width: 300,
    height: 200,
    anchors: [],
    zones: [
      { id: "f-patient-name", kind: "field", field: "patientName", x: 50, y: 10, width: 200, height: 40 },
      { id: "f-mrn", kind: "field", field: "mrn", x: 50, y: 60, width: 200, height: 40 },
    ],
  };
  let templateId: number;

  beforeAll(async () => {
    const [row] = await t.deps.database.db
      .insert(worksheetTemplates)
      .values({ clinicId: a.clinicId, name: "Our form", originalFilename: "blank.png", readingLayout: layout })
      .returning();
    templateId = row!.id;
  });

  const zones = (user: SignedIn) =>
    as(t.app, user)({ method: "GET", url: `/api/worksheet-templates/${templateId}/zones` });
  const byTemplate = () => unknownLabelReading({ layout: "template", worksheetTemplateId: templateId });

  it(`is offered to the admin once corrected on ${ZONE_NOTICE.corrected} of the form's last ${ZONE_NOTICE.last} sheets`, async () => {
    for (let i = 0; i < ZONE_NOTICE.corrected; i++) {
      expect((await zones(a)).json().corrections).toEqual([]);
      await generate(a, (await insertWorksheet(a.clinicId, byTemplate())).id, "Ashley R. Lewis");
    }
    const res = await zones(a);
    expect(res.json().corrections).toEqual([
      { zoneId: "f-patient-name", field: "patientName", corrected: ZONE_NOTICE.corrected, of: ZONE_NOTICE.corrected },
    ]);
    const list = await as(t.app, a)({ method: "GET", url: "/api/worksheet-templates" });
    expect(list.json().find((w: { id: number }) => w.id === templateId).zonesToCheck).toBe(1);
    // Another clinic sees neither the form nor its notices.
    expect((await zones(b)).statusCode).toBe(404);
    const theirs = await as(t.app, b)({ method: "GET", url: "/api/worksheet-templates" });
    expect(theirs.json().some((w: { id: number }) => w.id === templateId)).toBe(false);
  });

  it("is no longer offered once the admin has saved the zones (earlier corrections no longer count)", async () => {
    const saved = await as(
      t.app,
      a,
    )({
      method: "PUT",
      url: `/api/worksheet-templates/${templateId}/zones`,
      payload: { zones: layout.zones },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await zones(a)).json().corrections).toEqual([]);
  });
});

import type { FastifyInstance } from "fastify";
import { type OcrResult, unreadHeaderFields } from "../../../domain/contracts/ocr";
import type { Report } from "../../../domain/contracts/reports";
import { legendEntries, physicians, worksheets } from "../../db/schema";
import { addClinicMember } from "../../test-support/signing";
import { as, type SignedIn, type TestApp } from "../../test-support/test-app";
import { saveFile } from "../files/files.service";

// Test data for the reports tests: rows inserted directly, so these tests do not depend on the OCR
// pipeline or on other features' routes.

const PNG_1PX = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

export async function insertPhysician(t: TestApp, clinicId: number, name = "Dr. Grace Hopper") {
  const [row] = await t.deps.database.db
    .insert(physicians)
    .values({ clinicId, name, title: "MD", specialty: "Vascular Surgeon", signatureUrl: null })
    .returning();
  return row!;
}

export function ocrResult(overrides: Partial<OcrResult> = {}): OcrResult {
  const field = (value: string | null) => ({ value, confidence: 0.9, box: null });
  return {
    patientName: "Jane Roe",
    patientDob: "1950-04-02",
    examDate: "2024-03-15",
    confidence: 0.9,
    scanType: "Carotid Duplex",
    fields: {
      patientName: field("Jane Roe"),
      patientDob: field("1950-04-02"),
      examDate: field("2024-03-15"),
      ...unreadHeaderFields(),
    },
    measurements: [
      {
        site: "ICA_PROX",
        side: "right",
        parameter: "PSV",
        value: 250,
        unit: "cm/s",
        confidence: 0.9,
        text: "250",
        box: null,
      },
      {
        site: "ICA_PROX",
        side: "right",
        parameter: "EDV",
        value: 60,
        unit: "cm/s",
        confidence: 0.9,
        text: "60",
        box: null,
      },
      {
        site: "ICA_PROX",
        side: "left",
        parameter: "PSV",
        value: 80,
        unit: "cm/s",
        confidence: 0.9,
        text: "80",
        box: null,
      },
    ],
    pageCount: 1,
    text: "CAROTID DUPLEX Name Jane Roe right ICA 250 60 left ICA 80 Calcified plaque noted",
    worksheetTemplateId: null,
    layout: "general",
    ...overrides,
  };
}

/** A worksheet row with a stored image and an OCR result, as the OCR pipeline would leave it. */
export async function insertWorksheet(t: TestApp, clinicId: number, ocr: OcrResult | null = ocrResult()) {
  const file = await saveFile(t.deps.database.db, t.deps.fileStore, {
    clinicId,
    kind: "worksheet",
    data: PNG_1PX,
    mimeType: "image/png",
    originalName: "ws.png",
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
      patientName: ocr?.patientName ?? null,
      patientDob: ocr?.patientDob ?? null,
      examDate: ocr?.examDate ?? null,
      scanType: ocr?.scanType ?? null,
      ocrProcessed: ocr !== null,
      ocrStatus: ocr ? "completed" : "pending",
      ocrResult: ocr,
    })
    .returning();
  return row!;
}

export async function insertLegendEntry(
  t: TestApp,
  clinicId: number,
  values: { title: string; medicalMeaning: string; keywords: string; isActive?: boolean },
) {
  await t.deps.database.db.insert(legendEntries).values({ clinicId, ...values });
}

/** A second member of the clinic with the sonographer role, signed in. */
export function addSonographer(t: TestApp, clinicId: number): Promise<SignedIn> {
  return addClinicMember(t, clinicId, "sonographer", { firstName: "Sam", lastName: "Sonographer" });
}

/** Generates a report through the API from a fresh worksheet of the user's clinic. */
export async function generate(
  app: FastifyInstance,
  t: TestApp,
  user: SignedIn,
  body: Record<string, unknown> = {},
): Promise<Report> {
  const physician = await insertPhysician(t, user.clinicId);
  const worksheet = await insertWorksheet(t, user.clinicId);
  const res = await as(
    app,
    user,
  )({
    method: "POST",
    url: "/api/reports/generate",
    payload: { worksheetId: worksheet.id, physicianId: physician.id, logoUrl: null, ...body },
  });
  if (res.statusCode !== 201) throw new Error(`generate failed: ${res.statusCode} ${res.body}`);
  return res.json() as Report;
}

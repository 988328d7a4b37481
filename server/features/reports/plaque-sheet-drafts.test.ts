import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OcrResult } from "../../../domain/contracts/ocr";
import type { Report } from "../../../domain/contracts/reports";
import { plaqueCharacterWords } from "../../../domain/report-engine/value-format";
import type { PlaqueCharacter } from "../../../domain/vocabulary/study-terms";
import { rowsFromOcr, toStudyMeasurements } from "../../../web/src/features/upload/measurement-rows";
import { shutdownOcr } from "../../ocr/ocr-service";
import { as, createTestApp, multipart, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { insertPhysician } from "./report-test-fixtures";

// Sheets with plaque check boxes (bench/worksheets/generate-varied.mjs --seed 501 --plaque: a clean printed one with
// ticks in squares, a phone photo with crosses in printed "☐") through upload, OCR and generate over HTTP, the way
// the Upload view does it (it sends the checked measurements, no observations): the ticked characters must reach
// the draft's Findings with their side and vessel, and nothing unticked.

const dir = path.join(import.meta.dirname, "../../../fixtures/worksheets-plaque");
const sheets = [
  { file: "ws-clean-000.png", contentType: "image/png" },
  { file: "ws-noisy-023.jpg", contentType: "image/jpeg" },
];
type Truth = { plaque: { site: string; side: "left" | "right"; finding: PlaqueCharacter }[] };
const outcomes: { file: string; truth: Truth; ocr: OcrResult; report: Report }[] = [];

let t: TestApp;
let owner: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerClinic(t.app, "Plaque Clinic");
  const physicianId = (await insertPhysician(t, owner.clinicId)).id;
  const call = as(t.app, owner);
  for (const { file, contentType } of sheets) {
    const data = await readFile(path.join(dir, file));
    const truth = JSON.parse(await readFile(path.join(dir, file.replace(/\.\w+$/, ".json")), "utf8")) as Truth;
    const upload = await call({
      method: "POST",
      url: "/api/worksheets/upload",
      ...multipart([{ name: "worksheet", filename: file, contentType, data }]),
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const worksheetId = upload.json().id as number;
    const read = await call({ method: "POST", url: `/api/worksheets/${worksheetId}/ocr` });
    expect(read.statusCode, read.body).toBe(200);
    const ocr = read.json().ocrResult as OcrResult;
    const generated = await call({
      method: "POST",
      url: "/api/reports/generate",
      payload: {
        worksheetId,
        physicianId,
        logoUrl: null,
        scanType: "Carotid Duplex",
        measurements: toStudyMeasurements(rowsFromOcr(ocr.measurements)),
        patient: { patientName: ocr.patientName ?? "", patientDob: ocr.patientDob ?? "", examDate: ocr.examDate ?? "" },
      },
    });
    expect(generated.statusCode, generated.body).toBe(201);
    outcomes.push({ file, truth, ocr, report: generated.json() as Report });
  }
}, 600_000);

afterAll(async () => {
  await t?.close();
  await shutdownOcr();
});

const key = (o: { site: string; side: string | null; finding: string }) => `${o.site}|${o.side}|${o.finding}`;

describe("plaque check boxes reach the draft", () => {
  it("reads exactly the ticked boxes, with side and vessel, as observations", () => {
    expect(outcomes).toHaveLength(sheets.length);
    for (const { file, truth, ocr } of outcomes) {
      expect((ocr.observations ?? []).map(key).sort(), file).toEqual(truth.plaque.map(key).sort());
      for (const o of ocr.observations ?? []) expect(o.confidence, file).toBeGreaterThan(0.5);
    }
  });

  it("describes each ticked character in Findings, on the line of its side's vessel", () => {
    for (const { file, truth, report } of outcomes) {
      const lines = report.findings.split("\n");
      for (const o of truth.plaque) {
        const word = plaqueCharacterWords[o.finding];
        const line = lines.find((l) => l.toLowerCase().includes(word) && l.toLowerCase().includes(o.side));
        expect(line, `${file}: ${key(o)} in\n${report.findings}`).toBeDefined();
        expect(line!.toLowerCase(), file).toContain("plaque");
      }
    }
  });
});

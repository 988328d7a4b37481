import path from "node:path";
import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storedFiles, worksheets } from "../../db/schema";
import { CODES, carotidSr, ultrasoundImage, vascularSr } from "../../test-support/dicom-sr-files";
import { as, createTestApp, multipart, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { insertPhysician } from "../reports/report-test-fixtures";
import { filesOnDisk } from "./worksheet-test-files";

// Issue 28 item 5: an ultrasound machine's DICOM SR through the worksheet upload, into the checking table's
// reading and on to a report.

let t: TestApp;
let owner: SignedIn;
let stranger: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerClinic(t.app, "Owner Clinic");
  stranger = await registerClinic(t.app, "Other Clinic");
});

afterAll(async () => {
  await t?.close();
});

const upload = (user: SignedIn, data: Buffer, filename = "study.dcm") =>
  as(
    t.app,
    user,
  )({
    method: "POST",
    url: "/api/worksheets/upload",
    ...multipart([{ name: "worksheet", filename, contentType: "application/dicom", data }]),
  });

async function stored() {
  const { db } = t.deps.database;
  const [files] = await db.select({ n: count() }).from(storedFiles);
  const [sheets] = await db.select({ n: count() }).from(worksheets);
  return { files: files!.n, worksheets: sheets!.n, onDisk: filesOnDisk(path.join(t.dataDir, "files")) };
}

describe("a DICOM SR uploaded instead of the worksheet", () => {
  it("is stored as the original only and read into the checking table with source DICOM SR", async () => {
    const before = await stored();
    const res = await upload(owner, carotidSr());
    expect(res.statusCode, res.body).toBe(201);
    const record = res.json();
    expect(record).toMatchObject({ kind: "dicom-sr", pageCount: 0, ocrStatus: "pending", originalName: "study.dcm" });
    const after = await stored();
    expect(after.files - before.files).toBe(1);
    expect(after.worksheets - before.worksheets).toBe(1);

    const ocr = await as(t.app, owner)({ method: "POST", url: `/api/worksheets/${record.id}/ocr` });
    expect(ocr.statusCode, ocr.body).toBe(200);
    const result = ocr.json().ocrResult;
    expect(result).toMatchObject({
      patientName: "Jane Q Doe",
      patientDob: "1948-03-12",
      examDate: "2025-03-01",
      scanType: "Carotid Duplex",
      source: "dicom-sr",
      pageCount: 0,
    });
    expect(result.measurements).toHaveLength(7);
    for (const m of result.measurements) expect(m).toMatchObject({ confidence: 1, source: "DICOM SR", box: null });
    expect(result.measurements[1]).toMatchObject({ site: "ICA_PROX", side: "right", parameter: "PSV", value: 245 });

    // Kept with the worksheet and read back the same; no page image exists.
    const detail = await as(t.app, owner)({ method: "GET", url: `/api/worksheets/${record.id}` });
    expect(detail.json()).toMatchObject({
      kind: "dicom-sr",
      ocrStatus: "completed",
      ocrResult: { source: "dicom-sr" },
    });
    const image = await as(t.app, owner)({ method: "GET", url: `/api/worksheets/${record.id}/image` });
    expect(image.statusCode).toBe(404);
  });

  it("drafts a report from the SR's measurements", async () => {
    const record = (await upload(owner, carotidSr())).json();
    const { ocrResult } = (await as(t.app, owner)({ method: "POST", url: `/api/worksheets/${record.id}/ocr` })).json();
    const physician = await insertPhysician(t, owner.clinicId);
    const res = await as(
      t.app,
      owner,
    )({
      method: "POST",
      url: "/api/reports/generate",
      payload: {
        worksheetId: record.id,
        physicianId: physician.id,
        logoUrl: null,
        scanType: "Carotid Duplex",
        measurements: ocrResult.measurements,
        patient: { patientName: ocrResult.patientName, patientDob: ocrResult.patientDob, examDate: ocrResult.examDate },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const report = res.json();
    expect(report.patientName).toBe("Jane Q Doe");
    // 2.45 m/s in the SR reached the report in the criteria's unit.
    expect(report.impression).toMatch(/right/i);
    expect(report.findings).toMatch(/245 cm\/s/);
  });

  it("refuses a DICOM that is not a structured report, or one with no vascular measurements, and stores nothing", async () => {
    const before = await stored();
    const image = await upload(owner, ultrasoundImage(), "frame.dcm");
    expect(image.statusCode).toBe(400);
    expect(image.json()).toMatchObject({ field: "worksheet", error: expect.stringMatching(/not a Structured Report/) });
    const empty = await upload(owner, vascularSr({ sections: [{ laterality: CODES.right, groups: [] }] }));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toMatch(/no vascular ultrasound measurements/);
    const damaged = await upload(owner, carotidSr().subarray(0, 300));
    expect(damaged.statusCode).toBe(400);
    expect(damaged.json().error).toMatch(/could not be read as DICOM/);
    expect(await stored()).toEqual(before);
  });

  it("answers 404 to another clinic, for the record and for reading it", async () => {
    const record = (await upload(owner, carotidSr())).json();
    for (const [method, suffix] of [
      ["GET", ""],
      ["POST", "/ocr"],
    ] as const) {
      const res = await as(t.app, stranger)({ method, url: `/api/worksheets/${record.id}${suffix}` });
      expect(res.statusCode).toBe(404);
    }
  });
});

describe("a clinic's vendor codes configured (DICOM_SR_PARAMETER_CODES)", () => {
  let configured: TestApp;
  afterAll(async () => {
    await configured?.close();
  });

  it("are read by the upload's SR reading into the vocabulary's parameter", async () => {
    configured = await createTestApp({ DICOM_SR_PARAMETER_CODES: "99VENDOR:RFX-T=REFLUX_MS" });
    const user = await registerClinic(configured.app, "Vendor Clinic");
    const gsv = ["SCT", "60734001", "Great saphenous vein"] as const;
    const sr = vascularSr({
      sections: [
        {
          laterality: CODES.left,
          groups: [{ vessel: gsv, values: [{ code: ["99VENDOR", "RFX-T", "Reflux time"], value: 2.4, unit: "s" }] }],
        },
      ],
    });
    const res = await as(
      configured.app,
      user,
    )({
      method: "POST",
      url: "/api/worksheets/upload",
      ...multipart([{ name: "worksheet", filename: "v.dcm", contentType: "application/dicom", data: sr }]),
    });
    // Without the configuration this SR has no measurement the product reads, and is refused at upload.
    expect(res.statusCode, res.body).toBe(201);
    const ocr = await as(configured.app, user)({ method: "POST", url: `/api/worksheets/${res.json().id}/ocr` });
    expect(ocr.json().ocrResult.measurements).toMatchObject([
      { site: "GSV", side: "left", parameter: "REFLUX_MS", value: 2400, source: "DICOM SR" },
    ]);
  });
});

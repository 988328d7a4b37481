import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { docxFileNameFromPreview } from "../domain/exports/file-names";
import { reports, worksheets } from "./db/schema";
import { insertPhysician } from "./features/reports/report-test-fixtures";
import { fixture, type GroundTruth, groundTruth } from "./features/worksheets/worksheet-test-files";
import { shutdownOcr } from "./ocr/ocr-service";
import { createLogger } from "./platform/logger";
import { as, createTestApp, multipart, registerClinic, type SignedIn, type TestApp } from "./test-support/test-app";

/** Everything the server logs, at the most talkative level, kept in memory for scanning. */
class CapturedLog extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.lines.push(chunk.toString("utf8"));
    done();
  }
  get text() {
    return this.lines.join("");
  }
}

/** The ways a name and a date of birth could show up in a log line. */
function patientIdentifiers(truth: GroundTruth): string[] {
  const [year, month, day] = truth.patientDob.split("-");
  const nameParts = truth.patientName.split(/[\s,]+/).filter((part) => part.length > 2);
  return [
    truth.patientName,
    ...nameParts,
    truth.patientDob,
    `${month}/${day}/${year}`,
    `${day}-${month}-${year}`,
    `${day}/${month}/${year}`,
  ];
}

const found = (log: string, needles: string[]) => needles.filter((n) => log.toLowerCase().includes(n.toLowerCase()));

describe("privacy", () => {
  const log = new CapturedLog();
  let t: TestApp;
  let owner: SignedIn;
  let truth: GroundTruth;
  let worksheetId: number;
  let reportId: number;
  const responses: Record<string, { headers: Record<string, unknown>; statusCode: number }> = {};

  beforeAll(async () => {
    t = await createTestApp({}, { logger: createLogger("trace", log) });
    truth = await groundTruth("ws-clean-000");
    owner = await registerClinic(t.app, "Privacy Clinic");
    const request = as(t.app, owner);
    const physician = await insertPhysician(t, owner.clinicId);

    const upload = await request({
      method: "POST",
      url: "/api/worksheets/upload",
      ...multipart([
        // People name scans after the patient: the file name must not reach the logs either.
        {
          name: "worksheet",
          filename: `${truth.patientName} ${truth.patientDob}.png`,
          contentType: "image/png",
          data: await fixture("ws-clean-000.png"),
        },
      ]),
    });
    expect(upload.statusCode, upload.body).toBe(201);
    worksheetId = upload.json().id;
    const ocr = await request({ method: "POST", url: `/api/worksheets/${worksheetId}/ocr` });
    expect(ocr.statusCode, ocr.body).toBe(200);
    await request({ method: "GET", url: `/api/worksheets/${worksheetId}` });
    const generated = await request({
      method: "POST",
      url: "/api/reports/generate",
      payload: { worksheetId, physicianId: physician.id },
    });
    expect(generated.statusCode, generated.body).toBe(201);
    reportId = generated.json().id;
    await request({ method: "PATCH", url: `/api/reports/${reportId}`, payload: { impression: "Edited impression." } });

    const [row] = await t.deps.database.db.select().from(worksheets).where(eq(worksheets.id, worksheetId));
    const served: Record<string, string> = {
      image: `/api/worksheets/${worksheetId}/image`,
      file: `/api/files/${row!.fileId}`,
      print: `/api/reports/${reportId}/pdf`,
      pdf: `/api/reports/${reportId}/pdf-file`,
      docx: `/api/reports/${reportId}/docx`,
    };
    for (const [name, url] of Object.entries(served)) {
      const res = await request({ method: "GET", url });
      responses[name] = { headers: res.headers, statusCode: res.statusCode };
    }
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await shutdownOcr();
  });

  it("the journey read the fixture's patient (the scan below is not vacuous)", async () => {
    const [row] = await t.deps.database.db.select().from(reports).where(eq(reports.id, reportId));
    expect(row?.patientName).toBe(truth.patientName);
    expect(row?.patientDob).toBe(truth.patientDob);
    // Requests were logged at trace level: the capture works.
    expect(log.lines.length).toBeGreaterThan(20);
    expect(log.text).toContain(`/api/reports/${reportId}`);
  });

  it("logs no patient name or date of birth anywhere", () => {
    expect(found(log.text, patientIdentifiers(truth))).toEqual([]);
  });

  it("serves the worksheet image, stored files and exports with nosniff and no-store", () => {
    for (const [name, res] of Object.entries(responses)) {
      expect(res.statusCode, name).toBe(200);
      expect(res.headers["x-content-type-options"], name).toBe("nosniff");
      expect(String(res.headers["cache-control"]), name).toMatch(/no-store/);
    }
  });

  // Query strings reach the request log line (req.url): a search is typed with the patient's name.
  it("keeps a searched patient name out of the logs", async () => {
    const before = log.lines.length;
    const lastName = truth.patientName.split(",")[0]!;
    const res = await as(t.app, owner)({ method: "GET", url: `/api/reports?search=${encodeURIComponent(lastName)}` });
    expect(res.json().total).toBe(1);
    expect(found(log.lines.slice(before).join(""), patientIdentifiers(truth))).toEqual([]);
  });

  it("keeps a patient name given as a download name out of the logs", async () => {
    const before = log.lines.length;
    const filename = docxFileNameFromPreview(truth.patientName, truth.examDate);
    const res = await as(t.app, owner)({ method: "GET", url: `/api/reports/${reportId}/docx?filename=${filename}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-disposition"]).toContain(filename);
    expect(found(log.lines.slice(before).join(""), patientIdentifiers(truth))).toEqual([]);
  });

  describe("state-changing requests from another origin", () => {
    const cases: Array<[string, () => InjectOptions]> = [
      ["edit a report", () => ({ method: "PATCH", url: `/api/reports/${reportId}`, payload: { impression: "x" } })],
      ["finalize a report", () => ({ method: "POST", url: `/api/reports/${reportId}/finalize` })],
      ["delete a report", () => ({ method: "DELETE", url: `/api/reports/${reportId}` })],
      ["add a physician", () => ({ method: "POST", url: "/api/physicians", payload: { name: "Dr. Forged" } })],
      ["run OCR", () => ({ method: "POST", url: `/api/worksheets/${worksheetId}/ocr` })],
      [
        "invite staff",
        () => ({ method: "POST", url: "/api/invitations", payload: { email: "x@evil.test", role: "admin" } }),
      ],
      ["start two-factor setup", () => ({ method: "POST", url: "/api/auth/totp/setup" })],
    ];

    it.each(cases)("are refused: %s", async (_name, build) => {
      const request = build();
      const before = await t.deps.database.db.select().from(reports).where(eq(reports.id, reportId));
      for (const headers of [
        { origin: "https://evil.example" },
        { origin: "null" },
        { "sec-fetch-site": "cross-site" },
      ]) {
        const res = await as(t.app, owner)({ ...request, headers });
        expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      }
      const after = await t.deps.database.db.select().from(reports).where(eq(reports.id, reportId));
      expect(after).toEqual(before);
    });

    it("are accepted from the app's own origin (the refusal above is about the origin)", async () => {
      const res = await as(
        t.app,
        owner,
      )({
        method: "PATCH",
        url: `/api/reports/${reportId}`,
        payload: { indication: "Same-origin edit." },
        headers: { origin: "http://localhost:80", "sec-fetch-site": "same-origin" },
      });
      expect(res.statusCode, res.body).toBe(200);
    });
  });
});

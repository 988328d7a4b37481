import { readFile } from "node:fs/promises";
import path from "node:path";
import type { OcrResult } from "../../domain/contracts/ocr";
import type { Report } from "../../domain/contracts/reports";
import { scanTypes } from "../../domain/report-engine/vocabulary";
import { repoPath } from "../platform/repo-root";
import { AMENDMENTS, DEMO_WORKSHEETS, type DemoReportState, type DemoWorksheet } from "./demo-content";
import { call, SeedError, type SeedTransport } from "./seed-http";

export const FIXTURES_DIR = repoPath("fixtures", "worksheets");

/** POST .../ocr, and when the job outlasts the request (202), its GET until it ends, as a client does. */
async function readWorksheet(transport: SeedTransport, cookie: string, worksheetId: number): Promise<OcrResult> {
  const url = `/api/worksheets/${worksheetId}/ocr`;
  const first = await call<{ ocrResult: OcrResult | null; state?: string }>(
    transport,
    { method: "POST", url, cookie },
    [200, 202],
  );
  let view = first.body;
  while (view.state === "processing") {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    view = (await call<typeof view>(transport, { method: "GET", url, cookie })).body;
  }
  if (!view.ocrResult) throw new SeedError(`${url} ended ${view.state ?? "without a result"}`);
  return view.ocrResult;
}

const contentTypeOf = (file: string) =>
  file.endsWith(".pdf") ? "application/pdf" : file.endsWith(".png") ? "image/png" : "image/jpeg";

export type DemoReportContext = {
  transport: SeedTransport;
  cookies: { admin: string; sonographer: string };
  /** The physicians' own sessions and passwords, in DEMO_PHYSICIANS order: each signs their reports. */
  signers: { cookie: string; password: string }[];
  physicianIds: number[];
  templateIds: number[];
  progress: (line: string) => void;
  worksheets?: DemoWorksheet[];
};

export type DemoReport = { id: number; file: string; state: DemoReportState; patientName: string; studyType: string };

/**
 * One report per worksheet, the way a person makes it: upload, OCR, generate from what was read, then
 * sign and amend as the plan says. OCR is the slow part (seconds per page), hence a line per worksheet.
 */
export async function seedDemoReports(ctx: DemoReportContext): Promise<DemoReport[]> {
  const plan = ctx.worksheets ?? DEMO_WORKSHEETS;
  const reports: DemoReport[] = [];
  for (const [index, sheet] of plan.entries()) {
    const started = Date.now();
    const report = await reportFromWorksheet(ctx, sheet);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    ctx.progress(
      `  report ${index + 1}/${plan.length}: ${sheet.file} -> ${report.studyType}, ${sheet.state} (${seconds} s)`,
    );
    reports.push(report);
  }
  return reports;
}

async function reportFromWorksheet(ctx: DemoReportContext, sheet: DemoWorksheet): Promise<DemoReport> {
  const { transport } = ctx;
  const cookie = ctx.cookies[sheet.by];
  const data = await readFile(path.join(FIXTURES_DIR, sheet.file));
  const upload = await call<{ id: number }>(transport, {
    method: "POST",
    url: "/api/worksheets/upload",
    cookie,
    form: [{ name: "worksheet", filename: sheet.file, contentType: contentTypeOf(sheet.file), data }],
  });
  const worksheetId = upload.body.id;
  const ocrResult = await readWorksheet(transport, cookie, worksheetId);
  const detected = scanTypes.find((t) => t === ocrResult.scanType);
  let { body: report } = await call<Report>(transport, {
    method: "POST",
    url: "/api/reports/generate",
    cookie,
    json: {
      worksheetId,
      physicianId: ctx.physicianIds[sheet.physician],
      templateId: ctx.templateIds[sheet.template],
      scanType: detected ?? sheet.scanType,
    },
  });

  // The report's physician signs, re-authenticating first as signing asks; amending is the admin's.
  const admin = ctx.cookies.admin;
  const signer = ctx.signers[sheet.physician]!;
  const sign = async () => {
    // A critical result is signed only once its call to the referrer is recorded (issue 26): the signer records it.
    if (report.criticalUncommunicated) {
      await call(transport, {
        method: "POST",
        url: `/api/reports/${report.id}/critical-communication`,
        cookie: signer.cookie,
        json: {
          recipient: report.referringPhysician ?? "The referring physician",
          method: "phone",
          communicatedAt: new Date().toISOString(),
          readBack: true,
        },
      });
    }
    await call(transport, {
      method: "POST",
      url: "/api/auth/reauth",
      cookie: signer.cookie,
      json: { password: signer.password },
    });
    return (
      await call<Report>(transport, {
        method: "POST",
        url: `/api/reports/${report.id}/finalize`,
        cookie: signer.cookie,
      })
    ).body;
  };
  if (sheet.state !== "draft") report = await sign();
  if (sheet.state === "amended" || sheet.state === "amended-signed") {
    const amendment = AMENDMENTS[report.studyType as keyof typeof AMENDMENTS] ?? AMENDMENTS["Carotid Duplex"];
    report = (
      await call<Report>(transport, {
        method: "POST",
        url: `/api/reports/${report.id}/amend`,
        cookie: admin,
        json: { reason: amendment.reason, impression: `${report.impression}\n\n${amendment.addition}` },
      })
    ).body;
  }
  if (sheet.state === "amended-signed") report = await sign();
  return {
    id: report.id,
    file: sheet.file,
    state: sheet.state,
    patientName: report.patientName,
    studyType: report.studyType,
  };
}

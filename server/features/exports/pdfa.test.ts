import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, reports } from "../../db/schema";
import { readyToSign } from "../../test-support/signing";
import { physicianWithSignature } from "../../test-support/signing-physician";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { sampleReportText } from "./export-samples";

const run = promisify(execFile);

let t: TestApp;
let admin: SignedIn;
let work: string;
const ids = { draft: 0, signed: 0, toSign: 0 };

beforeAll(async () => {
  t = await createTestApp();
  admin = await registerClinic(t.app, "Riverside Vascular");
  work = fs.mkdtempSync(path.join(os.tmpdir(), "pdfa-test-"));
  const { db } = t.deps.database;
  const physician = await physicianWithSignature(t, admin.clinicId);
  const base = { clinicId: admin.clinicId, physicianId: physician.id, ...sampleReportText };
  const insert = async (values: Partial<typeof reports.$inferInsert>) =>
    (
      await db
        .insert(reports)
        .values({ ...base, ...values })
        .returning({ id: reports.id })
    )[0]!.id;
  ids.draft = await insert({});
  ids.signed = await insert({
    isFinalized: true,
    isDraft: false,
    finalizedAt: new Date("2026-11-03T09:30:00Z"),
    finalizedBy: admin.userId,
  });
  ids.toSign = await insert({});
});

afterAll(async () => {
  await t?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** What the tools here say about a PDF: qpdf's check, pdfinfo, the XMP packet, the fonts and the output intent. */
async function inspect(pdf: Buffer, name: string) {
  const file = path.join(work, name);
  fs.writeFileSync(file, pdf);
  await run("qpdf", ["--check", file]); // rejects on a damaged file
  const info = (await run("pdfinfo", [file])).stdout;
  const xmp = (await run("pdfinfo", ["-meta", file])).stdout;
  const fonts = (await run("pdffonts", [file])).stdout;
  const plain = path.join(work, `${name}.qdf`);
  await run("qpdf", ["--qdf", "--object-streams=disable", file, plain]);
  const objects = fs.readFileSync(plain).toString("latin1");
  return { info, xmp, fonts, objects };
}

function expectPdfA2b(found: Awaited<ReturnType<typeof inspect>>) {
  expect(found.info).toMatch(/PDF version:\s+1\.7/);
  expect(found.xmp).toContain("<pdfaid:part>2</pdfaid:part>");
  expect(found.xmp).toContain("<pdfaid:conformance>B</pdfaid:conformance>");
  // Every font is embedded (pdffonts' "emb" column), and there is at least one.
  const rows = found.fonts
    .split("\n")
    .slice(2)
    .filter((l) => l.trim());
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) expect(row).toMatch(/\s+yes\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+\s*$/);
  // An sRGB output intent with its ICC profile.
  expect(found.objects).toContain("/OutputIntents");
  expect(found.objects).toContain("/GTS_PDFA1");
  expect(found.objects).toContain("/DestOutputProfile");
  expect(found.objects).toContain("sRGB IEC61966-2.1");
}

describe("PDF/A-2b export", () => {
  it("gives a signed report as PDF/A-2b: fonts embedded, XMP identification, sRGB output intent", async () => {
    const res = await as(t.app, admin)({ url: `/api/reports/${ids.signed}/pdf-file?pdfa=true` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    const found = await inspect(res.rawPayload, "signed-a.pdf");
    expectPdfA2b(found);
    expect(found.xmp).toContain("Ultrasound Report: Margaret O'Neil");
    // pdftotext still reads the report.
    const text = (await run("pdftotext", [path.join(work, "signed-a.pdf"), "-"])).stdout;
    expect(text).toContain("Electronically signed by");
  });

  it("also for a draft (its DRAFT mark needs PDF/A-2's transparency), through the print route's file form", async () => {
    const res = await as(t.app, admin)({ url: `/api/reports/${ids.draft}/pdf?format=file&pdfa=true` });
    expectPdfA2b(await inspect(res.rawPayload, "draft-a.pdf"));
  });

  it("leaves the ordinary PDF as it was (no PDF/A identification)", async () => {
    const res = await as(t.app, admin)({ url: `/api/reports/${ids.signed}/pdf-file` });
    const found = await inspect(res.rawPayload, "plain.pdf");
    expect(found.xmp).not.toContain("pdfaid");
    expect(found.objects).not.toContain("/OutputIntents");
  });
});

describe("archive copy of every signed version", () => {
  const archived = (reportId: number) =>
    t.deps.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "report.archived"), eq(auditEvents.entityId, String(reportId))));

  /** The archive is made by the "report-archives" job after the signature (decision 026): this app's queue runs it. */
  async function archivedSoon(reportId: number, count: number) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const events = await archived(reportId);
      if (events.length >= count || Date.now() > deadline) return events;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it("stores each signature's PDF/A with its SHA-256 in the audit trail, amendments too", async () => {
    await readyToSign(t, admin, ids.toSign);
    const signed = await as(t.app, admin)({ method: "POST", url: `/api/reports/${ids.toSign}/finalize`, payload: {} });
    expect(signed.statusCode, signed.body).toBe(200);
    const [first] = await archivedSoon(ids.toSign, 1);
    const details = first!.details as { version: number; fileId: number; sha256: string; format: string };
    expect(details.format).toBe("PDF/A-2b");
    // The fixture report was inserted without a version row: its signature is version 1.
    expect(details.version).toBe(1);
    const file = await as(t.app, admin)({ url: `/api/files/${details.fileId}` });
    expect(file.statusCode).toBe(200);
    expect(createHash("sha256").update(file.rawPayload).digest("hex")).toBe(details.sha256);
    expectPdfA2b(await inspect(file.rawPayload, "archive-v1.pdf"));

    // An amendment, signed again: a second archive copy of the new version; the first is unchanged.
    const amend = await as(
      t.app,
      admin,
    )({
      method: "POST",
      url: `/api/reports/${ids.toSign}/amend`,
      payload: { reason: "Corrected the side", impression: "Right ICA stenosis 50-69%." },
    });
    expect(amend.statusCode, amend.body).toBe(200);
    const again = await as(
      t.app,
      admin,
    )({
      method: "PATCH",
      url: `/api/reports/${ids.toSign}`,
      payload: { finalize: true },
    });
    expect(again.statusCode, again.body).toBe(200);
    const both = await archivedSoon(ids.toSign, 2);
    expect(both).toHaveLength(2);
    const second = both.find((e) => e.id !== first!.id)!.details as { version: number; fileId: number; sha256: string };
    expect(second.version).toBeGreaterThan(details.version);
    expect(second.sha256).not.toBe(details.sha256);
    const text = (await as(t.app, admin)({ url: `/api/files/${second.fileId}` })).rawPayload;
    fs.writeFileSync(path.join(work, "archive-amended.pdf"), text);
    expect((await run("pdftotext", [path.join(work, "archive-amended.pdf"), "-"])).stdout).toContain(
      "Right ICA stenosis 50-69%.",
    );
    const firstAgain = await as(t.app, admin)({ url: `/api/files/${details.fileId}` });
    expect(createHash("sha256").update(firstAgain.rawPayload).digest("hex")).toBe(details.sha256);
  });
});

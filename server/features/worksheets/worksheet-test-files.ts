// Files for the worksheet tests: the fixtures, the bad files issue 5 lists, and the fixtures' ground truth.
import fs from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import PDFDocument from "pdfkit";
import type { OcrMeasurement } from "../../../domain/contracts/ocr";
import { repoPath } from "../../platform/repo-root";

const fixturesDir = repoPath("fixtures", "worksheets");
export const fixture = (name: string) => readFile(path.join(fixturesDir, name));

export type GroundTruth = {
  template: string;
  patientName: string;
  patientDob: string;
  examDate: string;
  measurements: Array<{ vessel: string; side: "R" | "L"; param: string; value: number; unit: string }>;
};
export const groundTruth = async (id: string) =>
  JSON.parse(await readFile(path.join(fixturesDir, `${id}.json`), "utf8")) as GroundTruth;

/** Row labels of the synthetic worksheets, as the criteria's site codes (shared/clinical-criteria.md). */
const siteOfVessel: Record<string, string> = {
  CFV: "CFV",
  SFJ: "SFJ",
  "GSV Prox Thigh": "GSV_PROX",
  "GSV Mid Thigh": "GSV_MID",
  "GSV Knee": "GSV_KNEE",
  "GSV Calf": "GSV_CALF",
  FV: "FV",
  "Pop V": "POPV",
  SPJ: "SPJ",
  SSV: "SSV",
};
const parameterOf: Record<string, string> = { Reflux: "REFLUX_MS", Diam: "DIAMETER_MM", PSV: "PSV", EDV: "EDV" };

/** A measurement as a comparable string: reflux is written in seconds and stored in milliseconds. */
export function truthKeys(truth: GroundTruth): string[] {
  return truth.measurements
    .map((m) => {
      const value = m.param === "Reflux" ? Math.round(m.value * 1000) : m.value;
      const side = m.side === "R" ? "right" : "left";
      return `${siteOfVessel[m.vessel] ?? m.vessel} ${side} ${parameterOf[m.param] ?? m.param} ${value}`;
    })
    .sort();
}

export const measurementKeys = (measurements: OcrMeasurement[]) =>
  measurements.map((m) => `${m.site} ${m.side} ${m.parameter} ${m.value}`).sort();

/** An ELF header and padding: an executable, whatever name and type the upload claims. */
export const elfExecutable = () =>
  Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(4000, 0x90)]);

export async function truncatedPng(): Promise<Buffer> {
  const png = await fixture("ws-clean-003.png");
  return png.subarray(0, Math.floor(png.length / 2));
}

/** 11 MB behind a PNG signature: refused for its size before anything looks at its content. */
export const elevenMegabytes = () =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(11 * 1024 * 1024)]);

/** A well-formed PDF whose page tree is empty, with a correct cross-reference table. */
export function pdfWithoutPages(): Buffer {
  const objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

/** A PDF that needs a password to open. */
export function encryptedPdf(): Promise<Buffer> {
  const doc = new PDFDocument({ userPassword: "secret", ownerPassword: "owner" });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on("end", () => resolve(Buffer.concat(chunks))));
  doc.text("Patient Name: Test");
  doc.end();
  return done;
}

/** Encrypted files under the store's root: what a refused upload must not leave behind. */
export function filesOnDisk(root: string): number {
  if (!fs.existsSync(root)) return 0;
  return fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

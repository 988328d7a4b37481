/**
 * Renders the export of each template variant from sample data, page 1 to PNG, for looking at:
 *   npx tsx server/features/exports/render-samples.ts [outDir=docs/screenshots]
 *   npx tsx server/features/exports/render-samples.ts --bench   (PDF and DOCX time per report, p50 and p95)
 * Needs pdftoppm (poppler-utils) and, for the DOCX page, soffice (LibreOffice).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildDocumentView, type ReportDocument } from "../../../domain/exports/report-document";
import { resolveTemplateSettings, type TemplateSettingsInput } from "../../../domain/exports/template-settings";
import { sampleLogoPng, sampleReportText, sampleSignaturePng } from "./export-samples";
import { renderDocx } from "./render-docx";
import { renderPdf } from "./render-pdf";

type State = "draft" | "finalized" | "amended" | "amended-pending";

const variants: Array<{ name: string; state: State; template: TemplateSettingsInput | null }> = [
  { name: "fallback-draft", state: "draft", template: null },
  {
    name: "grid-right-finalized",
    state: "finalized",
    template: { footerText: "Riverside Vascular Lab · Accredited vascular testing facility · Confidential" },
  },
  {
    name: "list-left-times-14-finalized",
    state: "finalized",
    template: { patientInfoLayout: "list", signaturePosition: "left", fontFamily: "Times New Roman", fontSize: "14px" },
  },
  {
    name: "compact-center-red-amended",
    state: "amended",
    template: {
      patientInfoLayout: "compact",
      signaturePosition: "center",
      primaryColor: "#b91c1c",
      fontFamily: "Helvetica",
      fontSize: "11px",
      footerText: "Please contact the lab with any questions about this report.",
    },
  },
  {
    name: "amended-awaiting-calibri",
    state: "amended-pending",
    template: { fontFamily: "Calibri", clinicName: "Riverside Vein Centre", clinicPhone: "(217) 555-0199" },
  },
];

async function sampleDocument(state: State, template: TemplateSettingsInput | null): Promise<ReportDocument> {
  const [logo, signature] = await Promise.all([sampleLogoPng(), sampleSignaturePng()]);
  const finalized = state === "finalized" || state === "amended";
  const amended = state === "amended" || state === "amended-pending";
  return {
    report: {
      id: 1042,
      ...sampleReportText,
      isFinalized: finalized,
      finalizedAt: finalized ? new Date("2026-11-03T09:30:00Z") : null,
      isAmended: amended,
      amendedAt: amended ? new Date("2026-11-03T08:10:00Z") : null,
      amendmentReason: amended ? "Stenosis side corrected from right to left after review of the images." : null,
      amendmentCount: amended ? 1 : 0,
      generatedAt: new Date("2026-11-02T15:45:00Z"),
    },
    template: resolveTemplateSettings(template),
    clinic: {
      name: "Riverside Vascular Lab",
      address: "12 River Road, Suite 300",
      city: "Springfield",
      state: "IL",
      zipCode: "62701",
      phone: "(217) 555-0100",
      logo: { mimeType: "image/png", data: logo, width: 360, height: 120 },
    },
    physician: {
      name: "Dr. Maria Chen",
      title: "MD, RPVI",
      specialty: "Vascular Surgery",
      signature: { mimeType: "image/png", data: signature, width: 400, height: 150 },
    },
    signedBy: "Dr. Maria Chen",
    amendedBy: "Ada Lovelace",
    patientId: null,
  };
}

function firstPagePng(pdfFile: string, pngBase: string) {
  execFileSync("pdftoppm", ["-png", "-r", "80", "-f", "1", "-l", "1", "-singlefile", pdfFile, pngBase]);
}

async function renderAll(outDir: string) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "export-samples-"));
  for (const variant of variants) {
    const view = buildDocumentView(await sampleDocument(variant.state, variant.template), { timeZone: "UTC" });
    const pdf = path.join(work, `${variant.name}.pdf`);
    fs.writeFileSync(pdf, await renderPdf(view));
    firstPagePng(pdf, path.join(outDir, `export-${variant.name}`));
    console.log(`export-${variant.name}.png`);
  }
  const docxView = buildDocumentView(await sampleDocument("amended", variants[3]!.template), { timeZone: "UTC" });
  const docx = path.join(work, "docx-compact-center-red-amended.docx");
  fs.writeFileSync(docx, await renderDocx(docxView));
  const draftDocx = path.join(work, "docx-fallback-draft.docx");
  fs.writeFileSync(draftDocx, await renderDocx(buildDocumentView(await sampleDocument("draft", null))));
  execFileSync("soffice", [
    `-env:UserInstallation=file://${path.join(work, "lo")}`,
    "--headless",
    "--convert-to",
    "pdf",
    "--outdir",
    work,
    docx,
    draftDocx,
  ]);
  for (const name of ["docx-compact-center-red-amended", "docx-fallback-draft"]) {
    firstPagePng(path.join(work, `${name}.pdf`), path.join(outDir, `export-${name}`));
    console.log(`export-${name}.png`);
  }
  if (!process.env.KEEP_SAMPLES) fs.rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
}

async function bench(runs = 40) {
  const view = buildDocumentView(await sampleDocument("amended", variants[1]!.template));
  const time = async (render: () => Promise<Buffer>) => {
    for (let i = 0; i < 5; i++) await render(); // warm-up: fonts, images, module code
    const samples: number[] = [];
    // CPU time as well: on a shared machine the wall times measure the neighbours too.
    const cpu = process.cpuUsage();
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      await render();
      samples.push(performance.now() - start);
    }
    const used = process.cpuUsage(cpu);
    samples.sort((a, b) => a - b);
    const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!.toFixed(1);
    return `p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, CPU ${((used.user + used.system) / 1000 / runs).toFixed(1)} ms a report`;
  };
  console.log(`PDF  (${runs} runs): ${await time(() => renderPdf(view))}`);
  console.log(`DOCX (${runs} runs): ${await time(() => renderDocx(view))}`);
}

const args = process.argv.slice(2);
if (args.includes("--bench")) await bench();
else await renderAll(args[0] ?? "docs/screenshots");

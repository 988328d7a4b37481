// `npm run -s worksheet-to-report -- FILE [--scan-type TYPE] [--format text|json|pdf|docx] [--out PATH]`:
// one worksheet (image or PDF) to a draft report with the real OCR, the real engine (default criteria set)
// and the configured language model, if any; no server and no database. Exit status: 0 done, 2 usage or
// no scan type, 1 the file could not be read or recognised.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { OcrResult } from "../../domain/contracts/ocr";
import { type Draft, type Measurement, measurementSchema, type Study, studySchema } from "../../domain/contracts/study";
import { buildDocumentView, type ReportDocument } from "../../domain/exports/report-document";
import { templateFallback } from "../../domain/exports/template-settings";
import { generateDraft } from "../../domain/report-engine/generate-draft";
import { formatNumber } from "../../domain/report-engine/value-format";
import { type ScanType, scanTypes } from "../../domain/report-engine/vocabulary";
import { loadConfig } from "../config";
import { renderDocx } from "../features/exports/render-docx";
import { renderPdf } from "../features/exports/render-pdf";
import { observationsFromOcr } from "../features/reports/observations-from-ocr";
import { refineDraftWithLlm } from "../llm/refine-draft";
import { loadWorksheetPages, recognizeWorksheet, shutdownOcr } from "../ocr/ocr-service";

const formats = ["text", "json", "pdf", "docx"] as const;
type Format = (typeof formats)[number];

const usage =
  'usage: npm run -s worksheet-to-report -- FILE [--scan-type "Carotid Duplex"] [--format text|json|pdf|docx] [--out PATH]';

/** The upload view's threshold: values read with less confidence are the ones to check first. */
const LOW_CONFIDENCE = 0.8;

class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

type Args = { file: string; scanType: ScanType | null; format: Format; out: string | null };

export function parseArgs(argv: readonly string[]): Args {
  let file: string | undefined;
  let scanType: ScanType | null = null;
  let format: Format = "text";
  let out: string | null = null;
  const flagValue = (i: number, flag: string) => {
    const value = argv[i];
    if (value === undefined || value.startsWith("--")) throw new CliError(`${flag} needs a value; ${usage}`, 2);
    return value;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--scan-type") {
      const value = flagValue(++i, arg);
      const match = scanTypes.find((t) => t.toLowerCase() === value.trim().toLowerCase());
      if (!match) throw new CliError(`--scan-type: expected one of ${scanTypes.join(", ")}`, 2);
      scanType = match;
    } else if (arg === "--format") {
      const value = flagValue(++i, arg);
      if (!(formats as readonly string[]).includes(value)) {
        throw new CliError(`--format: expected one of ${formats.join(", ")}`, 2);
      }
      format = value as Format;
    } else if (arg === "--out") {
      out = flagValue(++i, arg);
    } else if (file === undefined && !arg.startsWith("--")) {
      file = arg;
    } else {
      throw new CliError(`unexpected argument ${JSON.stringify(arg)}; ${usage}`, 2);
    }
  }
  if (file === undefined) throw new CliError(usage, 2);
  if ((format === "pdf" || format === "docx") && !out) {
    throw new CliError(`--format ${format} writes a file: give --out PATH`, 2);
  }
  return { file, scanType, format, out };
}

/** Progress goes to an interactive terminal only: piped or captured runs keep standard error for errors. */
const progress = (line: string) => {
  if (process.stderr.isTTY) process.stderr.write(`${line}\n`);
};

/** The study the server would build from the same OCR result: values outside the vocabulary are left out. */
export function studyFromOcr(ocr: OcrResult, scanType: ScanType): { study: Study; warnings: string[] } {
  const measurements: Measurement[] = ocr.measurements.flatMap((m) => {
    const parsed = measurementSchema.safeParse(m);
    return parsed.success ? [parsed.data] : [];
  });
  const warnings: string[] = [];
  const left = ocr.measurements.length - measurements.length;
  if (left > 0) {
    warnings.push(
      `${left} value(s) read from the worksheet were not recognised and were left out; check them against the worksheet.`,
    );
  }
  return { study: studySchema.parse({ scanType, measurements, observations: observationsFromOcr(ocr) }), warnings };
}

const pct = (confidence: number) => `${Math.round(confidence * 100)}%`;

export function renderText(file: string, ocr: OcrResult, scanType: { value: ScanType; source: string }, draft: Draft) {
  const field = (label: string, f: OcrResult["fields"]["patientName"]) =>
    `${label.padEnd(15)}${f.value ?? "(not read)"}${f.value ? `  (confidence ${pct(f.confidence)})` : ""}`;
  const lines = [
    `Worksheet      ${path.basename(file)} (${ocr.pageCount} page${ocr.pageCount === 1 ? "" : "s"})`,
    field("Patient", ocr.fields.patientName),
    field("Date of birth", ocr.fields.patientDob),
    field("Exam date", ocr.fields.examDate),
    `Scan type      ${scanType.value} (${scanType.source})`,
    "",
    `Values read (${ocr.measurements.length}); below ${pct(LOW_CONFIDENCE)} confidence marked "check":`,
  ];
  for (const m of ocr.measurements) {
    const where = [m.site, m.side ?? ""].filter(Boolean).join(" ");
    const value = `${formatNumber(m.value)} ${m.unit}`.trim();
    const flag = m.confidence < LOW_CONFIDENCE ? "  check" : "";
    lines.push(
      `  ${where.padEnd(22)}${m.parameter.padEnd(13)}${value.padEnd(12)}${pct(m.confidence).padStart(5)}${flag}`,
    );
  }
  lines.push("", `Study type: ${draft.studyType}`);
  for (const [heading, text] of [
    ["Indication", draft.indication],
    ["Findings", draft.findings],
    ["Impression", draft.impression],
  ] as const) {
    lines.push("", `${heading}:`, ...(text.trim() ? text.trim().split("\n") : ["(none)"]).map((l) => `  ${l}`));
  }
  lines.push("", "Conclusions:");
  if (draft.conclusions.length === 0) lines.push("  (none)");
  for (const c of draft.conclusions) {
    lines.push(`  ${[c.side, c.site].filter(Boolean).join(" ")}: ${c.category} ${c.grade} (${c.basis})`);
  }
  lines.push("", "Warnings:", ...(draft.warnings.length ? draft.warnings.map((w) => `  - ${w}`) : ["  (none)"]));
  return `${lines.join("\n")}\n`;
}

/** The export's document without a database: the default template, no clinic, no physician, not signed. */
export function draftDocument(ocr: OcrResult, draft: Draft, now = new Date()): ReportDocument {
  return {
    report: {
      // Nothing is stored, so there is no report number to print.
      id: 0,
      patientName: ocr.patientName ?? "",
      patientDob: ocr.patientDob,
      examDate: ocr.examDate,
      studyType: draft.studyType,
      indication: draft.indication,
      findings: draft.findings,
      impression: draft.impression,
      isFinalized: false,
      finalizedAt: null,
      isAmended: false,
      amendedAt: null,
      amendmentReason: null,
      amendmentCount: 0,
      generatedAt: now,
    },
    template: { ...templateFallback, showReportId: false },
    clinic: { name: null, address: null, phone: null, logo: null },
    physician: null,
    signedBy: null,
    amendedBy: null,
    patientId: null,
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  // Read before any OCR work so a bad LLM_* setting fails fast, with the config's own one-line message.
  const config = loadConfig();
  let file: Buffer;
  try {
    file = await readFile(args.file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (error as Error).message;
    throw new CliError(`cannot read ${args.file}: ${reason}`, 1);
  }

  progress(`Loading ${path.basename(args.file)}...`);
  const pages = await loadWorksheetPages(file);
  progress(`Reading ${pages.length} page${pages.length === 1 ? "" : "s"} with OCR...`);
  const ocr = await recognizeWorksheet(pages);
  const detected = scanTypes.find((t) => t === ocr.scanType) ?? null;
  const scanType = args.scanType ?? detected;
  if (!scanType) {
    throw new CliError(
      `the scan type could not be detected on the worksheet; give it with --scan-type (one of ${scanTypes.join(", ")})`,
      2,
    );
  }
  const source = args.scanType ? "from --scan-type" : "detected on the worksheet";

  progress("Drafting the report (default criteria set)...");
  const { study, warnings } = studyFromOcr(ocr, scanType);
  const engineDraft = generateDraft(study);
  let draft: Draft = { ...engineDraft, warnings: [...warnings, ...engineDraft.warnings] };
  if (config.llm) {
    progress(`Refining the wording with ${config.llm.model}...`);
    draft = await refineDraftWithLlm({ study, draft, legend: [], examples: [] }, config.llm);
  }

  let output: string | Buffer;
  if (args.format === "text") output = renderText(args.file, ocr, { value: scanType, source }, draft);
  else if (args.format === "json") output = `${JSON.stringify({ ocrResult: ocr, draft }, null, 2)}\n`;
  else {
    progress(`Rendering ${args.format.toUpperCase()} with the default template...`);
    const view = buildDocumentView(draftDocument(ocr, draft));
    output = args.format === "pdf" ? await renderPdf(view) : await renderDocx(view);
  }
  if (args.out) {
    await writeFile(args.out, output);
    progress(`Wrote ${args.out}`);
  } else {
    process.stdout.write(output);
  }
}

// Run only as the command, so the test can import the pure helpers.
if (process.argv[1]?.endsWith("worksheet-to-report.ts")) {
  main()
    .catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`worksheet-to-report: ${message.replace(/\s*\n\s*/g, " ").trim()}\n`);
      process.exitCode = error instanceof CliError ? error.exitCode : 1;
    })
    .finally(() => shutdownOcr());
}

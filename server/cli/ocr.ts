/**
 * `npm run -s ocr -- FILE`: prints the OcrResult of an image or PDF worksheet as JSON on stdout.
 * `npm run -s ocr -- FILE --template BLANK_FILE`: the same, reading FILE by the zones found on the blank form
 * BLANK_FILE (page 1 when it is a PDF), as the server does with a clinic's registered form; the result's
 * `worksheetTemplateId` is then 0 (the command line's form has no database id), or null with `layout: "general"`
 * when FILE does not match the form (a note on stderr says so).
 * Errors: one line on stderr and exit status 1 (2 for usage).
 */
import { readFile } from "node:fs/promises";
import { analyzeWorksheetForm, loadWorksheetPages, recognizeWorksheet, shutdownOcr } from "../ocr/ocr-service";
import type { ReadingTemplate } from "../ocr/templates/match-form";

const USAGE = "usage: npm run -s ocr -- FILE [--template BLANK_FILE] (images or PDFs)\n";

function parseArgs(argv: string[]): { file: string; blank: string | null } | null {
  const [file, flag, blank, ...rest] = argv;
  if (!file || file.startsWith("--") || rest.length > 0) return null;
  if (flag === undefined) return { file, blank: null };
  if (flag !== "--template" || !blank) return null;
  return { file, blank };
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (!args) {
    process.stderr.write(USAGE);
    return 2;
  }
  let current = args.file;
  try {
    const templates: ReadingTemplate[] = [];
    if (args.blank) {
      current = args.blank;
      const [page] = await loadWorksheetPages(await readFile(args.blank));
      if (!page) throw new Error("the blank form has no pages");
      templates.push({ id: 0, ...(await analyzeWorksheetForm(page)) });
      current = args.file;
    }
    const pages = await loadWorksheetPages(await readFile(args.file));
    const result = await recognizeWorksheet(pages, { templates });
    if (args.blank && result.layout !== "template") {
      process.stderr.write(`ocr: ${args.file}: does not match the blank form; read without it\n`);
    }
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`ocr: ${current}: ${message.replace(/\s+/g, " ").trim()}\n`);
    return 1;
  } finally {
    await shutdownOcr();
  }
}

process.exitCode = await main();

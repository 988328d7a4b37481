/**
 * `npm run -s ocr -- FILE`: prints the OcrResult of an image or PDF worksheet as JSON on stdout.
 * Errors: one line on stderr and exit status 1 (2 for usage).
 */
import { readFile } from "node:fs/promises";
import { loadWorksheetPages, recognizeWorksheet, shutdownOcr } from "../ocr/ocr-service";

async function main(): Promise<number> {
  const file = process.argv[2];
  if (!file || process.argv.length > 3) {
    process.stderr.write("usage: npm run -s ocr -- FILE (an image or a PDF)\n");
    return 2;
  }
  try {
    const pages = await loadWorksheetPages(await readFile(file));
    const result = await recognizeWorksheet(pages);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`ocr: ${file}: ${message.replace(/\s+/g, " ").trim()}\n`);
    return 1;
  } finally {
    await shutdownOcr();
  }
}

process.exitCode = await main();

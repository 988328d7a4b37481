/**
 * OCR benchmark over fixtures/worksheets (or --dir, e.g. fixtures/worksheets-varied): per-field exact match (the six
 * header fields too), measurement recall and precision, seconds per page
 * and peak memory, for the clean printed half and the photo + handwriting half.
 *
 *   npm run -s bench:ocr                       all 40 worksheets
 *   npm run -s bench:ocr -- --limit 5          the first 5 of each half
 *   npm run -s bench:ocr -- --half noisy -v    one half, listing every miss
 *   npm run -s bench:ocr -- --cache /tmp/c     keep what the models read, to tune the decoding after them quickly
 *                                              (delete the folder when detection or recognition changes; the
 *                                              timings of a cached run are those of the decoding alone)
 *   npm run -s bench:ocr -- --no-strokes       without the digit classifier's vote (digit-reading.ts), e.g. on a cache
 *   npm run -s bench:ocr -- --cache /tmp/c --restroke   the classifier's readings made again from the cached pages
 *                                              (to tune the strokes' segmentation or the classifier in seconds)
 *   npm run -s bench:ocr -- --now 2027-01-01   the day the dates are judged on (default: the end of 2026, because
 *                                              the generator draws exam dates up to then, and an exam after today
 *                                              is rightly doubted by the date rules)
 *
 * Reads pages in this process (the same code the reading child runs) so that peak RSS is the reading pipeline's own;
 * files are turned into pages by the loading child, as in the product.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { deserialize, serialize } from "node:v8";
import { type OcrHeaderFieldName, type OcrResult, ocrHeaderFieldNames } from "../domain/contracts/ocr";
import { markChoiceRings } from "../server/ocr/choice-rings";
import { loadWorksheetPages, shutdownOcr } from "../server/ocr/ocr-service";
import { decodeRaster } from "../server/ocr/raster";
import type { ReadRegion } from "../server/ocr/read-region";
import { assembleResult } from "../server/ocr/read-worksheet";
import { readByStrokes, readPageText } from "../server/ocr/recognize-page";
import type { PageFrame } from "../server/ocr/text-regions";
import { squash } from "../server/ocr/worksheet-vocabulary";
import { expectedMeasurements, type Truth } from "./ocr-truth";

/** The header fields a sheet carries, from either generator's ground truth. */
function expectedHeader(t: Truth): Record<OcrHeaderFieldName, string | null> {
  if (t.header) return t.header;
  const o = t.otherFields!;
  return {
    indication: o.indication,
    referringPhysician: o.referrer,
    mrn: o.mrn,
    sonographer: o.sonographer,
    // Its layout A has no sex field.
    sex: t.layout === "A" ? null : /^m/i.test(o.sex) ? "male" : "female",
    comments: t.impression ?? null,
  };
}

/**
 * Text fields are compared on their letters and digits, case-insensitive ("Dr. Y Hughes" = "Dr Y Hughes"); a field
 * the sheet does not have is right only when nothing was read.
 */
const sameText = (read: string | null, truth: string | null) =>
  truth === null ? read === null : read !== null && squash(read) === squash(truth);

const { values: args } = parseArgs({
  options: {
    dir: { type: "string", default: "fixtures/worksheets" },
    limit: { type: "string" },
    half: { type: "string" },
    pdf: { type: "boolean", default: false },
    verbose: { type: "boolean", short: "v", default: false },
    "min-confidence": { type: "string", default: "0.5" },
    cache: { type: "string" },
    now: { type: "string", default: "2026-12-31" },
    "no-strokes": { type: "boolean", default: false },
    restroke: { type: "boolean", default: false },
  },
});
const minConfidence = Number(args["min-confidence"]);

/** What the models read on each page of a file, from the cache when it has it. */
async function readPages(dir: string, file: string): Promise<ReadRegion[][]> {
  const cached = args.cache && path.join(args.cache, `${path.basename(dir)}-${file}.v8`);
  if (cached) {
    const hit = await readFile(cached).catch(() => null);
    if (hit) return deserialize(hit) as ReadRegion[][];
  }
  const pages = await loadWorksheetPages(await readFile(path.join(dir, file)));
  const read: ReadRegion[][] = [];
  const frames: PageFrame[] = [];
  for (let i = 0; i < pages.length; i++) {
    const page = await readPageText(pages[i]!, i);
    await readByStrokes(page.raster, page.frame, page.read);
    markChoiceRings(page.raster, page.frame, page.read);
    read.push(page.read);
    frames.push(page.frame);
  }
  if (cached) {
    await mkdir(args.cache!, { recursive: true });
    await writeFile(cached, serialize(read));
    await writeFile(`${cached}.pages`, serialize({ pages, frames }));
  }
  return read;
}

/** The digit classifier's readings of cached pages made again (--restroke), for tuning the strokes' reading. */
async function restroke(dir: string, file: string, read: ReadRegion[][]) {
  const cached = path.join(args.cache!, `${path.basename(dir)}-${file}.v8.pages`);
  const { pages, frames } = deserialize(await readFile(cached)) as { pages: Buffer[]; frames: PageFrame[] };
  for (let i = 0; i < read.length; i++) await readByStrokes(await decodeRaster(pages[i]!), frames[i]!, read[i]!);
}

const tokens = (name: string) =>
  name
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean)
    .sort()
    .join(" ");

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};
const pct = (n: number, d: number) => (d === 0 ? "n/a" : `${((100 * n) / d).toFixed(1)} %`);

type Tally = {
  docs: number;
  name: number;
  dob: number;
  exam: number;
  scan: number;
  header: Record<OcrHeaderFieldName, number>;
  expected: number;
  emitted: number;
  correct: number;
  emittedConfident: number;
  correctConfident: number;
  /** Emitted values at confidence >= 0.8 (shown as sure on the checking screen) and how many of them are wrong. */
  emittedSure: number;
  wrongSure: number;
  seconds: number[];
  cpuSeconds: number[];
};
const newTally = (): Tally => ({
  docs: 0,
  name: 0,
  dob: 0,
  exam: 0,
  scan: 0,
  header: Object.fromEntries(ocrHeaderFieldNames.map((k) => [k, 0])) as Record<OcrHeaderFieldName, number>,
  expected: 0,
  emitted: 0,
  correct: 0,
  emittedConfident: 0,
  correctConfident: 0,
  emittedSure: 0,
  wrongSure: 0,
  seconds: [],
  cpuSeconds: [],
});

async function main() {
  const dir = path.resolve(args.dir!);
  const manifest = JSON.parse(await readFile(path.join(dir, "manifest.json"), "utf8")) as {
    documents: { groundTruth: string; level: string }[];
  };
  const limit = args.limit ? Number(args.limit) : Number.POSITIVE_INFINITY;
  const tallies: Record<string, Tally> = { clean: newTally(), noisy: newTally() };
  const counts: Record<string, number> = { clean: 0, noisy: 0 };
  const now = new Date(`${args.now}T12:00:00Z`);
  if (Number.isNaN(now.getTime())) throw new Error(`--now must be a date (YYYY-MM-DD), not ${args.now}`);
  for (const doc of manifest.documents) {
    if (args.half && doc.level !== args.half) continue;
    counts[doc.level] = (counts[doc.level] ?? 0) + 1;
    if (counts[doc.level]! > limit) continue;
    const truth = JSON.parse(await readFile(path.join(dir, doc.groundTruth), "utf8")) as Truth;
    const file = args.pdf && truth.files.pdf ? truth.files.pdf : truth.files.image;
    const started = performance.now();
    const cpuStart = process.cpuUsage();
    const pages = await readPages(dir, file);
    if (args.restroke) await restroke(dir, file, pages);
    if (args["no-strokes"]) for (const region of pages.flat()) delete region.strokes;
    const result: OcrResult = assembleResult(pages, now);
    const seconds = (performance.now() - started) / 1000 / Math.max(1, pages.length);
    const cpu = process.cpuUsage(cpuStart);
    // CPU time (all threads of this process: reading, not loading) does not grow when other programs compete for
    // the cores, wall time does.
    const cpuSeconds = (cpu.user + cpu.system) / 1e6 / Math.max(1, pages.length);
    const tally = tallies[truth.level]!;
    tally.docs++;
    tally.seconds.push(seconds);
    tally.cpuSeconds.push(cpuSeconds);
    const nameOk = tokens(result.patientName ?? "") === tokens(truth.patientNameTokens.join(" "));
    const dobOk = result.patientDob === truth.patientDob;
    const examOk = result.examDate === truth.examDate;
    const scanOk =
      result.scanType === (truth.measurements[0]?.param === "PSV" ? "Carotid Duplex" : "Lower Limb Venous");
    tally.name += Number(nameOk);
    tally.dob += Number(dobOk);
    tally.exam += Number(examOk);
    tally.scan += Number(scanOk);
    const header = expectedHeader(truth);
    const headerMisses: string[] = [];
    for (const key of ocrHeaderFieldNames) {
      const ok = sameText(result.fields[key].value, header[key]);
      tally.header[key] += Number(ok);
      if (!ok) headerMisses.push(`${key}:${JSON.stringify(result.fields[key].value)}`);
    }
    const expected = new Set(expectedMeasurements(truth));
    const misses: string[] = [];
    tally.expected += expected.size;
    for (const m of result.measurements) {
      const key = `${m.site}|${m.side}|${m.parameter}|${m.value}`;
      const ok = expected.has(key);
      tally.emitted++;
      tally.correct += Number(ok);
      if (m.confidence >= minConfidence) {
        tally.emittedConfident++;
        tally.correctConfident += Number(ok);
      }
      if (m.confidence >= 0.8) {
        tally.emittedSure++;
        tally.wrongSure += Number(!ok);
      }
      if (ok) expected.delete(key);
      else misses.push(`wrong ${key} (read "${m.text}", conf ${m.confidence})`);
    }
    for (const key of expected) misses.push(`missed ${key}`);
    process.stderr.write(
      `${truth.id} ${seconds.toFixed(2)} s (cpu ${cpuSeconds.toFixed(2)} s) name:${nameOk ? "ok" : `"${result.patientName}"`} dob:${dobOk ? "ok" : result.patientDob} exam:${examOk ? "ok" : result.examDate} ${headerMisses.join(" ")} measurements ${result.measurements.length - misses.filter((m) => m.startsWith("wrong")).length}/${expectedMeasurements(truth).length}\n`,
    );
    if (args.verbose) {
      for (const key of ocrHeaderFieldNames) {
        if (!sameText(result.fields[key].value, header[key])) {
          process.stderr.write(
            `    ${key}: read ${JSON.stringify(result.fields[key].value)}, sheet ${JSON.stringify(header[key])}\n`,
          );
        }
      }
    }
    if (args.verbose) for (const miss of misses) process.stderr.write(`    ${miss}\n`);
  }
  const peakMb = process.resourceUsage().maxRSS / 1024;
  const rows = Object.entries(tallies).filter(([, t]) => t.docs > 0);
  const lines = [
    "| half | docs | name | DOB | exam date | scan type | indication | referring | MRN | sonographer | sex | comments | meas. recall | meas. precision | precision at conf >= " +
      `${minConfidence} (recall) | p50 s/page | p95 s/page | p50 CPU s/page |`,
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map(
      ([half, t]) =>
        `| ${half} | ${t.docs} | ${pct(t.name, t.docs)} | ${pct(t.dob, t.docs)} | ${pct(t.exam, t.docs)} | ${pct(t.scan, t.docs)} | ` +
        `${ocrHeaderFieldNames.map((k) => pct(t.header[k], t.docs)).join(" | ")} | ` +
        `${pct(t.correct, t.expected)} | ${pct(t.correct, t.emitted)} | ${pct(t.correctConfident, t.emittedConfident)} ` +
        `(${pct(t.correctConfident, t.expected)}) | ${quantile(t.seconds, 0.5).toFixed(2)} | ${quantile(t.seconds, 0.95).toFixed(2)} | ` +
        `${quantile(t.cpuSeconds, 0.5).toFixed(2)} |`,
    ),
    "",
    ...rows.map(
      ([half, t]) =>
        `${half}: ${t.wrongSure} wrong of ${t.emittedSure} values emitted at confidence >= 0.8 ` +
        `(${pct(t.wrongSure, t.emitted)} of all ${t.emitted} emitted)`,
    ),
    `Peak RSS: ${peakMb.toFixed(0)} MB · node ${process.version} · ${os.availableParallelism()} cores · ` +
      `load average at end ${os.loadavg()[0]!.toFixed(1)} · ${new Date().toISOString().slice(0, 10)}`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

try {
  await main();
} finally {
  await shutdownOcr();
}

/**
 * Reading by a clinic's own form (issue 23): every header field and the measurements of a form family (a blank form
 * and filled sheets of the same layout, made by bench/form-family/generate-form-family.mjs), read by the general
 * reader and by the zones found automatically on the blank form, from the same recognition of each page.
 *
 *   node bench/form-family/generate-form-family.mjs --form-seed 3 --seed 7 --count 20 --blank --out /tmp/family
 *   npm run -s bench:form-template -- --dir /tmp/family [--cache /tmp/c] [-v]
 *
 * Prints one table row per half (clean print, phone photo with handwriting) and reader; the template's extra cost
 * (matching and reading the zones, after recognition) is timed apart.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { deserialize, serialize } from "node:v8";
import sharp from "sharp";
import { loadWorksheetPages, shutdownOcr } from "../server/ocr/ocr-service";
import type { ReadRegion } from "../server/ocr/read-region";
import { assembleResult } from "../server/ocr/read-worksheet";
import { recognizePage } from "../server/ocr/recognize-page";
import { analyzeForm } from "../server/ocr/templates/analyze-form";
import { applyTemplates } from "../server/ocr/templates/read-by-template";
import { expectedMeasurements, FIELDS, type Truth } from "./form-family/score";

const { values: args } = parseArgs({
  options: {
    dir: { type: "string" },
    cache: { type: "string" },
    verbose: { type: "boolean", short: "v", default: false },
    now: { type: "string", default: "2026-12-31" },
  },
});

async function readPage(dir: string, file: string): Promise<{ regions: ReadRegion[]; width: number; height: number }> {
  const cached = args.cache && path.join(args.cache, `${path.basename(dir)}-${file}.v8`);
  if (cached) {
    const hit = await readFile(cached).catch(() => null);
    if (hit) return deserialize(hit);
  }
  const [page] = await loadWorksheetPages(await readFile(path.join(dir, file)));
  const { width = 0, height = 0 } = await sharp(page!).metadata();
  const read = { regions: await recognizePage(page!, 0), width, height };
  if (cached) {
    await mkdir(args.cache!, { recursive: true });
    await writeFile(cached, serialize(read));
  }
  return read;
}

type Tally = {
  docs: number;
  fields: Record<string, number>;
  expected: number;
  emitted: number;
  correct: number;
  matched: number;
};
const tally = (): Tally => ({ docs: 0, fields: {}, expected: 0, emitted: 0, correct: 0, matched: 0 });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const pct = (n: number, d: number) => (d === 0 ? "n/a" : `${((100 * n) / d).toFixed(1)} %`);

async function main() {
  if (!args.dir) throw new Error("--dir is required (a folder made by generate-form-family.mjs --blank)");
  const dir = path.resolve(args.dir);
  const now = new Date(`${args.now}T12:00:00Z`);
  const manifest = JSON.parse(await readFile(path.join(dir, "manifest.json"), "utf8")) as {
    documents: { groundTruth: string }[];
  };
  const started = performance.now();
  const layout = await analyzeForm(await readFile(path.join(dir, "blank.png")));
  const analyzeSeconds = (performance.now() - started) / 1000;
  const templates = [{ id: 1, ...layout }];
  const tallies: Record<string, Tally> = {};
  const templateSeconds: number[] = [];
  const recognitionSeconds: number[] = [];
  for (const doc of manifest.documents) {
    const truth = JSON.parse(await readFile(path.join(dir, doc.groundTruth), "utf8")) as Truth;
    const r0 = performance.now();
    const page = await readPage(dir, truth.files.image);
    recognitionSeconds.push((performance.now() - r0) / 1000);
    const general = assembleResult([page.regions], now);
    const t0 = performance.now();
    const byTemplate = applyTemplates(general, [page], templates, now);
    templateSeconds.push((performance.now() - t0) / 1000);
    for (const [reader, result] of [
      ["general", general],
      ["template", byTemplate],
    ] as const) {
      const key = `${truth.level} ${reader}`;
      tallies[key] ??= tally();
      const t = tallies[key];
      t.docs++;
      t.matched += Number(result.layout === "template");
      const misses: string[] = [];
      for (const [field, ok] of FIELDS) {
        const good = ok(result, truth);
        t.fields[field] = (t.fields[field] ?? 0) + Number(good);
        if (!good) misses.push(`${field}:"${result.fields[field].value}"`);
      }
      const expected = expectedMeasurements(truth);
      t.expected += expected.size;
      for (const m of result.measurements) {
        const key = `${m.site}|${m.side}|${m.parameter}|${m.value}`;
        t.emitted++;
        t.correct += Number(expected.delete(key));
      }
      if (args.verbose && reader === "template")
        process.stderr.write(`${truth.id} ${result.layout} ${misses.join(" ")}\n`);
    }
  }
  const names = FIELDS.map(([f]) => f);
  const lines = [
    `| sheets | reader | matched | ${names.join(" | ")} | meas. recall | meas. precision |`,
    `| --- | --- | --- | ${names.map(() => "---").join(" | ")} | --- | --- |`,
    ...Object.entries(tallies).map(
      ([key, t]) =>
        `| ${key.split(" ")[0]} (${t.docs}) | ${key.split(" ")[1]} | ${t.matched} | ${names.map((f) => pct(t.fields[f] ?? 0, t.docs)).join(" | ")} | ${pct(t.correct, t.expected)} | ${pct(t.correct, t.emitted)} |`,
    ),
    "",
    `Blank form: ${layout.zones.length} zones (${layout.zones.filter((z) => z.kind === "field").length} fields), ` +
      `${layout.anchors.length} anchors, analysed in ${analyzeSeconds.toFixed(1)} s. Matching and reading the zones: ` +
      `max ${(Math.max(...templateSeconds) * 1000).toFixed(0)} ms a page after recognition; loading and ` +
      `recognition (0 when cached) median ${median(recognitionSeconds).toFixed(2)} s, max ` +
      `${Math.max(...recognitionSeconds).toFixed(2)} s a page. ` +
      `${os.availableParallelism()} cores, load average ${os.loadavg()[0]!.toFixed(1)}.`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

try {
  await main();
} finally {
  await shutdownOcr();
}

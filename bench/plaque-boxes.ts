// Plaque check boxes read against generate-varied --plaque's ground truth (issue 31 item 10): precision and recall
// of the plaque observations, clean and photographed sheets apart.
//
//   node bench/worksheets/generate-varied.mjs --seed 501 --count 40 --plaque --pdf-every 0 --out /tmp/plq-501
//   npx tsx bench/plaque-boxes.ts /tmp/plq-501 [--cache /tmp/plq-501-cache]
//
// Only the carotid sheets carry the section; every one of them is read (sections with nothing ticked included, so a
// false mark counts). --cache keeps each page's text reading, so that a change to the box decision is measured again
// in seconds.
import fs from "node:fs";
import path from "node:path";
import { markPlaqueLabels, plaqueObservations } from "../server/ocr/plaque-observations";
import { decodeRaster } from "../server/ocr/raster";
import type { ReadRegion } from "../server/ocr/read-region";
import { readPageText } from "../server/ocr/recognize-page";
import type { PageFrame } from "../server/ocr/text-regions";

type Truth = {
  id: string;
  level: "clean" | "noisy";
  template: string;
  files: { image: string };
  plaque?: { site: string; side: string; finding: string }[];
  plaqueForm?: { boxStyle: string; mark: string; arrangement: string };
};

const dir = process.argv[2];
if (!dir) throw new Error("usage: npx tsx bench/plaque-boxes.ts DIR [--cache DIR]");
const cacheAt = process.argv.indexOf("--cache");
const cacheDir = cacheAt > 0 ? process.argv[cacheAt + 1] : undefined;
if (cacheDir) fs.mkdirSync(cacheDir, { recursive: true });

async function pageRegions(file: string, id: string): Promise<{ frame: PageFrame; read: ReadRegion[] }> {
  const cached = cacheDir ? path.join(cacheDir, `${id}.json`) : null;
  if (cached && fs.existsSync(cached)) return JSON.parse(fs.readFileSync(cached, "utf8"));
  const { frame, read } = await readPageText(fs.readFileSync(file), 0);
  // Only what the plaque reading uses: the text, its characters' steps and the region's extent.
  const slim = read.map(({ u0, u1, v0, v1, score, box, read: r, matrix }) => ({
    u0,
    u1,
    v0,
    v1,
    score,
    box,
    read: r,
    matrix: { steps: matrix.steps },
  }));
  if (cached) fs.writeFileSync(cached, JSON.stringify({ frame, read: slim }));
  return { frame, read: slim as unknown as ReadRegion[] };
}

const truths = fs
  .readdirSync(dir)
  .filter((f) => /^ws-.*\.json$/.test(f))
  .sort()
  .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as Truth)
  .filter((t) => t.template === "carotid" && t.plaque);

const tally = { clean: { tp: 0, fp: 0, fn: 0, sheets: 0 }, noisy: { tp: 0, fp: 0, fn: 0, sheets: 0 } };
const start = Date.now();
for (const t of truths) {
  const file = path.join(dir, t.files.image);
  const { frame, read } = await pageRegions(file, t.id);
  markPlaqueLabels(await decodeRaster(fs.readFileSync(file)), frame, read);
  const got = new Set(plaqueObservations(read).map((o) => `${o.site}|${o.side}|${o.finding}`));
  const want = new Set(t.plaque!.map((o) => `${o.site}|${o.side}|${o.finding}`));
  const s = tally[t.level];
  s.sheets++;
  const fp = [...got].filter((k) => !want.has(k));
  const fn = [...want].filter((k) => !got.has(k));
  s.tp += [...got].filter((k) => want.has(k)).length;
  s.fp += fp.length;
  s.fn += fn.length;
  if (fp.length + fn.length > 0) {
    const f = t.plaqueForm!;
    console.log(
      `${t.id} [${f.boxStyle}/${f.mark}/${f.arrangement}] false: ${fp.join(", ") || "-"}  missed: ${fn.join(", ") || "-"}`,
    );
  }
}
const pct = (a: number, b: number) => (b === 0 ? "n/a" : `${((100 * a) / b).toFixed(1)} %`);
for (const [level, s] of Object.entries(tally)) {
  console.log(
    `${level}: ${s.sheets} carotid sheets, ${s.tp + s.fn} ticked boxes; precision ${pct(s.tp, s.tp + s.fp)} (${s.fp} false), recall ${pct(s.tp, s.tp + s.fn)} (${s.fn} missed)`,
  );
}
console.log(`${((Date.now() - start) / 1000).toFixed(0)} s`);

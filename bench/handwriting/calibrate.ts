/**
 * Fits the cells' confidence model (server/ocr/cell-confidence.ts) on the pages bench/ocr.ts cached for several
 * corpora, and measures it seed by seed on a model fitted without that seed (leave one seed out), beside the
 * confidence as it is. Run bench:ocr with the same --cache on each corpus first.
 *
 *   npx tsx bench/handwriting/calibrate.ts --cache /tmp/c /tmp/hw-101 /tmp/hw-131 /tmp/hw-151 [--restroke]
 *
 * Prints the weights fitted on all the corpora, to paste into cell-confidence.ts, and per corpus: recall,
 * precision and values wrong at confidence >= 0.8 (of those emitted), as bench:ocr counts them.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { deserialize } from "node:v8";
import {
  type CellSignals,
  cellFeatures,
  EMIT_AT,
  FEATURE_NAMES,
  onScreenScale,
  rightProbability,
  SURE_AT,
} from "../../server/ocr/cell-confidence";
import { readMeasurementCells } from "../../server/ocr/measurement-extraction";
import { decodeRaster } from "../../server/ocr/raster";
import type { ReadRegion } from "../../server/ocr/read-region";
import { readByStrokes } from "../../server/ocr/recognize-page";
import type { PageFrame } from "../../server/ocr/text-regions";
import { expectedMeasurements, type Truth } from "../ocr-truth";

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    cache: { type: "string" },
    restroke: { type: "boolean", default: false },
    "emit-at": { type: "string" },
    "sure-at": { type: "string" },
    lambda: { type: "string", default: "1" },
  },
});

type Cell = { signals: CellSignals; confidence: number; right: boolean };
type Corpus = { name: string; cells: Cell[]; expected: number };

async function loadCorpus(dir: string): Promise<Corpus> {
  const manifest = JSON.parse(await readFile(path.join(dir, "manifest.json"), "utf8")) as {
    documents: { groundTruth: string; level: string }[];
  };
  const cells: Cell[] = [];
  let expected = 0;
  for (const doc of manifest.documents) {
    if (doc.level !== "noisy") continue;
    const truth = JSON.parse(await readFile(path.join(dir, doc.groundTruth), "utf8")) as Truth;
    const file = truth.files.image;
    const base = path.join(args.cache!, `${path.basename(dir)}-${file}.v8`);
    const pages = deserialize(await readFile(base)) as ReadRegion[][];
    if (args.restroke) {
      const { pages: images, frames } = deserialize(await readFile(`${base}.pages`)) as {
        pages: Buffer[];
        frames: PageFrame[];
      };
      for (let i = 0; i < pages.length; i++) await readByStrokes(await decodeRaster(images[i]!), frames[i]!, pages[i]!);
    }
    const keys = new Set(expectedMeasurements(truth));
    expected += keys.size;
    for (const c of pages.flatMap((regions) => readMeasurementCells(regions))) {
      const right = keys.has(`${c.site}|${c.side}|${c.parameter}|${c.value}`);
      cells.push({ signals: c.signals, confidence: c.confidence, right });
    }
  }
  return { name: path.basename(dir), cells, expected };
}

/**
 * Logistic regression by Newton's method, L2 on every weight but the bias, on the cells whose strokes were read
 * (the others keep the recogniser's confidence).
 */
function fitLogistic(all: Cell[], lambda: number): number[] {
  const cells = all.filter((c) => c.signals.strokes !== "none");
  const xs = cells.map((c) => cellFeatures(c.signals));
  const ys = cells.map((c) => Number(c.right));
  const n = xs[0]!.length;
  let w = new Array<number>(n).fill(0);
  for (let iter = 0; iter < 50; iter++) {
    const grad = new Array<number>(n).fill(0);
    const hess = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    xs.forEach((x, k) => {
      const p = 1 / (1 + Math.exp(-x.reduce((s, xi, i) => s + xi * w[i]!, 0)));
      const r = p * (1 - p);
      for (let i = 0; i < n; i++) {
        grad[i]! += (p - ys[k]!) * x[i]!;
        for (let j = 0; j < n; j++) hess[i]![j]! += r * x[i]! * x[j]!;
      }
    });
    for (let i = 1; i < n; i++) {
      grad[i]! += lambda * w[i]!;
      hess[i]![i]! += lambda;
    }
    hess[0]![0]! += 1e-6;
    const step = solve(hess, grad);
    w = w.map((wi, i) => wi - step[i]!);
    if (Math.max(...step.map(Math.abs)) < 1e-7) break;
  }
  return w;
}

/** Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

/** A cell's confidence with the given weights and marks (the recogniser's own where the strokes were not read). */
const modelled = (c: Cell, weights: number[], emitAt: number, sureAt: number) =>
  c.signals.strokes === "none" ? c.confidence : onScreenScale(rightProbability(c.signals, weights), emitAt, sureAt);

/** bench:ocr's figures for one corpus, from each cell's confidence on the screen's scale. */
function score(corpus: Corpus, confidence: (c: Cell) => number) {
  let emitted = 0;
  let right = 0;
  let sureWrong = 0;
  for (const c of corpus.cells) {
    const conf = confidence(c);
    if (conf < 0.4) continue;
    emitted++;
    right += Number(c.right);
    if (conf >= 0.8 && !c.right) sureWrong++;
  }
  const pct = (n: number, d: number) => `${((100 * n) / d).toFixed(1)} %`;
  return `recall ${pct(right, corpus.expected)}, precision ${pct(right, emitted)}, wrong at >= 0.8 ${sureWrong} (${pct(sureWrong, emitted)} of ${emitted})`;
}

/** On the pooled corpora, the model's figures for a grid of the two marks (fitted on all: optimistic). */
function sweep(corpora: Corpus[], weights: number[]) {
  const cells = corpora.flatMap((c) => c.cells);
  const expected = corpora.reduce((s, c) => s + c.expected, 0);
  for (const emitAt of [0.5, 0.7, 0.8, 0.85, 0.9, 0.95]) {
    const sure = [0.95, 0.98, 0.99].map((sureAt) => {
      const conf = cells.map((c) => modelled(c, weights, emitAt, sureAt));
      const shown = cells.filter((_, i) => conf[i]! >= 0.8);
      return `${sureAt}: ${shown.filter((c) => !c.right).length} wrong/${shown.length}`;
    });
    const emitted = cells.filter((c) => modelled(c, weights, emitAt, 0.99) >= 0.4);
    const right = emitted.filter((c) => c.right).length;
    process.stdout.write(
      `  emit at ${emitAt}: recall ${((100 * right) / expected).toFixed(1)} %, precision ${((100 * right) / emitted.length).toFixed(1)} % of ${emitted.length}; sure ${sure.join(", ")}\n`,
    );
  }
}

async function main() {
  const corpora = [];
  for (const dir of positionals) corpora.push(await loadCorpus(path.resolve(dir)));
  const lambda = Number(args.lambda);
  const emitAt = args["emit-at"] ? Number(args["emit-at"]) : EMIT_AT;
  const sureAt = args["sure-at"] ? Number(args["sure-at"]) : SURE_AT;
  const all = fitLogistic(
    corpora.flatMap((c) => c.cells),
    lambda,
  );
  process.stdout.write(`weights fitted on ${corpora.map((c) => c.name).join(", ")} (lambda ${lambda}):\n`);
  all.forEach((w, i) => {
    process.stdout.write(`  ${w.toFixed(3).padStart(8)}  ${FEATURE_NAMES[i]}\n`);
  });
  process.stdout.write(`[${all.map((w) => w.toFixed(3)).join(", ")}]\n`);
  sweep(corpora, all);
  for (const corpus of corpora) {
    const others = corpora.filter((c) => c !== corpus).flatMap((c) => c.cells);
    const held = others.length > 0 ? fitLogistic(others, lambda) : all;
    process.stdout.write(`${corpus.name}: ${corpus.cells.length} cells\n`);
    process.stdout.write(`  as it is:        ${score(corpus, (c) => c.confidence)}\n`);
    process.stdout.write(`  model w/o it:    ${score(corpus, (c) => modelled(c, held, emitAt, sureAt))}\n`);
    process.stdout.write(`  model with it:   ${score(corpus, (c) => modelled(c, all, emitAt, sureAt))}\n`);
  }
}

await main();

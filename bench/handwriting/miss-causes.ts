/**
 * Where measurement values are lost or wrong on a corpus, by cause (issue 24): decimal point lost or gained, a digit
 * read as another, digits dropped or gained, read right but not emitted, no cell read (merged, split or missed),
 * and for each wrong value whether the digit classifier's own reading of the strokes agreed with it. Reads the
 * pages bench/ocr.ts cached (run it first with the same --cache), so it takes seconds.
 *
 *   npm run -s bench:ocr -- --dir /tmp/hw-101 --cache /tmp/c
 *   npx tsx bench/handwriting/miss-causes.ts --dir /tmp/hw-101 --cache /tmp/c [-v] [--restroke]
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { deserialize } from "node:v8";
import { constrainedDecode } from "../../server/ocr/ctc-constrained";
import { DECIMAL_GRAMMAR } from "../../server/ocr/ctc-grammar";
import { MIN_MEASUREMENT_CONFIDENCE, readMeasurementCells } from "../../server/ocr/measurement-extraction";
import { decodeRaster } from "../../server/ocr/raster";
import type { ReadRegion } from "../../server/ocr/read-region";
import { readByStrokes } from "../../server/ocr/recognize-page";
import type { PageFrame } from "../../server/ocr/text-regions";
import { expectedMeasurements, type Truth } from "../ocr-truth";

const { values: args } = parseArgs({
  options: {
    dir: { type: "string" },
    cache: { type: "string" },
    verbose: { type: "boolean", short: "v", default: false },
    restroke: { type: "boolean", default: false },
  },
});

/** Why a written value was not read as itself, from the sheet's text and the reading's. */
export function missCause(written: string, read: string | null): string {
  if (read === null) return "no cell read";
  if (read === written) return "read right";
  const bare = (t: string) => t.replace(".", "");
  if (bare(read) === bare(written)) {
    if (!read.includes(".")) return "decimal point lost";
    if (!written.includes(".")) return "decimal point gained";
    return "decimal point moved";
  }
  const a = bare(written);
  const b = bare(read);
  if (a.length === b.length) {
    const diffs = [...a].flatMap((ch, i) => (ch === b[i] ? [] : [`${ch}->${b[i]}`]));
    return diffs.length === 1 ? `digit confusion ${diffs[0]}` : "several digits misread";
  }
  const shorter = a.length < b.length ? a : b;
  const longer = a.length < b.length ? b : a;
  const dropped = [...longer].some((_, i) => longer.slice(0, i) + longer.slice(i + 1) === shorter);
  if (dropped) return a.length > b.length ? "digit dropped" : "digit gained";
  return "other";
}

async function main() {
  const dir = path.resolve(args.dir!);
  const manifest = JSON.parse(await readFile(path.join(dir, "manifest.json"), "utf8")) as {
    documents: { groundTruth: string; level: string }[];
  };
  const causes = new Map<string, number>();
  const count = (c: string) => causes.set(c, (causes.get(c) ?? 0) + 1);
  let emitted = 0;
  let wrong = 0;
  let sureWrong = 0;
  const agreement = { agree: { right: 0, wrong: 0 }, disagree: { right: 0, wrong: 0 }, none: { right: 0, wrong: 0 } };
  for (const doc of manifest.documents) {
    if (doc.level !== "noisy") continue;
    const truth = JSON.parse(await readFile(path.join(dir, doc.groundTruth), "utf8")) as Truth;
    const file = truth.files.image;
    const pages = deserialize(
      await readFile(path.join(args.cache!, `${path.basename(dir)}-${file}.v8`)),
    ) as ReadRegion[][];
    if (args.restroke) {
      const cached = path.join(args.cache!, `${path.basename(dir)}-${file}.v8.pages`);
      const { pages: images, frames } = deserialize(await readFile(cached)) as { pages: Buffer[]; frames: PageFrame[] };
      for (let i = 0; i < pages.length; i++) await readByStrokes(await decodeRaster(images[i]!), frames[i]!, pages[i]!);
    }
    const cells = pages.flatMap((regions) => readMeasurementCells(regions));
    const keys = expectedMeasurements(truth);
    const byKey = new Map(cells.map((c) => [`${c.site}|${c.side}|${c.parameter}`, c]));
    truth.measurements.forEach((m, i) => {
      const key = keys[i]!;
      const cellKey = key.split("|").slice(0, 3).join("|");
      const cell = byKey.get(cellKey);
      const written = m.written ?? String(m.value);
      const right = cell !== undefined && key === `${cellKey}|${cell.value}`;
      const shown = cell !== undefined && cell.confidence >= MIN_MEASUREMENT_CONFIDENCE;
      const greedy = cell?.parts.map((p) => p.read.text).join(" ") ?? "";
      const strokes = cell?.parts.length === 1 ? cell.parts[0]!.strokes : null;
      const byStrokes = strokes
        ? (constrainedDecode(strokes, DECIMAL_GRAMMAR, { beam: 8, nbest: 1 }).candidates[0]?.text ?? null)
        : null;
      if (shown) {
        emitted++;
        const group =
          byStrokes === null
            ? agreement.none
            : Number(byStrokes) === Number(cell.text)
              ? agreement.agree
              : agreement.disagree;
        group[right ? "right" : "wrong"]++;
      }
      if (right && shown) return;
      let cause = right ? "read right, not emitted" : missCause(written, cell ? cell.text : null);
      if (cell && cell.parts.length > 1) cause += " (cell in several regions)";
      if (/[^0-9.\s]/.test(greedy)) cause += " [letter or slash in the plain reading]";
      if (shown) {
        wrong++;
        if (cell.confidence >= 0.8) sureWrong++;
        cause = `WRONG ${cause}`;
      }
      count(cause);
      if (args.verbose)
        process.stdout.write(
          `${truth.id} ${key} written "${written}" read "${cell?.text ?? ""}" conf ${cell?.confidence.toFixed(3) ?? "-"} plain "${greedy}" strokes "${byStrokes ?? ""}" doubt ${cell?.doubt ?? ""}: ${cause}\n`,
        );
    });
  }
  const rows = [...causes].sort((a, b) => b[1] - a[1]);
  process.stdout.write(`emitted ${emitted}, wrong ${wrong}, wrong at >= 0.8 ${sureWrong}\n`);
  for (const [cause, n] of rows) process.stdout.write(`${String(n).padStart(4)}  ${cause}\n`);
  process.stdout.write(
    `emitted values whose strokes' own reading agrees: ${JSON.stringify(agreement.agree)}, disagrees: ${JSON.stringify(agreement.disagree)}, no strokes: ${JSON.stringify(agreement.none)}\n`,
  );
}

await main();

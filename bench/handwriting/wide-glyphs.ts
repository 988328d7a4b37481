/**
 * Touching digits (issue 24): for every measurement cell read from one region whose strokes' segmentation holds a
 * glyph wider than WIDE_GLYPH digit heights (cell-strokes.ts), whether it is two digits merged (the segmentation
 * found fewer digits than were written) or one wide digit, what the classifier reads in its split (digit-reading.ts,
 * the widest glyph cut in two), how many digits the recogniser alone read, and how the cell ended (right and
 * emitted or not). Reads the pages bench/ocr.ts cached and reads their strokes again with the current code.
 *
 *   npm run -s bench:ocr -- --dir /tmp/hw-101 --cache /tmp/c
 *   npx tsx bench/handwriting/wide-glyphs.ts --cache /tmp/c /tmp/hw-101 /tmp/hw-131 [-v] [--crops DIR]
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { cropGrey } from "../../server/ocr/cell-strokes";
import { classifyCells } from "../../server/ocr/digit-reading";
import { MIN_MEASUREMENT_CONFIDENCE, readMeasurementCells } from "../../server/ocr/measurement-extraction";
import type { ReadRegion } from "../../server/ocr/read-region";
import { readByStrokes } from "../../server/ocr/recognize-page";
import { expectedMeasurements } from "../ocr-truth";
import { cachedNoisySheets } from "./cached-sheets";

const { values: args, positionals } = parseArgs({
  options: {
    cache: { type: "string" },
    verbose: { type: "boolean", short: "v", default: false },
    crops: { type: "string" },
  },
  allowPositionals: true,
});

const argmax = (p: Float32Array) => p.indexOf(Math.max(...p));
const digitsOf = (probs: (Float32Array | null)[]) => probs.map((p) => (p ? String(argmax(p)) : ".")).join("");
const bare = (t: string) => t.replace(/\./g, "");

async function main() {
  const tally = new Map<string, number>();
  const count = (k: string) => tally.set(k, (tally.get(k) ?? 0) + 1);
  for await (const { dir, truth, pages, rasters, frames } of cachedNoisySheets(positionals, args.cache!)) {
    for (let i = 0; i < pages.length; i++) await readByStrokes(rasters[i]!, frames[i]!, pages[i]!);
    const cells = pages.flatMap((regions, page) => readMeasurementCells(regions).map((c) => ({ ...c, page })));
    // The recogniser alone: the same regions without the strokes' readings.
    const alone = pages.flatMap((regions) =>
      readMeasurementCells(regions.map(({ strokes: _, splitStrokes: __, ...r }) => r as ReadRegion)),
    );
    const key3 = (c: { site: string; side: string | null; parameter: string }) => `${c.site}|${c.side}|${c.parameter}`;
    const byKey = new Map(cells.map((c) => [key3(c), c]));
    const aloneByKey = new Map(alone.map((c) => [key3(c), c]));
    const keys = expectedMeasurements(truth);
    for (const [i, m] of truth.measurements.entries()) {
      const k3 = keys[i]!.split("|").slice(0, 3).join("|");
      const cell = byKey.get(k3);
      if (cell?.parts.length !== 1) continue;
      const written = m.written ?? String(m.value);
      const grey = cropGrey(rasters[cell.page]!, frames[cell.page]!, cell.parts[0]!);
      const classified = (await classifyCells([grey]))[0];
      if (!classified) continue;
      const widths = classified.chars.flatMap((c) => (c.kind === "glyph" && c.wide ? [c.wide.width] : []));
      if (widths.length === 0) continue;
      const segDigits = classified.chars.filter((c) => c.kind === "glyph").length;
      const kind =
        segDigits < bare(written).length ? "merged" : segDigits === bare(written).length ? "one digit" : "gained";
      const right = keys[i] === `${k3}|${cell.value}`;
      const shown = cell.confidence >= MIN_MEASUREMENT_CONFIDENCE;
      const recogniser = aloneByKey.get(k3)?.text ?? "";
      const split = classified.split ? digitsOf(classified.split.probs) : "";
      const splitRight = split !== "" && bare(split) === bare(written);
      const outcome = right && shown ? "right" : shown ? "WRONG" : right ? "right, not emitted" : "missed";
      count(`${kind}: ${outcome}`);
      count(
        `${kind}: recogniser ${bare(recogniser).length === bare(written).length ? "count right" : "count wrong"}, split ${splitRight ? "right" : "wrong"}`,
      );
      if (args.verbose)
        process.stdout.write(
          `${path.basename(dir)} ${truth.id} ${k3} "${written}" ${kind} widths ${widths.map((w) => w.toFixed(2)).join(",")} strokes "${digitsOf(classified.probs)}" split "${split}" recogniser "${recogniser}" read "${cell.text}" ${cell.confidence.toFixed(2)} ${outcome}\n`,
        );
      if (args.crops) {
        await mkdir(args.crops, { recursive: true });
        const { width, height, ink } = grey;
        await sharp(Buffer.from(Uint8Array.from(ink, (v) => Math.max(0, Math.min(255, v)))), {
          raw: { width, height, channels: 1 },
        })
          .resize(width * 3, height * 3, { kernel: "nearest" })
          .png()
          .toFile(path.join(args.crops, `${path.basename(dir)}-${truth.id}-${i}-${written}-${kind}.png`));
      }
    }
  }
  for (const [k, n] of [...tally].sort()) process.stdout.write(`${String(n).padStart(5)}  ${k}\n`);
}

await main();

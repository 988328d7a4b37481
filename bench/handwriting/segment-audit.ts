/**
 * How well the strokes' segmentation of numeric cells (server/ocr/cell-strokes.ts) splits each written value into
 * its characters (issue 24): for every measurement cell read from one region, the segmentation's pattern of glyphs
 * and points ("d.d") against the written value's ("9.1" -> "d.d"), tallied by what went wrong (point lost into a
 * digit, a leading 1 dropped or merged, a digit split in two, ...). Reads the pages bench/ocr.ts cached, so it takes
 * seconds; --crops DIR writes each failed crop as a PNG (three times its size) to look at. Where the pattern is
 * right, each glyph's reading by the digit classifier is checked against the written digit too (the classifier's
 * accuracy on real segmented glyphs, and its confusions, surest first).
 *
 *   npm run -s bench:ocr -- --dir /tmp/hw-101 --cache /tmp/c
 *   npx tsx bench/handwriting/segment-audit.ts --cache /tmp/c /tmp/hw-101 /tmp/hw-131 [-v] [--crops /tmp/crops]
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { cropGrey } from "../../server/ocr/cell-strokes";
import { classifyCells } from "../../server/ocr/digit-reading";
import { readMeasurementCells } from "../../server/ocr/measurement-extraction";
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

/** Why a segmentation's pattern differs from the written one. */
export function segmentCause(written: string, got: string | null): string {
  if (got === null) return "no segmentation";
  const want = written.replace(/\d/g, "d");
  if (got === want) return "right";
  const bare = (t: string) => t.replace(/\./g, "");
  if (bare(got) === bare(want)) return want.includes(".") && !got.includes(".") ? "point lost" : "point wrong";
  const diff = bare(got).length - bare(want).length;
  const lead1 = /^1/.test(written);
  if (diff === -1) return lead1 ? "digit dropped (leading 1)" : "digit dropped";
  if (diff === 1) return "digit gained";
  return diff < 0 ? "digits dropped" : "digits gained";
}

async function main() {
  const causes = new Map<string, number>();
  const confusions = new Map<string, number>();
  const glyphs = { read: 0, right: 0, sureWrong: 0 };
  let total = 0;
  for await (const { dir, truth, pages, rasters, frames } of cachedNoisySheets(positionals, args.cache!)) {
    const cells = pages.flatMap((regions, page) => readMeasurementCells(regions).map((c) => ({ ...c, page })));
    const byKey = new Map(cells.map((c) => [`${c.site}|${c.side}|${c.parameter}`, c]));
    const keys = expectedMeasurements(truth);
    for (const [i, m] of truth.measurements.entries()) {
      const cell = byKey.get(keys[i]!.split("|").slice(0, 3).join("|"));
      if (cell?.parts.length !== 1) continue;
      const written = m.written ?? String(m.value);
      const grey = cropGrey(rasters[cell.page]!, frames[cell.page]!, cell.parts[0]!);
      const classified = (await classifyCells([grey]))[0];
      const chars = classified?.chars ?? null;
      const got = chars ? chars.map((c) => (c.kind === "point" ? "." : "d")).join("") : null;
      const cause = segmentCause(written, got);
      total++;
      causes.set(cause, (causes.get(cause) ?? 0) + 1);
      if (cause === "right") {
        const digits = written.replace(/\./g, "");
        const probs = classified!.probs.filter((p): p is Float32Array => p !== null);
        probs.forEach((p, k) => {
          const read = p.indexOf(Math.max(...p));
          glyphs.read++;
          if (String(read) === digits[k]) glyphs.right++;
          else {
            if (p[read]! >= 0.9) glyphs.sureWrong++;
            const key = `${digits[k]}->${read}`;
            confusions.set(key, (confusions.get(key) ?? 0) + 1);
          }
        });
        continue;
      }
      if (args.verbose) process.stdout.write(`${path.basename(dir)} ${truth.id} "${written}" -> ${got}: ${cause}\n`);
      if (args.crops) {
        await mkdir(args.crops, { recursive: true });
        const { width, height, ink } = grey;
        const name = `${path.basename(dir)}-${truth.id}-${i}-${written}-${got ?? "null"}.png`;
        await sharp(Buffer.from(Uint8Array.from(ink, (v) => Math.max(0, Math.min(255, v)))), {
          raw: { width, height, channels: 1 },
        })
          .resize(width * 3, height * 3, { kernel: "nearest" })
          .png()
          .toFile(path.join(args.crops, name));
      }
    }
  }
  process.stdout.write(`cells read from one region: ${total}\n`);
  for (const [cause, n] of [...causes].sort((a, b) => b[1] - a[1]))
    process.stdout.write(`${String(n).padStart(5)}  ${((100 * n) / total).toFixed(1).padStart(5)} %  ${cause}\n`);
  process.stdout.write(
    `glyphs of rightly segmented cells read right: ${glyphs.right} of ${glyphs.read} ` +
      `(${((100 * glyphs.right) / Math.max(1, glyphs.read)).toFixed(2)} %), wrong at >= 0.9: ${glyphs.sureWrong}\n` +
      `confusions: ${[...confusions]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${n}`)
        .join(", ")}\n`,
  );
}

await main();

/**
 * Learning from corrections (issue 23 item 4): how the reading of a form new to the reader moves over its first
 * sheets when every sheet's corrections are fed back, as a clinician checking each sheet before its report would.
 * Each sheet is read with the clinic's aliases learnt so far, scored, then corrected to its ground truth; the
 * label wordings before corrected values are counted into aliases by the same rules as the server
 * (server/ocr/reading-corrections.ts). The same recognition is also scored without aliases, for comparison.
 *
 *   node bench/form-family/generate-form-family.mjs --form-seed 13 --seed 1301 --count 20 --wordings novel --out /tmp/n
 *   npm run -s bench:learning -- --dir /tmp/n [--cache /tmp/c] [--order mixed] [-v]
 *
 * `--order mixed` alternates clean and photo sheets (the generator writes the clean half first).
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { deserialize, serialize } from "node:v8";
import type { OcrFieldName, OcrResult } from "../domain/contracts/ocr";
import type { LabelAlias, LabelField } from "../server/ocr/field-labels";
import { loadWorksheetPages, shutdownOcr } from "../server/ocr/ocr-service";
import type { ReadRegion } from "../server/ocr/read-region";
import { assembleResult } from "../server/ocr/read-worksheet";
import {
  aliasActive,
  type CheckedValues,
  correctedWordings,
  correctionsOf,
  nextAliasCount,
} from "../server/ocr/reading-corrections";
import { recognizePage } from "../server/ocr/recognize-page";
import { FIELDS, type Truth } from "./form-family/score";

const { values: args } = parseArgs({
  options: {
    dir: { type: "string" },
    cache: { type: "string" },
    order: { type: "string", default: "as-written" },
    verbose: { type: "boolean", short: "v", default: false },
    now: { type: "string", default: "2026-12-31" },
  },
});

async function readPage(dir: string, file: string): Promise<ReadRegion[]> {
  const cached = args.cache && path.join(args.cache, `${path.basename(dir)}-${file}.regions.v8`);
  if (cached) {
    const hit = await readFile(cached).catch(() => null);
    if (hit) return deserialize(hit);
  }
  const [page] = await loadWorksheetPages(await readFile(path.join(dir, file)));
  const regions = await recognizePage(page!, 0);
  if (cached) {
    await mkdir(args.cache!, { recursive: true });
    await writeFile(cached, serialize(regions));
  }
  return regions;
}

/** What the clinician would have typed after checking the sheet: its ground truth. */
function checkedOf(t: Truth): CheckedValues {
  return {
    patientName: t.patientNameTokens.join(" "),
    patientDob: t.patientDob,
    examDate: t.examDate,
    mrn: t.otherFields.mrn,
    referringPhysician: t.otherFields.referrer,
    sonographer: t.otherFields.sonographer,
    indication: t.otherFields.indication,
    sex: t.otherFields.sex === "M" ? "male" : "female",
    comments: t.impression,
  };
}

const score = (r: OcrResult, t: Truth) => FIELDS.filter(([, ok]) => ok(r, t)).map(([f]) => f);

async function main() {
  if (!args.dir) throw new Error("--dir is required (a folder made by generate-form-family.mjs)");
  const dir = path.resolve(args.dir);
  const now = new Date(`${args.now}T12:00:00Z`);
  const manifest = JSON.parse(await readFile(path.join(dir, "manifest.json"), "utf8")) as {
    documents: { groundTruth: string; level: string }[];
  };
  let docs = manifest.documents;
  if (args.order === "mixed") {
    const clean = docs.filter((d) => d.level === "clean");
    const noisy = docs.filter((d) => d.level !== "clean");
    docs = clean.flatMap((d, i) => [d, noisy[i]].filter((x) => x !== undefined));
  }
  const counts = new Map<string, { field: OcrFieldName; seen: number }>();
  const aliases = (): LabelAlias[] =>
    [...counts].flatMap(([wording, c]) =>
      aliasActive(wording, c.field, c.seen) ? [{ wording, field: c.field as LabelField }] : [],
    );
  const rows: string[] = [];
  const perField = { with: new Map<string, number>(), without: new Map<string, number>() };
  let totalWith = 0;
  let totalWithout = 0;
  for (const [n, doc] of docs.entries()) {
    const truth = JSON.parse(await readFile(path.join(dir, doc.groundTruth), "utf8")) as Truth;
    const regions = await readPage(dir, truth.files.image);
    const learnt = aliases();
    const withAliases = assembleResult([regions], now, learnt);
    const without = assembleResult([regions], now);
    const good = score(withAliases, truth);
    const baseline = score(without, truth);
    for (const f of good) perField.with.set(f, (perField.with.get(f) ?? 0) + 1);
    for (const f of baseline) perField.without.set(f, (perField.without.get(f) ?? 0) + 1);
    totalWith += good.length;
    totalWithout += baseline.length;
    // The clinician corrects the sheet; its label wordings are counted as the server counts them.
    const checked = checkedOf(truth);
    const corrections = correctionsOf(withAliases, checked);
    const wordings = correctedWordings(withAliases, checked, corrections, now);
    corrections.forEach((c, i) => {
      const wording = wordings[i];
      if (!wording || !aliasActive(wording, c.field, Number.POSITIVE_INFINITY)) return;
      counts.set(wording, { field: c.field, seen: nextAliasCount(counts.get(wording), c.field) });
    });
    rows.push(
      `| ${n + 1} | ${truth.level === "clean" ? "clean" : "photo"} | ${learnt.length} | ${good.length} / ${FIELDS.length} | ${baseline.length} / ${FIELDS.length} | ${corrections.length} |`,
    );
    if (args.verbose) {
      const missed = FIELDS.map(([f]) => f).filter((f) => !good.includes(f));
      process.stderr.write(
        `${truth.id} aliases=${learnt.map((a) => `${a.wording}:${a.field}`).join(",")} missed=${missed.join(",")}\n`,
      );
    }
  }
  const pct = (k: number, d: number) => `${((100 * k) / d).toFixed(1)} %`;
  const lines = [
    "| sheet | kind | aliases in use | fields right, corrections fed back | fields right, no learning | fields corrected |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
    "",
    `All ${docs.length} sheets: ${pct(totalWith, docs.length * FIELDS.length)} of fields right with corrections fed back, ` +
      `${pct(totalWithout, docs.length * FIELDS.length)} without.`,
    "",
    "| field | with corrections fed back | no learning |",
    "| --- | --- | --- |",
    ...FIELDS.map(
      ([f]) =>
        `| ${f} | ${pct(perField.with.get(f) ?? 0, docs.length)} | ${pct(perField.without.get(f) ?? 0, docs.length)} |`,
    ),
    "",
    `Aliases learnt: ${
      aliases()
        .map((a) => `${a.wording} -> ${a.field}`)
        .join(", ") || "none"
    }`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

try {
  await main();
} finally {
  await shutdownOcr();
}

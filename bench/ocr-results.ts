/**
 * The full OcrResult JSON of every worksheet file in some folders, and the CPU seconds of loading and reading each,
 * to check that a speed change reads exactly as before (issue 30 item 6) and what it saved.
 *
 *   npx tsx bench/ocr-results.ts --out /tmp/a [--dir fixtures/worksheets]... [--limit N] [--only noisy]
 *   npx tsx bench/ocr-results.ts --compare /tmp/a /tmp/b
 *
 * Files load (loadWorksheetPages) and read (readWorksheet) in this process, the code the two OCR children run, so
 * process.cpuUsage() around each step is that step's CPU, inference threads included. One warm-up page is read
 * first (models loaded). Writes DIR/<folder>/<file>.json and DIR/cpu.tsv; --compare prints every file whose JSON
 * differs and the median CPU seconds a page of both runs, photos and PDFs apart. Runs itself again under the OCR
 * children's malloc settings (ocr-runner.ts) when started without them: page faults are much of the models' CPU.
 */
import { spawnSync } from "node:child_process";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadWorksheetPages } from "../server/ocr/load-worksheet-pages";
import { CHILD_MALLOC } from "../server/ocr/ocr-runner";
import { readWorksheet } from "../server/ocr/read-worksheet";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: "string" },
    dir: { type: "string", multiple: true },
    limit: { type: "string" },
    only: { type: "string" },
    compare: { type: "boolean" },
  },
});
const root = path.resolve(import.meta.dirname, "..");
const NOW = new Date("2026-12-31T12:00:00Z");
const cpuSeconds = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
};
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : (s[Math.floor((s.length - 1) / 2)]! + s[Math.ceil((s.length - 1) / 2)]!) / 2;
};
/** What kind of page a file is, for the medians: a photo (JPEG), a PDF, or a clean image. */
const kindOf = (file: string) => (file.endsWith(".pdf") ? "pdf" : file.endsWith(".jpg") ? "photo" : "image");

async function run(out: string, dirs: string[]) {
  const limit = values.limit ? Number(values.limit) : Number.POSITIVE_INFINITY;
  const warm = await loadWorksheetPages(await readFile(path.join(root, "fixtures/worksheets/ws-clean-003.png")));
  await readWorksheet(warm, NOW);
  const rows = ["file\tkind\tpages\tload CPU s\tread CPU s"];
  for (const dir of dirs) {
    const files = (await readdir(path.resolve(root, dir)))
      .filter((f) => /\.(png|jpg|pdf)$/.test(f) && (!values.only || f.includes(values.only)))
      .sort()
      .slice(0, limit);
    await mkdir(path.join(out, path.basename(dir)), { recursive: true });
    for (const file of files) {
      const bytes = await readFile(path.resolve(root, dir, file));
      const t0 = process.cpuUsage();
      const pages = await loadWorksheetPages(bytes);
      const load = cpuSeconds(t0);
      const t1 = process.cpuUsage();
      const result = await readWorksheet(pages, NOW);
      const read = cpuSeconds(t1);
      await writeFile(path.join(out, path.basename(dir), `${file}.json`), `${JSON.stringify(result, null, 1)}\n`);
      const row = [`${path.basename(dir)}/${file}`, kindOf(file), pages.length, load.toFixed(3), read.toFixed(3)];
      rows.push(row.join("\t"));
      console.log(row.join("\t"));
    }
  }
  await writeFile(path.join(out, "cpu.tsv"), `${rows.join("\n")}\n`);
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
}

async function cpuTable(dir: string) {
  const lines = (await readFile(path.join(dir, "cpu.tsv"), "utf8")).trim().split("\n").slice(1);
  return lines.map((l) => {
    const [file, kind, pages, load, read] = l.split("\t");
    return { file: file!, kind: kind!, pages: Number(pages), load: Number(load), read: Number(read) };
  });
}

async function compare(a: string, b: string) {
  const [before, after] = [await cpuTable(a), await cpuTable(b)];
  let differing = 0;
  for (const row of before) {
    const [x, y] = await Promise.all([a, b].map((d) => readFile(path.join(d, `${row.file}.json`), "utf8")));
    if (x !== y) {
      differing++;
      console.log(`differs: ${row.file}`);
    }
  }
  console.log(`${before.length} files compared, ${differing} differ`);
  console.log("kind\tfiles\tload CPU s a page (before -> after)\tread CPU s a page (before -> after)");
  for (const kind of ["photo", "image", "pdf"]) {
    const perPage = (rows: typeof before, key: "load" | "read") =>
      median(rows.filter((r) => r.kind === kind).map((r) => r[key] / r.pages)).toFixed(3);
    const n = before.filter((r) => r.kind === kind).length;
    console.log(
      `${kind}\t${n}\t${perPage(before, "load")} -> ${perPage(after, "load")}\t${perPage(before, "read")} -> ${perPage(after, "read")}`,
    );
  }
}

const mallocSet = Object.entries(CHILD_MALLOC).every(([k, v]) => process.env[k] === v);
if (!values.compare && !mallocSet) {
  const again = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, ...CHILD_MALLOC },
  });
  process.exit(again.status ?? 1);
} else if (values.compare) await compare(positionals[0]!, positionals[1]!);
else {
  if (!values.out) throw new Error("--out DIR is required");
  await run(
    values.out,
    values.dir ?? ["fixtures/worksheets", "fixtures/worksheets-varied", "fixtures/worksheets-plaque"],
  );
}

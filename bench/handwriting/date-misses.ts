/**
 * The dates of birth and exam dates a corpus reads wrong (issue 24 item 3), each with what was written (and in
 * which format), what the recogniser read, what the strokes' segmentation and classifier read, and the options
 * each gave. Reads the pages bench/ocr.ts cached (run it first with the same --cache), so it takes seconds.
 *
 *   npm run -s bench:ocr -- --dir /tmp/hw-101 --cache /tmp/c
 *   npx tsx bench/handwriting/date-misses.ts --dir /tmp/hw-101 --cache /tmp/c [--restroke] [--all]
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { deserialize } from "node:v8";
import { ctcDecode } from "../../server/ocr/ctc-decode";
import { readDateOptions } from "../../server/ocr/date-reading";
import { decodeRaster } from "../../server/ocr/raster";
import type { ReadRegion } from "../../server/ocr/read-region";
import { assembleResult } from "../../server/ocr/read-worksheet";
import { readByStrokes } from "../../server/ocr/recognize-page";
import type { PageFrame } from "../../server/ocr/text-regions";
import type { Truth } from "../ocr-truth";

const { values: args } = parseArgs({
  options: {
    dir: { type: "string" },
    cache: { type: "string" },
    now: { type: "string", default: "2026-12-31" },
    restroke: { type: "boolean", default: false },
    all: { type: "boolean", default: false },
  },
});

const options = (o: { value: string; confidence: number }[]) =>
  o
    .slice(0, 3)
    .map((x) => `${x.value}@${x.confidence.toFixed(2)}`)
    .join(" ");

async function main() {
  const dir = path.resolve(args.dir!);
  const now = new Date(`${args.now}T12:00:00Z`);
  const manifest = JSON.parse(await readFile(path.join(dir, "manifest.json"), "utf8")) as {
    documents: { groundTruth: string }[];
  };
  let dobRight = 0;
  let examRight = 0;
  for (const doc of manifest.documents) {
    const truth = JSON.parse(await readFile(path.join(dir, doc.groundTruth), "utf8")) as Truth & {
      patientDob: string;
      examDate: string;
      dateFormats?: Record<string, string>;
    };
    const cached = path.join(args.cache!, `${path.basename(dir)}-${truth.files.image}.v8`);
    const pages = deserialize(await readFile(cached)) as ReadRegion[][];
    if (args.restroke) {
      const { pages: images, frames } = deserialize(await readFile(`${cached}.pages`)) as {
        pages: Buffer[];
        frames: PageFrame[];
      };
      for (let i = 0; i < pages.length; i++) await readByStrokes(await decodeRaster(images[i]!), frames[i]!, pages[i]!);
    }
    const result = assembleResult(pages, now);
    const dobOk = result.patientDob === truth.patientDob;
    const examOk = result.examDate === truth.examDate;
    dobRight += Number(dobOk);
    examRight += Number(examOk);
    if (dobOk && examOk && !args.all) continue;
    const conf = (k: "patientDob" | "examDate") => result.fields[k].confidence.toFixed(2);
    process.stdout.write(
      `${truth.id} dob ${truth.patientDob} (${truth.dateFormats?.patientDob}) -> ${result.patientDob}@${conf("patientDob")}${dobOk ? " ok" : ""}; ` +
        `exam ${truth.examDate} (${truth.dateFormats?.examDate}) -> ${result.examDate}@${conf("examDate")}${examOk ? " ok" : ""}\n`,
    );
    for (const r of pages.flat()) {
      for (const region of [r, ...(r.value ? [r.value] : [])]) {
        if (region.dateStrokes === undefined) {
          const digits = region.read.text.replace(/\D/g, "").length;
          if (digits >= 4 && digits <= 10 && region.v1 < 0.45 && !/^(VL|MRN)/.test(region.read.text)) {
            process.stdout.write(
              `    other "${region.read.text}" v=${region.v0.toFixed(2)} [${options(readDateOptions(region.matrix, now))}]\n`,
            );
          }
          continue;
        }
        const strokes = region.dateStrokes;
        process.stdout.write(
          `    read "${region.read.text}" [${options(readDateOptions(region.matrix, now))}]` +
            ` strokes "${strokes ? ctcDecode(strokes).text : "(none)"}" [${strokes ? options(readDateOptions(strokes, now)) : ""}]\n`,
        );
      }
    }
  }
  process.stdout.write(
    `DOB ${dobRight}/${manifest.documents.length}, exam ${examRight}/${manifest.documents.length}\n`,
  );
}

await main();

// What PGlite's shared_buffers cost in memory and give in speed, on an embedded database on disk as the server
// opens it (issue 30 item 4).
//
//   npx tsx bench/pglite-buffers.ts [--reports 100000] [--buffers 128,32,16] [--rounds 2]
//
// Seeds one data directory once (a clinic and its reports, as bench/report-seed.ts makes them for the list
// benchmarks), then, in a new process for each setting (the order alternates round by round), opens it with
// openDatabase as the server does and reads: RSS once open, the first and then the median of 5 further calls of
// each statement (wall and CPU ms of the process, where the database runs), and RSS at the end.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../server/db/client";
import { clinics } from "../server/db/schema";
import { seedReports } from "./report-seed";

const { values: args } = parseArgs({
  options: {
    reports: { type: "string", default: "100000" },
    buffers: { type: "string", default: "128,32,16" },
    rounds: { type: "string", default: "2" },
    child: { type: "string" },
    dir: { type: "string" },
  },
});

const statements: Array<[string, string]> = [
  [
    "list page 1",
    "select id, patient_name, exam_date from reports where clinic_id = $1 and deleted_at is null order by exam_date desc nulls last, id desc limit 25",
  ],
  [
    "list offset 50,000",
    "select id, patient_name, exam_date from reports where clinic_id = $1 and deleted_at is null order by exam_date desc nulls last, id desc limit 25 offset 50000",
  ],
  ["name search", "select count(*) from reports where clinic_id = $1 and patient_name ilike '%smith%'"],
  ["count all", "select count(*) from reports where clinic_id = $1"],
];

const rss = () => Math.round(process.memoryUsage.rss() / 1048576);
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function child(dir: string, buffersMb: number) {
  const database = await openDatabase({ dataDir: dir, pgliteSharedBuffersMb: buffersMb });
  const opened = rss();
  const clinicId = ((await database.executeSql("select min(id) as id from clinics")).rows[0] as { id: number }).id;
  const out: string[] = [];
  for (const [name, text] of statements) {
    const timed = async () => {
      const c = cpuMs();
      const t = performance.now();
      await database.executeSql(text, [clinicId]);
      return { ms: performance.now() - t, cpu: cpuMs() - c };
    };
    const first = await timed();
    const rest = [];
    for (let i = 0; i < 5; i++) rest.push(await timed());
    out.push(
      `${name}: first ${first.ms.toFixed(0)} ms (CPU ${first.cpu.toFixed(0)}), then ${median(rest.map((r) => r.ms)).toFixed(1)} ms (CPU ${median(rest.map((r) => r.cpu)).toFixed(1)})`,
    );
  }
  console.log(`shared_buffers ${buffersMb} MB\tRSS open ${opened} MB, after ${rss()} MB\t${out.join("; ")}`);
  await database.close();
}

async function main() {
  if (args.child) return child(args.dir!, Number(args.child));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pglite-buffers-"));
  try {
    const seedStarted = Date.now();
    const database = await openDatabase({ dataDir: dir });
    const [clinic] = await database.db.insert(clinics).values({ name: "Bench", email: "b@clinic.test" }).returning();
    await seedReports(database.db, clinic!.id, Number(args.reports));
    await database.executeSql("vacuum analyze reports");
    await database.close();
    const size = spawnSync("du", ["-sm", dir]).stdout.toString().split("\t")[0];
    console.log(
      `${args.reports} reports seeded in ${((Date.now() - seedStarted) / 1000).toFixed(0)} s; ${size} MB on disk`,
    );
    const settings = args.buffers.split(",").map(Number);
    for (let round = 1; round <= Number(args.rounds); round++) {
      for (const mb of round % 2 === 1 ? settings : [...settings].reverse()) {
        const run = spawnSync(
          process.execPath,
          [...process.execArgv, import.meta.filename, "--child", String(mb), "--dir", dir],
          { stdio: ["ignore", "pipe", "inherit"] },
        );
        process.stdout.write(`round ${round}\t${run.stdout}`);
      }
    }
    console.log(
      `load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();

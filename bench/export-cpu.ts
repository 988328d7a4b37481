import fs from "node:fs";
import { reports } from "../server/db/schema";
import { sampleReportText } from "../server/features/exports/export-samples";
import { closeRenderPool } from "../server/features/exports/render-pool";
import { physicianWithSignature } from "../server/test-support/signing-physician";
import { as, createTestApp, registerClinic } from "../server/test-support/test-app";

/**
 * CPU per export on the thread that serves requests, and in the whole process (issue 27, decision 025): the whole
 * app in this process (app.inject, no socket) on PostgreSQL, so the database's own work is in another process.
 * A signed report with logo and signature, exported as PDF and as DOCX, one at a time.
 *
 *   TEST_DATABASE_URL=postgres://postgres@localhost/test npx tsx bench/export-cpu.ts [--runs 60]
 *
 * The main thread's CPU comes from /proc/self/task/<pid>/stat (Linux; clock ticks, 10 ms, summed over the runs);
 * the process's from process.cpuUsage() (every thread: the render pool's too).
 */
const runsIndex = process.argv.indexOf("--runs");
const runs = runsIndex > 0 ? Number(process.argv[runsIndex + 1]) : 60;
if (!process.env.TEST_DATABASE_URL)
  throw new Error("set TEST_DATABASE_URL (PostgreSQL): PGlite would run in this thread");

const TICK_MS = 10;
function mainThreadCpuMs(): number {
  const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

const t = await createTestApp();
const admin = await registerClinic(t.app, "Export CPU Clinic");
const { db } = t.deps.database;
const physician = await physicianWithSignature(t, admin.clinicId, { letterhead: { address: "12 River Road" } });
const [report] = await db
  .insert(reports)
  .values({
    clinicId: admin.clinicId,
    physicianId: physician.id,
    ...sampleReportText,
    isFinalized: true,
    isDraft: false,
    finalizedAt: new Date("2026-11-03T09:30:00Z"),
    finalizedBy: admin.userId,
  })
  .returning({ id: reports.id });

const request = as(t.app, admin);
async function measure(kind: "pdf-file" | "docx") {
  const url = `/api/reports/${report!.id}/${kind}`;
  for (let i = 0; i < 5; i++) await request({ url }); // warm-up: modules, fonts, images, the pool's thread
  const main = mainThreadCpuMs();
  const all = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < runs; i++) {
    const res = await request({ url });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  }
  const wall = performance.now() - started;
  const used = process.cpuUsage(all);
  const perRun = (ms: number) => (ms / runs).toFixed(1);
  console.log(
    `${kind.padEnd(8)} ${runs} runs: main thread ${perRun(mainThreadCpuMs() - main)} CPU-ms an export, whole process ${perRun((used.user + used.system) / 1000)} CPU-ms, wall ${perRun(wall)} ms`,
  );
}

console.log(`load: ${fs.readFileSync("/proc/loadavg", "utf8").trim()}`);
await measure("pdf-file");
await measure("docx");
console.log(`load: ${fs.readFileSync("/proc/loadavg", "utf8").trim()}`);
await t.close();
await closeRenderPool();

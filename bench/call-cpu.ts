import fs from "node:fs";
import { eq } from "drizzle-orm";
import pg from "pg";
import { clinics, physicians } from "../server/db/schema";
import { sampleLogoPng, sampleSignaturePng } from "../server/features/exports/export-samples";
import { closeRenderPool } from "../server/features/exports/render-pool";
import { saveFile } from "../server/features/files/files.service";
import { insertWorksheet } from "../server/features/reports/report-test-fixtures";
import { communicateCritical, linkPhysician, reauth } from "../server/test-support/signing";
import { as, createTestApp, registerClinic } from "../server/test-support/test-app";

/**
 * CPU per call of each kind the mixed workload makes (bench/multi-process.ts), and signing (issue 27 item c):
 * the whole app in this process (app.inject) on PostgreSQL, so the database's own work is in another process.
 * The clinic has a logo and the physician a signature image, as a real clinic does (bench:multi's has neither).
 *
 *   TEST_DATABASE_URL=postgres://postgres@localhost/test npx tsx bench/call-cpu.ts [--runs 40]
 *
 * Per call: the thread that serves requests, from /proc/self/task/<pid>/schedstat (nanoseconds on CPU), and the
 * whole process (every thread: the render pool's and the job queue's), from process.cpuUsage(); wall time.
 * Signing's whole-process figure counts the archive copy too: the run waits until every signed version of
 * the batch has its copy (in this version a job after the signature) before it reads the CPU used.
 */
const runsIndex = process.argv.indexOf("--runs");
const runs = runsIndex > 0 ? Number(process.argv[runsIndex + 1]) : 40;
if (!process.env.TEST_DATABASE_URL) throw new Error("set TEST_DATABASE_URL (PostgreSQL): PGlite would run here");

/** Statements sent to PostgreSQL (each a round trip; BEGIN and COMMIT count). */
let statements = 0;
/** `--sql`: print the statements of one call of each kind (to see which round trips a call makes). */
const printSql = process.argv.includes("--sql");
let tracing = false;
const clientQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements++;
  if (tracing) {
    const text = typeof args[0] === "string" ? args[0] : (args[0] as { text?: string }).text;
    console.log(`    ${String(text).replace(/\s+/g, " ").slice(0, 400)}`);
  }
  return (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof clientQuery;

const mainThreadNs = () => Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]);
const processUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

const t = await createTestApp();
const admin = await registerClinic(t.app, "Call CPU Clinic");
const { db } = t.deps.database;
const store = t.deps.fileStore;
const logo = await saveFile(db, store, {
  clinicId: admin.clinicId,
  kind: "logo",
  data: await sampleLogoPng(),
  mimeType: "image/png",
});
const signature = await saveFile(db, store, {
  clinicId: admin.clinicId,
  kind: "signature",
  data: await sampleSignaturePng(),
  mimeType: "image/png",
});
await db.update(clinics).set({ logoUrl: logo.url, address: "12 River Road" }).where(eq(clinics.id, admin.clinicId));
const [physician] = await db
  .insert(physicians)
  .values({ clinicId: admin.clinicId, name: "Dr. Maria Chen", title: "MD", signatureUrl: signature.url })
  .returning();
await linkPhysician(t, admin, physician!.id);
const worksheet = await insertWorksheet(t, admin.clinicId);
const request = as(t.app, admin);

async function call(method: string, url: string, payload?: unknown) {
  const res = await request({ method: method as "GET", url, payload: payload as never });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  return res;
}
const generate = async () =>
  (await call("POST", "/api/reports/generate", { worksheetId: worksheet.id, physicianId: physician!.id })).json() as {
    id: number;
  };

// The clinic has a few pages of reports, as in bench:multi after a while.
const drafts: number[] = [];
for (let i = 0; i < 60; i++) drafts.push((await generate()).id);

const query = async <T>(text: string) => (await t.deps.database.executeSql(text, [])).rows[0] as T;
const hasArchiveTable = async () =>
  (await query<{ present: boolean }>("select to_regclass('report_archives') is not null as present")).present;
async function archivesSettled() {
  if (!(await hasArchiveTable())) return;
  for (;;) {
    const { n } = await query<{ n: number }>("select count(*)::int as n from report_archives where status = 'pending'");
    if (n === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Kind = {
  name: string;
  before?: (i: number) => Promise<void>;
  run: (i: number) => Promise<unknown>;
  settle?: () => Promise<void>;
};
const toSign: number[] = [];
const kinds: Kind[] = [
  { name: "list", run: () => call("GET", "/api/reports") },
  { name: "search", run: () => call("GET", "/api/reports?search=Roe") },
  { name: "open", run: (i) => call("GET", `/api/reports/${drafts[i % drafts.length]}`) },
  { name: "generate", run: () => generate() },
  {
    name: "edit",
    run: (i) => call("PATCH", `/api/reports/${drafts[i % drafts.length]}`, { impression: `Edit ${i}.` }),
  },
  { name: "export pdf-file", run: (i) => call("GET", `/api/reports/${drafts[i % drafts.length]}/pdf-file`) },
  { name: "export docx", run: (i) => call("GET", `/api/reports/${drafts[i % drafts.length]}/docx`) },
  {
    name: "sign",
    before: async (i) => {
      const { id } = await generate();
      await communicateCritical(t, admin, id);
      if (i % 10 === 0) await reauth(t, admin);
      toSign[i] = id;
    },
    run: (i) => call("POST", `/api/reports/${toSign[i]}/finalize`, {}),
    settle: archivesSettled,
  },
];

console.log(`load: ${fs.readFileSync("/proc/loadavg", "utf8").trim()}; ${runs} calls of each kind after 5 warm-up`);
console.log("| call | main thread CPU-ms | whole process CPU-ms | statements | wall ms (mean) |");
console.log("| --- | ---: | ---: | ---: | ---: |");
for (const kind of kinds) {
  for (let i = 0; i < 5; i++) {
    await kind.before?.(runs + i);
    await kind.run(runs + i);
  }
  await kind.settle?.();
  let mainNs = 0;
  let wallMs = 0;
  let processCpu = 0;
  let sent = 0;
  for (let i = 0; i < runs; i++) {
    await kind.before?.(i);
    tracing = printSql && i === 0;
    if (tracing) console.log(`  ${kind.name}:`);
    const s0 = statements;
    const p0 = processUs();
    const m0 = mainThreadNs();
    const w0 = performance.now();
    await kind.run(i);
    wallMs += performance.now() - w0;
    tracing = false;
    mainNs += mainThreadNs() - m0;
    processCpu += processUs() - p0;
    sent += statements - s0;
  }
  // Work the calls left behind (the archive job) is theirs: counted once it is done.
  const p1 = processUs();
  await kind.settle?.();
  processCpu += processUs() - p1;
  const per = (x: number) => (x / runs).toFixed(1);
  console.log(`| ${kind.name} | ${per(mainNs / 1e6)} | ${per(processCpu / 1000)} | ${per(sent)} | ${per(wallMs)} |`);
}
console.log(`load: ${fs.readFileSync("/proc/loadavg", "utf8").trim()}`);
await t.close();
await closeRenderPool();

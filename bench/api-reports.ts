/**
 * Reports list and search under load (issue 7, item 7): 100,000 reports in one clinic, 200 concurrent
 * connections (autocannon) against a real listening server, on PGlite and on PostgreSQL.
 *
 *   npm run -s bench:api                          both databases, 10 s per scenario
 *   npm run -s bench:api -- --db pglite --seconds 5
 *   npm run -s bench:api -- --no-write            print only, leave docs/benchmarks.md alone
 *
 * PostgreSQL: TEST_DATABASE_URL, else postgresql://postgres@127.0.0.1:5432/test; a fresh database is created
 * and dropped. The server runs in a child process (this file with --serve) so that the load generator does
 * not share the server's event loop.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import pg from "pg";

// autocannon ships no types; this is the part of its API used here.
type AutocannonInstance = PromiseLike<{ errors: number; timeouts: number }> & {
  on(event: "response", listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
};
const autocannon = createRequire(import.meta.url)("autocannon") as (options: {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
}) => AutocannonInstance;

const REPORTS = 100_000;
const CONNECTIONS = 200;
const SECTION = "## Reports list and search (bench/api-reports.ts)";
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const { values: args } = parseArgs({
  options: {
    serve: { type: "string" },
    "database-url": { type: "string" },
    db: { type: "string", default: "both" },
    seconds: { type: "string", default: "10" },
    "no-write": { type: "boolean", default: false },
  },
});

const scenarios: Array<{ name: string; path: string }> = [
  { name: "list, page 1", path: "/api/reports?page=1&pageSize=12" },
  { name: "list, page 100", path: "/api/reports?page=100&pageSize=12" },
  { name: "search patient name (smith)", path: "/api/reports?search=smith&page=1&pageSize=12" },
  { name: "search study type (carotid)", path: "/api/reports?search=carotid&page=1&pageSize=12" },
  { name: "search exam date (15/03/2024)", path: "/api/reports?search=15%2F03%2F2024&page=1&pageSize=12" },
  { name: "search report number (#54321)", path: "/api/reports?search=%2354321&page=1&pageSize=12" },
];

// ---------------------------------------------------------------------------------------------- server

async function serve(kind: "pglite" | "postgres", databaseUrl: string | undefined) {
  const { buildApp, defaultDeps } = await import("../server/app");
  const { loadConfig } = await import("../server/config");
  const { openDatabase } = await import("../server/db/client");
  const { FileStore } = await import("../server/platform/file-store");
  const { createLogger } = await import("../server/platform/logger");

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-bench-"));
  const database = await openDatabase({ databaseUrl: kind === "postgres" ? databaseUrl : undefined, dataDir });
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" });
  const app = await buildApp(
    defaultDeps({
      config,
      database,
      fileStore: new FileStore(path.join(dataDir, "files"), randomBytes(32)),
      logger: createLogger("silent"),
      webRoot: null,
    }),
  );
  const email = `bench-${Date.now()}@clinic.test`;
  const password = "correct horse battery";
  const registered = await app.inject({
    method: "POST",
    url: "/api/clinics/register",
    payload: { name: "Bench Clinic", email, adminFirstName: "Ben", adminLastName: "Ch", password },
  });
  const { clinicId } = registered.json() as { clinicId: number };
  const login = await app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password } });
  const sid = login.cookies.find((c) => c.name === "sid")!.value;

  const started = performance.now();
  await seedReports(database.db, clinicId);
  const seedSeconds = (performance.now() - started) / 1000;

  await app.listen({ port: 0, host: "127.0.0.1" });
  const port = (app.server.address() as { port: number }).port;
  process.stdout.write(`READY ${JSON.stringify({ port, cookie: `sid=${sid}`, seedSeconds })}\n`);
  const stop = async () => {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
}

/** One INSERT ... SELECT: names from 40 x 50 first and last names, 13 study types, three years of dates. */
async function seedReports(db: import("../server/db/client").Db, clinicId: number) {
  const first = ["Alice", "Bob", "Carol", "Dan", "Eve", "Frank", "Grace", "Hugo", "Ivy", "Jack"]
    .concat(["Kara", "Liam", "Mia", "Noah", "Olga", "Paul", "Quinn", "Rosa", "Sam", "Tina"])
    .concat(["Uma", "Victor", "Wendy", "Xavier", "Yara", "Zane", "Amir", "Bea", "Chen", "Dara"])
    .concat(["Emil", "Fay", "Gus", "Hana", "Ian", "Jo", "Kofi", "Lena", "Marek", "Nia"]);
  const last = ["Smith", "Jones", "Brown", "Taylor", "Wilson", "Davies", "Evans", "Thomas", "Johnson", "Roberts"]
    .concat(["Walker", "Wright", "Robinson", "Thompson", "White", "Hughes", "Edwards", "Green", "Hall", "Wood"])
    .concat(["Harris", "Lewis", "Martin", "Jackson", "Clarke", "Clark", "Turner", "Hill", "Scott", "Cooper"])
    .concat(["Morris", "Ward", "Moore", "King", "Watson", "Baker", "Harrison", "Morgan", "Patel", "Young"])
    .concat(["Allen", "Mitchell", "James", "Anderson", "Phillips", "Lee", "Bell", "Parker", "Davis", "Nguyen"]);
  const types = ["Lower Limb Venous", "Upper Limb Venous", "Lower Limb Arterial", "Upper Limb Arterial"]
    .concat(["Carotid Duplex", "Vertebral Duplex", "Abdominal Aorta", "Renal Duplex", "Mesenteric Duplex"])
    .concat(["DVT Assessment", "AV Fistula/Graft", "Post Endovenous Intervention", "Transcranial Doppler"]);
  const arr = (items: string[]) => sql.raw(`array[${items.map((s) => `'${s.replace(/'/g, "''")}'`).join(",")}]`);
  await db.execute(sql`
    insert into reports (clinic_id, patient_name, patient_dob, exam_date, study_type, indication, findings,
                         impression, is_draft, generated_at, updated_at)
    select ${clinicId},
           (${arr(first)})[1 + (i % ${first.length})] || ' ' || (${arr(last)})[1 + ((i / ${first.length}) % ${last.length})],
           date '1935-01-01' + (i * 37 % 25000),
           date '2023-01-01' + (i % 1100),
           (${arr(types)})[1 + (i % ${types.length})],
           'Follow-up of known disease.',
           'Right internal carotid artery: proximal PSV 123 cm/s, EDV 26 cm/s. Left internal carotid artery: PSV 80 cm/s.',
           'Right internal carotid artery: 50-69% stenosis.',
           i % 3 <> 0,
           timestamptz '2023-01-01 00:00:00+00' + make_interval(mins => i * 15),
           now()
    from generate_series(1, ${REPORTS}) as s(i)`);
  await db.execute(sql`analyze reports`);
}

// ---------------------------------------------------------------------------------------------- load

type Figures = { name: string; requests: number; rps: number; p50: number; p95: number; p99: number; errors: number };

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function load(port: number, cookie: string, scenario: { name: string; path: string }, seconds: number) {
  const latencies: number[] = [];
  let errors = 0;
  const instance = autocannon({
    url: `http://127.0.0.1:${port}${scenario.path}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { cookie },
  });
  instance.on("response", (_client: unknown, status: number, _bytes: number, time: number) => {
    latencies.push(time);
    if (status !== 200) errors++;
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  return {
    name: scenario.name,
    requests: latencies.length,
    rps: Math.round(latencies.length / seconds),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    errors: errors + result.errors + result.timeouts,
  } satisfies Figures;
}

async function startServer(kind: "pglite" | "postgres", databaseUrl?: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      fileURLToPath(import.meta.url),
      "--serve",
      kind,
      ...(databaseUrl ? ["--database-url", databaseUrl] : []),
    ],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  const ready = await new Promise<{ port: number; cookie: string; seedSeconds: number }>((resolve, reject) => {
    let buffer = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split("\n").find((l) => l.startsWith("READY "));
      if (line) resolve(JSON.parse(line.slice(6)));
    });
    child.on("exit", (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { child, ...ready };
}

async function runDatabase(kind: "pglite" | "postgres", seconds: number) {
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (kind === "postgres") {
    const serverUrl = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
    const name = `sonoscribe_bench_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    };
  }
  const server = await startServer(kind, databaseUrl);
  console.log(`${kind}: ${REPORTS} reports seeded in ${server.seedSeconds.toFixed(1)} s`);
  try {
    // Warm-up: plan caches, JIT, connection pool.
    await load(server.port, server.cookie, scenarios[0]!, 2);
    const figures: Figures[] = [];
    for (const scenario of scenarios) {
      const f = await load(server.port, server.cookie, scenario, seconds);
      console.log(
        `  ${f.name.padEnd(32)} ${String(f.rps).padStart(6)} req/s  p50 ${f.p50} ms  p95 ${f.p95} ms  p99 ${f.p99} ms  errors ${f.errors}`,
      );
      figures.push(f);
    }
    return { kind, seedSeconds: server.seedSeconds, figures };
  } finally {
    server.child.kill("SIGTERM");
    await new Promise((resolve) => server.child.once("exit", resolve));
    await dropDatabase();
  }
}

function markdown(runs: Awaited<ReturnType<typeof runDatabase>>[], seconds: number): string {
  const loadAverage = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ");
  const lines = [
    SECTION,
    "",
    `${REPORTS.toLocaleString("en")} reports in one clinic, ${CONNECTIONS} concurrent connections (autocannon), ${seconds} s per`,
    "scenario after a 2 s warm-up, one server process on a real port, signed in with a session cookie (every request",
    "loads its session). The server runs in a child process; the load generator shares the same machine",
    `(${os.cpus().length} CPU cores, ${os.cpus()[0]?.model.trim() ?? "unknown CPU"}; load average ${loadAverage} when the run ended).`,
    `Target: p99 < 50 ms. Run on ${new Date().toISOString().slice(0, 10)}. Requests still queued when a scenario's time ran out are`,
    "not counted, so under overload the percentiles understate the wait.",
    "",
    "| database | scenario | req/s | p50 ms | p95 ms | p99 ms | errors |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const run of runs) {
    for (const f of run.figures) {
      const ms = (v: number) => (Number.isFinite(v) ? String(Math.round(v)) : "none answered");
      lines.push(`| ${run.kind} | ${f.name} | ${f.rps} | ${ms(f.p50)} | ${ms(f.p95)} | ${ms(f.p99)} | ${f.errors} |`);
    }
  }
  lines.push(
    "",
    "Errors are mostly requests that timed out (autocannon's 10 s) while queued. How the queries are served: the",
    "first page is an index range scan of `reports_clinic_live_idx` (clinic, generated_at desc, id desc, live rows",
    "only) and the unfiltered total comes from `report_counters` (kept by triggers), so neither grows with the",
    "clinic's size; name and study-type words use the pg_trgm GIN index `reports_search_trgm_idx`, report numbers",
    "the primary key and exam dates `reports_clinic_exam_date_idx`. Deep pages (OFFSET) grow linearly with the",
    "page number.",
    "",
  );
  return lines.join("\n");
}

function writeSection(text: string) {
  const file = path.join(root, "docs", "benchmarks.md");
  const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmarks\n";
  const start = current.indexOf(SECTION);
  let next: string;
  if (start === -1) {
    next = `${current.replace(/\s*$/, "")}\n\n${text}`;
  } else {
    const after = current.indexOf("\n## ", start + SECTION.length);
    next = current.slice(0, start) + text + (after === -1 ? "" : current.slice(after + 1));
  }
  fs.writeFileSync(file, next.endsWith("\n") ? next : `${next}\n`);
}

if (args.serve) {
  await serve(args.serve as "pglite" | "postgres", args["database-url"]);
} else {
  const seconds = Number(args.seconds);
  const kinds = args.db === "both" ? (["pglite", "postgres"] as const) : [args.db as "pglite" | "postgres"];
  const runs = [];
  for (const kind of kinds) runs.push(await runDatabase(kind, seconds));
  const text = markdown(runs, seconds);
  if (!args["no-write"]) writeSection(text);
  console.log(`\n${text}`);
}

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
import pg from "pg";
import { FIRST_NAMES, LAST_NAMES, seedReports } from "./report-seed";

// autocannon ships no types; this is the part of its API used here.
type AutocannonInstance = PromiseLike<{ errors: number; timeouts: number }> & {
  on(event: "response", listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
};
const autocannon = createRequire(import.meta.url)("autocannon") as (options: {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
  requests?: Array<{ setupRequest: (request: { path: string }) => { path: string } }>;
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
    /** Runs only the scenarios whose name contains this text (for profiling one of them). */
    only: { type: "string" },
  },
});

type Scenario = {
  name: string;
  path: string;
  /** A fresh path for every request: searches a memo cannot all have seen. */
  nextPath?: () => string;
  /** Edits a report through the API this many times a second while the scenario runs. */
  writesPerSecond?: number;
};

const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)]!;
const randomInt = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));
const searchPath = (term: string) => `/api/reports?search=${encodeURIComponent(term)}&page=1&pageSize=12`;

/** Any of: a report number (100,000), an exam date (1,100), a first and last name (2,000), a list page (500). */
function distinctPath(): string {
  switch (randomInt(0, 3)) {
    case 0:
      return searchPath(`#${randomInt(1, REPORTS)}`);
    case 1: {
      const day = new Date(Date.UTC(2023, 0, 1) + randomInt(0, 1099) * 86_400_000);
      const two = (n: number) => String(n).padStart(2, "0");
      return searchPath(`${two(day.getUTCDate())}/${two(day.getUTCMonth() + 1)}/${day.getUTCFullYear()}`);
    }
    case 2:
      return searchPath(`${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`);
    default:
      return `/api/reports?page=${randomInt(1, 500)}&pageSize=12`;
  }
}

const scenarios: Scenario[] = [
  { name: "list, page 1", path: "/api/reports?page=1&pageSize=12" },
  { name: "list, page 100", path: "/api/reports?page=100&pageSize=12" },
  { name: "search patient name (smith)", path: searchPath("smith") },
  { name: "search study type (carotid)", path: searchPath("carotid") },
  { name: "search exam date (15/03/2024)", path: searchPath("15/03/2024") },
  { name: "search report number (#54321)", path: searchPath("#54321") },
  { name: "recent (50 reports)", path: "/api/reports/recent" },
  { name: "list, page 1, 10 edits/s", path: "/api/reports?page=1&pageSize=12", writesPerSecond: 10 },
  { name: "mixed distinct searches and pages", path: "/api/reports", nextPath: distinctPath },
];

// ---------------------------------------------------------------------------------------------- server

async function serve(kind: "pglite" | "postgres", databaseUrl: string | undefined) {
  const { buildApp, defaultDeps } = await import("../server/app");
  const { loadConfig } = await import("../server/config");
  const { openDatabase } = await import("../server/db/client");
  const { LocalFileStore } = await import("../server/platform/file-store");
  const { createLogger } = await import("../server/platform/logger");

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-bench-"));
  const database = await openDatabase({ databaseUrl: kind === "postgres" ? databaseUrl : undefined, dataDir });
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" });
  const app = await buildApp(
    defaultDeps({
      config,
      database,
      fileStore: new LocalFileStore(path.join(dataDir, "files"), randomBytes(32)),
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
  if (registered.statusCode !== 201) throw new Error(`register: ${registered.statusCode} ${registered.body}`);
  const login = await app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password } });
  const sid = login.cookies.find((c) => c.name === "sid")!.value;
  const me = await app.inject({ url: "/api/auth/user", headers: { cookie: `sid=${sid}` } });
  const { clinicId } = me.json() as { clinicId: number };

  const started = performance.now();
  await seedReports(database.db, clinicId, REPORTS);
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

// ---------------------------------------------------------------------------------------------- load

type Figures = {
  name: string;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  note: string;
};

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Edits the newest report through the API (as the editor does) at a steady rate until stopped. */
function startWriter(base: string, cookie: string, perSecond: number) {
  let stopped = false;
  let writes = 0;
  let failures = 0;
  const done = (async () => {
    const page = (await (await fetch(`${base}/api/reports?page=1&pageSize=1`, { headers: { cookie } })).json()) as {
      items: Array<{ id: number }>;
    };
    const id = page.items[0]!.id;
    while (!stopped) {
      const res = await fetch(`${base}/api/reports/${id}`, {
        method: "PATCH",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ impression: `Edited ${writes}.` }),
      }).catch(() => null);
      if (res?.ok) writes++;
      else failures++;
      await res?.arrayBuffer();
      await new Promise((r) => setTimeout(r, 1000 / perSecond));
    }
  })();
  return async () => {
    stopped = true;
    await done;
    return { writes, failures };
  };
}

async function load(port: number, cookie: string, scenario: Scenario, seconds: number) {
  const latencies: number[] = [];
  const paths = new Set<string>();
  let errors = 0;
  const base = `http://127.0.0.1:${port}`;
  const stopWriter = scenario.writesPerSecond ? startWriter(base, cookie, scenario.writesPerSecond) : null;
  const instance = autocannon({
    url: `${base}${scenario.path}`,
    connections: CONNECTIONS,
    duration: seconds,
    // What a browser sends: the session cookie and the encodings it accepts.
    headers: { cookie, "accept-encoding": "gzip, deflate, br" },
    ...(scenario.nextPath
      ? {
          requests: [
            {
              setupRequest: (request: { path: string }) => {
                const path = scenario.nextPath!();
                paths.add(path);
                return { ...request, path };
              },
            },
          ],
        }
      : {}),
  });
  instance.on("response", (_client: unknown, status: number, _bytes: number, time: number) => {
    latencies.push(time);
    if (status !== 200) errors++;
  });
  const result = await instance;
  const written = stopWriter ? await stopWriter() : null;
  latencies.sort((a, b) => a - b);
  const notes = [
    scenario.nextPath ? `${paths.size} distinct queries in ${latencies.length} requests` : "",
    written ? `${written.writes} edits, ${written.failures} failed` : "",
  ].filter(Boolean);
  return {
    name: scenario.name,
    requests: latencies.length,
    rps: Math.round(latencies.length / seconds),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    errors: errors + result.errors + result.timeouts,
    note: notes.join("; "),
  } satisfies Figures;
}

async function startServer(kind: "pglite" | "postgres", databaseUrl?: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      // e.g. BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the server under load.
      ...(process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean),
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
    for (const scenario of scenarios.filter((s) => !args.only || s.name.includes(args.only!))) {
      const f = await load(server.port, server.cookie, scenario, seconds);
      console.log(
        `  ${f.name.padEnd(34)} ${String(f.rps).padStart(6)} req/s  p50 ${f.p50.toFixed(1)} ms  p95 ${f.p95.toFixed(1)} ms  p99 ${f.p99.toFixed(1)} ms  errors ${f.errors}  ${f.note}`,
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
    "scenario after a 2 s warm-up, one server process on a real port, sending what a browser sends (the session",
    "cookie, `accept-encoding: gzip, deflate, br`). The server runs in a child process; the load generator shares the machine",
    `(${os.cpus().length} CPU cores, ${os.cpus()[0]?.model.trim() ?? "unknown CPU"}; load average ${loadAverage} when the run ended).`,
    `Target: p99 < 50 ms. Run on ${new Date().toISOString().slice(0, 10)}. Requests still queued when a scenario's time ran out are`,
    "not counted, so under overload the percentiles understate the wait.",
    "",
    "| database | scenario | req/s | p50 ms | p95 ms | p99 ms | errors | notes |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
  ];
  for (const run of runs) {
    for (const f of run.figures) {
      const ms = (v: number) => (Number.isFinite(v) ? String(Math.round(v)) : "none answered");
      lines.push(
        `| ${run.kind} | ${f.name} | ${f.rps} | ${ms(f.p50)} | ${ms(f.p95)} | ${ms(f.p99)} | ${f.errors} | ${f.note} |`,
      );
    }
  }
  lines.push(
    "",
    "Errors are requests that failed or timed out (autocannon's 10 s) while queued. Every request checks its session,",
    "user, clinic and the clinic's report-list version, a read reused while nothing it depends on may have changed",
    "(docs/decisions/008). Answers are remembered per (clinic, version, normalized",
    "query), so repeated queries are cheap and the edits scenario shows the cost of invalidation; the mixed scenario",
    "shows queries the memo has mostly not seen. A miss is one statement: the page's ids in index order, names joined",
    "for those 12 rows, the total as a subquery (from `report_counters` when there is no search; otherwise pg_trgm",
    "`reports_search_trgm_idx`, the primary key for report numbers, `reports_clinic_exam_date_idx` for dates).",
    "",
  );
  return lines.join("\n");
}

/**
 * Puts the new table in place of the section's table, keeping the written analysis around it; a missing section is
 * appended whole.
 */
function writeSection(text: string) {
  const file = path.join(root, "docs", "benchmarks.md");
  const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmarks\n";
  const start = current.indexOf(SECTION);
  const table = (from: string, at: number) => {
    const head = from.indexOf("\n| database |", at);
    return { head, end: from.indexOf("\n\n", head) };
  };
  let next: string;
  if (start === -1) {
    next = `${current.replace(/\s*$/, "")}\n\n${text}`;
  } else {
    const old = table(current, start);
    const fresh = table(text, 0);
    next = current.slice(0, old.head) + text.slice(fresh.head, fresh.end) + current.slice(old.end);
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

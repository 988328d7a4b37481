// Idle resident memory of the compiled server (issue 30 item 4), and of a bare PGlite beside it.
//
//   npx tsx bench/idle-rss.ts --db pglite|postgres [--checkout DIR]... [--runs N] [--settle S]
//   npx tsx bench/idle-rss.ts --bare-pglite [--runs N] [--settle S] [--pglite-option JSON]
//
// Server: each run starts `node DIR/dist/node/server/main.js` (what `npm start` runs; build it first with
// `node scripts/build-server.mjs` in DIR) on a new data directory (and, on PostgreSQL, a new database on
// TEST_DATABASE_URL's server, default postgres://postgres@127.0.0.1:5432), waits for /api/health, sends nothing
// more and reads VmRSS `settle` seconds later (default 15); then it stops the server and starts it again on the same
// directory and database ("reopened": no initdb, no migration to apply) and reads it the same way. Several
// --checkout folders are run in turn within each run (before, after, before, after...), so drift of the machine
// falls on both alike. Memory does not depend on the machine's load; the time to start does.
//
// Bare PGlite: a plain node process opens PGlite (with pg_trgm, as server/db/client.ts does, and without) on an
// empty directory, runs `select 1`, and reports VmRSS after `settle` seconds; then it reopens that directory.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const runs = Number(option("--runs") ?? 2);
const settleMs = Number(option("--settle") ?? 15) * 1000;
const db = option("--db") ?? "pglite";
const checkouts = args.flatMap((a, i) => (a === "--checkout" ? [path.resolve(args[i + 1]!)] : []));
if (checkouts.length === 0) checkouts.push(path.resolve(import.meta.dirname, ".."));
const pgServer = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

function status(pid: number): { rss: number; hwm: number } {
  const text = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(text.match(new RegExp(`^${key}:\\s+(\\d+)`, "m"))![1]) / 1024;
  return { rss: Math.round(kb("VmRSS")), hwm: Math.round(kb("VmHWM")) };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function psql(sql: string) {
  execFileSync("psql", [pgServer, "-Atqc", sql], { stdio: ["ignore", "ignore", "inherit"] });
}

async function waitHealthy(child: ChildProcess, port: number, timeoutMs = 180_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) before answering`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return Date.now() - started;
    } catch {}
    await sleep(200);
  }
  throw new Error("server did not answer /api/health in time");
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  await exited;
  clearTimeout(timer);
}

async function serverOnce(checkout: string, dataDir: string, databaseUrl: string | undefined) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(checkout, "dist/node/server/main.js")], {
    cwd: checkout,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    const startMs = await waitHealthy(child, port);
    const atHealth = status(child.pid!);
    await sleep(settleMs);
    return { startMs, atHealth: atHealth.rss, ...status(child.pid!) };
  } finally {
    await stop(child);
  }
}

async function serverRuns() {
  console.log(`server on ${db}, ${runs} runs, settle ${settleMs / 1000} s; checkouts: ${checkouts.join(", ")}`);
  console.log("run\tcheckout\tstart\tstart s\tRSS at health MB\tidle RSS MB\tpeak (VmHWM) MB\tload");
  for (let run = 1; run <= runs; run++) {
    // Alternate which checkout goes first, so neither always runs on the warmer or cooler machine.
    const order = run % 2 === 1 ? checkouts : [...checkouts].reverse();
    for (const checkout of order) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "idle-rss-"));
      const dbName = `idle_rss_${process.pid}_${run}_${checkouts.indexOf(checkout)}`;
      let databaseUrl: string | undefined;
      if (db === "postgres") {
        psql(`create database ${dbName}`);
        const url = new URL(pgServer);
        url.pathname = `/${dbName}`;
        databaseUrl = url.toString();
      }
      try {
        for (const start of ["fresh", "reopened"]) {
          const r = await serverOnce(checkout, dataDir, databaseUrl);
          console.log(
            `${run}\t${path.basename(checkout)}\t${start}\t${(r.startMs / 1000).toFixed(1)}\t${r.atHealth}\t${r.rss}\t${r.hwm}\t${load()}`,
          );
        }
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
        if (db === "postgres") psql(`drop database if exists ${dbName} with (force)`);
      }
    }
  }
}

/** The child's script: PGlite alone, as server/db/client.ts opens it (less our code). */
const bareScript = `
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
const [dir, trgm, settle, extra] = process.argv.slice(2);
const rss = () => Math.round(process.memoryUsage.rss() / 1048576);
const before = rss();
const t = Date.now();
const db = await PGlite.create({ dataDir: dir, ...(trgm === "1" ? { extensions: { pg_trgm } } : {}), ...JSON.parse(extra) });
await db.query("select 1");
const opened = rss();
const ms = Date.now() - t;
await new Promise((r) => setTimeout(r, Number(settle)));
const m = process.memoryUsage();
console.log(JSON.stringify({ before, opened, ms, idle: rss(), heap: Math.round(m.heapUsed / 1048576), external: Math.round(m.external / 1048576), arrayBuffers: Math.round(m.arrayBuffers / 1048576) }));
await db.close();
`;

async function bareRuns() {
  const extra = option("--pglite-option") ?? "{}";
  const root = path.resolve(import.meta.dirname, "..");
  const script = path.join(root, `node_modules/.cache/idle-rss-bare-${process.pid}.mjs`);
  fs.mkdirSync(path.dirname(script), { recursive: true });
  fs.writeFileSync(script, bareScript);
  console.log(`bare PGlite, ${runs} runs, settle ${settleMs / 1000} s, options ${extra}`);
  console.log(
    "run\tpg_trgm\tstart\topen s\tRSS before MB\tafter open MB\tidle MB\tVmHWM MB\tJS heap MB\texternal MB\tload",
  );
  try {
    for (let run = 1; run <= runs; run++) {
      for (const trgm of ["1", "0"]) {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "idle-rss-bare-"));
        try {
          for (const start of ["fresh", "reopened"]) {
            const child = spawn(process.execPath, [script, dir, trgm, String(settleMs), extra], {
              cwd: root,
              stdio: ["ignore", "pipe", "inherit"],
            });
            let out = "";
            child.stdout!.on("data", (d) => {
              out += d;
            });
            let hwm = 0;
            const watch = setInterval(() => {
              try {
                hwm = status(child.pid!).hwm;
              } catch {}
            }, 100);
            await new Promise((r) => child.once("exit", r));
            clearInterval(watch);
            const r = JSON.parse(out);
            console.log(
              `${run}\t${trgm === "1" ? "yes" : "no"}\t${start}\t${(r.ms / 1000).toFixed(1)}\t${r.before}\t${r.opened}\t${r.idle}\t${hwm}\t${r.heap}\t${r.external}\t${load()}`,
            );
          }
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      }
    }
  } finally {
    fs.rmSync(script, { force: true });
  }
}

await (args.includes("--bare-pglite") ? bareRuns() : serverRuns());

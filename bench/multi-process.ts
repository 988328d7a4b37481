import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startTestS3 } from "../server/test-support/s3-server";
import { CallTimer, Client, freePort, registerAndSignIn } from "./real-server";

/**
 * Issue 27, item 5: the multi-process setup as docs/deploy.md starts it, proved and measured here. Two `npm run
 * serve` web processes and one `npm run worker` on a fresh PostgreSQL database and an S3-compatible server
 * (s3rver), behind Debian's nginx. A batch of worksheets is queued for OCR; while one is being read, one web
 * process and the worker are killed with SIGKILL; the worker is started again, and the killed job must come back
 * (its lease lapses: OCR_LEASE_SECONDS). Then it measures the mixed workload through nginx with one and with two web
 * processes, and OCR pages per minute with one and two workers, and checks: every accepted upload read
 * exactly once (one result, one audit event), no OCR job lost or left in the queue, no half-written worksheet,
 * and `npm run audit:verify` intact. Exits 1 when a check fails.
 *
 *   npm run bench:multi                       (about 10 minutes)
 * Options: --users N (mixed workload, default 8), --seconds S (each mixed run, default 40), --pages K (each OCR
 * throughput batch, default 4). BENCH_PG_URL: the PostgreSQL server's admin URL (default
 * postgresql://postgres@localhost/test; a database is created there and dropped after). NGINX: default
 * /usr/sbin/nginx. --profile DIR: a CPU profile of the first web process (every call of the one-process run passes
 * through it), written when it stops. --mixed-only: no kill proof, no OCR throughput and no checks: one worksheet
 * read, then the two mixed runs (a before/after comparison of the mixed workload in a few minutes).
 */

const option = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const users = option("users", 8);
const seconds = option("seconds", 40);
const pages = option("pages", 4);
/** --profile DIR: the first web process writes a V8 CPU profile there when it stops (node --cpu-prof). */
const profileIndex = process.argv.indexOf("--profile");
const profileDir = profileIndex > 0 ? path.resolve(process.argv[profileIndex + 1]!) : null;
const mixedOnly = process.argv.includes("--mixed-only");
const adminUrl = process.env.BENCH_PG_URL ?? "postgresql://postgres@localhost/test";
const nginxBinary = process.env.NGINX ?? "/usr/sbin/nginx";
const root = path.resolve(import.meta.dirname, "..");
const fixtures = path.join(root, "fixtures/worksheets");
const worksheetFiles = fs
  .readdirSync(fixtures)
  .filter((name) => /^ws-clean-\d+\.png$/.test(name))
  .sort();
const work = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-multi-"));
const log = (line: string) => process.stdout.write(`[${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const uptime = () => spawnSync("uptime", { encoding: "utf8" }).stdout.trim();

// ---- the pieces: processes in their own process groups (a kill -9 takes what they forked too), nginx ----

type Piece = { name: string; child: ChildProcess; port?: number };
const pieces = new Set<Piece>();

function startPiece(name: string, command: string[], env: Record<string, string>, port?: number): Piece {
  const out = fs.openSync(path.join(work, `${name}.log`), "a");
  const child = spawn(command[0]!, command.slice(1), {
    cwd: root,
    detached: true,
    stdio: ["ignore", out, out],
    env: { ...process.env, ...env },
  });
  const piece = { name, child, port };
  pieces.add(piece);
  child.once("exit", () => pieces.delete(piece));
  return piece;
}

function kill(piece: Piece, signal: NodeJS.Signals) {
  try {
    process.kill(-piece.child.pid!, signal);
  } catch {
    // Already gone.
  }
}

async function stop(piece: Piece, signal: NodeJS.Signals = "SIGTERM") {
  if (piece.child.exitCode !== null || piece.child.signalCode !== null) return;
  const exited = new Promise((r) => piece.child.once("exit", r));
  kill(piece, signal);
  await Promise.race([exited, sleep(15_000)]);
  kill(piece, "SIGKILL");
}

async function waitForHealth(base: string, piece: Piece) {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (piece.child.exitCode !== null) throw new Error(`${piece.name} stopped; see ${work}/${piece.name}.log`);
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await sleep(300);
  }
  throw new Error(`${piece.name} did not answer in 180 s; see ${work}/${piece.name}.log`);
}

let env: Record<string, string> = {};

/** Each web process's data directory; its audit head anchor is there (audit:verify reads the first one's). */
const webDataDirs: string[] = [];

async function startWeb(name: string, port?: number, profile = false): Promise<Piece> {
  const listen = port ?? (await freePort());
  const dataDir = fs.mkdtempSync(path.join(work, `${name}-data-`));
  webDataDirs.push(dataDir);
  const piece = startPiece(
    name,
    // What `npm run serve` runs, with node's own flags when profiled (NODE_OPTIONS may not carry --cpu-prof).
    profile && profileDir
      ? ["node", "--cpu-prof", `--cpu-prof-dir=${profileDir}`, "scripts/start.mjs", "--role=web"]
      : ["npm", "run", "-s", "serve"],
    { ...env, DATA_DIR: dataDir, PORT: String(listen) },
    listen,
  );
  await waitForHealth(`http://127.0.0.1:${listen}`, piece);
  return piece;
}

function startWorker(name: string): Piece {
  const dataDir = fs.mkdtempSync(path.join(work, `${name}-data-`));
  return startPiece(name, ["npm", "run", "-s", "worker"], {
    ...env,
    DATA_DIR: dataDir,
    AUDIT_CHECKPOINT_DIR: path.join(work, "checkpoints"),
  });
}

/** nginx in the foreground on a free port, spreading requests over the given web ports (round robin). */
async function startNginx(name: string, webPorts: number[]): Promise<string> {
  const dir = path.join(work, name);
  for (const sub of ["", "body", "proxy", "fastcgi", "uwsgi", "scgi"])
    fs.mkdirSync(path.join(dir, sub), { recursive: true });
  fs.chmodSync(dir, 0o777);
  for (const sub of ["body", "proxy"]) fs.chmodSync(path.join(dir, sub), 0o777);
  const port = await freePort();
  const conf = `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream sonoscribe {
${webPorts.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join("\n")}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 15m;
    # Bodies and answers in memory: nginx's workers (user nobody) cannot write into this private directory.
    client_body_buffer_size 16m;
    location / {
      proxy_max_temp_file_size 0;
      proxy_pass http://sonoscribe;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_read_timeout 90s;
    }
  }
}
`;
  fs.writeFileSync(path.join(dir, "nginx.conf"), conf);
  const piece = startPiece(
    name,
    [nginxBinary, "-c", path.join(dir, "nginx.conf"), "-p", dir, "-e", path.join(dir, "error.log")],
    {},
  );
  const base = `http://127.0.0.1:${port}`;
  await waitForHealth(base, piece);
  return base;
}

// ---- the workload ----

const calls = new CallTimer();
const { samples, errorExamples } = calls;
const timed = calls.timed.bind(calls);

type Clinic = { email: string; password: string; worksheetId: number; physicianId: number; searchTerm: string };

/**
 * One simulated user: list, search, open, generate, edit, export the draft as PDF or DOCX, with a short pause.
 * (Signing is left out: it needs a physician with an account and a re-authentication, not what is measured here.)
 */
async function simulatedUser(base: string, clinic: Clinic, until: number) {
  const client = new Client(base);
  await client.must("POST", "/api/auth/login", { email: clinic.email, password: clinic.password });
  const pause = () => sleep(Math.random() * 400);
  for (let i = 0; Date.now() < until; i++) {
    const list = await timed<{ items: Array<{ id: number }> }>("list", () => client.call("GET", "/api/reports"));
    await pause();
    await timed("search", () => client.call("GET", `/api/reports?search=${encodeURIComponent(clinic.searchTerm)}`));
    const previous = list?.items[Math.floor(Math.random() * list.items.length)];
    if (previous) await timed("open", () => client.call("GET", `/api/reports/${previous.id}`));
    await pause();
    const report = await timed<{ id: number }>("generate", () =>
      client.call("POST", "/api/reports/generate", {
        worksheetId: clinic.worksheetId,
        physicianId: clinic.physicianId,
      }),
    );
    if (!report) continue;
    await timed("edit", () => client.call("PATCH", `/api/reports/${report.id}`, { impression: `Reviewed ${i}.` }));
    await pause();
    const kind = i % 2 === 0 ? "pdf-file" : "docx";
    await timed(`export ${kind}`, () => client.call("GET", `/api/reports/${report.id}/${kind}`));
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function mixedRun(label: string, base: string, clinic: Clinic) {
  samples.clear();
  const errorsBefore = calls.errorCount();
  const started = Date.now();
  const until = started + seconds * 1000;
  await Promise.all(Array.from({ length: users }, () => simulatedUser(base, clinic, until)));
  const elapsed = (Date.now() - started) / 1000;
  const all = [...samples.values()].flat().sort((a, b) => a - b);
  const line = `| ${label} | ${users} | ${all.length} | ${(all.length / elapsed).toFixed(1)} | ${percentile(all, 0.5).toFixed(0)} | ${percentile(all, 0.99).toFixed(0)} | ${calls.errorCount() - errorsBefore} |`;
  log(`mixed workload, ${label}: ${line}`);
  return line;
}

// ---- uploads and OCR ----

/** Every upload the server accepted (201), by worksheet id. */
const accepted = new Map<number, string>();

async function upload(client: Client, file: string): Promise<number | null> {
  const form = new FormData();
  form.append("worksheet", new Blob([fs.readFileSync(path.join(fixtures, file))], { type: "image/png" }), file);
  const res = await client.call("POST", "/api/worksheets/upload", form).catch(() => null);
  if (res?.status !== 201) {
    log(`upload of ${file} not accepted (${res?.status ?? "no answer"}): the client would send it again`);
    return null;
  }
  const id = (res.json as { id: number }).id;
  accepted.set(id, file);
  return id;
}

/** Queues the worksheet's OCR; a request lost with its web process is asked again (409: it did arrive). */
async function requestOcr(client: Client, id: number) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const res = await client.call("POST", `/api/worksheets/${id}/ocr?wait=0`).catch(() => null);
    if (res && (res.status === 200 || res.status === 202 || res.status === 409)) return;
    await sleep(1000);
  }
  throw new Error(`OCR of worksheet ${id} could not be requested`);
}

async function ocrStates(db: pg.Client, ids: number[]) {
  const { rows } = await db.query<{ id: number; ocr_status: string; ocr_stage: string | null }>(
    "select id, ocr_status, ocr_stage from worksheets where id = any($1)",
    [ids],
  );
  return rows;
}

async function waitForOcr(db: pg.Client, ids: number[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const rows = await ocrStates(db, ids);
    if (rows.length === ids.length && rows.every((r) => r.ocr_status === "completed" || r.ocr_status === "failed"))
      return true;
    await sleep(1000);
  }
  return false;
}

async function ocrThroughput(label: string, client: Client, db: pg.Client, files: string[]) {
  const ids: number[] = [];
  for (const file of files) {
    const id = await upload(client, file);
    if (id !== null) ids.push(id);
  }
  const started = Date.now();
  for (const id of ids) await requestOcr(client, id);
  const done = await waitForOcr(db, ids, 30 * 60_000);
  const minutes = (Date.now() - started) / 60_000;
  const line = `| ${label} | ${ids.length} | ${(minutes * 60).toFixed(0)} | ${(ids.length / minutes).toFixed(2)} |${done ? "" : " (timed out)"}`;
  log(`OCR throughput, ${label}: ${line}`);
  return line;
}

// ---- the checks ----

async function checks(db: pg.Client, killedIds: number[]) {
  const ids = [...accepted.keys()];
  const failures: string[] = [];
  const rows = await db.query<{
    id: number;
    ocr_status: string;
    ocr_stage: string;
    has_result: boolean;
    ocr_job_id: string;
  }>(
    "select id, ocr_status, ocr_stage, ocr_result is not null as has_result, ocr_job_id from worksheets where id = any($1)",
    [ids],
  );
  for (const row of rows.rows) {
    if (row.ocr_status !== "completed" || row.ocr_stage !== "done" || !row.has_result) {
      failures.push(
        `worksheet ${row.id}: ${row.ocr_status}/${row.ocr_stage}, result ${row.has_result ? "stored" : "missing"}`,
      );
    }
  }
  if (rows.rows.length !== ids.length) failures.push(`${ids.length - rows.rows.length} accepted uploads have no row`);
  const audits = await db.query<{ entity_id: string; n: string }>(
    "select entity_id, count(*) as n from audit_events where action = 'worksheet.ocr_completed' and entity_id = any($1) group by entity_id",
    [ids.map(String)],
  );
  const auditCount = new Map(audits.rows.map((r) => [Number(r.entity_id), Number(r.n)]));
  for (const id of ids) {
    if (auditCount.get(id) !== 1)
      failures.push(`worksheet ${id}: ${auditCount.get(id) ?? 0} "OCR completed" audit events`);
  }
  const jobs = await db.query<{ state: string; n: string }>(
    "select state, count(*) as n from pgboss.job where name = 'ocr' group by state",
  );
  const byState = Object.fromEntries(jobs.rows.map((r) => [r.state, Number(r.n)]));
  for (const state of ["created", "retry", "active", "failed"]) {
    if (byState[state]) failures.push(`${byState[state]} OCR jobs left ${state}`);
  }
  const dead = await db.query<{ n: string }>("select count(*) as n from pgboss.job where name = 'ocr-dead'");
  if (Number(dead.rows[0]!.n) > 0) failures.push(`${dead.rows[0]!.n} OCR jobs in the dead-letter queue`);
  const retried = await db.query<{ worksheet: string; retry_count: number; state: string }>(
    "select data->>'worksheetId' as worksheet, retry_count, state from pgboss.job where name = 'ocr' and (data->>'worksheetId')::int = any($1)",
    [killedIds],
  );
  const audit = spawnSync("npm", ["run", "-s", "audit:verify"], {
    cwd: root,
    // The first web process was never killed: the head of the chain it anchored must still be there.
    env: { ...process.env, ...env, DATA_DIR: webDataDirs[0]! },
    encoding: "utf8",
  });
  if (audit.status !== 0) failures.push(`audit:verify failed: ${audit.stdout}${audit.stderr}`.slice(0, 500));
  return {
    failures,
    byState,
    retried: retried.rows,
    audit: `${audit.stdout}`.trim().split("\n").slice(-3).join(" / "),
  };
}

// ---- the run ----

/** Interrupted (Ctrl-C, timeout): the processes it started go too. */
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    for (const piece of pieces) kill(piece, "SIGKILL");
    process.exit(130);
  });
}

async function main() {
  const adminDb = new pg.Client({ connectionString: adminUrl });
  await adminDb.connect();
  const dbName = `sonoscribe_multi_${randomBytes(4).toString("hex")}`;
  await adminDb.query(`create database ${dbName}`);
  await adminDb.end();
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const s3 = await startTestS3("sonoscribe-multi");
  env = {
    ...s3.env,
    DATABASE_URL: url.toString(),
    FILE_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    AUDIT_KEY: randomBytes(32).toString("hex"),
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
    TRUSTED_PROXIES: "127.0.0.1",
    REGISTRATIONS_PER_HOUR: "1000",
  };
  const db = new pg.Client({ connectionString: url.toString() });
  const report: string[] = [];
  let ok = false;
  try {
    log(`load before: ${uptime()}`);
    log(`logs in ${work}`);
    const web1 = await startWeb("web1", undefined, true);
    let web2 = await startWeb("web2");
    let worker = startWorker("worker1");
    const both = await startNginx("nginx-two", [web1.port!, web2.port!]);
    const one = await startNginx("nginx-one", [web1.port!]);
    await db.connect();
    log(`two web processes (${web1.port}, ${web2.port}), one worker, nginx at ${both} (and ${one} to web1 alone)`);

    const client = new Client(both);
    const { email, password } = await registerAndSignIn(client, "Multi Process Clinic");
    const physician = await client.must<{ id: number }>("POST", "/api/physicians", { name: "Dr. Multi" });

    /** The mixed workload through nginx to one web process, then to both, on a worksheet already read. */
    const mixedRuns = async (worksheetId: number) => {
      const read = await client.must<{ ocrResult: { patientName: string | null } }>(
        "GET",
        `/api/worksheets/${worksheetId}/ocr`,
      );
      const clinic: Clinic = {
        email,
        password,
        worksheetId,
        physicianId: physician.id,
        searchTerm: (read.ocrResult?.patientName ?? "a").split(/[\s,]+/)[0]!.slice(0, 6),
      };
      return [
        "| web processes | users | calls | calls/s | p50 ms | p99 ms | errors |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        await mixedRun("1", one, clinic),
        await mixedRun("2", both, clinic),
      ];
    };

    if (mixedOnly) {
      const id = await upload(client, worksheetFiles[0]!);
      if (id === null) throw new Error("the worksheet upload was refused");
      await requestOcr(client, id);
      if (!(await waitForOcr(db, [id], 10 * 60_000))) throw new Error("the worksheet was not read in 10 minutes");
      report.push(...(await mixedRuns(id)));
      if (errorExamples.length > 0) report.push(`first errors: ${errorExamples.join(" | ")}`);
      ok = calls.errorCount() === 0;
      return;
    }

    // 1. The proof: a batch queued, one web process and the worker killed while a worksheet is being read.
    const batch: number[] = [];
    for (const file of worksheetFiles.slice(0, 6)) {
      const id = await upload(client, file);
      if (id !== null) batch.push(id);
    }
    for (const id of batch) await requestOcr(client, id);
    const deadline = Date.now() + 10 * 60_000;
    let reading: number[] = [];
    while (reading.length === 0 && Date.now() < deadline) {
      reading = (await ocrStates(db, batch))
        .filter((r) => r.ocr_stage === "reading" || r.ocr_stage === "loading")
        .map((r) => r.id);
      if (reading.length === 0) await sleep(200);
    }
    if (reading.length === 0) throw new Error("no worksheet was being read within 10 minutes");
    kill(worker, "SIGKILL");
    kill(web2, "SIGKILL");
    const killedAt = Date.now();
    log(`kill -9 of the worker and web2 while worksheet(s) ${reading.join(", ")} were being read`);
    // Uploads go on through nginx while web2 is down (it sends them to web1).
    for (const file of worksheetFiles.slice(6, 8)) {
      const id = await upload(client, file);
      if (id !== null) {
        batch.push(id);
        await requestOcr(client, id);
      }
    }
    worker = startWorker("worker1-again");
    web2 = await startWeb("web2-again", web2.port);
    log("worker and web2 started again");
    // 2. The killed job comes back once its lease lapses, and is read once.
    const back = await waitForOcr(db, reading, 20 * 60_000);
    const recoverySeconds = (Date.now() - killedAt) / 1000;
    log(
      back
        ? `the killed job's worksheet was read ${recoverySeconds.toFixed(0)} s after the kill`
        : "the killed job did not come back in 20 minutes",
    );
    const others = batch.filter((id) => !reading.includes(id));
    await waitForOcr(db, others, 20 * 60_000);
    const base = (await ocrStates(db, others)).find((r) => r.ocr_status === "completed");
    if (!base) throw new Error("no worksheet of the batch was read after the restart");

    // 3. The measurements.
    report.push(...(await mixedRuns(base.id)));
    report.push("", "| workers | pages | seconds | pages/min |", "| --- | ---: | ---: | ---: |");
    report.push(await ocrThroughput("1", client, db, worksheetFiles.slice(8, 8 + pages)));
    const worker2 = startWorker("worker2");
    report.push(await ocrThroughput("2", client, db, worksheetFiles.slice(8 + pages, 8 + 2 * pages)));
    await stop(worker2);

    // 4. The checks.
    const outcome = await checks(db, reading);
    report.push(
      "",
      `accepted uploads: ${accepted.size}; OCR jobs by state: ${JSON.stringify(outcome.byState)}`,
      `killed job(s): ${JSON.stringify(outcome.retried)}, read again ${recoverySeconds.toFixed(0)} s after the kill`,
      `audit:verify: ${outcome.audit}`,
      outcome.failures.length === 0 ? "checks: all passed" : `checks FAILED:\n  ${outcome.failures.join("\n  ")}`,
    );
    if (errorExamples.length > 0) report.push(`first errors: ${errorExamples.join(" | ")}`);
    ok = outcome.failures.length === 0 && back;
  } finally {
    report.push(`load after: ${uptime()}`);
    process.stdout.write(`\n${report.join("\n")}\n`);
    await db.end().catch(() => {});
    await Promise.all([...pieces].map((piece) => stop(piece)));
    await s3.close();
    const dropper = new pg.Client({ connectionString: adminUrl });
    await dropper.connect();
    await dropper.query(`drop database if exists ${dbName} with (force)`);
    await dropper.end();
    if (ok) fs.rmSync(work, { recursive: true, force: true });
  }
  process.exitCode = ok ? 0 : 1;
}

await main();

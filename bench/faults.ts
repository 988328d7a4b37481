import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { type Database, openDatabase, queryRows } from "../server/db/client";
import { LocalFileStore } from "../server/platform/file-store";
import { loadSecrets } from "../server/platform/secrets";
import { Client, type RealServer, registerAndSignIn, startServer } from "./real-server";

/**
 * kill -9 the real server during an upload, an OCR, a generation, a finalize and an amend, start it again and
 * check what was left: the database opens, no half-written rows, every stored file decrypts, no unreferenced
 * files, interrupted OCR shows as failed. PGlite always; PostgreSQL too when TEST_DATABASE_URL is set.
 *   npm run bench:faults                 1 kill per operation (under 2 minutes per database)
 *   npm run bench:faults -- --repeats 5  the full run
 */

const root = path.resolve(import.meta.dirname, "..");
const worksheetPng = fs.readFileSync(path.join(root, "fixtures/worksheets/ws-clean-000.png"));
const repeats = Number(process.argv[process.argv.indexOf("--repeats") + 1] || 1) || 1;
const operations = ["upload", "ocr", "generate", "finalize", "amend"] as const;
type Operation = (typeof operations)[number];

type Server = RealServer;
type Target = { kind: "pglite" | "postgres"; dataDir: string; databaseUrl?: string };
type Finding = { operation: string; killAfterMs: number; problems: string[]; leftovers: number; outcome: string };

async function startTarget(target: Target): Promise<Server> {
  return startServer({ DATA_DIR: target.dataDir, DATABASE_URL: target.databaseUrl ?? "", OCR_THREADS: "1" });
}

/** SIGKILL, then report (and end) any process of its group still running: an orphaned OCR child. */
async function killHard(server: Server): Promise<string[]> {
  const pid = server.child.pid!;
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  process.kill(pid, "SIGKILL");
  await exited;
  // A child that notices its parent is gone needs a moment to exit; past that it is an orphan.
  await new Promise((r) => setTimeout(r, 2000));
  let orphans: Array<{ pid: number; command: string }> = [];
  try {
    orphans = execFileSync("ps", ["-o", "pid=,stat=,args=", "-g", String(pid)], { encoding: "utf8" })
      .split("\n")
      // A zombie (state Z) has exited already; only its parent's death left it unreaped.
      .map((line) => line.trim().match(/^(\d+)\s+([^Z]\S*)\s+(.*)$/))
      .filter((m): m is RegExpMatchArray => m !== null)
      .map((m) => ({ pid: Number(m[1]), command: m[3]!.slice(0, 120) }));
  } catch {
    orphans = [];
  }
  for (const orphan of orphans) process.kill(orphan.pid, "SIGKILL");
  return orphans.map((o) => o.command);
}

const uploadForm = () => {
  const form = new FormData();
  form.append("worksheet", new Blob([worksheetPng], { type: "image/png" }), "ws-clean-000.png");
  return form;
};

type Setup = { physicianId: number; ocrWorksheetId: number };

/** What the operation needs beforehand, and the request that will be interrupted. */
type Prepared = { request: () => Promise<unknown>; worksheetId?: number };

async function prepare(client: Client, setup: Setup, operation: Operation): Promise<Prepared> {
  const generate = () =>
    client.must("POST", "/api/reports/generate", { worksheetId: setup.ocrWorksheetId, physicianId: setup.physicianId });
  switch (operation) {
    case "upload":
      return { request: () => client.call("POST", "/api/worksheets/upload", uploadForm()) };
    case "ocr": {
      const worksheet = await client.must("POST", "/api/worksheets/upload", uploadForm());
      return { request: () => client.call("POST", `/api/worksheets/${worksheet.id}/ocr`), worksheetId: worksheet.id };
    }
    case "generate":
      return { request: generate };
    case "finalize": {
      const report = await generate();
      return { request: () => client.call("POST", `/api/reports/${report.id}/finalize`) };
    }
    case "amend": {
      const report = await generate();
      await client.must("POST", `/api/reports/${report.id}/finalize`);
      const body = { reason: "Fault test", impression: "Amended text." };
      return { request: () => client.call("POST", `/api/reports/${report.id}/amend`, body) };
    }
  }
}

/** The invariants after a crash, read straight from the database and the file store. */
async function checkIntegrity(target: Target, afterStart = false): Promise<{ problems: string[]; leftovers: number }> {
  const problems: string[] = [];
  let database: Database;
  try {
    database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
  } catch (error) {
    return { problems: [`the database does not open: ${(error as Error).message}`], leftovers: 0 };
  }
  try {
    const db = database.db;
    const rows = async (label: string, query: ReturnType<typeof sql>) => {
      const found = await queryRows<Record<string, unknown>>(db, query);
      if (found.length > 0) problems.push(`${label}: ${JSON.stringify(found.slice(0, 5))}`);
    };
    await rows(
      "reports without version 1",
      sql`select r.id from reports r where not exists
          (select 1 from report_versions v where v.report_id = r.id and v.version_number = 1)`,
    );
    await rows(
      "reports whose versions have gaps",
      sql`select report_id, count(*)::int as n, max(version_number) as last from report_versions
          group by report_id having max(version_number) <> count(*)`,
    );
    await rows(
      "finalized reports without a finalized version",
      sql`select r.id from reports r where r.is_finalized and not exists
          (select 1 from report_versions v where v.report_id = r.id and v.kind = 'finalized')`,
    );
    await rows(
      "amendment counts that do not match the amended versions",
      sql`select r.id, r.amendment_count from reports r where r.amendment_count <>
          (select count(*) from report_versions v where v.report_id = r.id and v.kind = 'amended')`,
    );
    await rows(
      "worksheets whose files are not recorded",
      sql`select w.id from worksheets w where not exists (select 1 from stored_files f where f.id = w.file_id)
          or (w.image_file_id is not null and not exists (select 1 from stored_files f where f.id = w.image_file_id))`,
    );
    // Start-up turns an interrupted OCR into "failed"; before a start, "processing" is what the kill left.
    if (afterStart)
      await rows("worksheets still processing", sql`select id from worksheets where ocr_status = 'processing'`);
    const secrets = loadSecrets(target.dataDir, {});
    const store = new LocalFileStore(path.join(target.dataDir, "files"), secrets.fileKey);
    const files = await queryRows<{ id: number; storage_key: string; sha256: string }>(
      db,
      sql`select id, storage_key, sha256 from stored_files`,
    );
    for (const file of files) {
      try {
        const data = await store.get(file.storage_key);
        if (createHash("sha256").update(data).digest("hex") !== file.sha256)
          problems.push(`file ${file.id}: wrong hash`);
      } catch (error) {
        problems.push(`stored file ${file.id} cannot be read: ${(error as Error).message}`);
      }
    }
    const known = new Set(files.map((f) => f.storage_key));
    const onDisk = fs.existsSync(store.directory)
      ? fs.readdirSync(store.directory, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
      : [];
    const leftovers = onDisk.filter((e) => !known.has(e.name)).length;
    return { problems, leftovers };
  } finally {
    await database.close();
  }
}

async function runTarget(target: Target): Promise<Finding[]> {
  const findings: Finding[] = [];
  let server = await startTarget(target);
  const client = new Client(server.base);
  await registerAndSignIn(client, "Fault Clinic");
  const physician = await client.must("POST", "/api/physicians", { name: "Dr. Fault" });

  // One uninterrupted run of each operation: its duration places the kills inside it.
  const durations = {} as Record<Operation, number>;
  const setup: Setup = { physicianId: physician.id, ocrWorksheetId: 0 };
  let started = Date.now();
  const worksheet = await client.must("POST", "/api/worksheets/upload", uploadForm());
  durations.upload = Date.now() - started;
  started = Date.now();
  await client.must("POST", `/api/worksheets/${worksheet.id}/ocr`);
  durations.ocr = Date.now() - started;
  setup.ocrWorksheetId = worksheet.id;
  for (const operation of ["generate", "finalize", "amend"] as const) {
    const { request } = await prepare(client, setup, operation);
    started = Date.now();
    await request();
    durations[operation] = Date.now() - started;
  }
  process.stdout.write(`[${target.kind}] durations (ms): ${JSON.stringify(durations)}\n`);

  for (const operation of operations) {
    for (let i = 0; i < repeats; i++) {
      const { request, worksheetId } = await prepare(client, setup, operation);
      // Spread the kills over the operation: early, middle, late, and just before it would have answered.
      const killAfterMs = Math.round(durations[operation] * ((i + 0.5) / repeats));
      const pending = request().then(
        () => "answered",
        () => "cut",
      );
      await new Promise((r) => setTimeout(r, killAfterMs));
      const orphans = await killHard(server);
      const answered = await pending;
      const { problems, leftovers } = await checkIntegrity(target);
      for (const orphan of orphans) problems.push(`still running after the kill: ${orphan}`);
      server = await startTarget(target);
      client.base = server.base;
      let outcome = answered;
      if (worksheetId) {
        // What the clinician sees after the restart: the OCR either finished or says it was interrupted.
        const shown = await client.must("GET", `/api/worksheets/${worksheetId}`);
        outcome += `; OCR shows ${shown.ocrStatus}`;
        if (shown.ocrStatus !== "completed" && shown.ocrStatus !== "failed") {
          problems.push(`worksheet ${worksheetId} shows OCR ${shown.ocrStatus} after the restart`);
        }
      }
      findings.push({ operation, killAfterMs, problems, leftovers, outcome });
      process.stdout.write(
        `[${target.kind}] ${operation} killed after ${killAfterMs} ms (${outcome}): ${problems.length} problems, ${leftovers} unreferenced files${problems.length ? `\n    ${problems.join("\n    ")}` : ""}\n`,
      );
    }
  }
  // The last start followed the last kill: nothing may still say "processing".
  await killHard(server);
  const final = await checkIntegrity(target, true);
  findings.push({ operation: "final", killAfterMs: 0, ...final, outcome: "" });
  return findings;
}

async function main(): Promise<void> {
  const targets: Target[] = [{ kind: "pglite", dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-faults-")) }];
  let dropPostgres: (() => Promise<void>) | null = null;
  if (process.env.TEST_DATABASE_URL) {
    const name = `sonoscribe_faults_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(process.env.TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    targets.push({
      kind: "postgres",
      dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-faults-pg-")),
      databaseUrl: url.toString(),
    });
    dropPostgres = async () => {
      const dropper = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    };
  }
  let failed = 0;
  for (const target of targets) {
    const findings = await runTarget(target);
    const problems = findings.flatMap((f) => f.problems);
    failed += problems.length;
    const leftovers = findings.at(-1)!.leftovers;
    process.stdout.write(
      `[${target.kind}] ${findings.length - 1} kills: ${problems.length} problems, ${leftovers} unreferenced files at the end\n`,
    );
    fs.rmSync(target.dataDir, { recursive: true, force: true });
  }
  await dropPostgres?.();
  process.exit(failed === 0 ? 0 : 1);
}

await main();

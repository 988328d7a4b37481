import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../db/client";
import { QUEUES } from "../jobs/queues";
import { createEmptyDatabase } from "../test-support/test-database";
import { JOB_SCHEMA, PgBossQueue } from "./job-queue";
import { createLogger } from "./logger";
import { repoPath } from "./repo-root";

/**
 * Issue 27: web processes and workers started at the same moment on a fresh PostgreSQL database each migrate it,
 * install pg-boss's schema and create the queues. Unserialised, these fail with duplicate-key errors on the catalog
 * or deadlock (two queue creations), and a process died at start-up. Each "process" here has its own connection
 * pool. PGlite has one process, so this runs only on PostgreSQL.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const PROCESSES = 6;

const journalEntries = () =>
  (
    JSON.parse(fs.readFileSync(repoPath("server", "db", "migrations", "meta", "_journal.json"), "utf8")) as {
      entries: unknown[];
    }
  ).entries.length;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Opens `count` connection pools on one database, all at once or one after another. */
async function openProcesses(url: string, count: number, atOnce: boolean): Promise<Database[]> {
  const open = async () => {
    const database = await openDatabase({ databaseUrl: url, dataDir: null });
    cleanups.push(() => database.close());
    return database;
  };
  if (atOnce) return Promise.all(Array.from({ length: count }, open));
  const databases: Database[] = [];
  for (let i = 0; i < count; i++) databases.push(await open());
  return databases;
}

async function freshDatabaseUrl(): Promise<string> {
  const fresh = await createEmptyDatabase(serverUrl!);
  cleanups.push(() => fresh.drop());
  return fresh.url;
}

describe.skipIf(!serverUrl)("starting many processes' job queues at once on PostgreSQL", () => {
  it("every process migrates the database or waits for the one that does", async () => {
    const databases = await openProcesses(await freshDatabaseUrl(), PROCESSES, true);
    const { rows } = await databases[0]!.executeSql(
      "select count(*)::int as applied from drizzle.__drizzle_migrations",
    );
    expect(rows).toEqual([{ applied: journalEntries() }]);
  });

  it("every process starts its job queue, whatever its role, and every queue exists once", async () => {
    // The database migrated first, so that only the job queue's set-up runs at the same moment.
    const databases = await openProcesses(await freshDatabaseUrl(), PROCESSES, false);
    const queues = databases.map((database, i) => {
      // Workers (which also schedule) and web processes (which only send) mixed, as in bench:multi.
      const queue = new PgBossQueue({ database, queues: QUEUES, work: i % 3 === 0, logger: createLogger("silent") });
      cleanups.push(() => queue.stop());
      return queue;
    });
    const started = await Promise.allSettled(queues.map((queue) => queue.start()));
    const failures = started.flatMap((result) => (result.status === "rejected" ? [String(result.reason)] : []));
    expect(failures).toEqual([]);
    const [first] = databases;
    const { rows } = await first!.executeSql(`select name, dead_letter from ${JOB_SCHEMA}.queue order by name`);
    // Ours, and pg-boss's own queue that carries the cron schedules' jobs.
    expect((rows as Array<{ name: string }>).map((row) => row.name)).toEqual(
      [...Object.keys(QUEUES), "__pgboss__send-it"].sort(),
    );
    expect(rows).toContainEqual({ name: "ocr", dead_letter: "ocr-dead" });
    const schedules = await first!.executeSql(`select name from ${JOB_SCHEMA}.schedule order by name`);
    const cron = Object.entries(QUEUES).flatMap(([name, spec]) => ("cron" in spec ? [name] : []));
    expect((schedules.rows as Array<{ name: string }>).map((row) => row.name)).toEqual(cron.sort());
  });
});

import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { ExtractTablesWithRelations, SQL } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { repoPath } from "../platform/repo-root";
import { inProcessLock, withAdvisoryLock } from "./advisory-lock";
import { acquireDirectoryLock } from "./directory-lock";
import { type ChangeCounter, LocalChanges } from "./local-changes";
import { PostgresChanges } from "./postgres-changes";
import * as schema from "./schema";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Something that runs queries: the database or an open transaction. */
export type Queryable = Db | Tx;

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  /** Rises whenever the data may have changed (LocalChanges for PGlite, PostgresChanges for PostgreSQL). */
  changes: ChangeCounter;
  /** Size on disk of the database, in bytes. */
  sizeBytes(): Promise<number>;
  /**
   * One SQL text (several statements when there are no values) outside Drizzle, for the job queue's own tables
   * (pg-boss, platform/job-queue.ts); it answers the last statement's rows.
   */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /**
   * Runs start-up set-up that must not overlap the same set-up in another process on this database (the job
   * queue's schema and queues): on PostgreSQL under an advisory lock, on PGlite (one process) in turn.
   */
  exclusively<T>(name: string, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

const migrationsFolder = repoPath("server", "db", "migrations");

/**
 * Opens PostgreSQL when a URL is given, otherwise embedded PGlite in `dataDir/pgdata`
 * (or in memory when dataDir is null, for tests), and applies pending migrations.
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string | null;
  /** PGlite's shared_buffers (PGLITE_SHARED_BUFFERS_MB); unset: PostgreSQL's 128 MB. */
  pgliteSharedBuffersMb?: number;
}): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  return openPglite(options.dataDir, options.pgliteSharedBuffersMb);
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection closed by the server (restart, failover, a dropped test database) must not crash the
  // process: the pool replaces it on the next query, and a query that fails reports its own error.
  pool.on("error", (error: Error & { code?: string }) => {
    if (error.code !== "57P01") process.stderr.write(`PostgreSQL connection lost: ${error.message}\n`);
  });
  // Processes started together on a fresh database would otherwise each create drizzle's schema and fail.
  await withAdvisoryLock(pool, "migrations", () => migratePg(drizzlePg(pool), { migrationsFolder }));
  const changes = new PostgresChanges(url);
  await changes.start();
  const db = drizzlePg(changes.wrap(pool), { schema }) as unknown as Db;
  return {
    db,
    kind: "postgres",
    changes,
    executeSql: (text, values = []) => pool.query(text, values),
    exclusively: (name, work) => withAdvisoryLock(pool, name, work),
    async sizeBytes() {
      const result = await pool.query<{ size: string }>("select pg_database_size(current_database()) as size");
      return Number(result.rows[0]?.size ?? 0);
    },
    async close() {
      await changes.close();
      await pool.end();
    },
  };
}

/**
 * Creates a new embedded database (initdb) in a short-lived process of its own: initdb's WebAssembly memory
 * (400-600 MB, released only when V8 collects it) never lands in the server, which then opens the directory as on
 * any later start (issue 30: a first start's idle RSS and peak were 470-570 and 800-890 MB).
 */
async function initdbApart(pgDir: string): Promise<void> {
  const script =
    "const [lib, dir] = process.argv.slice(1); const { PGlite } = await import(lib);" +
    " const db = await PGlite.create({ dataDir: dir }); await db.close();";
  const lib = import.meta.resolve("@electric-sql/pglite");
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script, lib, pgDir], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`creating the embedded database failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

async function openPglite(dataDir: string | null, sharedBuffersMb?: number): Promise<Database> {
  let releaseLock = () => {};
  let pgDir: string | undefined;
  if (dataDir) {
    pgDir = path.join(dataDir, "pgdata");
    fs.mkdirSync(pgDir, { recursive: true });
    releaseLock = acquireDirectoryLock(pgDir);
  }
  try {
    if (pgDir && !fs.existsSync(path.join(pgDir, "PG_VERSION"))) await initdbApart(pgDir);
    // pg_trgm backs the reports search index (see the reports_search migration).
    // PGlite touches all of its shared buffers when it starts: at PostgreSQL's 128 MB they are most of an idle
    // embedded server's memory (issue 30, docs/benchmarks.md). The pages behind them stay in the OS's file cache.
    const startParams = sharedBuffersMb
      ? [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffersMb}MB`]
      : undefined;
    const client = await PGlite.create({
      ...(pgDir ? { dataDir: pgDir } : {}),
      extensions: { pg_trgm },
      ...(startParams ? { startParams } : {}),
    });
    const changes = new LocalChanges();
    const exclusively = inProcessLock();
    const db = drizzlePglite(changes.wrap(client), { schema }) as unknown as Db;
    await migratePglite(drizzlePglite(client), { migrationsFolder });
    return {
      db,
      kind: "pglite",
      changes,
      async executeSql(text, values = []) {
        // PGlite's query() takes one statement; exec() takes several but no parameters.
        if (values.length > 0) return client.query(text, values);
        const results = await client.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      },
      exclusively,
      async sizeBytes() {
        if (!pgDir) {
          const result = await client.query<{ size: string }>("select pg_database_size(current_database()) as size");
          return Number(result.rows[0]?.size ?? 0);
        }
        return directorySize(pgDir);
      },
      async close() {
        await client.close();
        releaseLock();
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

export function directorySize(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/** Rows of a raw SQL query; both drivers answer `{ rows }`, which the shared Db type cannot express. */
export async function queryRows<T>(db: Queryable, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

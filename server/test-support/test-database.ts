import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Database, openDatabase } from "../db/client";
import { setAuditKey } from "../platform/audit";

// One audit key per test process (the server's comes from its secrets): every test database's chain uses it.
setAuditKey(randomBytes(32));

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database on the
 * PostgreSQL server of TEST_DATABASE_URL, or of `serverUrl` when given (created here, dropped on close).
 */
export async function openTestDatabase(serverUrl = process.env.TEST_DATABASE_URL): Promise<Database> {
  if (!serverUrl) return openDatabase({ dataDir: null });
  const fresh = await createEmptyDatabase(serverUrl);
  const database = await openDatabase({ databaseUrl: fresh.url, dataDir: null });
  return {
    ...database,
    async close() {
      await database.close();
      await fresh.drop();
    },
  };
}

/** A new, empty database on the PostgreSQL server of `serverUrl`: its URL, and how to drop it. */
export async function createEmptyDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `sonoscribe_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

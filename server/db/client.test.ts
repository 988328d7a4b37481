import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../test-support/test-database";
import { openDatabase, queryRows } from "./client";
import { acquireDirectoryLock, DirectoryLockedError } from "./directory-lock";

describe("database", () => {
  const opened = openTestDatabase();
  afterAll(async () => (await opened).close());

  it("applies every migration (on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set)", async () => {
    const { db } = await opened;
    const rows = await queryRows<{ table_name: string }>(
      db,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    const tables = rows.map((r) => r.table_name);
    for (const table of [
      "clinics",
      "users",
      "user_invitations",
      "sessions",
      "physicians",
      "sonographers",
      "worksheets",
      "digital_worksheets",
      "reports",
      "report_versions",
      "report_templates",
      "worksheet_templates",
      "legend_entries",
      "text_shortcuts",
      "training_pairs",
      "audit_events",
      "stored_files",
      "storage_snapshots",
    ]) {
      expect(tables).toContain(table);
    }
  });

  it("keeps clinic_id NOT NULL on every clinic-owned table", async () => {
    const { db } = await opened;
    const rows = await queryRows<{ table_name: string; is_nullable: string }>(
      db,
      sql`select table_name, is_nullable from information_schema.columns where column_name = 'clinic_id' and table_schema = 'public'`,
    );
    const nullable = rows.filter((r) => r.is_nullable === "YES").map((r) => r.table_name);
    // users (platform admins may have no clinic yet) and stored_files (platform training files) are the exceptions.
    expect(nullable.sort()).toEqual(["audit_events", "stored_files", "users"]);
  });
});

describe("PGlite shared buffers", () => {
  it("are what the server is configured with (PGLITE_SHARED_BUFFERS_MB), PostgreSQL's 128 MB otherwise", async () => {
    const shown = async (mb?: number) => {
      const database = await openDatabase({ dataDir: null, pgliteSharedBuffersMb: mb });
      try {
        return (await database.executeSql("show shared_buffers")).rows[0];
      } finally {
        await database.close();
      }
    };
    expect(await shown(24)).toEqual({ shared_buffers: "24MB" });
    expect(await shown()).toEqual({ shared_buffers: "128MB" });
  });
});

describe("a new embedded database", () => {
  it("is created (initdb in a process of its own), migrated, and kept for the next start", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-initdb-"));
    try {
      const first = await openDatabase({ dataDir: dir, pgliteSharedBuffersMb: 32 });
      expect(fs.existsSync(path.join(dir, "pgdata", "PG_VERSION"))).toBe(true);
      await first.executeSql("insert into clinics (name, email) values ('Kept', 'kept@clinic.test')");
      await first.close();
      const again = await openDatabase({ dataDir: dir, pgliteSharedBuffersMb: 32 });
      expect((await again.executeSql("select name from clinics")).rows).toEqual([{ name: "Kept" }]);
      await again.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("PGlite directory lock", () => {
  it("refuses a second opener of the same data directory, and frees it on close", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-lock-"));
    const first = await openDatabase({ dataDir: dir });
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DirectoryLockedError);
    await first.close();
    const again = await openDatabase({ dataDir: dir });
    await again.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("takes over a lock left by a process that no longer runs", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-lock-"));
    fs.writeFileSync(path.join(dir, "sonoscribe.lock"), "999999999");
    const release = acquireDirectoryLock(dir);
    expect(fs.readFileSync(path.join(dir, "sonoscribe.lock"), "utf8")).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, "sonoscribe.lock"))).toBe(false);
  });
});

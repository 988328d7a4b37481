import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { queryRows } from "../db/client";
import { LocalChanges } from "../db/local-changes";
import { PostgresChanges } from "../db/postgres-changes";
import { as, createTestApp, registerClinic, type TestApp } from "../test-support/test-app";

// Sessions are checked on every request. On the embedded database a session read is reused while nothing
// has run since; these are the changes made behind the app's back that must still be seen at once.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const me = (cookie: string) => as(t.app, { cookie })({ method: "GET", url: "/api/reports/recent" });

describe("the session on every request", () => {
  it("is refused at once when expired by a write straight to the database", async () => {
    const user = await registerClinic(t.app, "Expiry Clinic");
    for (let i = 0; i < 3; i++) expect((await me(user.cookie)).statusCode).toBe(200);
    await t.deps.database.db.execute(sql`update sessions set expire = now() - interval '1 second'`);
    expect((await me(user.cookie)).statusCode).toBe(401);
  });

  it("is refused at once when its user is deactivated straight in the database", async () => {
    const user = await registerClinic(t.app, "Deactivated Clinic");
    for (let i = 0; i < 3; i++) expect((await me(user.cookie)).statusCode).toBe(200);
    await t.deps.database.db.execute(sql`update users set is_active = false where id = ${user.userId}`);
    expect((await me(user.cookie)).statusCode).toBe(401);
  });

  it("follows a role change at once", async () => {
    const user = await registerClinic(t.app, "Role Clinic");
    const before = await as(t.app, user)({ method: "GET", url: "/api/auth/user" });
    expect(before.json().role).toBe("admin");
    await t.deps.database.db.execute(sql`update users set role = 'sonographer' where id = ${user.userId}`);
    const after = await as(t.app, user)({ method: "GET", url: "/api/auth/user" });
    expect(after.json().role).toBe("sonographer");
  });
});

describe("LocalChanges", () => {
  let client: PGlite;
  beforeAll(async () => {
    client = await PGlite.create();
  });
  afterAll(() => client.close());

  it("counts every statement but the declared read-only ones, and transactions", async () => {
    const changes = new LocalChanges();
    const counted = changes.wrap(client);
    changes.markReadOnly("select 1");
    await counted.query("select 1");
    expect(changes.value).toBe(0);
    await counted.query("select 2");
    expect(changes.value).toBe(1);
    await counted.exec("create table t (n int)");
    const afterExec = changes.value;
    expect(afterExec).toBeGreaterThan(1);
    await counted.transaction(async (tx) => {
      await tx.query("insert into t values (1)");
    });
    expect(changes.value).toBeGreaterThan(afterExec);
    expect(counted).toBeInstanceOf(PGlite);
  });
});

/** The test's own PostgreSQL database, for connections of "another process". */
async function databaseUrl(): Promise<string> {
  const [row] = await queryRows<{ name: string }>(t.deps.database.db, sql`select current_database() as name`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${row!.name}`;
  return url.toString();
}

// PostgreSQL: another process (a second server, a CLI tool, psql) changes the database on its own connection;
// the triggers of migration 0006 tell this process, which then reads the session again.
describe.skipIf(!process.env.TEST_DATABASE_URL)("a change made by another process (PostgreSQL)", () => {
  let other: pg.Client;
  beforeAll(async () => {
    other = new pg.Client({ connectionString: await databaseUrl() });
    await other.connect();
  });
  afterAll(() => other.end());

  it("ends a session deleted elsewhere as soon as the notice arrives", async () => {
    const user = await registerClinic(t.app, "Elsewhere Clinic");
    for (let i = 0; i < 3; i++) expect((await me(user.cookie)).statusCode).toBe(200);
    const before = t.deps.database.changes.value;
    await other.query("delete from sessions where user_id = $1", [user.userId]);
    await vi.waitFor(() => expect(t.deps.database.changes.value).not.toBe(before));
    expect((await me(user.cookie)).statusCode).toBe(401);
  });

  it("shows a report written elsewhere in the next list", async () => {
    const user = await registerClinic(t.app, "Elsewhere Reports Clinic");
    const list = () => as(t.app, user)({ method: "GET", url: "/api/reports?page=1&pageSize=12" });
    expect((await list()).json().total).toBe(0);
    expect((await list()).json().total).toBe(0);
    const before = t.deps.database.changes.value;
    await other.query(
      `insert into reports (clinic_id, patient_name, study_type, indication, findings, impression)
       values ($1, 'Elsewhere Patient', 'Carotid Duplex', '', '', '')`,
      [user.clinicId],
    );
    await vi.waitFor(() => expect(t.deps.database.changes.value).not.toBe(before));
    expect((await list()).json().total).toBe(1);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("PostgresChanges", () => {
  it("counts this process's statements, in transactions too, but not the declared reads", async () => {
    const url = await databaseUrl();
    const changes = new PostgresChanges(url);
    await changes.start();
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const counted = changes.wrap(pool);
    changes.markReadOnly("select 1");
    const start = changes.value!;
    await counted.query("select 1");
    expect(changes.value).toBe(start);
    await counted.query({ text: "select 2" });
    const afterQuery = changes.value!;
    expect(afterQuery).toBeGreaterThan(start);
    const client = await counted.connect();
    await client.query("begin");
    await client.query("commit");
    client.release();
    expect(changes.value).toBeGreaterThan(afterQuery);
    expect(counted).toBeInstanceOf(pg.Pool);
    await pool.end();
    await changes.close();
  });

  it("vouches for nothing while its listener is down, and counts again once it is back", async () => {
    const url = await databaseUrl();
    const changes = new PostgresChanges(url);
    expect(changes.value).toBeNull();
    await changes.start();
    expect(changes.value).not.toBeNull();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where query like 'LISTEN %' and datname = current_database() and pid <> pg_backend_pid()",
    );
    await admin.end();
    await vi.waitFor(() => expect(changes.value).toBeNull());
    await vi.waitFor(() => expect(changes.value).not.toBeNull(), { timeout: 5_000 });
    await changes.close();
    expect(changes.value).toBeNull();
  });
});

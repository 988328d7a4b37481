import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalChanges } from "../db/local-changes";
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

import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createEmptyDatabase } from "../test-support/test-database";
import { inProcessLock, withAdvisoryLock } from "./advisory-lock";

/** Records when each of several concurrent `work`s ran, to tell whether any two overlapped. */
function overlapProbe() {
  let inside = 0;
  let overlapped = false;
  return {
    work: async (ms: number) => {
      inside++;
      if (inside > 1) overlapped = true;
      await new Promise((resolve) => setTimeout(resolve, ms));
      inside--;
    },
    overlapped: () => overlapped,
  };
}

describe("the embedded database's start-up lock (one process)", () => {
  it("runs works under one name one at a time, and a failed one does not block the next", async () => {
    const exclusively = inProcessLock();
    const probe = overlapProbe();
    const results = await Promise.allSettled([
      exclusively("set-up", () => probe.work(30)),
      exclusively("set-up", () => Promise.reject(new Error("failed set-up"))),
      exclusively("set-up", () => probe.work(30).then(() => "done")),
    ]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(results[2]).toEqual({ status: "fulfilled", value: "done" });
    expect(probe.overlapped()).toBe(false);
  });
});

const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)("the PostgreSQL start-up lock (processes sharing a database)", () => {
  const pools: pg.Pool[] = [];
  let drop = async () => {};

  afterAll(async () => {
    for (const pool of pools) await pool.end();
    await drop();
  });

  it("lets one process's work run at a time across pools, and releases the lock when work fails", async () => {
    const fresh = await createEmptyDatabase(serverUrl!);
    drop = fresh.drop;
    for (let i = 0; i < 4; i++) pools.push(new pg.Pool({ connectionString: fresh.url, max: 2 }));
    const probe = overlapProbe();
    const results = await Promise.allSettled(
      pools.map((pool, i) =>
        withAdvisoryLock(pool, "set-up", () => (i === 1 ? Promise.reject(new Error("failed")) : probe.work(100))),
      ),
    );
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(probe.overlapped()).toBe(false);
    // The lock goes with its session, which closes just after: none is left on this database, and the pool's
    // connections carry no lock_timeout of ours.
    const held = async () => {
      const { rows } = await pools[0]!.query(
        "select count(*)::int as n from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())",
      );
      return rows[0].n as number;
    };
    const deadline = Date.now() + 5000;
    while ((await held()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await held()).toBe(0);
    expect((await pools[0]!.query("show lock_timeout")).rows).toEqual([{ lock_timeout: "0" }]);
  });
});

import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { type Database, openDatabase, queryRows } from "../db/client";
import { statementsOf } from "../test-support/statements";
import { createEmptyDatabase, openTestDatabase } from "../test-support/test-database";
import { recordAudit, recordAuditAlone, setAuditKey, verifyAuditChain } from "./audit";

setAuditKey(randomBytes(32));

/** Events in transactions of their own changes (every other one) and alone (an export, a view), all at once. */
const appends = (database: Database, who: string, n: number) =>
  Array.from({ length: n }, (_, i) =>
    i % 2
      ? recordAuditAlone(database.db, {
          action: "report.exported",
          actorUserId: who,
          entityType: "report",
          entityId: i,
        })
      : database.db.transaction(async (tx) => {
          // A change of its own before the event, as a real call makes: the transaction is open when it appends.
          await tx.execute(sql`select 1`);
          await recordAudit(tx, { action: "report.viewed", actorUserId: who, entityType: "report", entityId: i });
        }),
  );

describe("audit append: one statement per event (decision 027)", () => {
  const opened = openTestDatabase();
  afterAll(async () => (await opened).close());

  it("appends in one statement when the head is known, in two after a rolled-back append", async () => {
    const { db } = await opened;
    await db.transaction((tx) => recordAudit(tx, { action: "auth.sign_in", actorUserId: "u0" }));
    const known = await statementsOf(() =>
      db.transaction((tx) => recordAudit(tx, { action: "auth.sign_in", actorUserId: "u1" })),
    );
    expect(known).toHaveLength(1);
    // The rolled-back event's hash is this process's guess, but not the head: the next append is told the head.
    await expect(
      db.transaction(async (tx) => {
        await recordAudit(tx, { action: "auth.sign_in", actorUserId: "rolled back" });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    const after = await statementsOf(() =>
      db.transaction((tx) => recordAudit(tx, { action: "auth.sign_in", actorUserId: "u2", details: { b: 1, a: 2 } })),
    );
    expect(after).toHaveLength(2);
    const rows = await queryRows<{ actor_user_id: string }>(
      db,
      sql`select actor_user_id from audit_events order by id`,
    );
    expect(rows.map((r) => r.actor_user_id)).toEqual(["u0", "u1", "u2"]);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, count: 3 });
  });

  it("appends an event alone in one statement, and in a transaction after a wrong guess", async () => {
    const { db } = await opened;
    const alone = await statementsOf(() => recordAuditAlone(db, { action: "report.exported", actorUserId: "u3" }));
    expect(alone).toEqual([expect.stringMatching(/^select audit_append\(/)]);
    await expect(
      db.transaction(async (tx) => {
        await recordAudit(tx, { action: "auth.sign_in", actorUserId: "rolled back" });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    const retried = await statementsOf(() => recordAuditAlone(db, { action: "report.exported", actorUserId: "u4" }));
    // Told the head, then appended in a transaction (its BEGIN and COMMIT aside).
    expect(retried).toHaveLength(2);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, count: 5 });
  });

  it("keeps one chain when many events are appended at once", async () => {
    const { db } = await opened;
    await Promise.all(appends(await opened, "one", 40));
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, count: 45 });
  });
});

// Two pools on one database: two processes' worth of connections appending at the same moment. Without the lock
// taken before the head is read, two transactions link to the same head and the chain forks.
describe.runIf(process.env.TEST_DATABASE_URL)("audit append from two pools on PostgreSQL at once", () => {
  it("makes one valid chain", async () => {
    const fresh = await createEmptyDatabase(process.env.TEST_DATABASE_URL!);
    const first = await openDatabase({ databaseUrl: fresh.url, dataDir: null });
    const second = await openDatabase({ databaseUrl: fresh.url, dataDir: null });
    try {
      for (let round = 0; round < 3; round++) {
        await Promise.all([...appends(first, "first", 60), ...appends(second, "second", 60)]);
      }
      const check = await verifyAuditChain(first.db);
      expect(check).toMatchObject({ ok: true, count: 360 });
      const [forks] = await queryRows<{ n: number }>(
        first.db,
        sql`select count(*)::int as n from (select prev_hash from audit_events group by prev_hash having count(*) > 1) f`,
      );
      expect(forks?.n).toBe(0);
    } finally {
      await first.close();
      await second.close();
      await fresh.drop();
    }
  });
});

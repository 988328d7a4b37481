import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client";
import { sessions } from "../db/schema";
import { openTestDatabase } from "../test-support/test-database";
import { purgeExpiredSessions } from "./sessions";

describe("purgeExpiredSessions: the boundary, on an injected clock", () => {
  let database: Database;
  const now = Date.parse("2026-11-24T12:00:00.000Z");

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => database?.close());

  it("deletes sessions expiring before or exactly now (no longer valid), keeps one expiring 1 ms later", async () => {
    const expiring = { before: now - 1, exactly: now, after: now + 1 };
    await database.db.insert(sessions).values(
      Object.entries(expiring).map(([sid, at]) => ({
        sid,
        sess: { userId: "u", createdAt: now - 3_600_000 },
        userId: "u",
        expire: new Date(at),
      })),
    );
    expect(await purgeExpiredSessions(database.db, () => now)).toBe(2);
    const left = await database.db.select({ sid: sessions.sid }).from(sessions);
    expect(left.map((row) => row.sid)).toEqual(["after"]);
    // A millisecond later that one has expired too.
    expect(await purgeExpiredSessions(database.db, () => now + 1)).toBe(1);
  });
});

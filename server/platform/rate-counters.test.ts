import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client";
import { rateCounters } from "../db/schema";
import { createTestApp, type TestApp } from "../test-support/test-app";
import { openTestDatabase } from "../test-support/test-database";
import { RateCounters } from "./rate-counters";

// Two web processes behind a load balancer are two apps on one database (issue 27): each limit is counted once,
// whichever process a request reaches. Runs on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
describe("rate limits and the sign-in throttle are shared by the web processes on one database", () => {
  let database: Database;
  let first: TestApp;
  let second: TestApp;
  const apps = () => [first.app, second.app];

  beforeAll(async () => {
    database = await openTestDatabase();
    first = await createTestApp({}, { database });
    second = await createTestApp({}, { database });
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.close();
  });

  /** Sends the same request alternately to each app until one answers 429; answers how many were let through. */
  async function throughBeforeLimit(send: (app: FastifyInstance, i: number) => Promise<{ statusCode: number }>) {
    for (let i = 0; i < 30; i++) {
      const res = await send(apps()[i % 2]!, i);
      if (res.statusCode === 429) return { through: i, last: res };
    }
    return { through: 30, last: null };
  }

  it("a route's limit (5 password-reset requests in 15 minutes) is reached at the same total across both", async () => {
    const { through, last } = await throughBeforeLimit((app) =>
      app.inject({
        method: "POST",
        url: "/api/auth/password-reset",
        payload: { email: "someone@clinic.test" },
        remoteAddress: "198.51.100.20",
      }),
    );
    expect(through).toBe(5);
    const res = last as unknown as { headers: Record<string, string>; json(): { error: string } };
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    expect(res.json().error).toBe("Rate limit exceeded, retry in 15 minutes");
    // Another address has its own count.
    const other = await second.app.inject({
      method: "POST",
      url: "/api/auth/password-reset",
      payload: { email: "someone@clinic.test" },
      remoteAddress: "198.51.100.21",
    });
    expect(other.statusCode).toBe(202);
  });

  it("failed sign-ins for one account are counted together across both (5 free, then a wait)", async () => {
    const { through, last } = await throughBeforeLimit((app, i) =>
      app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { email: "target@clinic.test", password: `guess-${i}` },
        remoteAddress: `203.0.113.${i}`,
      }),
    );
    expect(through).toBe(5);
    const res = last as unknown as { json(): { error: string } };
    expect(res.json().error).toMatch(/Too many failed sign-in attempts\. Try again in \d+ seconds\./);
  });
});

describe("RateCounters", () => {
  let database: Database;
  let now = Date.parse("2026-11-24T12:00:00Z");
  let counters: RateCounters;

  beforeAll(async () => {
    database = await openTestDatabase();
    counters = new RateCounters(database.db, () => now);
  });
  afterAll(async () => database?.close());

  it("counts hits made at once without losing one", async () => {
    const counts = await Promise.all(Array.from({ length: 20 }, () => counters.hit("at-once", 60_000, false)));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it("a fixed window keeps its end and starts again at one when it has expired", async () => {
    const a = await counters.hit("window", 60_000, false);
    now += 30_000;
    const b = await counters.hit("window", 60_000, false);
    expect([a.count, b.count]).toEqual([1, 2]);
    expect(b.expiresAt).toBe(a.expiresAt);
    now = a.expiresAt;
    const c = await counters.hit("window", 60_000, false);
    expect(c).toEqual({ count: 1, expiresAt: now + 60_000 });
  });

  it("a sliding count moves its end with each hit; forget clears it", async () => {
    const a = await counters.hit("slide", 60_000, true);
    now += 30_000;
    const b = await counters.hit("slide", 60_000, true);
    expect(b).toEqual({ count: 2, expiresAt: a.expiresAt + 30_000 });
    expect((await counters.read(["slide", "never"])).get("slide")?.count).toBe(2);
    await counters.forget("slide");
    expect((await counters.read(["slide"])).size).toBe(0);
  });

  it("expired counts are not read and the purge deletes them, and only them", async () => {
    await counters.hit("short", 1_000, false);
    await counters.hit("long", 3_600_000, false);
    now += 1_000;
    expect([...(await counters.read(["short", "long"])).keys()]).toEqual(["long"]);
    await counters.purgeExpired();
    const left = await database.db.select().from(rateCounters);
    expect(left.every((row) => row.expiresAt.getTime() > now)).toBe(true);
    expect(left.length).toBeGreaterThan(0);
    // Keys are stored hashed: no address or typed e-mail in the table.
    expect(left.every((row) => /^[0-9a-f]{64}$/.test(row.key))).toBe(true);
  });
});

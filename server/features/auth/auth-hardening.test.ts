import { eq } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { users } from "../../db/schema";
import { RateCounters } from "../../platform/rate-counters";
import { as, createTestApp, registerClinic, type SignedIn, signIn, type TestApp } from "../../test-support/test-app";
import { openTestDatabase } from "../../test-support/test-database";
import { LoginThrottle } from "./login-throttle";

const login = (t: TestApp, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "POST", url: "/api/auth/login", payload, headers });

describe("forwarded addresses are trusted only from TRUSTED_PROXIES (item 3)", () => {
  it("with PUBLIC_URL alone, rotating X-Forwarded-For does not escape the limits", async () => {
    const t = await createTestApp({ PUBLIC_URL: "https://sono.example" });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 25; i++) {
        const res = await login(
          t,
          { email: "target@example.com", password: `guess-${i}` },
          { "x-forwarded-for": `203.0.113.${i}` },
        );
        statuses.push(res.statusCode);
      }
      expect(statuses).toContain(429);
    } finally {
      await t.close();
    }
  });

  it("a configured proxy's forwarded address is used", async () => {
    const t = await createTestApp({ TRUSTED_PROXIES: "127.0.0.1" }, {}, (app) => {
      app.get("/api/test-ip", async (request) => ({ ip: request.ip }));
    });
    try {
      const res = await t.app.inject({ url: "/api/test-ip", headers: { "x-forwarded-for": "198.51.100.7" } });
      expect(res.json()).toEqual({ ip: "198.51.100.7" });
    } finally {
      await t.close();
    }
  });
});

describe("sign-in throttle: per account and per address, with backoff (item 4)", () => {
  let database: Database;
  let now = 1_000_000;
  let scopes = 0;
  // Each test counts under its own scope, on one database with a clock the tests move.
  const throttle = () => new LoginThrottle(new RateCounters(database.db, () => now), `test-${scopes++}`);

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => database?.close());

  it("one address's failures do not wall off a correct sign-in there for long", async () => {
    const t = throttle();
    now = 1_000_000;
    for (let i = 0; i < 60; i++) await t.fail("10.0.0.1", `user${i}@x.test`);
    await expect(t.check("10.0.0.1", "nurse@x.test")).rejects.toThrow(/Too many failed sign-in attempts/);
    // Backoff, not a 15-minute wall: a minute later someone else at the address can try.
    now += 61_000;
    await expect(t.check("10.0.0.1", "nurse@x.test")).resolves.toBeUndefined();
  });

  it("one account's failures from rotating addresses are counted together", async () => {
    const t = throttle();
    now = 1_000_000;
    for (let i = 0; i < 10; i++) await t.fail(`10.0.0.${i}`, "target@x.test");
    await expect(t.check("10.9.9.9", "TARGET@x.test")).rejects.toThrow(/Try again in/);
    // Other accounts from those addresses are not affected.
    await expect(t.check("10.0.0.1", "other@x.test")).resolves.toBeUndefined();
  });

  it("the wait grows with further failures and a success clears the account", async () => {
    const t = throttle();
    now = 1_000_000;
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      await t.fail("10.0.0.1", "t@x.test");
      waits.push(await t.waitMs("10.0.0.1", "t@x.test"));
    }
    expect(waits.slice(0, 4).every((w) => w === 0)).toBe(true);
    for (let i = 5; i < waits.length; i++) expect(waits[i]!).toBeGreaterThanOrEqual(waits[i - 1]!);
    expect(waits.at(-1)!).toBeGreaterThan(waits[5]!);
    expect(waits.at(-1)!).toBeLessThanOrEqual(15 * 60_000);
    now += waits.at(-1)!;
    await t.succeed("10.0.0.1", "t@x.test");
    expect(await t.waitMs("10.9.9.9", "t@x.test")).toBe(0);
  });

  it("counts are forgotten an hour after the last failure", async () => {
    const t = throttle();
    now = 1_000_000;
    for (let i = 0; i < 8; i++) await t.fail("10.0.0.2", "f@x.test");
    expect(await t.waitMs("10.0.0.3", "f@x.test")).toBeGreaterThan(0);
    now += 60 * 60_000;
    expect(await t.waitMs("10.0.0.3", "f@x.test")).toBe(0);
  });
});

describe("TOTP codes, sign-out", () => {
  let t: TestApp;
  let user: SignedIn;
  beforeAll(async () => {
    t = await createTestApp();
    user = await registerClinic(t.app, "Replay Clinic");
  });
  afterAll(() => t.close());

  it("a TOTP code is accepted once (item 10)", async () => {
    const call = as(t.app, user);
    const { secret } = (await call({ method: "POST", url: "/api/auth/totp/setup" })).json() as { secret: string };
    const enableCode = await generate({ secret });
    expect(
      (await call({ method: "POST", url: "/api/auth/totp/enable", payload: { code: enableCode } })).statusCode,
    ).toBe(200);
    // The code that turned TOTP on cannot sign in.
    const replayedEnable = await login(t, { email: user.email, password: user.password, totpCode: enableCode });
    expect(replayedEnable.statusCode).toBe(401);
    await t.deps.database.db.update(users).set({ totpLastStep: null }).where(eq(users.id, user.userId));
    const code = await generate({ secret });
    const first = await login(t, { email: user.email, password: user.password, totpCode: code });
    expect(first.statusCode, first.body).toBe(200);
    const again = await login(t, { email: user.email, password: user.password, totpCode: code });
    expect(again.statusCode).toBe(401);
    expect(again.json().error).toBe("Invalid authentication code");
  });

  it("sign-out is POST only; a GET signs nobody out (item 11)", async () => {
    const other = await registerClinic(t.app, "Sign-out Clinic");
    const viaGet = await as(t.app, other)({ url: "/api/logout" });
    expect(viaGet.statusCode).toBe(404);
    expect((await as(t.app, other)({ url: "/api/auth/user" })).statusCode).toBe(200);
    const foreign = await as(
      t.app,
      other,
    )({
      method: "POST",
      url: "/api/logout",
      headers: { origin: "https://evil.example" },
    });
    expect(foreign.statusCode).toBe(403);
    expect((await as(t.app, other)({ url: "/api/auth/user" })).statusCode).toBe(200);
    const out = await as(t.app, other)({ method: "POST", url: "/api/logout" });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe("/");
    expect((await as(t.app, other)({ url: "/api/auth/user" })).statusCode).toBe(401);
    // The spec's sign-in redirect is unchanged.
    expect((await t.app.inject({ url: "/api/login" })).statusCode).toBe(302);
    await signIn(t.app, other.email, other.password);
  });
});

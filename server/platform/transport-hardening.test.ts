import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { generate } from "../features/reports/report-test-fixtures";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../test-support/test-app";
import { createLogger } from "./logger";
import { slideThresholdMs } from "./sessions";

describe("answers with patient data are never cached (item 7)", () => {
  let t: TestApp;
  let user: SignedIn;
  beforeAll(async () => {
    t = await createTestApp();
    user = await registerClinic(t.app, "Cache Clinic");
  });
  afterAll(() => t.close());

  it("every /api answer says no-store, lists, records and errors alike", async () => {
    const report = await generate(t.app, t, user);
    for (const url of ["/api/reports", `/api/reports/${report.id}`, "/api/reports/recent", "/api/auth/user"]) {
      const res = await as(t.app, user)({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["cache-control"], url).toContain("no-store");
    }
    const missing = await as(t.app, user)({ url: "/api/reports/999999" });
    expect(missing.headers["cache-control"]).toContain("no-store");
  });
});

describe("an https PUBLIC_URL means Secure cookies (item 8)", () => {
  it("sets Secure on the session cookie without X-Forwarded-Proto", async () => {
    const t = await createTestApp({ PUBLIC_URL: "https://sono.example" });
    try {
      const user = await registerClinic(t.app, "Secure Clinic");
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { email: user.email, password: user.password },
      });
      const cookie = res.cookies.find((c) => c.name === "sid")!;
      expect(cookie.secure).toBe(true);
      expect(cookie.httpOnly).toBe(true);
      expect(cookie.sameSite).toBe("Lax");
    } finally {
      await t.close();
    }
  });
});

describe("logs carry no tokens in paths (item 9)", () => {
  it("redacts invitation and other long tokens, keeps ids", () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger("info", sink);
    const token = "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0fGh_";
    for (const url of [
      `/api/invitations/${token}/details`,
      `/api/invitations/${token}/register?x=1`,
      `/invite/${token}`,
      "/api/reports/42",
    ]) {
      logger.info({ req: { method: "GET", url, id: "r", ip: "127.0.0.1" } }, "request");
    }
    const text = lines.join("");
    expect(text).not.toContain(token);
    expect(text).toContain('"/api/invitations/[token]/details"');
    expect(text).toContain('"/invite/[token]"');
    expect(text).toContain('"/api/reports/42"');
  });
});

describe("/metrics needs METRICS_TOKEN (item 12)", () => {
  it("is off without a token, and asks for the bearer token when one is set", async () => {
    const off = await createTestApp();
    try {
      expect((await off.app.inject({ url: "/metrics" })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
    const secret = "m".repeat(32);
    const t = await createTestApp({ METRICS_TOKEN: secret });
    try {
      expect((await t.app.inject({ url: "/metrics" })).statusCode).toBe(401);
      const wrong = await t.app.inject({ url: "/metrics", headers: { authorization: `Bearer ${"x".repeat(32)}` } });
      expect(wrong.statusCode).toBe(401);
      const ok = await t.app.inject({ url: "/metrics", headers: { authorization: `Bearer ${secret}` } });
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toContain("# TYPE");
      expect(ok.headers["cache-control"]).toContain("no-store");
    } finally {
      await t.close();
    }
    expect(() => loadConfig({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN/);
  });
});

describe("the idle window slides for short limits (item 14)", () => {
  it("rewrites the expiry after a fraction of the window, at most a minute", () => {
    expect(slideThresholdMs({ idleMinutes: 1, maxHours: 12 })).toBeLessThanOrEqual(15_000);
    expect(slideThresholdMs({ idleMinutes: 30, maxHours: 12 })).toBe(60_000);
  });

  it("a session with SESSION_IDLE_MINUTES=1 stays alive while it is used", async () => {
    const t = await createTestApp({ SESSION_IDLE_MINUTES: "1" });
    try {
      const user = await registerClinic(t.app, "Short Idle Clinic");
      const before = (await as(t.app, user)({ url: "/api/auth/user" })).statusCode;
      // Age the session by 30 s, as if the last write had been half a minute ago.
      await t.deps.database.db.execute(
        (await import("drizzle-orm")).sql`update sessions set expire = expire - interval '30 seconds'`,
      );
      const res = await as(t.app, user)({ url: "/api/auth/user" });
      expect([before, res.statusCode]).toEqual([200, 200]);
      // The expiry moved forward again: a full minute from now.
      const cookie = res.cookies.find((c) => c.name === "sid");
      expect(cookie).toBeDefined();
      expect(new Date(cookie!.expires!).getTime() - Date.now()).toBeGreaterThan(50_000);
    } finally {
      await t.close();
    }
  });
});

describe("SESSION_SECRET (item 15)", () => {
  it("is not read: setting it only warns", () => {
    expect(loadConfig({ SESSION_SECRET: "s".repeat(40) }).warnings.join(" ")).toMatch(/SESSION_SECRET is not used/);
    expect(loadConfig({ SESSION_SECRET: "short" }).warnings.join(" ")).toMatch(/SESSION_SECRET is not used/);
  });
});

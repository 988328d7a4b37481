import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestApp, type TestApp } from "./test-support/test-app";

const METRICS_TOKEN = "metrics-token-for-the-app-test-0123456789";

describe("the server", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: METRICS_TOKEN });
  });
  afterAll(() => t.close());

  it("answers health", async () => {
    const res = await t.app.inject({ url: "/api/health" });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe("ok");
  });

  it("answers unknown /api paths with a JSON 404 and a request id", async () => {
    const res = await t.app.inject({ url: "/api/does-not-exist" });
    expect(res.statusCode).toBe(404);
    const body = res.json();
    expect(body.code).toBe("NOT_FOUND");
    expect(body.requestId).toBeTruthy();
  });

  it("names the bad field on a validation error", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email: 5, password: "x" } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "VALIDATION_FAILED", field: "email" });
  });

  it("answers broken JSON with a 400, not a crash", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("The request body is not valid JSON");
  });

  it("sends security headers with a strict Content-Security-Policy", async () => {
    const res = await t.app.inject({ url: "/api/health" });
    expect(res.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("refuses state-changing requests from another origin", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { origin: "https://evil.example" },
      payload: { email: "a@b.c", password: "x" },
    });
    expect(res.statusCode).toBe(403);
  });

  it("exposes request metrics in Prometheus text format", async () => {
    const res = await t.app.inject({ url: "/metrics", headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.body).toContain("http_request_duration_ms_count");
  });
});

describe("errors of unexpected kinds", () => {
  it("answer 500 with nothing internal", async () => {
    const t = await createTestApp({}, {}, (app) =>
      app.get("/api/boom", async () => {
        throw new Error("secret database detail");
      }),
    );
    const res = await t.app.inject({ url: "/api/boom" });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain("secret");
    expect(res.json()).toMatchObject({ error: "Internal server error", code: "INTERNAL" });
    expect(z.string().uuid().safeParse(res.json().requestId).success).toBe(true);
    await t.close();
  });
});

describe("the built client", () => {
  it("is served with history fallback for client routes", async () => {
    const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-web-"));
    fs.writeFileSync(path.join(webRoot, "index.html"), "<!doctype html><title>client</title>");
    const t = await createTestApp({}, { webRoot });
    for (const url of ["/", "/reports", "/invite/abc", "/anything/else"]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain("<title>client</title>");
    }
    expect((await t.app.inject({ url: "/api/missing" })).statusCode).toBe(404);
    await t.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });
});

describe("text the database cannot store", () => {
  it("is a 400, not a 500, wherever it arrives", async () => {
    const t = await createTestApp();
    const login = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: "a\u0000@b.c", password: "x" },
    });
    expect(login.statusCode).toBe(400);
    const register = await t.app.inject({
      method: "POST",
      url: "/api/clinics/register",
      payload: {
        name: "Nul\u0000 Clinic",
        email: "nul@clinic.test",
        adminFirstName: "A",
        adminLastName: "B",
        password: "correct horse battery",
      },
    });
    expect(register.statusCode).toBe(400);
    expect(register.json().error).toBe("Text must not contain NUL characters");
    await t.close();
  });
});

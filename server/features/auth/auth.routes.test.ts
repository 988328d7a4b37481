import { type SQL, sql } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyAuditChain } from "../../platform/audit";
import { grantPlatformAdmin, requirePlatformAdmin, TOTP_REQUIRED_FOR_ADMINS } from "../../platform/platform-admin";
import { as, createTestApp, registerClinic, type SignedIn, signIn, type TestApp } from "../../test-support/test-app";

const rowsOf = async <T>(t: TestApp, query: SQL) =>
  ((await t.deps.database.db.execute(query)) as unknown as { rows: T[] }).rows;

const ADMIN_EMAIL = "webmaster@sonoscribe.test";

describe("sign-in, registration and two-factor sign-in", () => {
  let t: TestApp;
  let admin: SignedIn;
  beforeAll(async () => {
    t = await createTestApp({}, {}, (app) => {
      app.get("/api/admin/test-guard", async (request) => ({ ok: requirePlatformAdmin(request).email }));
    });
    admin = await registerClinic(t.app, "Riverside Vascular");
  });
  afterAll(() => t.close());

  const login = (payload: Record<string, unknown>) => t.app.inject({ method: "POST", url: "/api/auth/login", payload });

  it("registration refuses short passwords (400 naming the field)", async () => {
    const short = await t.app.inject({
      method: "POST",
      url: "/api/clinics/register",
      payload: {
        name: "Again",
        email: "new@example.com",
        adminFirstName: "A",
        adminLastName: "B",
        password: "elevenchars",
      },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().field).toBe("password");
  });

  it("a wrong password and an unknown e-mail get the same answer, and both are audited", async () => {
    const wrong = await login({ email: admin.email, password: "not the password" });
    const unknown = await login({ email: "nobody@example.com", password: "not the password" });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe(unknown.json().error);
    const failures = await rowsOf<{ n: number }>(
      t,
      sql`select count(*)::int as n from audit_events where action = 'auth.sign_in_failed'`,
    );
    expect(Number(failures[0]!.n)).toBeGreaterThanOrEqual(2);
  });

  it("sign-in gives a new session id each time; sign-out ends it", async () => {
    const first = await signIn(t.app, admin.email, admin.password);
    const second = await signIn(t.app, admin.email, admin.password);
    expect(first.cookie).not.toBe(second.cookie);
    expect((await as(t.app, first)({ url: "/api/auth/user" })).json()).toMatchObject({
      email: admin.email,
      role: "admin",
      clinicName: "Riverside Vascular",
      isPlatformAdmin: false,
      totpEnabled: false,
    });
    const out = await as(t.app, first)({ method: "POST", url: "/api/logout" });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe("/");
    expect((await as(t.app, first)({ url: "/api/auth/user" })).statusCode).toBe(401);
    expect((await as(t.app, second)({ url: "/api/auth/user" })).statusCode).toBe(200);
  });

  it("GET /api/login goes to the sign-in page when no provider is configured", async () => {
    const res = await t.app.inject({ url: "/api/login" });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/login");
    expect((await t.app.inject({ url: "/api/auth/oidc/callback?state=x&code=y" })).headers.location).toBe("/login");
  });

  it("enrols TOTP with a QR code, then asks for a code at sign-in, and accepts each recovery code once", async () => {
    const me = await signIn(t.app, admin.email, admin.password);
    const call = as(t.app, me);
    expect((await t.app.inject({ method: "POST", url: "/api/auth/totp/setup" })).statusCode).toBe(401);
    const setup = await call({ method: "POST", url: "/api/auth/totp/setup" });
    expect(setup.statusCode).toBe(200);
    const { secret, qrDataUrl, otpauthUrl } = setup.json() as { secret: string; qrDataUrl: string; otpauthUrl: string };
    expect(qrDataUrl).toMatch(/^data:image\/png;base64,/);
    expect(otpauthUrl).toContain("otpauth://totp/Sonoscribe");
    const stored = await rowsOf<{ totp_secret_enc: string }>(
      t,
      sql`select totp_secret_enc from users where id = ${admin.userId}`,
    );
    expect(stored[0]!.totp_secret_enc).not.toContain(secret);

    // Not on until confirmed: sign-in still needs no code.
    expect((await login({ email: admin.email, password: admin.password })).statusCode).toBe(200);
    const bad = await call({ method: "POST", url: "/api/auth/totp/enable", payload: { code: "000000" } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: "Invalid authentication code", field: "code" });
    const enabled = await call({
      method: "POST",
      url: "/api/auth/totp/enable",
      payload: { code: await generate({ secret }) },
    });
    expect(enabled.statusCode).toBe(200);
    const { recoveryCodes } = enabled.json() as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect((await call({ url: "/api/auth/totp" })).json()).toEqual({ enabled: true, recoveryCodesLeft: 10 });

    const noCode = await login({ email: admin.email, password: admin.password });
    expect(noCode.statusCode).toBe(401);
    expect(noCode.json().code).toBe("TOTP_REQUIRED");
    expect(noCode.cookies.find((c) => c.name === "sid")).toBeUndefined();
    const wrongCode = await login({ email: admin.email, password: admin.password, totpCode: "123456" });
    expect(wrongCode.json()).toMatchObject({ code: "TOTP_REQUIRED", error: "Invalid authentication code" });
    const withCode = await login({
      email: admin.email,
      password: admin.password,
      // The code that turned TOTP on was used once already: the next step's code (within the drift allowed).
      totpCode: await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }),
    });
    expect(withCode.statusCode).toBe(200);
    expect(withCode.json().totpEnabled).toBe(true);

    const recovery = recoveryCodes[0]!.toUpperCase();
    expect((await login({ email: admin.email, password: admin.password, totpCode: recovery })).statusCode).toBe(200);
    expect((await login({ email: admin.email, password: admin.password, totpCode: recovery })).statusCode).toBe(401);
    expect((await call({ url: "/api/auth/totp" })).json()).toEqual({ enabled: true, recoveryCodesLeft: 9 });

    // Turning it off needs a code as well.
    expect(
      (await call({ method: "POST", url: "/api/auth/totp/disable", payload: { code: "999999" } })).statusCode,
    ).toBe(400);
    const off = await call({ method: "POST", url: "/api/auth/totp/disable", payload: { code: recoveryCodes[1]! } });
    expect(off.statusCode).toBe(200);
    expect((await login({ email: admin.email, password: admin.password })).statusCode).toBe(200);
    const events = await rowsOf<{ action: string }>(
      t,
      sql`select action from audit_events where action like 'auth.totp_%' order by id`,
    );
    expect(events.map((e) => e.action)).toEqual(["auth.totp_enabled", "auth.totp_disabled"]);
  });

  it("a platform admin without TOTP signs in but is refused admin calls until they enrol", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/clinics/register",
      payload: {
        name: "Owner",
        email: ADMIN_EMAIL,
        adminFirstName: "Web",
        adminLastName: "Master",
        password: "a".repeat(12),
      },
    });
    expect(res.statusCode).toBe(201);
    const owner = await signIn(t.app, ADMIN_EMAIL, "a".repeat(12));
    expect((await as(t.app, owner)({ url: "/api/auth/user" })).json().isPlatformAdmin).toBe(false);
    await grantPlatformAdmin(t.deps.database.db, ADMIN_EMAIL);
    expect((await as(t.app, owner)({ url: "/api/auth/user" })).json().isPlatformAdmin).toBe(true);
    const refused = await as(t.app, owner)({ url: "/api/admin/test-guard" });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(TOTP_REQUIRED_FOR_ADMINS);
    expect((await as(t.app, admin)({ url: "/api/admin/test-guard" })).statusCode).toBe(403);
    expect((await t.app.inject({ url: "/api/admin/test-guard" })).statusCode).toBe(401);

    const { secret } = (await as(t.app, owner)({ method: "POST", url: "/api/auth/totp/setup" })).json() as {
      secret: string;
    };
    await as(
      t.app,
      owner,
    )({ method: "POST", url: "/api/auth/totp/enable", payload: { code: await generate({ secret }) } });
    const allowed = await as(t.app, owner)({ url: "/api/admin/test-guard" });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json()).toEqual({ ok: ADMIN_EMAIL });
  });

  it("sign-in, sign-out, failures and registration are on an intact audit chain", async () => {
    const actions = await rowsOf<{ action: string }>(t, sql`select distinct action from audit_events`);
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining(["clinic.registered", "auth.sign_in", "auth.sign_out", "auth.sign_in_failed"]),
    );
    expect((await verifyAuditChain(t.deps.database.db)).ok).toBe(true);
  });
});

describe("sign-in rate limit", () => {
  it("slows repeated attempts on one e-mail after five failures", async () => {
    const t = await createTestApp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { email: "target@example.com", password: `guess-${i}` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 5).every((s) => s === 401)).toBe(true);
    expect(statuses[5]).toBe(429);
    await t.close();
  });
});

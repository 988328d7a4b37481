import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../config";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { startFakeOidcProvider } from "./fake-oidc-provider";

const CLIENT_ID = "sonoscribe-test";

describe("OpenID Connect sign-in", () => {
  let provider: Awaited<ReturnType<typeof startFakeOidcProvider>>;
  let t: TestApp;
  let admin: SignedIn;
  beforeAll(async () => {
    provider = await startFakeOidcProvider(CLIENT_ID);
    t = await createTestApp({
      PUBLIC_URL: "http://sono.test",
      OIDC_ISSUER_URL: provider.issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: "client-secret",
    });
    admin = await registerClinic(t.app, "Riverside Vascular");
  });
  afterAll(async () => {
    await t.close();
    await provider.close();
  });

  /** GET /api/login: the provider's URL and the flow cookie. */
  const begin = async () => {
    const res = await t.app.inject({ url: "/api/login" });
    expect(res.statusCode).toBe(302);
    const flow = res.cookies.find((c) => c.name === "oidc_flow")!;
    expect(flow.httpOnly).toBe(true);
    return { location: res.headers.location as string, flowCookie: `oidc_flow=${flow.value}` };
  };
  const callback = (query: string, cookie?: string) =>
    t.app.inject({ url: `/api/auth/oidc/callback?${query}`, headers: cookie ? { cookie } : {} });

  it("sends the browser to the provider with PKCE (S256), state and nonce", async () => {
    const { location } = await begin();
    const url = new URL(location);
    expect(url.origin + url.pathname).toBe(`${provider.issuer}/authorize`);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("redirect_uri")).toBe("http://sono.test/api/auth/oidc/callback");
    expect(url.searchParams.get("client_id")).toBe(CLIENT_ID);
    for (const name of ["state", "nonce", "code_challenge"]) expect(url.searchParams.get(name)).toBeTruthy();
  });

  it("signs in an existing active user found by e-mail and links the provider's subject", async () => {
    const { location, flowCookie } = await begin();
    const state = new URL(location).searchParams.get("state")!;
    const code = provider.authorize(location, {
      sub: "subject-1",
      email: admin.email.toUpperCase(),
      email_verified: true,
    });
    const res = await callback(`code=${code}&state=${state}`, flowCookie);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/");
    const sid = res.cookies.find((c) => c.name === "sid")!;
    const me = await t.app.inject({ url: "/api/auth/user", headers: { cookie: `sid=${sid.value}` } });
    expect(me.json()).toMatchObject({ email: admin.email, clinicName: "Riverside Vascular" });
  });

  it("refuses a state that does not match the flow, a missing flow cookie, and a replayed flow", async () => {
    const { location, flowCookie } = await begin();
    const state = new URL(location).searchParams.get("state")!;
    const code = provider.authorize(location, { sub: "subject-1", email: admin.email });
    const wrong = await callback(`code=${code}&state=forged`, flowCookie);
    expect(wrong.headers.location).toBe("/login?error=state");
    expect(wrong.cookies.find((c) => c.name === "sid")).toBeUndefined();
    // The flow was used up by the failed attempt: the right state cannot be tried afterwards.
    expect((await callback(`code=${code}&state=${state}`, flowCookie)).headers.location).toBe("/login?error=state");
    expect((await callback(`code=${code}&state=${state}`)).headers.location).toBe("/login?error=state");
  });

  it("never creates accounts: an unknown e-mail is refused", async () => {
    const { location, flowCookie } = await begin();
    const state = new URL(location).searchParams.get("state")!;
    const code = provider.authorize(location, { sub: "stranger", email: "stranger@example.com" });
    const res = await callback(`code=${code}&state=${state}`, flowCookie);
    expect(res.headers.location).toBe("/login?error=no_account");
    expect(res.cookies.find((c) => c.name === "sid")).toBeUndefined();
  });

  it("a user with two-factor sign-in still gives their code after the provider", async () => {
    const call = as(t.app, admin);
    const { secret } = (await call({ method: "POST", url: "/api/auth/totp/setup" })).json() as { secret: string };
    await call({ method: "POST", url: "/api/auth/totp/enable", payload: { code: await generate({ secret }) } });
    const { location, flowCookie } = await begin();
    const state = new URL(location).searchParams.get("state")!;
    const code = provider.authorize(location, { sub: "subject-1", email: admin.email });
    const res = await callback(`code=${code}&state=${state}`, flowCookie);
    expect(res.headers.location).toBe("/login?step=totp");
    const pending = { cookie: `sid=${res.cookies.find((c) => c.name === "sid")!.value}` };
    expect((await as(t.app, pending)({ url: "/api/auth/user" })).statusCode).toBe(401);
    const wrong = await as(
      t.app,
      pending,
    )({ method: "POST", url: "/api/auth/totp/complete", payload: { code: "000000" } });
    expect(wrong.json().code).toBe("TOTP_REQUIRED");
    const done = await as(
      t.app,
      pending,
    )({
      method: "POST",
      url: "/api/auth/totp/complete",
      // The enable step used the current code once: the next step's code (within the drift allowed).
      payload: { code: await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }) },
    });
    expect(done.statusCode, done.body).toBe(200);
    const full = { cookie: `sid=${done.cookies.find((c) => c.name === "sid")!.value}` };
    expect(full.cookie).not.toBe(pending.cookie);
    expect((await as(t.app, full)({ url: "/api/auth/user" })).json().email).toBe(admin.email);
    expect(
      (await t.app.inject({ method: "POST", url: "/api/auth/totp/complete", payload: { code: "123456" } })).statusCode,
    ).toBe(401);
  });

  it("refuses a code the provider does not honour (wrong PKCE verifier or reused code)", async () => {
    const first = await begin();
    const second = await begin();
    // A code issued for the first flow's PKCE challenge, presented with the second flow's verifier.
    const code = provider.authorize(first.location, { sub: "subject-1", email: admin.email });
    const state = new URL(second.location).searchParams.get("state")!;
    const res = await callback(`code=${code}&state=${state}`, second.flowCookie);
    expect(res.headers.location).toBe("/login?error=provider");
  });
});

describe("OpenID Connect configuration", () => {
  it("needs issuer, client id and secret together", () => {
    expect(() => loadConfig({ OIDC_ISSUER_URL: "https://id.example" })).toThrow(ConfigError);
    expect(loadConfig({}).oidc).toBeNull();
  });
});

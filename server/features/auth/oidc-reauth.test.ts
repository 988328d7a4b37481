import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REAUTH_WINDOW_MS } from "../../../domain/signing";
import { auditEvents, physicians, reports } from "../../db/schema";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { startFakeOidcProvider } from "./fake-oidc-provider";
import { AUTH_TIME_SKEW_SECONDS } from "./oidc";

const CLIENT_ID = "sonoscribe-test";

/** Issue 26: an account that signs in by single sign-on re-authenticates for signing with a fresh provider login. */
describe("re-authentication through the single sign-on provider", () => {
  let provider: Awaited<ReturnType<typeof startFakeOidcProvider>>;
  let t: TestApp;
  let admin: SignedIn;
  /** The admin's session from signing in through the provider. */
  let sso: { cookie: string };
  let now = Date.parse("2026-11-24T10:00:00Z");
  const seconds = (ms: number) => Math.floor(ms / 1000);

  beforeAll(async () => {
    provider = await startFakeOidcProvider(CLIENT_ID);
    t = await createTestApp(
      {
        PUBLIC_URL: "http://sono.test",
        OIDC_ISSUER_URL: provider.issuer,
        OIDC_CLIENT_ID: CLIENT_ID,
        OIDC_CLIENT_SECRET: "client-secret",
      },
      { clock: () => now },
    );
    admin = await registerClinic(t.app, "Riverside Vascular");
    const start = await t.app.inject({ url: "/api/login" });
    const location = start.headers.location as string;
    const flow = start.cookies.find((c) => c.name === "oidc_flow")!.value;
    const code = provider.authorize(location, { sub: "sso-admin", email: admin.email, email_verified: true });
    const signedIn = await t.app.inject({
      url: `/api/auth/oidc/callback?code=${code}&state=${new URL(location).searchParams.get("state")}`,
      headers: { cookie: `oidc_flow=${flow}` },
    });
    sso = { cookie: `sid=${signedIn.cookies.find((c) => c.name === "sid")!.value}` };
  });
  afterAll(async () => {
    await t.close();
    await provider.close();
  });

  const status = async () => (await as(t.app, sso)({ url: "/api/auth/reauth" })).json();

  /** The dialog's button: to the provider with prompt=login and max_age=0, back through the callback. */
  async function reauthenticate(claims: Record<string, unknown>, session = sso) {
    const start = await as(t.app, session)({ url: "/api/auth/reauth/oidc?next=/reports?open=7" });
    expect(start.statusCode).toBe(302);
    const location = start.headers.location as string;
    const params = new URL(location).searchParams;
    expect([params.get("prompt"), params.get("max_age")]).toEqual(["login", "0"]);
    const flow = start.cookies.find((c) => c.name === "oidc_flow")!.value;
    const code = provider.authorize(location, claims);
    return t.app.inject({
      url: `/api/auth/oidc/callback?code=${code}&state=${params.get("state")}`,
      headers: { cookie: `${session.cookie}; oidc_flow=${flow}` },
    });
  }

  it("offers the provider to an account whose provider subject is linked", async () => {
    expect((await status()).methods).toEqual({ password: true, totp: false, oidc: true });
    expect((await status()).reauthenticatedUntil).toBeNull();
  });

  it("refuses a login the provider remembered from before the request (auth_time too old)", async () => {
    const res = await reauthenticate({ sub: "sso-admin", email: admin.email, auth_time: seconds(now) - 3600 });
    expect(res.headers.location).toBe("/reports?open=7&reauth=not_fresh");
    expect((await status()).reauthenticatedUntil).toBeNull();
    const res2 = await reauthenticate({ sub: "sso-admin", email: admin.email });
    expect(res2.headers.location).toBe("/reports?open=7&reauth=not_fresh");
  });

  it("refuses another person's login at the provider", async () => {
    const res = await reauthenticate({ sub: "someone-else", email: "other@example.com", auth_time: seconds(now) });
    expect(res.headers.location).toBe("/reports?open=7&reauth=not_you");
    expect((await status()).reauthenticatedUntil).toBeNull();
    const failed = await t.deps.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "auth.reauth_failed"));
    expect(failed.map((e) => (e.details as { reason: string }).reason)).toEqual(["not_fresh", "not_fresh", "not_you"]);
  });

  it("needs a session: a signed-out browser cannot start one", async () => {
    expect((await t.app.inject({ url: "/api/auth/reauth/oidc" })).statusCode).toBe(401);
  });

  it("a fresh login covers signatures for exactly five minutes (injected clock)", async () => {
    const [physician] = await t.deps.database.db
      .insert(physicians)
      .values({ clinicId: admin.clinicId, name: "Dr Ada Admin", userId: admin.userId })
      .returning();
    const draft = async () =>
      (
        await t.deps.database.db
          .insert(reports)
          .values({
            clinicId: admin.clinicId,
            physicianId: physician!.id,
            patientName: "Pat Example",
            studyType: "Carotid Duplex",
            indication: "-",
            findings: "-",
            impression: "-",
          })
          .returning()
      )[0]!.id;
    const finalize = async (id: number) =>
      as(t.app, sso)({ method: "POST", url: `/api/reports/${id}/finalize`, payload: { confirmExamDate: true } });

    const first = await draft();
    expect((await finalize(first)).statusCode).toBe(428);
    const start = now;
    // A login within the allowed skew before the request still counts: provider and server clocks differ a little.
    const res = await reauthenticate({
      sub: "sso-admin",
      email: admin.email,
      auth_time: seconds(start) - AUTH_TIME_SKEW_SECONDS,
    });
    expect(res.headers.location).toBe("/reports?open=7&reauth=ok");
    expect((await status()).reauthenticatedUntil).toBe(new Date(start + REAUTH_WINDOW_MS).toISOString());

    now = start + REAUTH_WINDOW_MS - 1; // just before
    expect((await status()).reauthenticatedUntil).not.toBeNull();
    const signed = await finalize(first);
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toMatchObject({ isFinalized: true, finalizedBy: admin.userId, finalizedOnBehalf: false });

    const second = await draft();
    now = start + REAUTH_WINDOW_MS; // exactly five minutes
    expect((await status()).reauthenticatedUntil).toBeNull();
    const late = await finalize(second);
    expect(late.statusCode).toBe(428);
    expect(late.json().code).toBe("reauth_required");
    now = start + REAUTH_WINDOW_MS + 1; // just after
    expect((await finalize(second)).statusCode).toBe(428);

    const audited = await t.deps.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "auth.reauthenticated"));
    expect(audited.map((e) => e.details)).toEqual([{ method: "oidc" }]);
  });
});

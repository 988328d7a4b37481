import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../db/schema";
import { verifyAuditChain } from "../../platform/audit";
import { hashPassword } from "../../platform/passwords";
import { as, createTestApp, registerClinic, type SignedIn, signIn, type TestApp } from "../../test-support/test-app";

const tokenOf = (url: string) => url.split("/invite/")[1]!;

/** Rows of a raw query (the driver-neutral Db type does not know their shape). */
const rowsOf = async <T>(t: TestApp, query: SQL) =>
  ((await t.deps.database.db.execute(query)) as unknown as { rows: T[] }).rows;

describe("invitations", () => {
  let t: TestApp;
  let admin: SignedIn;
  let other: SignedIn;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: "https://sono.example" });
    admin = await registerClinic(t.app, "Riverside Vascular");
    other = await registerClinic(t.app, "Other Clinic");
  });
  afterAll(() => t.close());

  const invite = async (user: SignedIn, email: string, role = "sonographer") => {
    const res = await as(t.app, user)({ method: "POST", url: "/api/invitations", payload: { email, role } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; invitationUrl: string; email: string; emailed: boolean };
  };

  it("creates an invitation whose link carries an unguessable token stored only hashed", async () => {
    const created = await invite(admin, "Sam@Example.com");
    expect(created.email).toBe("sam@example.com");
    expect(created.emailed).toBe(false);
    expect(created.invitationUrl).toMatch(/^https:\/\/sono\.example\/invite\/[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(created.invitationUrl);
    const stored = await rowsOf<{ token_hash: string; expires_at: string }>(
      t,
      sql`select token_hash, expires_at from user_invitations where id = ${created.id}`,
    );
    expect(stored[0]!.token_hash).not.toContain(token);
    expect(stored[0]!.token_hash).toHaveLength(64);
    const days = (new Date(stored[0]!.expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
  });

  it("lists pending invitations of the own clinic only, and cancels them", async () => {
    const created = await invite(admin, "pending@example.com", "admin");
    const list = await as(t.app, admin)({ url: "/api/invitations" });
    expect(list.json()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: created.id, email: "pending@example.com", role: "admin" }),
      ]),
    );
    expect((await as(t.app, other)({ url: "/api/invitations" })).json()).toEqual([]);
    expect((await as(t.app, other)({ method: "DELETE", url: `/api/invitations/${created.id}` })).statusCode).toBe(404);
    expect((await as(t.app, admin)({ method: "DELETE", url: `/api/invitations/${created.id}` })).statusCode).toBe(204);
    const after = (await as(t.app, admin)({ url: "/api/invitations" })).json() as Array<{ id: number }>;
    expect(after.map((i) => i.id)).not.toContain(created.id);
    const details = await t.app.inject({ url: `/api/invitations/${tokenOf(created.invitationUrl)}/details` });
    expect(details.statusCode).toBe(404);
    expect(details.json().error).toBe("This invitation has been cancelled");
  });

  it("inviting the same address again replaces the earlier link", async () => {
    const first = await invite(admin, "twice@example.com");
    await invite(admin, "twice@example.com");
    const res = await t.app.inject({ url: `/api/invitations/${tokenOf(first.invitationUrl)}/details` });
    expect(res.statusCode).toBe(404);
  });

  it("validates the invite form with the spec's texts", async () => {
    const bad = await as(
      t.app,
      admin,
    )({ method: "POST", url: "/api/invitations", payload: { email: "x", role: "admin" } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: "email" });
    expect(bad.json().error).toContain("Please enter a valid email address");
    const role = await as(
      t.app,
      admin,
    )({
      method: "POST",
      url: "/api/invitations",
      payload: { email: "a@example.com", role: "owner" },
    });
    expect(role.statusCode).toBe(400);
    expect(role.json()).toMatchObject({ field: "role" });
    expect(role.json().error).toContain("Please select a role");
    const dupe = await as(
      t.app,
      admin,
    )({
      method: "POST",
      url: "/api/invitations",
      payload: { email: admin.email, role: "admin" },
    });
    expect(dupe.statusCode).toBe(409);
  });

  it("answers 401 without a session and 400 for a malformed id or token", async () => {
    expect((await t.app.inject({ url: "/api/invitations" })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: "POST", url: "/api/invitations", payload: { email: "a@b.co", role: "admin" } }))
        .statusCode,
    ).toBe(401);
    expect((await t.app.inject({ method: "DELETE", url: "/api/invitations/1" })).statusCode).toBe(401);
    expect((await as(t.app, admin)({ method: "DELETE", url: "/api/invitations/abc" })).json()).toMatchObject({
      field: "id",
    });
    const badToken = await t.app.inject({ url: "/api/invitations/short/details" });
    expect(badToken.statusCode).toBe(400);
    expect(badToken.json().field).toBe("token");
    const unknown = await t.app.inject({ url: `/api/invitations/${"A".repeat(43)}/details` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe("Invalid or expired invitation");
  });

  it("a new person creates an account from the link, joins with the role and is signed in; the link is then used", async () => {
    const created = await invite(admin, "newbie@example.com");
    const token = tokenOf(created.invitationUrl);
    const details = await t.app.inject({ url: `/api/invitations/${token}/details` });
    expect(details.json()).toMatchObject({
      clinic: { name: "Riverside Vascular", address: "Springfield, IL" },
      role: "sonographer",
      email: "newbie@example.com",
    });
    const weak = await t.app.inject({
      method: "POST",
      url: `/api/invitations/${token}/register`,
      payload: { firstName: "New", lastName: "Bie", password: "short" },
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().field).toBe("password");
    const res = await t.app.inject({
      method: "POST",
      url: `/api/invitations/${token}/register`,
      payload: { firstName: "New", lastName: "Bie", password: "a long enough password" },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      clinicName: "Riverside Vascular",
      user: { email: "newbie@example.com", role: "sonographer", clinicId: admin.clinicId },
    });
    const cookie = res.cookies.find((c) => c.name === "sid")!;
    const me = await t.app.inject({ url: "/api/auth/user", headers: { cookie: `sid=${cookie.value}` } });
    expect(me.json()).toMatchObject({ firstName: "New", clinicName: "Riverside Vascular" });
    const again = await t.app.inject({ url: `/api/invitations/${token}/details` });
    expect(again.json().error).toBe("This invitation has already been used");
    const reuse = await t.app.inject({
      method: "POST",
      url: `/api/invitations/${token}/register`,
      payload: { firstName: "X", lastName: "Y", password: "a long enough password" },
    });
    expect(reuse.statusCode).toBe(404);
  });

  it("an expired link is invalid", async () => {
    const created = await invite(admin, "late@example.com");
    await t.deps.database.db.execute(
      sql`update user_invitations set expires_at = now() - interval '1 minute' where id = ${created.id}`,
    );
    const res = await t.app.inject({ url: `/api/invitations/${tokenOf(created.invitationUrl)}/details` });
    expect(res.json().error).toBe("This invitation has expired");
  });

  it("accepting needs a session and the invited account; another clinic's member is refused, not moved", async () => {
    const forOther = await invite(admin, other.email);
    const token = tokenOf(forOther.invitationUrl);
    expect((await t.app.inject({ method: "POST", url: `/api/invitations/${token}/accept` })).statusCode).toBe(401);
    const wrongAccount = await as(t.app, admin)({ method: "POST", url: `/api/invitations/${token}/accept` });
    expect(wrongAccount.statusCode).toBe(403);
    expect(wrongAccount.json().error).toContain(other.email);
    const res = await as(t.app, other)({ method: "POST", url: `/api/invitations/${token}/accept` });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toContain("already belongs to another clinic");
    const me = await as(t.app, other)({ url: "/api/auth/user" });
    expect(me.json().clinicName).toBe("Other Clinic");
  });

  it("an invitation cannot be created for a current member", async () => {
    const created = await invite(admin, "member@example.com", "admin");
    const reg = await t.app.inject({
      method: "POST",
      url: `/api/invitations/${tokenOf(created.invitationUrl)}/register`,
      payload: { firstName: "Mem", lastName: "Ber", password: "a long enough password" },
    });
    expect(reg.statusCode).toBe(201);
    const member = await signIn(t.app, "member@example.com", "a long enough password");
    // A second invitation cannot be created for a member...
    const dupe = await as(
      t.app,
      admin,
    )({
      method: "POST",
      url: "/api/invitations",
      payload: { email: "member@example.com", role: "sonographer" },
    });
    expect(dupe.statusCode).toBe(409);
    expect((await as(t.app, member)({ url: "/api/auth/user" })).json().role).toBe("admin");
  });

  it("a signed-in account without a clinic accepts and joins with the invited role", async () => {
    await t.deps.database.db.insert(users).values({
      id: "no-clinic-user",
      email: "loner@example.com",
      passwordHash: await hashPassword("a long enough password"),
    });
    const loner = await signIn(t.app, "loner@example.com", "a long enough password");
    const created = await invite(admin, "loner@example.com", "admin");
    const res = await as(
      t.app,
      loner,
    )({ method: "POST", url: `/api/invitations/${tokenOf(created.invitationUrl)}/accept` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ clinicId: admin.clinicId, clinicName: "Riverside Vascular" });
    const me = (await as(t.app, loner)({ url: "/api/auth/user" })).json();
    expect(me).toMatchObject({ clinicId: admin.clinicId, role: "admin" });
    const again = await as(
      t.app,
      loner,
    )({ method: "POST", url: `/api/invitations/${tokenOf(created.invitationUrl)}/accept` });
    expect(again.json().error).toBe("This invitation has already been used");
  });

  it("sonographers see pending invitations but cannot invite or cancel", async () => {
    const created = await invite(admin, "sono@example.com");
    await t.app.inject({
      method: "POST",
      url: `/api/invitations/${tokenOf(created.invitationUrl)}/register`,
      payload: { firstName: "So", lastName: "No", password: "a long enough password" },
    });
    const sono = await signIn(t.app, "sono@example.com", "a long enough password");
    const pending = await invite(admin, "someone@example.com");
    expect((await as(t.app, sono)({ url: "/api/invitations" })).statusCode).toBe(200);
    const post = await as(
      t.app,
      sono,
    )({
      method: "POST",
      url: "/api/invitations",
      payload: { email: "x@example.com", role: "admin" },
    });
    expect(post.statusCode).toBe(403);
    expect((await as(t.app, sono)({ method: "DELETE", url: `/api/invitations/${pending.id}` })).statusCode).toBe(403);
  });

  it("records created, cancelled and accepted events on an intact chain", async () => {
    const rows = await rowsOf<{ action: string }>(
      t,
      sql`select distinct action from audit_events where action like 'invitation.%'`,
    );
    expect(rows.map((r) => r.action).sort()).toEqual([
      "invitation.accepted",
      "invitation.cancelled",
      "invitation.created",
    ]);
    expect((await verifyAuditChain(t.deps.database.db)).ok).toBe(true);
  });
});

describe("invitation e-mail", () => {
  it("an unreachable SMTP server does not fail the invitation: the link is still answered, emailed false", async () => {
    const t = await createTestApp({ SMTP_URL: "smtp://127.0.0.1:1" });
    const admin = await registerClinic(t.app);
    const res = await as(
      t.app,
      admin,
    )({
      method: "POST",
      url: "/api/invitations",
      payload: { email: "mail@example.com", role: "sonographer" },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ emailed: false, invitationUrl: expect.stringContaining("/invite/") });
    await t.close();
  });
});

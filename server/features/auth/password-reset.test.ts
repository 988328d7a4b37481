import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD_RESET_SENT_MESSAGE } from "../../../domain/contracts/auth";
import type { Mail } from "../../platform/mailer";
import { addClinicMember } from "../../test-support/signing";
import {
  as,
  createTestApp,
  outboxOf,
  registerClinic,
  type SignedIn,
  signIn,
  type TestApp,
} from "../../test-support/test-app";
import {
  latestResetToken,
  RESET_LINK_MINUTES,
  RESET_LINK_UNUSABLE,
  RESETS_PER_ACCOUNT_HOUR,
} from "./password-reset.service";

const NEW_PASSWORD = "a brand new passphrase";

const rowsOf = async <T>(t: TestApp, query: SQL) =>
  ((await t.deps.database.db.execute(query)) as unknown as { rows: T[] }).rows;

/** Issue 29 item 2: forgot password, by a mailed link or one an admin issues. */
describe("password reset", () => {
  let t: TestApp;
  let admin: SignedIn;
  let otherAdmin: SignedIn;
  let now = Date.parse("2026-11-24T10:00:00Z");

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: "https://sono.test" }, { clock: () => now });
    admin = await registerClinic(t.app, "Riverside Vascular");
    otherAdmin = await registerClinic(t.app, "Other Clinic");
  });
  afterAll(() => t.close());

  let ip = 0;
  /** From a new address each time unless told: the per-address limit is tested on its own. */
  const ask = (email: string, remoteAddress = `10.0.0.${++ip}`) =>
    t.app.inject({ method: "POST", url: "/api/auth/password-reset", payload: { email }, remoteAddress });
  const complete = (token: string, password = NEW_PASSWORD) =>
    t.app.inject({ method: "POST", url: "/api/auth/password-reset/complete", payload: { token, password } });
  const tokenFor = async (email: string) => latestResetToken(await outboxOf(t.app, email));
  const audit = (action: string) =>
    rowsOf<{ actor_user_id: string | null; entity_id: string; details: Record<string, unknown> }>(
      t,
      sql`select actor_user_id, entity_id, details from audit_events where action = ${action} order by id`,
    );

  it("answers a known address exactly as an unknown one, and mails only the account's own address", async () => {
    const member = await addClinicMember(t, admin.clinicId, "sonographer", { firstName: "Sam", lastName: "Sono" });
    const known = await ask(member.email.toUpperCase());
    const unknown = await ask("nobody@nowhere.test");
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json()).toEqual({
      status: "reset_requested",
      delivery: "outbox",
      message: PASSWORD_RESET_SENT_MESSAGE,
    });
    expect(await outboxOf(t.app, "nobody@nowhere.test")).toEqual([]);
    const [mail] = await outboxOf(t.app, member.email);
    expect(mail!.subject).toBe("Choose a new Sonoscribe password");
    expect(mail!.text).toMatch(/https:\/\/sono\.test\/reset-password#token=[A-Za-z0-9_-]{43}/);
    // Only the hash is stored: the mailed token appears nowhere in the table.
    const token = latestResetToken([mail!])!;
    const stored = await rowsOf<{ token_hash: string }>(t, sql`select token_hash from password_resets`);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.some((r) => r.token_hash === token)).toBe(false);
    expect((await audit("auth.password_reset_issued")).at(-1)).toMatchObject({
      actor_user_id: null,
      entity_id: member.userId,
      details: { by: "self", delivery: "outbox" },
    });
  });

  it("sets the new password once, ends every session of the account, and is audited", async () => {
    const member = await addClinicMember(t, admin.clinicId, "sonographer", { firstName: "Rae", lastName: "Set" });
    const second = await signIn(t.app, member.email, member.password);
    await ask(member.email);
    const token = (await tokenFor(member.email))!;

    const tooShort = await complete(token, "short");
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.json().error).toContain("at least 12 characters");

    const done = await complete(token);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ email: member.email });
    for (const session of [member, second]) {
      expect((await as(t.app, session)({ url: "/api/auth/user" })).statusCode).toBe(401);
    }
    const oldPassword = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: member.email, password: member.password },
    });
    expect(oldPassword.statusCode).toBe(401);
    await signIn(t.app, member.email, NEW_PASSWORD);

    const again = await complete(token, "yet another long passphrase");
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toBe(RESET_LINK_UNUSABLE);
    expect((await audit("auth.password_reset")).at(-1)).toMatchObject({
      actor_user_id: member.userId,
      entity_id: member.userId,
      details: { issuedBy: "self" },
    });
  });

  it("refuses a wrong token and an expired link", async () => {
    const wrong = await complete("x".repeat(43));
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().error).toBe(RESET_LINK_UNUSABLE);

    const member = await addClinicMember(t, admin.clinicId, "physician", { firstName: "Ex", lastName: "Pired" });
    await ask(member.email);
    const token = (await tokenFor(member.email))!;
    now += (RESET_LINK_MINUTES + 1) * 60_000;
    const expired = await complete(token);
    expect(expired.statusCode).toBe(404);
    // The password is unchanged.
    await signIn(t.app, member.email, member.password);
  });

  it("limits the requests from one network address (429)", async () => {
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await ask(`probe-${i}@nowhere.test`, "192.0.2.7")).statusCode);
    expect(codes).toEqual([202, 202, 202, 202, 202, 429]);
  });

  it("mails an account at most a few links an hour, and none to a deactivated account", async () => {
    const member = await addClinicMember(t, admin.clinicId, "sonographer", { firstName: "Many", lastName: "Asks" });
    for (let i = 0; i < RESETS_PER_ACCOUNT_HOUR + 2; i++) expect((await ask(member.email)).statusCode).toBe(202);
    expect(await outboxOf(t.app, member.email)).toHaveLength(RESETS_PER_ACCOUNT_HOUR);

    const gone = await addClinicMember(t, admin.clinicId, "sonographer", { firstName: "Gone", lastName: "Away" });
    await as(t.app, admin)({ method: "PATCH", url: `/api/staff/${gone.userId}/deactivate` });
    expect((await ask(gone.email)).statusCode).toBe(202);
    expect(await outboxOf(t.app, gone.email)).toEqual([]);
  });

  it("an admin issues a link for their own staff (shown to copy without e-mail); other clinics and roles cannot", async () => {
    const member = await addClinicMember(t, admin.clinicId, "sonographer", { firstName: "Ad", lastName: "Min" });
    const issued = await as(t.app, admin)({ method: "POST", url: `/api/staff/${member.userId}/password-reset` });
    expect(issued.statusCode, issued.body).toBe(201);
    const body = issued.json() as { resetUrl: string; emailed: boolean; email: string; expiresAt: string };
    expect(body).toMatchObject({ email: member.email, emailed: false });
    expect(Date.parse(body.expiresAt)).toBe(now + RESET_LINK_MINUTES * 60_000);
    expect(await outboxOf(t.app, member.email)).toEqual([]);
    expect((await audit("auth.password_reset_issued")).at(-1)).toMatchObject({
      actor_user_id: admin.userId,
      entity_id: member.userId,
      details: { by: "admin" },
    });

    const fromOther = await as(
      t.app,
      otherAdmin,
    )({ method: "POST", url: `/api/staff/${member.userId}/password-reset` });
    expect(fromOther.statusCode).toBe(404);
    const peer = await addClinicMember(t, admin.clinicId, "sonographer", { firstName: "Pe", lastName: "Er" });
    const fromPeer = await as(t.app, peer)({ method: "POST", url: `/api/staff/${member.userId}/password-reset` });
    expect(fromPeer.statusCode).toBe(403);

    const token = body.resetUrl.split("#token=")[1]!;
    expect((await complete(token)).statusCode).toBe(200);
    await signIn(t.app, member.email, NEW_PASSWORD);
    expect((await audit("auth.password_reset")).at(-1)).toMatchObject({ details: { issuedBy: "admin" } });
  });

  it("with e-mail set up, the admin's link goes to the member's mailbox only", async () => {
    const sent: Mail[] = [];
    const outbox = t.deps.mailer;
    // The routes read the mailer per request: this app now "has SMTP" for the length of this test.
    t.deps.mailer = { delivery: "email", send: async (mail) => void sent.push(mail) };
    try {
      const member = await addClinicMember(t, admin.clinicId, "sonographer", { firstName: "M", lastName: "E" });
      const issued = await as(t.app, admin)({ method: "POST", url: `/api/staff/${member.userId}/password-reset` });
      expect(issued.statusCode, issued.body).toBe(201);
      expect(issued.json()).toMatchObject({ emailed: true, resetUrl: null });
      expect(sent.map((m) => m.to)).toEqual([member.email]);
      expect(sent[0]!.text).toContain("An admin of your clinic issued a link");
      const token = latestResetToken(sent)!;
      expect((await complete(token)).statusCode).toBe(200);
    } finally {
      t.deps.mailer = outbox;
    }
  });
});

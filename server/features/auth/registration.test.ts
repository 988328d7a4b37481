import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REGISTRATION_COMPLETE_MESSAGE, REGISTRATION_SENT_MESSAGE } from "../../../domain/contracts/auth";
import {
  as,
  confirmRegistrationFromOutbox,
  createTestApp,
  outboxOf,
  registerClinic,
  type SignedIn,
  signIn,
  type TestApp,
} from "../../test-support/test-app";
import { latestConfirmToken, REGISTRATION_LINK_HOURS } from "./registration.service";

const PASSWORD = "correct horse battery";

/** Issue 25 item 13: registration says nothing about whether an address is registered; the mail does. */
describe("with e-mail set up, registration proves the address before anything exists", () => {
  let t: TestApp;
  let existing: SignedIn;
  let now = Date.parse("2026-11-24T10:00:00Z");
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: "https://sono.test", REGISTRATION_EMAIL_PROOF: "on" }, { clock: () => now });
    existing = await registerClinic(t.app, "Riverside Vascular");
  });
  afterAll(() => t.close());

  const register = (email: string, password = PASSWORD, name = "Lakeside Vascular") =>
    t.app.inject({
      method: "POST",
      url: "/api/clinics/register",
      payload: { name, email, adminFirstName: "Grace", adminLastName: "Hopper", password, city: "Portland" },
    });
  const confirm = (token: string, password = PASSWORD) =>
    t.app.inject({ method: "POST", url: "/api/clinics/register/confirm", payload: { token, password } });
  const count = async (table: "clinics" | "users") =>
    Number(
      (
        (await t.deps.database.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as {
          rows: Array<{ n: number }>;
        }
      ).rows[0]!.n,
    );

  it("answers an address with an account exactly as a new one (status, fields, words)", async () => {
    const known = await register(existing.email);
    const fresh = await register("fresh@lakeside.test");
    expect(known.statusCode).toBe(202);
    expect(fresh.statusCode).toBe(202);
    const strip = (body: Record<string, unknown>) => ({ ...body, email: "-" });
    expect(strip(known.json())).toEqual(strip(fresh.json()));
    expect(fresh.json()).toEqual({
      email: "fresh@lakeside.test",
      status: "verification_sent",
      delivery: "outbox",
      message: REGISTRATION_SENT_MESSAGE,
      expiresAt: new Date(now + REGISTRATION_LINK_HOURS * 3_600_000).toISOString(),
    });
    // An upper-case spelling of a known address is no different.
    const upper = await register(existing.email.toUpperCase());
    expect(strip(upper.json())).toEqual(strip(fresh.json()));
  });

  it("creates nothing until the link is opened; the mail to a known address says so and offers sign-in", async () => {
    const before = [await count("clinics"), await count("users")];
    await register("later@lakeside.test");
    expect([await count("clinics"), await count("users")]).toEqual(before);

    // The first mail is the existing admin's own finish-registering link; the two since say "already registered".
    const [, ...since] = await outboxOf(t.app, existing.email);
    expect(since.map((m) => m.subject)).toEqual(Array(2).fill("You already have a Sonoscribe account"));
    expect(since[0]!.text).toContain("This address already has an account");
    expect(since[0]!.text).toContain("https://sono.test/login");
    expect(latestConfirmToken(since)).toBeNull();

    const [finish] = await outboxOf(t.app, "later@lakeside.test");
    expect(finish!.subject).toBe("Finish registering Lakeside Vascular on Sonoscribe");
    expect(finish!.text).toMatch(/https:\/\/sono\.test\/register-clinic\/confirm#token=[A-Za-z0-9_-]{43}/);
  });

  it("the link with the chosen password creates the clinic and its admin, signs them in, and works once", async () => {
    await register("grace@lakeside.test");
    const token = latestConfirmToken(await outboxOf(t.app, "grace@lakeside.test"))!;
    const wrong = await confirm(token, "not the password at all");
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ field: "password" });

    const res = await confirm(token);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({ clinicId: expect.any(Number), userId: expect.any(String), email: "grace@lakeside.test" });
    const sid = res.cookies.find((c) => c.name === "sid")!;
    const me = await as(t.app, { cookie: `sid=${sid.value}` })({ url: "/api/auth/user" });
    expect(me.json()).toMatchObject({ email: "grace@lakeside.test", role: "admin", clinicName: "Lakeside Vascular" });
    const clinic = await as(t.app, { cookie: `sid=${sid.value}` })({ url: "/api/clinic" });
    expect(clinic.json()).toMatchObject({ email: "grace@lakeside.test", city: "Portland" });
    await signIn(t.app, "grace@lakeside.test", PASSWORD);

    const again = await confirm(token);
    expect(again.statusCode).toBe(404);
  });

  it("a link stops working after 24 hours", async () => {
    await register("slow@lakeside.test");
    const token = latestConfirmToken(await outboxOf(t.app, "slow@lakeside.test"))!;
    now += REGISTRATION_LINK_HOURS * 3_600_000;
    try {
      expect((await confirm(token)).statusCode).toBe(404);
    } finally {
      now -= REGISTRATION_LINK_HOURS * 3_600_000;
    }
  });

  it("a second link to an address registered meanwhile is refused once opened, never a second account", async () => {
    await register("twice@lakeside.test", PASSWORD, "First");
    await register("twice@lakeside.test", PASSWORD, "Second");
    const mails = await outboxOf(t.app, "twice@lakeside.test");
    const first = latestConfirmToken([mails[0]!])!;
    const second = latestConfirmToken([mails[1]!])!;
    expect((await confirm(first)).statusCode).toBe(201);
    const late = await confirm(second);
    expect(late.statusCode).toBe(409);
  });

  it("the registration answer is the same in the web client's words whatever happened before", async () => {
    await confirmRegistrationFromOutbox(t.app, "fresh@lakeside.test", PASSWORD);
    const again = await register("fresh@lakeside.test");
    expect(again.statusCode).toBe(202);
    expect(again.json().message).toBe(REGISTRATION_SENT_MESSAGE);
  });
});

/** Without e-mail (the embedded default): the clinic exists at once, and the answer still says nothing. */
describe("without e-mail, registration creates the clinic at once and answers every address alike", () => {
  let t: TestApp;
  let existing: SignedIn;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: "https://sono.test" });
    existing = await registerClinic(t.app, "Riverside Vascular");
  });
  afterAll(() => t.close());

  const register = (email: string, password = PASSWORD) =>
    t.app.inject({
      method: "POST",
      url: "/api/clinics/register",
      payload: { name: "Lakeside Vascular", email, adminFirstName: "Grace", adminLastName: "Hopper", password },
    });
  const clinicsNamed = async (name: string) =>
    (
      (await t.deps.database.db.execute(
        sql`select count(*)::int as n from clinics where name = ${name}`,
      )) as unknown as { rows: Array<{ n: number }> }
    ).rows[0]!.n;

  it("a new address: 201 with the spec's words, and its admin signs in with the chosen password", async () => {
    const fresh = await register("new@lakeside.test");
    expect(fresh.statusCode).toBe(201);
    expect(fresh.json()).toEqual({
      email: "new@lakeside.test",
      status: "registered",
      delivery: "outbox",
      message: REGISTRATION_COMPLETE_MESSAGE,
    });
    // Registering does not sign in (the spec's next step is "Log In to Dashboard").
    expect(fresh.cookies.find((c) => c.name === "sid")).toBeUndefined();
    const admin = await signIn(t.app, "new@lakeside.test", PASSWORD);
    const me = (await as(t.app, admin)({ url: "/api/auth/user" })).json();
    expect(me).toMatchObject({ email: "new@lakeside.test", role: "admin", clinicName: "Lakeside Vascular" });
  });

  it("a known address: the same answer, nothing created, the owner told by mail, the old password still works", async () => {
    const before = await clinicsNamed("Lakeside Vascular");
    const known = await register(existing.email.toUpperCase(), "another password 123");
    expect(known.statusCode).toBe(201);
    expect({ ...known.json(), email: "-" }).toEqual({ ...(await register("other@lakeside.test")).json(), email: "-" });
    expect(known.cookies.find((c) => c.name === "sid")).toBeUndefined();
    expect(await clinicsNamed("Lakeside Vascular")).toBe(before + 1); // only other@lakeside.test's
    const mails = await outboxOf(t.app, existing.email);
    expect(mails.at(-1)?.text).toContain("This address already has an account");
    await expect(signIn(t.app, existing.email, "another password 123")).rejects.toThrow(/401/);
    await signIn(t.app, existing.email, existing.password);
  });
});

import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "../../platform/context";
import { addClinicMember } from "../../test-support/signing";
import { as, createTestApp, registerClinic, type SignedIn, signIn, type TestApp } from "../../test-support/test-app";
import { deactivateStaff } from "./staff.service";

/** Rows of a raw query (the driver-neutral Db type does not know their shape). */
const rowsOf = async <T>(t: TestApp, query: SQL) =>
  ((await t.deps.database.db.execute(query)) as unknown as { rows: T[] }).rows;

describe("staff", () => {
  let t: TestApp;
  let admin: SignedIn;
  let other: SignedIn;

  /** Invites a person to the admin's clinic, lets them create their account, and signs them in. */
  const addMember = async (email: string, role: "admin" | "sonographer") => {
    const created = await as(t.app, admin)({ method: "POST", url: "/api/invitations", payload: { email, role } });
    const token = (created.json() as { invitationUrl: string }).invitationUrl.split("/invite/")[1];
    const res = await t.app.inject({
      method: "POST",
      url: `/api/invitations/${token}/register`,
      payload: { firstName: "Staff", lastName: role, password: "a long enough password" },
    });
    expect(res.statusCode, res.body).toBe(201);
    const signedIn = await signIn(t.app, email, "a long enough password");
    return { ...signedIn, userId: (res.json() as { user: { id: string } }).user.id };
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await registerClinic(t.app, "Riverside Vascular");
    other = await registerClinic(t.app, "Other Clinic");
  });
  afterAll(() => t.close());

  it("lists the clinic's active staff only", async () => {
    const res = await as(t.app, admin)({ url: "/api/staff" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        id: admin.userId,
        email: admin.email,
        firstName: "Ada",
        lastName: "Admin",
        role: "admin",
        joinedAt: expect.any(String),
      },
    ]);
    expect((await t.app.inject({ url: "/api/staff" })).statusCode).toBe(401);
  });

  it("an admin deactivates a sonographer, whose session ends at once and who cannot sign in again", async () => {
    const sono = await addMember("sono@example.com", "sonographer");
    expect((await as(t.app, sono)({ url: "/api/auth/user" })).statusCode).toBe(200);
    const res = await as(t.app, admin)({ method: "PATCH", url: `/api/staff/${sono.userId}/deactivate` });
    expect(res.statusCode, res.body).toBe(204);
    expect((await as(t.app, sono)({ url: "/api/auth/user" })).statusCode).toBe(401);
    const sessions = await rowsOf<{ n: number }>(
      t,
      sql`select count(*)::int as n from sessions where user_id = ${sono.userId}`,
    );
    expect(Number(sessions[0]!.n)).toBe(0);
    const login = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: "sono@example.com", password: "a long enough password" },
    });
    expect(login.statusCode).toBe(401);
    const staff = (await as(t.app, admin)({ url: "/api/staff" })).json() as Array<{ id: string }>;
    expect(staff.map((s) => s.id)).not.toContain(sono.userId);
    const again = await as(t.app, admin)({ method: "PATCH", url: `/api/staff/${sono.userId}/deactivate` });
    expect(again.statusCode).toBe(409);
    const audit = await rowsOf<{ n: number }>(
      t,
      sql`select count(*)::int as n from audit_events where action = 'staff.deactivated' and entity_id = ${sono.userId}`,
    );
    expect(Number(audit[0]!.n)).toBe(1);
  });

  it("nobody deactivates themselves; sonographers deactivate nobody", async () => {
    const self = await as(t.app, admin)({ method: "PATCH", url: `/api/staff/${admin.userId}/deactivate` });
    expect(self.statusCode).toBe(403);
    expect(self.json().error).toBe("You cannot deactivate your own account");
    const sono = await addMember("sono2@example.com", "sonographer");
    const refused = await as(t.app, sono)({ method: "PATCH", url: `/api/staff/${admin.userId}/deactivate` });
    expect(refused.statusCode).toBe(403);
  });

  it("another clinic's member answers 404 and stays active", async () => {
    const res = await as(t.app, other)({ method: "PATCH", url: `/api/staff/${admin.userId}/deactivate` });
    expect(res.statusCode).toBe(404);
    expect((await as(t.app, admin)({ url: "/api/auth/user" })).statusCode).toBe(200);
    expect((await as(t.app, admin)({ method: "PATCH", url: "/api/staff/%20/deactivate" })).statusCode).toBe(400);
  });

  it("an admin may deactivate another admin, but the clinic always keeps an active admin", async () => {
    const second = await addMember("second-admin@example.com", "admin");
    const res = await as(t.app, second)({ method: "PATCH", url: `/api/staff/${admin.userId}/deactivate` });
    expect(res.statusCode).toBe(204);
    // The remaining admin is the last one: even a concurrent attempt by a (now inactive) admin cannot remove them.
    const staff = (await as(t.app, second)({ url: "/api/staff" })).json() as Array<{ role: string }>;
    expect(staff.filter((s) => s.role === "admin")).toHaveLength(1);
    expect((await as(t.app, admin)({ url: "/api/staff" })).statusCode).toBe(401);
    // A request that passed its checks before its own admin was deactivated (a race) must still not win.
    const stale: Ctx = {
      clinicId: admin.clinicId,
      user: { ...(await as(t.app, second)({ url: "/api/auth/user" })).json(), id: admin.userId },
    };
    await expect(deactivateStaff(t.deps.database.db, stale, second.userId)).rejects.toThrow(
      "The clinic's last active admin cannot be deactivated",
    );
  });

  it("an admin sees deactivated staff and reactivates one, who can sign in again with the old role", async () => {
    const boss = await registerClinic(t.app, "Back From Leave Clinic");
    const sono = await addClinicMember(t, boss.clinicId, "sonographer", { firstName: "Back", lastName: "FromLeave" });
    await as(t.app, boss)({ method: "PATCH", url: `/api/staff/${sono.userId}/deactivate` });
    const former = await as(t.app, boss)({ url: "/api/staff/deactivated" });
    expect(former.statusCode).toBe(200);
    expect((former.json() as { id: string }[]).map((m) => m.id)).toContain(sono.userId);
    // Not in another clinic's list, and another clinic's admin cannot reactivate them.
    expect(((await as(t.app, other)({ url: "/api/staff/deactivated" })).json() as unknown[]).length).toBe(0);
    expect((await as(t.app, other)({ method: "PATCH", url: `/api/staff/${sono.userId}/reactivate` })).statusCode).toBe(
      404,
    );
    // A sonographer may not reactivate anyone, nor see the list.
    const colleague = await addClinicMember(t, boss.clinicId, "sonographer", { firstName: "Col", lastName: "League" });
    expect((await as(t.app, colleague)({ url: "/api/staff/deactivated" })).statusCode).toBe(403);
    expect(
      (await as(t.app, colleague)({ method: "PATCH", url: `/api/staff/${sono.userId}/reactivate` })).statusCode,
    ).toBe(403);

    const res = await as(t.app, boss)({ method: "PATCH", url: `/api/staff/${sono.userId}/reactivate` });
    expect(res.statusCode, res.body).toBe(204);
    const again = await signIn(t.app, sono.email, sono.password);
    const me = (await as(t.app, again)({ url: "/api/auth/user" })).json() as { role: string };
    expect(me.role).toBe("sonographer");
    const twice = await as(t.app, boss)({ method: "PATCH", url: `/api/staff/${sono.userId}/reactivate` });
    expect(twice.statusCode).toBe(409);
    const audit = await rowsOf<{ n: number }>(
      t,
      sql`select count(*)::int as n from audit_events where action = 'staff.reactivated' and entity_id = ${sono.userId}`,
    );
    expect(audit[0]!.n).toBe(1);
  });
});

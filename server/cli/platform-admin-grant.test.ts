import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { openDatabase } from "../db/client";
import { registerClinic as registerClinicRow } from "../features/auth/auth.service";
import { grantPlatformAdmin, revokePlatformAdmin } from "../platform/platform-admin";
import { as, createTestApp, registerClinic, type SignedIn, signIn, type TestApp } from "../test-support/test-app";
import { runAdminGrant } from "./admin-grant";

const LISTED = "unclaimed-admin@platform.test";
const PASSWORD = "correct horse battery";

describe("platform administration comes only from a grant made on the server", () => {
  let t: TestApp;
  let clinicB: SignedIn;
  beforeAll(async () => {
    // The address is listed in the old variable: that alone must grant nothing.
    t = await createTestApp({ PLATFORM_ADMIN_EMAILS: LISTED });
    clinicB = await registerClinic(t.app, "Clinic B");
  });
  afterAll(() => t.close());

  const me = async (user: { cookie: string }) => (await as(t.app, user)({ url: "/api/auth/user" })).json();

  it("an invitation to a listed, unclaimed address does not make a platform admin", async () => {
    const created = await as(
      t.app,
      clinicB,
    )({
      method: "POST",
      url: "/api/invitations",
      payload: { email: LISTED, role: "admin" },
    });
    expect(created.statusCode, created.body).toBe(201);
    const token = (created.json() as { invitationUrl: string }).invitationUrl.split("/invite/")[1]!;
    const accepted = await t.app.inject({
      method: "POST",
      url: `/api/invitations/${token}/register`,
      payload: { firstName: "Mallory", lastName: "M", password: PASSWORD },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json().user.isPlatformAdmin).toBe(false);
    const user = await signIn(t.app, LISTED, PASSWORD);
    expect((await me(user)).isPlatformAdmin).toBe(false);
    expect((await as(t.app, user)({ url: "/api/admin/system-stats" })).statusCode).toBe(403);
  });

  it("plain registration with a listed address does not either", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/clinics/register",
      payload: {
        name: "X",
        email: "second-listed@platform.test",
        adminFirstName: "A",
        adminLastName: "B",
        password: PASSWORD,
      },
    });
    expect(res.statusCode).toBe(201);
    const proven = await signIn(t.app, "second-listed@platform.test", PASSWORD);
    expect((await me(proven)).isPlatformAdmin).toBe(false);
    const t2 = await createTestApp({ PLATFORM_ADMIN_EMAILS: "second-listed@platform.test" });
    try {
      const again = await registerClinic(t2.app, "Y");
      expect((await (await as(t2.app, again)({ url: "/api/auth/user" })).json()).isPlatformAdmin).toBe(false);
    } finally {
      await t2.close();
    }
  });

  it("a grant by e-mail makes the account an admin at once, a revoke ends it at once", async () => {
    const { db } = t.deps.database;
    expect(await grantPlatformAdmin(db, clinicB.email.toUpperCase())).toEqual({
      status: "granted",
      email: clinicB.email,
    });
    expect((await me(clinicB)).isPlatformAdmin).toBe(true);
    expect(await grantPlatformAdmin(db, clinicB.email)).toEqual({ status: "unchanged", email: clinicB.email });
    expect(await revokePlatformAdmin(db, clinicB.email)).toEqual({ status: "revoked", email: clinicB.email });
    expect((await me(clinicB)).isPlatformAdmin).toBe(false);
    expect(await grantPlatformAdmin(db, "nobody@nowhere.test")).toEqual({
      status: "no_account",
      email: "nobody@nowhere.test",
    });
  });
});

describe("npm run admin:grant / admin:revoke", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-grant-"));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const run = async (args: string[]) => {
    const lines: string[] = [];
    const code = await runAdminGrant(config, args, (line) => lines.push(line));
    return { code, output: lines.join("\n") };
  };

  it("grants and revokes by e-mail on the configured database, and says what it did", async () => {
    const database = await openDatabase({ dataDir, databaseUrl: undefined });
    await registerClinicRow(
      database.db,
      {
        name: "Owner",
        email: "owner@platform.test",
        adminFirstName: "O",
        adminLastName: "W",
        password: PASSWORD,
        phone: null,
        address: null,
        city: null,
        state: null,
        zipCode: null,
      },
      {},
    );
    await database.close();
    expect(await run(["grant", "owner@platform.test"])).toEqual({
      code: 0,
      output: "owner@platform.test is now a platform administrator (two-factor sign-in is still required).",
    });
    expect(await run(["revoke", "owner@platform.test"])).toEqual({
      code: 0,
      output: "owner@platform.test is no longer a platform administrator.",
    });
    const missing = await run(["grant", "nobody@platform.test"]);
    expect(missing.code).toBe(1);
    expect(missing.output).toContain("No account uses nobody@platform.test");
    const usage = await run(["grant"]);
    expect(usage.code).toBe(2);
    expect(usage.output).toContain("npm run admin:grant -- EMAIL");
  });
});

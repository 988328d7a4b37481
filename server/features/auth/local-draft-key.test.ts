import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addClinicMember } from "../../test-support/signing";
import { as, createTestApp, registerClinic, type SignedIn, signIn, type TestApp } from "../../test-support/test-app";
import { LocalDraftKeys } from "./local-draft-key";

describe("the key for unsaved edits kept in the browser", () => {
  let t: TestApp;
  let admin: SignedIn;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await registerClinic(t.app, "Draft Key Clinic");
  });
  afterAll(() => t.close());

  const keyOf = async (user: { cookie: string }) => {
    const res = await as(t.app, user)({ url: "/api/auth/local-draft-key" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toContain("no-store");
    return (res.json() as { key: string }).key;
  };

  it("is refused without a session", async () => {
    expect((await t.app.inject({ url: "/api/auth/local-draft-key" })).statusCode).toBe(401);
  });

  it("is a 256-bit key that is the same in the user's next session and differs between users", async () => {
    const first = await keyOf(admin);
    expect(Buffer.from(first, "base64url")).toHaveLength(32);
    const nextSession = await signIn(t.app, admin.email, admin.password);
    expect(await keyOf(nextSession)).toBe(first);
    const colleague = await addClinicMember(t, admin.clinicId, "sonographer", { firstName: "Sam", lastName: "Sono" });
    expect(await keyOf(colleague)).not.toBe(first);
  });

  it("survives a restart (derived from the file key) and depends on that key", () => {
    const fileKey = Buffer.alloc(32, 7);
    const user = "0b6c2f1e-0000-4000-8000-000000000001";
    expect(LocalDraftKeys.fromFileKey(fileKey).forUser(user)).toBe(LocalDraftKeys.fromFileKey(fileKey).forUser(user));
    expect(LocalDraftKeys.fromFileKey(Buffer.alloc(32, 8)).forUser(user)).not.toBe(
      LocalDraftKeys.fromFileKey(fileKey).forUser(user),
    );
  });
});

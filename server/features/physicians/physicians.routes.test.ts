import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, reports, users } from "../../db/schema";
import { as, createTestApp, multipart, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import {
  elevenMegabytes,
  fakePngHeader,
  renamedExecutable,
  signedInSonographer,
  storedFileCount,
  svgWithScript,
  testImage,
} from "../clinic/clinic-test-support";
import { addSonographer } from "../reports/report-test-fixtures";

let t: TestApp;
let admin: SignedIn;
let other: SignedIn;
let sono: { cookie: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = await registerClinic(t.app, "Riverside Vascular");
  other = await registerClinic(t.app, "Other Clinic");
  sono = await signedInSonographer(t, admin.clinicId);
});
afterAll(() => t.close());

const uploadSignature = (user: { cookie: string }, data: Buffer, filename = "sig.png", contentType = "image/png") =>
  as(
    t.app,
    user,
  )({
    method: "POST",
    url: "/api/upload-signature",
    ...multipart([{ name: "signature", filename, contentType, data }]),
  });

async function createPhysician(user: { cookie: string }, payload: Record<string, unknown>) {
  return as(t.app, user)({ method: "POST", url: "/api/physicians", payload });
}

describe("physicians", () => {
  it("refuses every call without a session (401)", async () => {
    for (const [method, url] of [
      ["GET", "/api/physicians"],
      ["POST", "/api/physicians"],
      ["PATCH", "/api/physicians/1"],
      ["DELETE", "/api/physicians/1"],
    ] as const) {
      const payload = method === "POST" || method === "PATCH" ? { name: "Dr. X" } : undefined;
      const res = await t.app.inject({ method, url, payload });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
    const upload = await t.app.inject({
      method: "POST",
      url: "/api/upload-signature",
      ...multipart([{ name: "signature", filename: "s.png", contentType: "image/png", data: await testImage() }]),
    });
    expect(upload.statusCode).toBe(401);
  });

  it("creates, lists, updates and deletes a physician with only the spec's fields", async () => {
    const created = await createPhysician(admin, {
      name: "  Dr. Jane Smith ",
      title: "MD",
      specialty: "Vascular Surgery",
      clinicId: other.clinicId,
    });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(body).toEqual({
      id: expect.any(Number),
      name: "Dr. Jane Smith",
      title: "MD",
      specialty: "Vascular Surgery",
      signatureUrl: null,
      userId: null,
    });

    const list = await as(t.app, admin)({ method: "GET", url: "/api/physicians" });
    expect(list.json()).toEqual([body]);
    expect(await as(t.app, other)({ method: "GET", url: "/api/physicians" }).then((r) => r.json())).toEqual([]);

    const patched = await as(
      t.app,
      admin,
    )({ method: "PATCH", url: `/api/physicians/${body.id}`, payload: { title: "MD, RPVI" } });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ name: "Dr. Jane Smith", title: "MD, RPVI", specialty: "Vascular Surgery" });

    const deleted = await as(t.app, admin)({ method: "DELETE", url: `/api/physicians/${body.id}` });
    expect(deleted.statusCode).toBe(204);
    expect(await as(t.app, admin)({ method: "GET", url: "/api/physicians" }).then((r) => r.json())).toEqual([]);
  });

  it("requires a name, with the spec's message and the field named", async () => {
    for (const payload of [{ title: "MD" }, { name: "   " }]) {
      const res = await createPhysician(admin, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().field).toBe("name");
      expect(res.json().error).toContain("Physician name is required");
    }
    const p = (await createPhysician(admin, { name: "Dr. A" })).json();
    const res = await as(t.app, admin)({ method: "PATCH", url: `/api/physicians/${p.id}`, payload: { name: "" } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: "name" });
    const badId = await as(t.app, admin)({ method: "PATCH", url: "/api/physicians/abc", payload: {} });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().field).toBe("id");
  });

  it("answers 404 for another clinic's physician on every :id route, and changes nothing", async () => {
    const mine = (await createPhysician(admin, { name: "Dr. Mine" })).json();
    const patch = await as(
      t.app,
      other,
    )({ method: "PATCH", url: `/api/physicians/${mine.id}`, payload: { name: "Hacked" } });
    expect(patch.statusCode).toBe(404);
    const del = await as(t.app, other)({ method: "DELETE", url: `/api/physicians/${mine.id}` });
    expect(del.statusCode).toBe(404);
    const list = await as(t.app, admin)({ method: "GET", url: "/api/physicians" });
    expect(list.json().find((p: { id: number }) => p.id === mine.id).name).toBe("Dr. Mine");
  });

  it("lets a sonographer read but not write (403)", async () => {
    const p = (await createPhysician(admin, { name: "Dr. Read" })).json();
    expect((await as(t.app, sono)({ method: "GET", url: "/api/physicians" })).statusCode).toBe(200);
    expect((await createPhysician(sono, { name: "Dr. No" })).statusCode).toBe(403);
    expect(
      (await as(t.app, sono)({ method: "PATCH", url: `/api/physicians/${p.id}`, payload: { name: "X" } })).statusCode,
    ).toBe(403);
    expect((await as(t.app, sono)({ method: "DELETE", url: `/api/physicians/${p.id}` })).statusCode).toBe(403);
    const before = await storedFileCount(t);
    expect((await uploadSignature(sono, await testImage())).statusCode).toBe(403);
    expect(await storedFileCount(t)).toBe(before);
  });

  it("refuses to delete a physician named by reports, and keeps the reports", async () => {
    const p = (await createPhysician(admin, { name: "Dr. Busy" })).json();
    await t.deps.database.db.insert(reports).values(
      [1, 2].map(() => ({
        clinicId: admin.clinicId,
        patientName: "Test Patient",
        studyType: "Carotid Duplex",
        indication: "x",
        findings: "x",
        impression: "x",
        physicianId: p.id,
      })),
    );
    const res = await as(t.app, admin)({ method: "DELETE", url: `/api/physicians/${p.id}` });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe("This physician is used by 2 reports");
    const list = await as(t.app, admin)({ method: "GET", url: "/api/physicians" });
    expect(list.json().map((x: { id: number }) => x.id)).toContain(p.id);
  });
});

describe("signatures", () => {
  it("stores an uploaded image as a PNG served only to the clinic, and links it to a physician", async () => {
    const res = await uploadSignature(admin, await testImage("jpeg"), "sig.jpg", "image/jpeg");
    expect(res.statusCode, res.body).toBe(201);
    const { url } = res.json();
    expect(url).toMatch(/^\/api\/files\/\d+$/);

    const file = await as(t.app, admin)({ method: "GET", url });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/png");
    expect(file.headers["x-content-type-options"]).toBe("nosniff");
    expect(file.headers["cache-control"]).toContain("no-store");
    expect(file.rawPayload.subarray(1, 4).toString()).toBe("PNG");
    expect((await as(t.app, other)({ method: "GET", url })).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url })).statusCode).toBe(401);

    const created = await createPhysician(admin, { name: "Dr. Signed", signatureUrl: url });
    expect(created.statusCode).toBe(201);
    expect(created.json().signatureUrl).toBe(url);
    const cleared = await as(
      t.app,
      admin,
    )({
      method: "PATCH",
      url: `/api/physicians/${created.json().id}`,
      payload: { signatureUrl: null },
    });
    expect(cleared.json().signatureUrl).toBeNull();
  });

  it("accepts png, gif and webp by content", async () => {
    for (const format of ["png", "gif", "webp"] as const) {
      const res = await uploadSignature(admin, await testImage(format), `sig.${format}`, `image/${format}`);
      expect(res.statusCode, format).toBe(201);
    }
  });

  it("refuses a signatureUrl that is external, another clinic's, or not a signature", async () => {
    const theirs = (await uploadSignature(other, await testImage())).json().url;
    const logo = await as(
      t.app,
      admin,
    )({
      method: "POST",
      url: "/api/upload-logo",
      ...multipart([{ name: "logo", filename: "logo.png", contentType: "image/png", data: await testImage() }]),
    });
    for (const signatureUrl of [
      "https://evil.example/sig.png",
      "/api/files/999999",
      theirs,
      logo.json().url,
      "javascript:alert(1)",
    ]) {
      const res = await createPhysician(admin, { name: "Dr. Sneaky", signatureUrl });
      expect(res.statusCode, signatureUrl).toBe(400);
      expect(res.json().field).toBe("signatureUrl");
    }
  });

  it("refuses bad files by content and stores nothing", async () => {
    const before = await storedFileCount(t);
    const cases: Array<[Buffer, string, string, number]> = [
      [renamedExecutable, "x.png", "image/png", 415],
      [svgWithScript, "x.png", "image/png", 415],
      [svgWithScript, "x.svg", "image/svg+xml", 415],
      [fakePngHeader, "x.png", "image/png", 415],
      [elevenMegabytes(), "big.png", "image/png", 413],
    ];
    for (const [data, filename, type, status] of cases) {
      const res = await uploadSignature(admin, data, filename, type);
      expect(res.statusCode, filename).toBe(status);
      if (status === 413) expect(res.json().error).toBe("File size must be less than 10 MB");
      else expect(res.json().field).toBe("signature");
    }
    const noFile = await as(
      t.app,
      admin,
    )({
      method: "POST",
      url: "/api/upload-signature",
      ...multipart([{ name: "note", value: "no file" }]),
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().field).toBe("signature");
    expect(await storedFileCount(t)).toBe(before);
  });
});

describe("linking a physician to a user account (issue 26)", () => {
  it("links and unlinks with PATCH { userId }, shows it in GET, and audits it", async () => {
    const p = (await createPhysician(admin, { name: "Dr. Self" })).json();
    const linked = await as(
      t.app,
      admin,
    )({ method: "PATCH", url: `/api/physicians/${p.id}`, payload: { userId: admin.userId } });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json().userId).toBe(admin.userId);
    const list = (await as(t.app, admin)({ method: "GET", url: "/api/physicians" })).json();
    expect(list.find((x: { id: number }) => x.id === p.id).userId).toBe(admin.userId);
    // One account signs as one physician.
    const second = (await createPhysician(admin, { name: "Dr. Second" })).json();
    const twice = await as(
      t.app,
      admin,
    )({ method: "PATCH", url: `/api/physicians/${second.id}`, payload: { userId: admin.userId } });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ field: "userId", error: "This account already signs as Dr. Self" });
    const unlinked = await as(
      t.app,
      admin,
    )({ method: "PATCH", url: `/api/physicians/${p.id}`, payload: { userId: null } });
    expect(unlinked.json().userId).toBeNull();
    const actions = await t.deps.database.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(and(eq(auditEvents.entityType, "physician"), eq(auditEvents.entityId, String(p.id))));
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(["physician.linked", "physician.unlinked"]));
  });

  it("refuses another clinic's user, an unknown id, a sonographer's account, and a sonographer asking", async () => {
    const p = (await createPhysician(admin, { name: "Dr. Guarded" })).json();
    const sonoUser = await addSonographer(t, admin.clinicId);
    for (const [userId, status] of [
      [other.userId, 404],
      ["no-such-user", 404],
      [sonoUser.userId, 400],
    ] as const) {
      const res = await as(t.app, admin)({ method: "PATCH", url: `/api/physicians/${p.id}`, payload: { userId } });
      expect(res.statusCode, userId).toBe(status);
      expect(res.json().field).toBe("userId");
    }
    const bySono = await as(
      t.app,
      sonoUser,
    )({ method: "PATCH", url: `/api/physicians/${p.id}`, payload: { userId: sonoUser.userId } });
    expect(bySono.statusCode).toBe(403);
  });

  it("invites a physician from the card: accepting links the new account, with the physician role", async () => {
    const p = (await createPhysician(admin, { name: "Dr. Invited" })).json();
    const email = `invited-${Date.now()}@clinic.test`;
    const wrongRole = await as(
      t.app,
      admin,
    )({
      method: "POST",
      url: "/api/invitations",
      payload: { email, role: "sonographer", physicianId: p.id },
    });
    expect(wrongRole.statusCode).toBe(400);
    const invite = await as(
      t.app,
      admin,
    )({
      method: "POST",
      url: "/api/invitations",
      payload: { email, role: "physician", physicianId: p.id },
    });
    expect(invite.statusCode, invite.body).toBe(201);
    const token = invite.json().invitationUrl.split("/invite/")[1];
    const created = await t.app.inject({
      method: "POST",
      url: `/api/invitations/${token}/register`,
      payload: { firstName: "Iris", lastName: "Invited", password: "correct horse battery" },
    });
    expect(created.statusCode, created.body).toBeLessThan(300);
    const list = (await as(t.app, admin)({ method: "GET", url: "/api/physicians" })).json();
    const linkedId = list.find((x: { id: number }) => x.id === p.id).userId;
    const [user] = await t.deps.database.db.select().from(users).where(eq(users.id, linkedId));
    expect(user).toMatchObject({ email, role: "physician", clinicId: admin.clinicId });
    const again = await as(
      t.app,
      admin,
    )({
      method: "POST",
      url: "/api/invitations",
      payload: { email: `x-${email}`, role: "physician", physicianId: p.id },
    });
    expect(again.statusCode).toBe(409);
  });
});

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clinics } from "../../db/schema";
import { as, createTestApp, multipart, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import {
  elevenMegabytes,
  renamedExecutable,
  signedInSonographer,
  storedFileCount,
  svgWithScript,
  testImage,
} from "./clinic-test-support";

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

const uploadLogo = (user: { cookie: string }, data: Buffer, filename = "logo.png", contentType = "image/png") =>
  as(
    t.app,
    user,
  )({ method: "POST", url: "/api/upload-logo", ...multipart([{ name: "logo", filename, contentType, data }]) });

const put = (user: { cookie: string }, id: number, payload: Record<string, unknown>) =>
  as(t.app, user)({ method: "PUT", url: `/api/clinic/${id}`, payload });

describe("clinic record", () => {
  it("refuses every call without a session (401)", async () => {
    for (const [method, url] of [
      ["GET", "/api/clinic"],
      ["GET", "/api/clinic/info"],
      ["PUT", `/api/clinic/${admin.clinicId}`],
    ] as const) {
      const payload = method === "PUT" ? { name: "X", email: "x@clinic.test" } : undefined;
      expect((await t.app.inject({ method, url, payload })).statusCode, url).toBe(401);
    }
    const logo = await t.app.inject({
      method: "POST",
      url: "/api/upload-logo",
      ...multipart([{ name: "logo", filename: "l.png", contentType: "image/png", data: await testImage() }]),
    });
    expect(logo.statusCode).toBe(401);
  });

  it("reads the own clinic, for admins and sonographers", async () => {
    for (const user of [admin, sono]) {
      const res = await as(t.app, user)({ method: "GET", url: "/api/clinic" });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: admin.clinicId,
        name: "Riverside Vascular",
        city: "Springfield",
        logoUrl: null,
        subscription: "basic",
        carotidCriteriaSet: "default",
        reportSpelling: "en-US",
      });
    }
    const info = await as(t.app, sono)({ method: "GET", url: "/api/clinic/info" });
    expect(info.json()).toEqual({
      name: "Riverside Vascular",
      logoUrl: null,
      address: null,
      city: "Springfield",
      state: "IL",
      zipCode: null,
      phone: null,
    });
  });

  it("updates the own clinic; fields left out keep their value", async () => {
    const res = await put(admin, admin.clinicId, {
      name: " Riverside Vascular Lab ",
      email: "Front@Riverside.test",
      phone: "555-0100",
      fax: "555-0101",
      address: "1 Main St",
      website: "https://riverside.test",
      carotidCriteriaSet: "carotid-sru-strict",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: "Riverside Vascular Lab",
      email: "front@riverside.test",
      phone: "555-0100",
      city: "Springfield",
      carotidCriteriaSet: "carotid-sru-strict",
    });
    const cleared = await put(admin, admin.clinicId, {
      name: "Riverside Vascular Lab",
      email: "front@riverside.test",
      phone: "",
    });
    expect(cleared.json()).toMatchObject({ phone: null, fax: "555-0101", carotidCriteriaSet: "carotid-sru-strict" });
    const info = await as(t.app, admin)({ method: "GET", url: "/api/clinic/info" });
    // The report header's letterhead: the print window shows address and phone like the PDF.
    expect(info.json()).toMatchObject({
      name: "Riverside Vascular Lab",
      address: "1 Main St",
      city: "Springfield",
      phone: null,
    });
  });

  it("requires name and e-mail and a known criteria set, naming the field", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ email: "a@b.test" }, "name"],
      [{ name: " ", email: "a@b.test" }, "name"],
      [{ name: "X" }, "email"],
      [{ name: "X", email: "not-an-email" }, "email"],
      [{ name: "X", email: "a@b.test", carotidCriteriaSet: "made-up" }, "carotidCriteriaSet"],
      [{ name: "X", email: "a@b.test", reportSpelling: "fr-FR" }, "reportSpelling"],
      [{ name: "X", email: "a@b.test", logoUrl: "https://evil.example/logo.png" }, "logoUrl"],
      [{ name: "X", email: "a@b.test", zipCode: "1".repeat(21) }, "zipCode"],
    ];
    for (const [payload, field] of cases) {
      const res = await put(admin, admin.clinicId, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().field).toBe(field);
    }
  });

  it("answers the same for another clinic's e-mail address as for a new one: nothing tells them apart", async () => {
    const taken = await put(admin, admin.clinicId, { name: "X", email: other.email });
    const fresh = await put(admin, admin.clinicId, { name: "X", email: "never-used@clinic.test" });
    expect([taken.statusCode, fresh.statusCode]).toEqual([200, 200]);
    const { updatedAt: _a, email: takenEmail, ...takenRest } = taken.json();
    const { updatedAt: _b, email: freshEmail, ...freshRest } = fresh.json();
    expect([takenEmail, freshEmail]).toEqual([other.email, "never-used@clinic.test"]);
    expect(takenRest).toEqual(freshRest);
    // The other clinic keeps its own address: a contact address is not an identity.
    const [row] = await t.deps.database.db.select().from(clinics).where(eq(clinics.id, other.clinicId));
    expect(row!.email).toBe(other.email);
  });

  it("answers 404 for another clinic's id, and changes nothing there", async () => {
    const res = await put(admin, other.clinicId, { name: "Taken Over", email: "x@evil.test" });
    expect(res.statusCode).toBe(404);
    const [row] = await t.deps.database.db.select().from(clinics).where(eq(clinics.id, other.clinicId));
    expect(row!.name).toBe("Other Clinic");
    expect((await put(admin, 999_999, { name: "X", email: "x@y.test" })).statusCode).toBe(404);
  });

  it("refuses writes by a sonographer (403)", async () => {
    expect((await put(sono, admin.clinicId, { name: "X", email: "x@y.test" })).statusCode).toBe(403);
    const before = await storedFileCount(t);
    expect((await uploadLogo(sono, await testImage())).statusCode).toBe(403);
    expect(await storedFileCount(t)).toBe(before);
  });

  it("maps a stored legacy criteria set id to the default", async () => {
    await t.deps.database.db
      .update(clinics)
      .set({ carotidCriteriaSet: "sru-2003" })
      .where(eq(clinics.id, other.clinicId));
    const res = await as(t.app, other)({ method: "GET", url: "/api/clinic" });
    expect(res.json().carotidCriteriaSet).toBe("default");
  });
});

describe("clinic logo", () => {
  it("stores the logo as PNG, sets it on the clinic and serves it only to the clinic", async () => {
    const res = await uploadLogo(admin, await testImage("webp", 300, 100), "logo.webp", "image/webp");
    expect(res.statusCode, res.body).toBe(201);
    const { url } = res.json();
    expect((await as(t.app, admin)({ method: "GET", url: "/api/clinic/info" })).json().logoUrl).toBe(url);
    const file = await as(t.app, sono)({ method: "GET", url });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/png");
    expect(file.headers["x-content-type-options"]).toBe("nosniff");
    expect((await as(t.app, other)({ method: "GET", url })).statusCode).toBe(404);

    // The logo can be removed, and set back to one of the clinic's logo files, never another clinic's.
    const base = { name: "Riverside Vascular Lab", email: "front@riverside.test" };
    expect((await put(admin, admin.clinicId, { ...base, logoUrl: null })).json().logoUrl).toBeNull();
    expect((await put(admin, admin.clinicId, { ...base, logoUrl: url })).json().logoUrl).toBe(url);
    const theirs = (await uploadLogo(other, await testImage())).json().url;
    const stolen = await put(admin, admin.clinicId, { ...base, logoUrl: theirs });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().field).toBe("logoUrl");
  });

  it("refuses bad files and stores nothing", async () => {
    const before = await storedFileCount(t);
    const cases: Array<[Buffer, string, string, number]> = [
      [renamedExecutable, "x.png", "image/png", 415],
      [svgWithScript, "x.png", "image/png", 415],
      [svgWithScript, "x.svg", "image/svg+xml", 415],
      [elevenMegabytes(), "big.png", "image/png", 413],
    ];
    for (const [data, filename, type, status] of cases) {
      const res = await uploadLogo(admin, data, filename, type);
      expect(res.statusCode, filename).toBe(status);
      if (status === 413) expect(res.json().error).toBe("File size must be less than 10 MB");
      else expect(res.json().error).toContain("Please select an image file");
    }
    expect(await storedFileCount(t)).toBe(before);
    const { logoUrl } = (await as(t.app, admin)({ method: "GET", url: "/api/clinic/info" })).json();
    expect(logoUrl).toMatch(/^\/api\/files\/\d+$/);
  });
});

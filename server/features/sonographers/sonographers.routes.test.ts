import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { digitalWorksheets, reports } from "../../db/schema";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { signedInSonographer } from "../clinic/clinic-test-support";

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

const create = (user: { cookie: string }, payload: Record<string, unknown>) =>
  as(t.app, user)({ method: "POST", url: "/api/sonographers", payload });

describe("sonographers", () => {
  it("refuses every call without a session (401)", async () => {
    const payload = { name: "Jo Doe", initials: "JD" };
    for (const [method, url] of [
      ["GET", "/api/sonographers"],
      ["POST", "/api/sonographers"],
      ["PUT", "/api/sonographers/1"],
      ["DELETE", "/api/sonographers/1"],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        payload: method === "POST" || method === "PUT" ? payload : undefined,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it("creates with initials upper-cased, lists, replaces and deletes", async () => {
    const res = await create(admin, {
      name: " Jo Doe ",
      initials: " jd ",
      title: "RVT",
      department: "",
      id: 5,
      clinicId: other.clinicId,
    });
    expect(res.statusCode, res.body).toBe(201);
    const s = res.json();
    expect(s).toMatchObject({ name: "Jo Doe", initials: "JD", title: "RVT", department: null });
    expect(Object.keys(s).sort()).toEqual(["createdAt", "department", "id", "initials", "name", "title", "updatedAt"]);

    expect((await as(t.app, admin)({ method: "GET", url: "/api/sonographers" })).json()).toEqual([s]);
    expect((await as(t.app, other)({ method: "GET", url: "/api/sonographers" })).json()).toEqual([]);

    const put = await as(
      t.app,
      admin,
    )({
      method: "PUT",
      url: `/api/sonographers/${s.id}`,
      payload: { ...s, name: "Jo Doe-Smith", initials: "jds" },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ id: s.id, name: "Jo Doe-Smith", initials: "JDS", title: "RVT" });

    expect((await as(t.app, admin)({ method: "DELETE", url: `/api/sonographers/${s.id}` })).statusCode).toBe(204);
    expect((await as(t.app, admin)({ method: "GET", url: "/api/sonographers" })).json()).toEqual([]);
  });

  it("requires name and initials, at most 10 initials (after upper-casing)", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ initials: "JD" }, "name"],
      [{ name: "  ", initials: "JD" }, "name"],
      [{ name: "Jo" }, "initials"],
      [{ name: "Jo", initials: " " }, "initials"],
      [{ name: "Jo", initials: "ABCDEFGHIJK" }, "initials"],
      [{ name: "Jo", initials: "ßßßßßß" }, "initials"],
      [{ name: "Jo", initials: "JD", title: "x".repeat(101) }, "title"],
    ];
    for (const [payload, field] of cases) {
      const res = await create(admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().field).toBe(field);
    }
    const ok = await create(admin, { name: "Ten", initials: "abcdefghij" });
    expect(ok.json().initials).toBe("ABCDEFGHIJ");
  });

  it("answers 404 for another clinic's sonographer on every :id route, and changes nothing", async () => {
    const mine = (await create(admin, { name: "Mine", initials: "MI" })).json();
    const put = await as(
      t.app,
      other,
    )({ method: "PUT", url: `/api/sonographers/${mine.id}`, payload: { name: "X", initials: "X" } });
    expect(put.statusCode).toBe(404);
    expect((await as(t.app, other)({ method: "DELETE", url: `/api/sonographers/${mine.id}` })).statusCode).toBe(404);
    const list = (await as(t.app, admin)({ method: "GET", url: "/api/sonographers" })).json();
    expect(list.find((s: { id: number }) => s.id === mine.id).name).toBe("Mine");
  });

  it("lets a sonographer read but not write (403)", async () => {
    const s = (await create(admin, { name: "Read Only", initials: "RO" })).json();
    expect((await as(t.app, sono)({ method: "GET", url: "/api/sonographers" })).statusCode).toBe(200);
    expect((await create(sono, { name: "No", initials: "NO" })).statusCode).toBe(403);
    const put = await as(
      t.app,
      sono,
    )({ method: "PUT", url: `/api/sonographers/${s.id}`, payload: { name: "X", initials: "X" } });
    expect(put.statusCode).toBe(403);
    expect((await as(t.app, sono)({ method: "DELETE", url: `/api/sonographers/${s.id}` })).statusCode).toBe(403);
  });

  it("refuses to delete a sonographer named by reports or drawings", async () => {
    const s = (await create(admin, { name: "Busy", initials: "BU" })).json();
    const { db } = t.deps.database;
    await db.insert(reports).values({
      clinicId: admin.clinicId,
      patientName: "Test Patient",
      studyType: "Carotid Duplex",
      indication: "x",
      findings: "x",
      impression: "x",
      sonographerId: s.id,
    });
    await db.insert(digitalWorksheets).values({
      clinicId: admin.clinicId,
      patientName: "Test Patient",
      examDate: "2025-01-02",
      drawingData: "",
      userId: admin.userId,
      sonographerId: s.id,
    });
    const res = await as(t.app, admin)({ method: "DELETE", url: `/api/sonographers/${s.id}` });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe("This sonographer is used by 1 report and 1 drawing session");
  });
});

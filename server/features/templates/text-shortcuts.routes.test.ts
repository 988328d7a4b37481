import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { as, createTestApp, type SignedIn, type TestApp } from "../../test-support/test-app";
import { auditActionsOf, templateActors } from "./templates-test-support";

describe("text shortcuts API", () => {
  let t: TestApp;
  let owner: SignedIn;
  let other: SignedIn;
  let roleless: SignedIn;

  beforeAll(async () => {
    t = await createTestApp();
    ({ owner, other, roleless } = await templateActors(t));
  });
  afterAll(() => t.close());

  const create = (user: SignedIn, payload: Record<string, unknown>) =>
    as(t.app, user)({ method: "POST", url: "/api/text-shortcuts", payload });

  it("creates with category general by default, trims, and lists per clinic", async () => {
    const res = await create(owner, { title: " Normal venous ", shortText: "No evidence of DVT.", tags: " " });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      title: "Normal venous",
      shortText: "No evidence of DVT.",
      category: "general",
      tags: null,
      usageCount: 0,
      isGlobal: true,
    });
    expect((await as(t.app, owner)({ method: "GET", url: "/api/text-shortcuts" })).json()).toHaveLength(1);
    expect((await as(t.app, other)({ method: "GET", url: "/api/text-shortcuts" })).json()).toEqual([]);
    expect(await auditActionsOf(t, owner.clinicId)).toContain("shortcut.created");
  });

  it("refuses bad input naming the field", async () => {
    for (const [payload, field] of [
      [{ shortText: "x" }, "title"],
      [{ title: "  ", shortText: "x" }, "title"],
      [{ title: "t", shortText: "" }, "shortText"],
      [{ title: "t", shortText: "x", category: "misc" }, "category"],
    ] as const) {
      const res = await create(owner, payload);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().field).toBe(field);
    }
  });

  it("updates with PUT and deletes", async () => {
    const s = (await create(owner, { title: "Imp", shortText: "Normal study.", category: "impressions" })).json();
    const put = await as(
      t.app,
      owner,
    )({
      method: "PUT",
      url: `/api/text-shortcuts/${s.id}`,
      payload: { title: "Impression", shortText: "Normal study.", category: "impressions", tags: "normal, venous" },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ title: "Impression", tags: "normal, venous", category: "impressions" });
    expect((await as(t.app, owner)({ method: "DELETE", url: `/api/text-shortcuts/${s.id}` })).statusCode).toBe(204);
    expect((await as(t.app, owner)({ method: "DELETE", url: `/api/text-shortcuts/${s.id}` })).statusCode).toBe(404);
    expect(await auditActionsOf(t, owner.clinicId)).toEqual(
      expect.arrayContaining(["shortcut.updated", "shortcut.deleted"]),
    );
  });

  it("counts uses atomically, even when they arrive together", async () => {
    const s = (await create(owner, { title: "Counted", shortText: "text" })).json();
    const use = () => as(t.app, owner)({ method: "POST", url: `/api/text-shortcuts/${s.id}/use` });
    const first = await use();
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ id: s.id, usageCount: 1 });
    await Promise.all(Array.from({ length: 8 }, use));
    const list = (await as(t.app, owner)({ method: "GET", url: "/api/text-shortcuts" })).json();
    expect(list.find((x: { id: number }) => x.id === s.id).usageCount).toBe(9);
    expect(await auditActionsOf(t, owner.clinicId)).toContain("shortcut.used");
  });

  it("keeps clinics apart: 401 signed out, 404 for another clinic's id, 403 without permission", async () => {
    const s = (await create(owner, { title: "Mine", shortText: "x" })).json();
    const url = `/api/text-shortcuts/${s.id}`;
    const put = { title: "Stolen", shortText: "y" };
    for (const req of [
      { method: "GET" as const, url: "/api/text-shortcuts" },
      { method: "POST" as const, url: "/api/text-shortcuts", payload: {} },
      { method: "PUT" as const, url, payload: put },
      { method: "DELETE" as const, url },
      { method: "POST" as const, url: `${url}/use` },
    ]) {
      expect((await t.app.inject(req)).statusCode, `${req.method} ${req.url}`).toBe(401);
    }
    expect((await as(t.app, other)({ method: "PUT", url, payload: put })).statusCode).toBe(404);
    expect((await as(t.app, other)({ method: "DELETE", url })).statusCode).toBe(404);
    expect((await as(t.app, other)({ method: "POST", url: `${url}/use` })).statusCode).toBe(404);
    expect((await create(roleless, put)).statusCode).toBe(403);
    expect((await as(t.app, roleless)({ method: "PUT", url, payload: put })).statusCode).toBe(403);
    expect((await as(t.app, roleless)({ method: "POST", url: `${url}/use` })).statusCode).toBe(403);
    const mine = (await as(t.app, owner)({ method: "GET", url: "/api/text-shortcuts" })).json();
    expect(mine.find((x: { id: number }) => x.id === s.id)).toMatchObject({ title: "Mine", usageCount: 0 });
  });
});

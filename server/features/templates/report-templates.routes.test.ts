import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { as, createTestApp, type SignedIn, type TestApp } from "../../test-support/test-app";
import { templateForExport } from "./report-templates.service";
import { auditActionsOf, templateActors } from "./templates-test-support";

describe("report templates API", () => {
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
    as(t.app, user)({ method: "POST", url: "/api/templates", payload });

  it("creates with the spec's defaults, trims the name and stores empty texts as null", async () => {
    const res = await create(owner, { name: "  Standard  ", description: "   ", clinicName: " Riverside " });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      name: "Standard",
      description: null,
      clinicName: "Riverside",
      templateType: "both",
      showHeader: true,
      showLogo: true,
      patientInfoLayout: "grid",
      showPatientId: false,
      showStudyType: true,
      showIndication: true,
      showFindings: true,
      showImpression: true,
      showFooter: true,
      showSignature: true,
      signaturePosition: "right",
      primaryColor: "#0066cc",
      fontFamily: "Arial",
      fontSize: "12px",
      isDefault: false,
      userId: owner.userId,
    });
    expect(typeof body.createdAt).toBe("string");
    expect(body).not.toHaveProperty("clinicId");
    expect(await auditActionsOf(t, owner.clinicId)).toContain("template.created");
  });

  it("refuses a missing or blank name with the spec's text, naming the field", async () => {
    for (const payload of [{}, { name: "   " }]) {
      const res = await create(owner, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: "Template name is required", field: "name" });
    }
    const patch = await create(owner, { name: "Patchable" });
    const res = await as(
      t.app,
      owner,
    )({
      method: "PATCH",
      url: `/api/templates/${patch.json().id}`,
      payload: { name: " " },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe("name");
  });

  it("refuses values outside the spec's choices, naming the field", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ templateType: "html" }, "templateType"],
      [{ patientInfoLayout: "table" }, "patientInfoLayout"],
      [{ signaturePosition: "top" }, "signaturePosition"],
      [{ fontFamily: "Comic Sans" }, "fontFamily"],
      [{ fontSize: "13px" }, "fontSize"],
      [{ primaryColor: "red" }, "primaryColor"],
      [{ showHeader: "yes" }, "showHeader"],
    ];
    for (const [extra, field] of cases) {
      const res = await create(owner, { name: "Bad", ...extra });
      expect(res.statusCode, field).toBe(400);
      expect(res.json().field).toBe(field);
    }
  });

  it("keeps one default per clinic, on create and on update, without touching other clinics", async () => {
    const otherDefault = (await create(other, { name: "Other default", isDefault: true })).json();
    const a = (await create(owner, { name: "A", isDefault: true })).json();
    const b = (await create(owner, { name: "B", isDefault: true })).json();
    let list = (await as(t.app, owner)({ method: "GET", url: "/api/templates" })).json() as Array<{
      id: number;
      isDefault: boolean;
    }>;
    expect(list.filter((x) => x.isDefault).map((x) => x.id)).toEqual([b.id]);
    const patched = await as(
      t.app,
      owner,
    )({
      method: "PATCH",
      url: `/api/templates/${a.id}`,
      payload: { isDefault: true, fontSize: "16px" },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ isDefault: true, fontSize: "16px", name: "A" });
    list = (await as(t.app, owner)({ method: "GET", url: "/api/templates" })).json();
    expect(list.filter((x) => x.isDefault).map((x) => x.id)).toEqual([a.id]);
    const otherList = (await as(t.app, other)({ method: "GET", url: "/api/templates" })).json();
    expect(otherList).toEqual([expect.objectContaining({ id: otherDefault.id, isDefault: true })]);

    const { db } = t.deps.database;
    expect((await templateForExport(db, owner.clinicId))?.id).toBe(a.id);
    expect((await templateForExport(db, owner.clinicId, b.id))?.id).toBe(b.id);
    // Another clinic's template is never used for an export: the clinic's own default is.
    expect((await templateForExport(db, owner.clinicId, otherDefault.id))?.id).toBe(a.id);
  });

  it("updates partially and deletes, with audit events", async () => {
    const tpl = (await create(owner, { name: "To edit", footerText: "Footer" })).json();
    const res = await as(
      t.app,
      owner,
    )({
      method: "PATCH",
      url: `/api/templates/${tpl.id}`,
      payload: { footerText: "  ", primaryColor: "#112233", signaturePosition: "left" },
    });
    expect(res.json()).toMatchObject({
      name: "To edit",
      footerText: null,
      primaryColor: "#112233",
      signaturePosition: "left",
    });
    const del = await as(t.app, owner)({ method: "DELETE", url: `/api/templates/${tpl.id}` });
    expect(del.statusCode).toBe(204);
    const again = await as(t.app, owner)({ method: "DELETE", url: `/api/templates/${tpl.id}` });
    expect(again.statusCode).toBe(404);
    expect(await auditActionsOf(t, owner.clinicId)).toEqual(
      expect.arrayContaining(["template.updated", "template.deleted"]),
    );
  });

  it("answers 401 signed out, 404 for another clinic's id, 403 for a role without permission", async () => {
    const tpl = (await create(owner, { name: "Private" })).json();
    for (const req of [
      { method: "GET" as const, url: "/api/templates" },
      { method: "POST" as const, url: "/api/templates", payload: { name: "x" } },
      { method: "POST" as const, url: "/api/templates", payload: { fontSize: "bad" } },
      { method: "PATCH" as const, url: `/api/templates/${tpl.id}`, payload: { name: "x" } },
      { method: "DELETE" as const, url: `/api/templates/${tpl.id}` },
    ]) {
      expect((await t.app.inject(req)).statusCode, `${req.method} ${req.url}`).toBe(401);
    }
    const patch = await as(t.app, other)({ method: "PATCH", url: `/api/templates/${tpl.id}`, payload: { name: "x" } });
    expect(patch.statusCode).toBe(404);
    expect((await as(t.app, other)({ method: "DELETE", url: `/api/templates/${tpl.id}` })).statusCode).toBe(404);
    const otherList = (await as(t.app, other)({ method: "GET", url: "/api/templates" })).json() as Array<{
      id: number;
    }>;
    expect(otherList.map((x) => x.id)).not.toContain(tpl.id);
    expect((await as(t.app, roleless)({ method: "GET", url: "/api/templates" })).statusCode).toBe(403);
    expect((await create(roleless, { name: "x" })).statusCode).toBe(403);
    expect(
      (await as(t.app, roleless)({ method: "PATCH", url: `/api/templates/${tpl.id}`, payload: { name: "x" } }))
        .statusCode,
    ).toBe(403);
    expect((await as(t.app, owner)({ method: "PATCH", url: "/api/templates/abc", payload: {} })).json().field).toBe(
      "id",
    );
  });
});

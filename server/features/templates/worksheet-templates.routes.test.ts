import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { as, createTestApp, multipart, type SignedIn, type TestApp } from "../../test-support/test-app";
import { auditActionsOf, blankPng, templateActors } from "./templates-test-support";

const fixture = (name: string) => fs.readFileSync(path.join(process.cwd(), "fixtures/worksheets", name));

describe("worksheet templates API", () => {
  let t: TestApp;
  let owner: SignedIn;
  let other: SignedIn;
  let roleless: SignedIn;

  beforeAll(async () => {
    t = await createTestApp();
    ({ owner, other, roleless } = await templateActors(t));
  });
  afterAll(() => t.close());

  const upload = (
    user: SignedIn,
    fields: Record<string, string>,
    file?: { data: Buffer; filename: string; contentType: string },
  ) => {
    const body = multipart([
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
      ...(file ? [{ name: "worksheetFile", ...file }] : []),
    ]);
    return as(t.app, user)({ method: "POST", url: "/api/worksheet-templates", ...body });
  };

  it("stores an image as uploaded and serves it only to its clinic", async () => {
    const png = fixture("ws-clean-001.png");
    const res = await upload(
      owner,
      { name: " Lower limb venous ", description: "Blank LLV", category: "vascular" },
      { data: png, filename: "llv.png", contentType: "image/png" },
    );
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      name: "Lower limb venous",
      description: "Blank LLV",
      category: "vascular",
      originalFilename: "llv.png",
      imageUrl: `/api/worksheet-templates/${body.id}/image`,
    });
    const image = await as(t.app, owner)({ method: "GET", url: body.imageUrl });
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toBe("image/png");
    expect(image.headers["cache-control"]).toContain("no-store");
    expect(image.rawPayload.equals(png)).toBe(true);
    expect((await as(t.app, other)({ method: "GET", url: body.imageUrl })).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: body.imageUrl })).statusCode).toBe(401);
    const list = (await as(t.app, owner)({ method: "GET", url: "/api/worksheet-templates" })).json();
    expect(list.map((x: { id: number }) => x.id)).toContain(body.id);
    expect((await as(t.app, other)({ method: "GET", url: "/api/worksheet-templates" })).json()).toEqual([]);
    expect(await auditActionsOf(t, owner.clinicId)).toContain("worksheet_template.created");
  });

  it("rasterises page 1 of a PDF to a PNG", async () => {
    const res = await upload(
      owner,
      { name: "Carotid (PDF)", category: "general" },
      { data: fixture("ws-clean-000.pdf"), filename: "carotid.pdf", contentType: "application/pdf" },
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ category: "general", originalFilename: "carotid.pdf" });
    const image = await as(t.app, owner)({ method: "GET", url: res.json().imageUrl });
    expect(image.headers["content-type"]).toBe("image/png");
    const meta = await sharp(image.rawPayload).metadata();
    expect(meta.format).toBe("png");
    expect(meta.width).toBeGreaterThan(500);
  });

  it("needs a name and a file, with the spec's text", async () => {
    const png = { data: await blankPng(20, 20), filename: "a.png", contentType: "image/png" };
    const noName = await upload(owner, { name: "  " }, png);
    expect(noName.statusCode).toBe(400);
    expect(noName.json()).toMatchObject({ error: "Please provide a name and select a worksheet file", field: "name" });
    const noFile = await upload(owner, { name: "No file" });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json()).toMatchObject({
      error: "Please provide a name and select a worksheet file",
      field: "worksheetFile",
    });
    const badCategory = await upload(owner, { name: "x", category: "dental" }, png);
    expect(badCategory.statusCode).toBe(400);
    expect(badCategory.json().field).toBe("category");
  });

  it("refuses files that are not images or PDFs by content, and broken ones", async () => {
    const text = await upload(
      owner,
      { name: "Disguised" },
      { data: Buffer.from("<svg onload='alert(1)'></svg>"), filename: "x.png", contentType: "image/png" },
    );
    expect(text.statusCode).toBe(415);
    expect(text.json().field).toBe("worksheetFile");
    const truncatedPng = (await blankPng(50, 50)).subarray(0, 40);
    const broken = await upload(
      owner,
      { name: "Broken" },
      { data: truncatedPng, filename: "b.png", contentType: "image/png" },
    );
    expect(broken.statusCode).toBe(400);
    expect(broken.json().field).toBe("worksheetFile");
    const badPdf = await upload(
      owner,
      { name: "Bad PDF" },
      { data: Buffer.from("%PDF-1.7\nthis is not really a pdf"), filename: "b.pdf", contentType: "application/pdf" },
    );
    expect(badPdf.statusCode).toBe(400);
    expect(badPdf.json().field).toBe("worksheetFile");
    const list = (await as(t.app, owner)({ method: "GET", url: "/api/worksheet-templates" })).json();
    expect(list.map((x: { name: string }) => x.name)).not.toContain("Bad PDF");
  });

  it("deletes within the clinic only; 401 signed out; 403 for a role without permission", async () => {
    const png = { data: await blankPng(30, 30), filename: "c.png", contentType: "image/png" };
    const created = (await upload(owner, { name: "To delete" }, png)).json();
    const url = `/api/worksheet-templates/${created.id}`;
    expect((await t.app.inject({ method: "DELETE", url })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url: "/api/worksheet-templates" })).statusCode).toBe(401);
    expect((await as(t.app, other)({ method: "DELETE", url })).statusCode).toBe(404);
    expect((await as(t.app, roleless)({ method: "DELETE", url })).statusCode).toBe(403);
    expect((await upload(roleless, { name: "x" }, png)).statusCode).toBe(403);
    expect((await as(t.app, roleless)({ method: "GET", url: "/api/worksheet-templates" })).statusCode).toBe(403);
    expect((await as(t.app, owner)({ method: "DELETE", url })).statusCode).toBe(204);
    expect((await as(t.app, owner)({ method: "GET", url: `${url}/image` })).statusCode).toBe(404);
    expect((await as(t.app, owner)({ method: "DELETE", url })).statusCode).toBe(404);
    expect(await auditActionsOf(t, owner.clinicId)).toContain("worksheet_template.deleted");
  });
});

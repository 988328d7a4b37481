import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { as, createTestApp, multipart, type SignedIn, type TestApp } from "../../test-support/test-app";
import { auditActionsOf, blankPng, pngDataUrl, templateActors } from "./templates-test-support";

describe("legend entries API", () => {
  let t: TestApp;
  let owner: SignedIn;
  let other: SignedIn;
  let roleless: SignedIn;

  beforeAll(async () => {
    t = await createTestApp();
    ({ owner, other, roleless } = await templateActors(t));
  });
  afterAll(() => t.close());

  const send = (user: SignedIn, method: "POST" | "PATCH", url: string, fields: Record<string, string>, file?: Buffer) =>
    as(
      t.app,
      user,
    )({
      method,
      url,
      ...multipart([
        ...Object.entries(fields).map(([name, value]) => ({ name, value })),
        ...(file ? [{ name: "exampleImage", filename: "ex.png", contentType: "image/png", data: file }] : []),
      ]),
    });
  const create = (user: SignedIn, fields: Record<string, string>, file?: Buffer) =>
    send(user, "POST", "/api/legend-entries", fields, file);

  it("creates an entry with an uploaded example image served as a clinic file", async () => {
    const res = await create(
      owner,
      {
        title: " Cross-hatching ",
        description: "",
        medicalMeaning: "Thrombus in the segment",
        category: "vascular",
        keywords: "thrombus, DVT",
        isActive: "true",
        imageType: "upload",
      },
      await blankPng(60, 40),
    );
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      title: "Cross-hatching",
      description: null,
      medicalMeaning: "Thrombus in the segment",
      keywords: "thrombus, DVT",
      isActive: true,
      imageType: "upload",
      drawingData: null,
      createdBy: owner.userId,
    });
    expect(body.exampleImage).toMatch(/^\/api\/files\/\d+$/);
    expect((await as(t.app, owner)({ method: "GET", url: body.exampleImage })).statusCode).toBe(200);
    expect((await as(t.app, other)({ method: "GET", url: body.exampleImage })).statusCode).toBe(404);
    expect(await auditActionsOf(t, owner.clinicId)).toContain("legend.created");
  });

  it("creates an entry from a 400x300 canvas drawing and checks the data URL by content", async () => {
    const ok = await create(owner, {
      title: "Arrow",
      medicalMeaning: "Direction of flow",
      imageType: "drawing",
      isActive: "false",
      drawingData: await pngDataUrl(),
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({
      imageType: "drawing",
      isActive: false,
      exampleImage: null,
      category: "vascular",
    });
    expect(ok.json().drawingData).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);

    const jpeg = `data:image/jpeg;base64,${(await blankPng(400, 300)).toString("base64")}`;
    const notPng = `data:image/png;base64,${Buffer.from("GIF89a not a png at all").toString("base64")}`;
    const wrongSize = await pngDataUrl(200, 100);
    const tooBig = `data:image/png;base64,${"A".repeat(3 * 1024 * 1024)}`;
    for (const [drawingData, status] of [
      ["", 400],
      [jpeg, 400],
      [notPng, 400],
      ["data:image/png;base64,@@@@", 400],
      [wrongSize, 400],
      [tooBig, 413],
    ] as const) {
      const res = await create(owner, { title: "Bad", medicalMeaning: "m", imageType: "drawing", drawingData });
      expect(res.statusCode, drawingData.slice(0, 30)).toBe(status);
      expect(res.json().field).toBe("drawingData");
    }
  });

  it("requires title and medical meaning, and checks the choices", async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ medicalMeaning: "m" }, "title"],
      [{ title: "t", medicalMeaning: "  " }, "medicalMeaning"],
      [{ title: "t" }, "medicalMeaning"],
      [{ title: "t", medicalMeaning: "m", category: "dental" }, "category"],
      [{ title: "t", medicalMeaning: "m", isActive: "yes" }, "isActive"],
      [{ title: "t", medicalMeaning: "m", imageType: "video" }, "imageType"],
    ];
    for (const [fields, field] of cases) {
      const res = await create(owner, fields);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().field).toBe(field);
    }
    expect((await create(owner, { medicalMeaning: "m" })).json().error).toBe("Title is required");
    expect((await create(owner, { title: "t" })).json().error).toBe("Medical meaning is required");
    const text = await create(owner, { title: "t", medicalMeaning: "m" }, Buffer.from("not an image at all"));
    expect(text.statusCode).toBe(415);
    expect(text.json().field).toBe("exampleImage");
  });

  it("updates with the same multipart, switching between upload and drawing", async () => {
    const created = (
      await create(owner, { title: "Switch", medicalMeaning: "m", keywords: "a" }, await blankPng(10, 10))
    ).json();
    const url = `/api/legend-entries/${created.id}`;
    const toDrawing = await send(owner, "PATCH", url, {
      title: "Switched",
      medicalMeaning: "Stenosis",
      keywords: "",
      isActive: "false",
      imageType: "drawing",
      drawingData: await pngDataUrl(),
    });
    expect(toDrawing.statusCode, toDrawing.body).toBe(200);
    expect(toDrawing.json()).toMatchObject({
      title: "Switched",
      medicalMeaning: "Stenosis",
      keywords: null,
      isActive: false,
      imageType: "drawing",
      exampleImage: null,
    });
    // Leaving the drawing out keeps the one already stored.
    const keep = await send(owner, "PATCH", url, { imageType: "drawing", category: "cardiac" });
    expect(keep.json()).toMatchObject({ category: "cardiac", drawingData: toDrawing.json().drawingData });
    const blank = await send(owner, "PATCH", url, { medicalMeaning: "" });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().field).toBe("medicalMeaning");
    const toUpload = await send(owner, "PATCH", url, { imageType: "upload" }, await blankPng(12, 12));
    expect(toUpload.json()).toMatchObject({ imageType: "upload", drawingData: null });
    expect(toUpload.json().exampleImage).toMatch(/^\/api\/files\/\d+$/);
    expect(await auditActionsOf(t, owner.clinicId)).toContain("legend.updated");
  });

  it("keeps clinics apart: 401 signed out, 404 for another clinic's id, 403 without permission", async () => {
    const created = (await create(owner, { title: "Mine", medicalMeaning: "m" })).json();
    const url = `/api/legend-entries/${created.id}`;
    expect((await t.app.inject({ method: "GET", url: "/api/legend-entries" })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "DELETE", url })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: "PATCH", url, ...multipart([{ name: "title", value: "x" }]) })).statusCode,
    ).toBe(401);
    expect((await send(other, "PATCH", url, { title: "Stolen" })).statusCode).toBe(404);
    expect((await as(t.app, other)({ method: "DELETE", url })).statusCode).toBe(404);
    expect((await as(t.app, other)({ method: "GET", url: "/api/legend-entries" })).json()).toEqual([]);
    expect((await create(roleless, { title: "x", medicalMeaning: "m" })).statusCode).toBe(403);
    expect((await send(roleless, "PATCH", url, { title: "x" })).statusCode).toBe(403);
    expect((await as(t.app, roleless)({ method: "DELETE", url })).statusCode).toBe(403);
    expect((await as(t.app, owner)({ method: "DELETE", url })).statusCode).toBe(204);
    expect((await as(t.app, owner)({ method: "DELETE", url })).statusCode).toBe(404);
    expect(await auditActionsOf(t, owner.clinicId)).toContain("legend.deleted");
  });
});

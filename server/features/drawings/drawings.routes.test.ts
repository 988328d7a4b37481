import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sonographers, worksheetTemplates } from "../../db/schema";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";

describe("digital worksheets (drawing sessions)", () => {
  let t: TestApp;
  let owner: SignedIn;
  let stranger: SignedIn;
  let templateId: number;
  let sonographerId: number;
  let blankPng: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await registerClinic(t.app, "Drawing Clinic");
    stranger = await registerClinic(t.app, "Other Clinic");
    const { db } = t.deps.database;
    const [template] = await db
      .insert(worksheetTemplates)
      .values({ clinicId: owner.clinicId, name: "Carotid sheet", originalFilename: "carotid.png" })
      .returning();
    const [sonographer] = await db
      .insert(sonographers)
      .values({ clinicId: owner.clinicId, name: "Sam Sono", initials: "SS" })
      .returning();
    templateId = template!.id;
    sonographerId = sonographer!.id;
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#ffffff" } })
      .png()
      .toBuffer();
    blankPng = `data:image/png;base64,${png.toString("base64")}`;
  });
  afterAll(() => t.close());

  const start = (user: SignedIn, body: Record<string, unknown>) =>
    as(t.app, user)({ method: "POST", url: "/api/digital-worksheets", payload: body });

  const validSession = () => ({
    templateId,
    sonographerId,
    patientName: "Jane Example",
    examDate: "2026-11-20",
    studyType: "Carotid Duplex",
    drawingData: "",
  });

  it("needs a session", async () => {
    expect((await t.app.inject({ url: "/api/digital-worksheets" })).statusCode).toBe(401);
  });

  it("needs the patient name and a sonographer of the clinic", async () => {
    const missing = await start(owner, { ...validSession(), patientName: " " });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatch(/Please fill in patient name and select a sonographer/);
    expect((await start(stranger, validSession())).statusCode).toBe(404);
  });

  it("saves vectors and the image, reopens them, and makes a draft report from typed text", async () => {
    const created = await start(owner, validSession());
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;

    const vectorData = {
      version: 1,
      items: [
        {
          kind: "stroke",
          tool: "pen",
          color: "#000000",
          size: 2,
          opacity: 1,
          points: [
            { x: 0.1, y: 0.1, pressure: 0.5 },
            { x: 0.2, y: 0.2, pressure: 0.6 },
          ],
        },
        { kind: "text", x: 0.1, y: 0.5, text: "R ICA prox PSV 250 EDV 110", color: "#000000", size: 16 },
      ],
    };
    const saved = await as(
      t.app,
      owner,
    )({
      method: "PUT",
      url: `/api/digital-worksheets/${id}`,
      payload: { drawingData: blankPng, drawingHistory: "[]", vectorData },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const reopened = (await as(t.app, owner)({ url: `/api/digital-worksheets/${id}` })).json();
    expect(reopened.vectorData.items).toHaveLength(2);

    const image = await as(t.app, owner)({ url: `/api/digital-worksheets/${id}/image` });
    expect(image.headers["content-type"]).toBe("image/png");
    expect(image.headers["cache-control"]).toContain("no-store");

    const draft = await as(t.app, owner)({ method: "POST", url: `/api/digital-worksheets/${id}/create-draft-report` });
    expect(draft.statusCode, draft.body).toBe(201);
    const report = draft.json();
    expect(report.digitalWorksheetId).toBe(id);
    expect(report.isDraft).toBe(true);
    expect(report.findings).toContain("250");
    expect(report.impression.toLowerCase()).toContain("right");

    // Once part of a report the drawing is read-only, and asking again returns the same report.
    const late = await as(
      t.app,
      owner,
    )({ method: "PUT", url: `/api/digital-worksheets/${id}`, payload: { drawingHistory: "[]" } });
    expect(late.statusCode).toBe(409);
    const again = await as(t.app, owner)({ method: "POST", url: `/api/digital-worksheets/${id}/create-draft-report` });
    expect(again.json().id).toBe(report.id);
  }, 120_000);

  it("refuses images that are not what they claim", async () => {
    const id = (await start(owner, validSession())).json().id;
    const fake = `data:image/png;base64,${Buffer.from("MZ\x90\x00 not an image").toString("base64")}`;
    const res = await as(
      t.app,
      owner,
    )({ method: "PUT", url: `/api/digital-worksheets/${id}`, payload: { drawingData: fake } });
    expect(res.statusCode).toBe(415);
    const notDataUrl = await as(
      t.app,
      owner,
    )({
      method: "PUT",
      url: `/api/digital-worksheets/${id}`,
      payload: { drawingData: "https://evil.example/x.png" },
    });
    expect(notDataUrl.statusCode).toBe(400);
    expect(notDataUrl.json().field).toBe("drawingData");
  });

  it("hides one clinic's drawings from another", async () => {
    const id = (await start(owner, validSession())).json().id;
    const other = as(t.app, stranger);
    expect((await other({ url: `/api/digital-worksheets/${id}` })).statusCode).toBe(404);
    expect((await other({ url: `/api/digital-worksheets/${id}/image` })).statusCode).toBe(404);
    expect(
      (await other({ method: "PUT", url: `/api/digital-worksheets/${id}`, payload: { drawingHistory: "x" } }))
        .statusCode,
    ).toBe(404);
    expect((await other({ method: "POST", url: `/api/digital-worksheets/${id}/create-draft-report` })).statusCode).toBe(
      404,
    );
    expect((await other({ url: "/api/digital-worksheets" })).json()).toEqual([]);
  });
});

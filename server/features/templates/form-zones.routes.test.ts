import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorksheetZone } from "../../../domain/contracts/worksheet-zones";
import { shutdownOcr } from "../../ocr/ocr-service";
import { as, createTestApp, multipart, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";

const forms = path.join(import.meta.dirname, "../../../fixtures/forms");
const file = (name: string) => readFile(path.join(forms, name));

let t: TestApp;
let owner: SignedIn;
let stranger: SignedIn;
let templateId: number;
let truth: {
  patientName: string;
  patientDob: string;
  examDate: string;
  otherFields: { mrn: string; referrer: string; indication: string; sex: string };
};

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerClinic(t.app, "Owner Clinic");
  stranger = await registerClinic(t.app, "Other Clinic");
  truth = JSON.parse(await file("form3-photo-018.json").then(String));
  const body = multipart([
    { name: "name", value: "Our carotid form" },
    { name: "worksheetFile", filename: "blank.png", contentType: "image/png", data: await file("form3-blank.png") },
  ]);
  const res = await as(t.app, owner)({ method: "POST", url: "/api/worksheet-templates", ...body });
  expect(res.statusCode, res.body).toBe(201);
  templateId = res.json().id;
}, 180_000);

afterAll(async () => {
  await t?.close();
  await shutdownOcr();
});

async function readPhoto(user: SignedIn) {
  const body = multipart([
    { name: "worksheet", filename: "photo.jpg", contentType: "image/jpeg", data: await file("form3-photo-018.jpg") },
  ]);
  const up = await as(t.app, user)({ method: "POST", url: "/api/worksheets/upload", ...body });
  expect(up.statusCode, up.body).toBe(201);
  const res = await as(t.app, user)({ method: "POST", url: `/api/worksheets/${up.json().id}/ocr` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().ocrResult;
}

/** Handwriting is read in the writer's case and spacing; the words are what must be right. */
const words = (s: string | null) =>
  (s ?? "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

const getZones = (user: SignedIn) =>
  as(t.app, user)({ method: "GET", url: `/api/worksheet-templates/${templateId}/zones` });
const putZones = (user: SignedIn, zones: unknown) =>
  as(t.app, user)({ method: "PUT", url: `/api/worksheet-templates/${templateId}/zones`, payload: { zones } });

describe("a clinic's blank form as a reading template", () => {
  it("proposes a zone for every header field and every table cell of the blank form", async () => {
    const res = await getZones(owner);
    expect(res.statusCode).toBe(200);
    const layout = res.json();
    expect(layout).toMatchObject({ templateId, width: 1654, height: 2339, readable: true });
    const fields = layout.zones.filter((z: WorksheetZone) => z.kind === "field").map((z: { field: string }) => z.field);
    expect(fields.sort()).toEqual(
      [
        "comments",
        "examDate",
        "indication",
        "mrn",
        "patientDob",
        "patientName",
        "referringPhysician",
        "sex",
        "sonographer",
      ].sort(),
    );
    // Carotid form: 9 vessels x (right, left) x (PSV, EDV).
    const cells = layout.zones.filter((z: WorksheetZone) => z.kind === "cell");
    expect(cells).toHaveLength(36);
    expect(cells).toContainEqual(expect.objectContaining({ site: "ICA_PROX", side: "left", parameter: "EDV" }));
  });

  it("reads a phone photo of the filled form by its zones", async () => {
    const result = await readPhoto(owner);
    expect(result).toMatchObject({
      layout: "template",
      worksheetTemplateId: templateId,
      patientDob: truth.patientDob,
      examDate: truth.examDate,
    });
    expect(words(result.patientName)).toBe(words(truth.patientName));
    expect(result.fields.mrn.value).toBe(truth.otherFields.mrn);
    expect(result.fields.sex.value).toBe(truth.otherFields.sex === "M" ? "male" : "female");
    expect(words(result.fields.referringPhysician.value)).toBe(words(truth.otherFields.referrer));
    expect(result.measurements.length).toBeGreaterThan(25);
  }, 180_000);

  it("is another clinic's form: never used for its sheets, its zones answer 404", async () => {
    expect((await readPhoto(stranger)).layout).toBe("general");
    expect((await getZones(stranger)).statusCode).toBe(404);
    expect((await putZones(stranger, [])).statusCode).toBe(404);
  }, 180_000);

  it("refuses zones that repeat a field or lie outside the form, with the reason", async () => {
    const { zones } = (await getZones(owner)).json();
    const name = zones.find((z: WorksheetZone) => z.kind === "field" && z.field === "patientName");
    const twice = await putZones(owner, [...zones, { ...name, id: "z-copy" }]);
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error).toMatch(/same field \(patientName\)/);
    const outside = await putZones(owner, [{ ...name, x: 1600, width: 200 }]);
    expect(outside.statusCode).toBe(400);
    expect(outside.json().error).toMatch(/outside the form/);
    const bad = await putZones(owner, [{ ...name, field: "password" }]);
    expect(bad.statusCode).toBe(400);
  });

  it("reads the next upload by the zones an admin saved (two zones' fields swapped)", async () => {
    const { zones } = (await getZones(owner)).json();
    const swapped = zones.map((z: WorksheetZone) =>
      z.kind !== "field"
        ? z
        : z.field === "indication"
          ? { ...z, field: "referringPhysician" }
          : z.field === "referringPhysician"
            ? { ...z, field: "indication" }
            : z,
    );
    const saved = await putZones(owner, swapped);
    expect(saved.statusCode, saved.body).toBe(200);
    const result = await readPhoto(owner);
    expect(result.layout).toBe("template");
    expect(words(result.fields.referringPhysician.value)).toBe(words(truth.otherFields.indication));
    expect(words(result.fields.indication.value)).toBe(words(truth.otherFields.referrer));
  }, 180_000);
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertPhysician, insertWorksheet } from "../features/reports/report-test-fixtures";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../test-support/test-app";

// The refusals the issue found in raw validator words ("Invalid patientName: Too big: expected string to have
// <=255 characters"), now each a sentence with the field still named in `field`.

let t: TestApp;
let owner: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerClinic(t.app, "Words Clinic");
});
afterAll(() => t.close());

describe("validation refusals", () => {
  it("answers a too long patient name in words", async () => {
    const worksheet = await insertWorksheet(t, owner.clinicId);
    const physician = await insertPhysician(t, owner.clinicId);
    const res = await as(
      t.app,
      owner,
    )({
      method: "POST",
      url: "/api/reports/generate",
      payload: { worksheetId: worksheet.id, physicianId: physician.id, patient: { patientName: "x".repeat(300) } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: "Patient name must be at most 255 characters.",
      field: "patient.patientName",
      code: "VALIDATION_FAILED",
    });
  });

  it("answers a malformed invitation link with the contract's own words", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/invitations/not-a-token/details" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "Invalid invitation link", field: "token" });
  });

  it("answers a missing shortcut title without a validator prefix", async () => {
    const res = await as(
      t.app,
      owner,
    )({
      method: "POST",
      url: "/api/text-shortcuts",
      payload: { title: "", shortText: "Normal study." },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "Title is required", field: "title" });
  });

  it("says which measurement the clinician sent is wrong, in words", async () => {
    const worksheet = await insertWorksheet(t, owner.clinicId);
    const physician = await insertPhysician(t, owner.clinicId);
    const post = (measurements: object[]) =>
      as(
        t.app,
        owner,
      )({
        method: "POST",
        url: "/api/reports/generate",
        payload: { worksheetId: worksheet.id, physicianId: physician.id, scanType: "Carotid Duplex", measurements },
      });
    const badValue = await post([{ site: "ICA", side: "left", parameter: "PSV", value: "fast", unit: "cm/s" }]);
    expect(badValue.json()).toMatchObject({
      error: "Measurement 1: Value must be a number.",
      field: "measurements[0].value",
    });
    const badSite = await post([
      { site: "ICA", side: "left", parameter: "PSV", value: 100, unit: "cm/s" },
      { site: "NOPE", side: "left", parameter: "PSV", value: 100, unit: "cm/s" },
    ]);
    expect(badSite.json()).toMatchObject({
      error: 'Measurement 2: the vessel "NOPE" is not one the report knows. Choose the vessel from the list.',
      field: "measurements[1].site",
    });
  });
});

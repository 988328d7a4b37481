import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { expectAccessible, registerClinicViaApi, signIn } from "./support/fixtures";

// A clean sheet of a form whose labels the reader does not know ("Client:", "Natal day:", "Sent by:").
const novel = path.join(import.meta.dirname, "../fixtures/forms/novel-labels-clean.png");
const novelTruth = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, "../fixtures/forms/novel-labels-clean.json"), "utf8"),
) as { patientName: string; patientDob: string; examDate: string };
const blank = fs.readFileSync("fixtures/forms/form3-blank.png");
const photo = fs.readFileSync("fixtures/forms/form3-photo-018.jpg");

async function uploadOnScreen(page: Page, file: string) {
  await page.goto("/");
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: /Drop your worksheet here, or click to browse/ }).click();
  await (await chooser).setFiles(file);
  await expect(page.getByText("OCR Complete", { exact: true })).toBeVisible({ timeout: 150_000 });
}

test("a name the clinician corrected after an unknown label is read on the clinic's next upload", async ({
  page,
  request,
}) => {
  test.setTimeout(400_000);
  await signIn(page, await registerClinicViaApi(request, "Learning Vascular"));
  const physician = await page.request.post("/api/physicians", {
    data: { name: "Dr. Maria Chen", title: "MD", specialty: "Vascular Surgery" },
  });
  expect(physician.status()).toBeLessThan(300);

  await uploadOnScreen(page, novel);
  await expect(page.getByLabel("Patient Name")).toHaveValue("");
  await page.getByLabel("Patient Name").fill(novelTruth.patientName);
  await page.getByLabel("Reporting Physician").selectOption({ label: "Dr. Maria Chen, MD" });
  const generated = page.waitForResponse((r) => r.url().endsWith("/api/reports/generate"));
  await page.getByRole("button", { name: "Generate Report" }).click();
  expect((await generated).status()).toBe(201);
  await expect(page.getByText("Report Generated", { exact: true })).toBeVisible();

  // The same form again: "Client:" is now this clinic's label of the patient's name.
  await uploadOnScreen(page, novel);
  await expect(page.getByLabel("Patient Name")).toHaveValue(novelTruth.patientName);
});

test("a reading zone clinicians keep correcting is offered to the admin on the Templates screen", async ({
  page,
  request,
}) => {
  test.setTimeout(600_000);
  await signIn(page, await registerClinicViaApi(request, "Zone Vascular"));
  const created = await page.request.post("/api/worksheet-templates", {
    multipart: { name: "Carotid form", worksheetFile: { name: "blank.png", mimeType: "image/png", buffer: blank } },
    timeout: 150_000,
  });
  expect(created.status(), await created.text()).toBe(201);
  const physician = await page.request.post("/api/physicians", {
    data: { name: "Dr. Maria Chen", title: "MD", specialty: "Vascular Surgery" },
  });
  const physicianId = ((await physician.json()) as { id: number }).id;
  // Three sheets of the form read by it, each with its MRN corrected before the report (as the Upload screen sends).
  for (let i = 0; i < 3; i++) {
    const up = await page.request.post("/api/worksheets/upload", {
      multipart: { worksheet: { name: "photo.jpg", mimeType: "image/jpeg", buffer: photo } },
    });
    const { id } = (await up.json()) as { id: number };
    const read = await page.request.post(`/api/worksheets/${id}/ocr`, { timeout: 150_000 });
    const result = (
      (await read.json()) as {
        ocrResult: { layout: string; patientName: string; patientDob: string | null; examDate: string | null };
      }
    ).ocrResult;
    expect(result.layout).toBe("template");
    const gen = await page.request.post("/api/reports/generate", {
      data: {
        worksheetId: id,
        physicianId,
        scanType: "Carotid Duplex",
        // Everything as read but the MRN.
        patient: {
          patientName: result.patientName ?? "",
          patientDob: result.patientDob ?? "",
          examDate: result.examDate ?? "",
          mrn: `CORRECTED-${i}`,
        },
      },
    });
    expect(gen.status(), await gen.text()).toBe(201);
  }

  await page.getByRole("link", { name: "Templates", exact: true }).click();
  await page.getByRole("tab", { name: "Worksheets" }).click();
  await expect(page.getByText("1 reading zone keeps being corrected on checked worksheets")).toBeVisible();
  await page.getByRole("button", { name: "Reading zones of Carotid form" }).click();
  const dialog = page.getByRole("dialog", { name: "Reading Zones: Carotid form" });
  const notice = dialog.getByRole("status").filter({ hasText: "Zones to check" });
  await expect(notice).toContainText("MRN: corrected on 3 of the last 3 checked worksheets");
  await expect(dialog.getByRole("button", { name: "Zone MRN (often corrected)" })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/templates-zones-to-check-desktop.png", fullPage: true });
  await notice.getByRole("button", { name: "MRN" }).click();
  await expect(dialog.getByLabel("Zone", { exact: true })).toHaveValue("f-mrn");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/templates-zones-to-check-phone.png", fullPage: true });
});

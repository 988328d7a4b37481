import { expect, type Page, test } from "@playwright/test";
import { carotidSr, ultrasoundImage } from "../server/test-support/dicom-sr-files";
import { expectAccessible, registerClinicViaApi, signIn } from "./support/fixtures";

// Issue 28 item 5: the ultrasound machine's DICOM Structured Report uploaded instead of the worksheet.

async function chooseFile(page: Page, name: string, buffer: Buffer) {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: /Drop your worksheet here, or click to browse/ }).click();
  await (await chooser).setFiles({ name, mimeType: "application/dicom", buffer });
}

test("a DICOM SR fills the patient fields and the checking table, each value marked DICOM SR", async ({
  page,
  request,
}) => {
  await signIn(page, await registerClinicViaApi(request));
  await expect(page.getByText(/DICOM SR \(\.dcm\)/)).toBeVisible();

  await chooseFile(page, "carotid-study.dcm", carotidSr());
  await expect(page.getByText("Structured Report Read", { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("7 measurements taken from the DICOM SR", { exact: true })).toBeVisible();
  await expect(page.getByText("DICOM structured report", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Patient Name")).toHaveValue("Jane Q Doe");
  await expect(page.getByLabel("Date of Birth")).toHaveValue("1948-03-12");
  await expect(page.getByLabel("Exam Date")).toHaveValue("2025-03-01");
  await expect(page.getByLabel("Scan type")).toHaveValue("Carotid Duplex");
  await expect(page.getByText("Read from DICOM SR", { exact: true })).toBeVisible();
  await expect(page.getByText("OCR Extracted", { exact: true })).toHaveCount(0);
  await expect(
    page.getByText(/Read from the ultrasound machine's DICOM SR \(Sonoscribe test, study of 2025-03-01\)/),
  ).toBeVisible();
  // Not offered beside an upload that is itself the SR.
  await expect(page.getByRole("button", { name: "Add DICOM SR (.dcm)" })).toHaveCount(0);

  await expect(page.getByRole("heading", { name: "Measurements from the DICOM structured report" })).toBeVisible();
  const table = page.getByRole("table");
  await expect(table.getByRole("textbox", { name: / value$/ })).toHaveCount(7);
  await expect(
    table.getByRole("textbox", { name: "Right Internal carotid artery, proximal Peak systolic velocity value" }),
  ).toHaveValue("245");
  await expect(table.getByText("DICOM SR", { exact: true }).filter({ visible: true })).toHaveCount(7);
  await expect(table.getByText("As the machine reported it: 2.45 m/s").filter({ visible: true })).toBeVisible();
  // No page to compare with: no worksheet viewer, no crops, and no request for a page image.
  await expect(page.getByRole("img", { name: /Worksheet crop of/ })).toHaveCount(0);
  await expect(page.getByRole("img", { name: "First page of the uploaded worksheet" })).toHaveCount(0);

  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/dicom-sr-desktop.png", fullPage: true });
  await page.setViewportSize({ width: 820, height: 1180 });
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/dicom-sr-tablet.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/dicom-sr-phone.png", fullPage: true });
});

test("a DICOM image instead of a structured report is refused with the reason", async ({ page, request }) => {
  await signIn(page, await registerClinicViaApi(request));
  await chooseFile(page, "frame.dcm", ultrasoundImage());
  await expect(page.getByText("Upload Failed", { exact: true })).toBeVisible();
  await expect(page.getByText(/^This file is a DICOM US object .*not a Structured Report/)).toBeVisible();
  await expect(page.getByLabel("Patient Name")).toHaveValue("");
});

test("the editor of a report made from a DICOM SR says the measurements came from the machine's SR", async ({
  page,
  request,
}) => {
  await signIn(page, await registerClinicViaApi(request));
  const uploaded = await page.request.post("/api/worksheets/upload", {
    multipart: { worksheet: { name: "carotid.dcm", mimeType: "application/dicom", buffer: carotidSr() } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const worksheet = await uploaded.json();
  const read = await page.request.post(`/api/worksheets/${worksheet.id}/ocr`);
  const { ocrResult } = await read.json();
  const physician = await (await page.request.post("/api/physicians", { data: { name: "Dr. Maria Chen" } })).json();
  const generated = await page.request.post("/api/reports/generate", {
    data: {
      worksheetId: worksheet.id,
      physicianId: physician.id,
      logoUrl: null,
      scanType: "Carotid Duplex",
      measurements: ocrResult.measurements,
      patient: { patientName: ocrResult.patientName, patientDob: ocrResult.patientDob, examDate: ocrResult.examDate },
    },
  });
  expect(generated.status(), await generated.text()).toBe(201);
  const report = await generated.json();

  await page.goto("/reports");
  await page.getByRole("button", { name: `Edit report #${report.id}`, exact: true }).click();
  const editor = page.getByRole("dialog", { name: "Edit Report" });
  await expect(
    editor.getByText(
      "The measurements came from the ultrasound machine's DICOM structured report (Sonoscribe test, study of 2025-03-01), not from a worksheet image.",
    ),
  ).toBeVisible();
  await expect(editor.getByText("No worksheet image available")).toHaveCount(0);
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/dicom-sr-editor-desktop.png" });
  await page.setViewportSize({ width: 820, height: 1180 });
  await page.screenshot({ path: "docs/screenshots/dicom-sr-editor-tablet.png" });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/dicom-sr-editor-phone.png" });
});

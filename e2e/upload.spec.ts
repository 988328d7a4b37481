import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { expectAccessible, registerClinicViaApi, signIn } from "./support/fixtures";

const worksheet = path.join(import.meta.dirname, "../fixtures/worksheets/ws-clean-000.png");
const truth = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, "../fixtures/worksheets/ws-clean-000.json"), "utf8"),
) as { patientName: string; patientDob: string; examDate: string };

// A fake camera (Chromium's test pattern) and an automatic "allow", so the camera journey runs headless.
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"],
  },
});

async function chooseFile(page: Page, file: string | { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: /Drop your worksheet here, or click to browse/ }).click();
  await (await chooser).setFiles(file);
}

test("upload a worksheet: progress, OCR, fields filled in green, measurements with crops", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await signIn(page, await registerClinicViaApi(request));
  await expect(page.getByRole("heading", { name: "Report Generation", level: 1 })).toBeVisible();
  await expect(page.getByText("Upload an ultrasound worksheet to generate professional reports.")).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/upload-empty-desktop.png", fullPage: true });

  const uploaded = page.waitForResponse((r) => r.url().endsWith("/api/worksheets/upload"));
  await chooseFile(page, worksheet);
  expect((await uploaded).status()).toBe(201);
  await expect(page.getByText("Upload Successful", { exact: true })).toBeVisible();
  // The OCR job's own stage (queued, opening, reading), as the server reports it.
  await expect(
    page.getByRole("progressbar", { name: /Waiting for a reader|Opening the worksheet|Reading the worksheet/ }),
  ).toBeVisible();

  await expect(page.getByText("OCR Complete", { exact: true })).toBeVisible({ timeout: 150_000 });
  await expect(page.getByText(/^Patient data extracted with \d+% confidence$/)).toBeVisible();
  await expect(page.getByText("OCR Extracted", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Patient Name")).toHaveValue(truth.patientName);
  await expect(page.getByLabel("Date of Birth")).toHaveValue(truth.patientDob);
  await expect(page.getByLabel("Exam Date")).toHaveValue(truth.examDate);
  await expect(page.getByLabel("Patient Name")).toHaveClass(/bg-green-50/);
  // The three patient fields at least (the header fields too, where the sheet's OCR read them).
  expect(await page.getByText("Extracted from document").count()).toBeGreaterThanOrEqual(3);
  await expect(page.getByLabel("Scan type")).toHaveValue("Carotid Duplex");

  const table = page.getByRole("table");
  await expect(page.getByRole("heading", { name: "Measurements read from the worksheet" })).toBeVisible();
  await expect(table.getByRole("row")).not.toHaveCount(1);
  // Each value shows the part of the sheet it was read from, cut from the page image in the browser.
  const crop = table.getByRole("img", { name: /Worksheet crop of/ }).first();
  await expect(crop).toBeVisible();
  expect(await crop.evaluate((el) => getComputedStyle(el).backgroundImage)).toMatch(/^url\("blob:/);
  await expect(page.getByRole("img", { name: "First page of the uploaded worksheet" })).toBeVisible();

  // The clinician corrects a value and adds a row.
  const firstValue = table.getByRole("textbox").first();
  await firstValue.fill("abc");
  await expect(table.getByText("Enter a number")).toBeVisible();
  await firstValue.fill("123");
  await expect(table.getByText("Corrected").filter({ visible: true })).toBeVisible();
  const valuesBefore = await table.getByRole("textbox", { name: / value$/ }).count();
  await page.getByRole("button", { name: "Add measurement" }).click();
  await expect(table.getByRole("textbox", { name: / value$/ })).toHaveCount(valuesBefore + 1);
  await expect(table.getByRole("rowheader", { name: "Added by hand" })).toBeVisible();
  await expect(table.getByText("Entered by hand").filter({ visible: true })).toBeVisible();

  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/upload-desktop.png", fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  // On a phone the crop sits under the value, inside the screen's width, not in a column scrolled off it.
  const phoneCrop = await table
    .getByRole("img", { name: /Worksheet crop of/ })
    .first()
    .boundingBox();
  expect(phoneCrop!.x + phoneCrop!.width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: "docs/screenshots/upload-phone.png", fullPage: true });

  // A new upload clears what the last one filled in.
  await page.setViewportSize({ width: 1280, height: 900 });
  await chooseFile(page, worksheet);
  await expect(page.getByLabel("Patient Name")).toHaveValue("");
  await expect(page.getByText("OCR Complete", { exact: true })).toBeVisible({ timeout: 150_000 });
  await expect(page.getByLabel("Patient Name")).toHaveValue(truth.patientName);
});

test("a file over 10 MB is refused in the browser with the spec's toast", async ({ page, request }) => {
  await signIn(page, await registerClinicViaApi(request));
  let uploads = 0;
  page.on("request", (r) => {
    if (r.url().endsWith("/api/worksheets/upload")) uploads++;
  });
  await chooseFile(page, { name: "huge.png", mimeType: "image/png", buffer: Buffer.alloc(10 * 1024 * 1024 + 1) });
  await expect(page.getByText("File Too Large", { exact: true })).toBeVisible();
  await expect(page.getByText("File size must be less than 10 MB", { exact: true })).toBeVisible();
  expect(uploads).toBe(0);
});

test("a file the server refuses shows Upload Failed with the reason", async ({ page, request }) => {
  await signIn(page, await registerClinicViaApi(request));
  await chooseFile(page, { name: "setup.png", mimeType: "image/png", buffer: Buffer.from("MZ this is not an image") });
  await expect(page.getByText("Upload Failed", { exact: true })).toBeVisible();
  await expect(page.getByText(/^Unsupported file type/)).toBeVisible();
  await expect(page.getByLabel("Patient Name")).toHaveValue("");
});

test("the camera captures a photo, uploads it, and a sheet with nothing readable asks for manual entry", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await signIn(page, await registerClinicViaApi(request));
  await page.getByRole("button", { name: "Camera", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Capture worksheet" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Capture" })).toBeEnabled();
  await dialog.getByRole("button", { name: /Switch camera/ }).click();
  await expect(dialog.getByRole("button", { name: "Capture" })).toBeEnabled();
  await expectAccessible(page);

  const uploaded = page.waitForResponse((r) => r.url().endsWith("/api/worksheets/upload"));
  await dialog.getByRole("button", { name: "Capture" }).click();
  const record = await (await uploaded).json();
  // The server names what it received: a JPEG called worksheet-<timestamp>.jpg.
  expect(record.originalName).toMatch(/^worksheet-\d{13}\.jpg$/);
  expect(record.filename).toMatch(/\.jpg$/);
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Upload Successful", { exact: true })).toBeVisible();
  await expect(page.getByText("OCR couldn't extract patient information. Please enter details manually.")).toBeVisible({
    timeout: 150_000,
  });
  await expect(page.getByText("OCR Extracted", { exact: true })).toHaveCount(0);
});

test("a handwritten phone photo: values read with low confidence are highlighted in amber and explained", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await signIn(page, await registerClinicViaApi(request));
  await chooseFile(page, path.join(import.meta.dirname, "../fixtures/worksheets/ws-noisy-020.jpg"));
  await expect(page.getByText("OCR Complete", { exact: true })).toBeVisible({ timeout: 150_000 });
  const table = page.getByRole("table");
  await expect(table.getByRole("row").nth(1)).toBeVisible();
  // Whatever the recogniser makes of the photo, every row under 80% is amber with its reason, and no other row is.
  const rows = await table.locator("tbody tr").evaluateAll((trs) =>
    trs.map((tr) => {
      const text = tr.textContent ?? "";
      const percent = /(\d+)% confidence/.exec(text);
      return { percent: percent ? Number(percent[1]) : null, amber: tr.className.includes("bg-amber-50") };
    }),
  );
  for (const row of rows) {
    if (row.percent !== null) expect(row.amber, JSON.stringify(row)).toBe(Math.round(row.percent) < 80);
  }
  const low = rows.filter((r) => r.amber).length;
  if (low > 0) {
    await expect(
      page.getByText(/read with low confidence \(below 80%\) and (is|are) highlighted in amber/),
    ).toBeVisible();
  }
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/upload-handwritten-desktop.png", fullPage: true });
});

import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { expectAccessible, registerClinicViaApi, signIn } from "./support/fixtures";

const sheet = (name: string) => path.join(import.meta.dirname, `../fixtures/worksheets/${name}`);
const truth = (id: string) =>
  JSON.parse(fs.readFileSync(sheet(`${id}.json`), "utf8")) as { patientName: string; patientDob: string };

async function chooseFiles(page: Page, files: string[]) {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: /Drop your worksheet here, or click to browse/ }).click();
  await (await chooser).setFiles(files);
}

// Issue 27 item 2: OCR is a job; the page shows its real stages, picks it up again after a reload, and a batch is
// read in the background while the clinician goes on working.
test("a reload while the worksheet is read picks the reading up again", async ({ page, request }) => {
  test.setTimeout(180_000);
  await signIn(page, await registerClinicViaApi(request));
  const queued = page.waitForResponse((r) => r.url().includes("/ocr") && r.request().method() === "POST");
  await chooseFiles(page, [sheet("ws-clean-000.png")]);
  await expect(page.getByText("Upload Successful", { exact: true })).toBeVisible();
  // The job's own stages, not a simulated bar.
  await expect(
    page.getByRole("progressbar", { name: /Waiting for a reader|Opening the worksheet|Reading the worksheet/ }),
  ).toBeVisible();
  await page.reload();
  // The POST that was waiting is gone with the page; the job goes on and the page follows it again.
  await queued.catch(() => {});
  await expect(page.getByLabel("Patient Name")).toHaveValue(truth("ws-clean-000").patientName, { timeout: 150_000 });
  await expect(page.getByRole("img", { name: "First page of the uploaded worksheet" })).toBeVisible();
});

test("a batch is read in the background; each one opens when it is read", async ({ page, request }) => {
  test.setTimeout(300_000);
  await signIn(page, await registerClinicViaApi(request));
  await chooseFiles(page, [sheet("ws-clean-003.png"), sheet("ws-clean-007.pdf"), sheet("ws-clean-005.png")]);
  const list = page.getByRole("list").filter({ hasText: "ws-clean-003.png" });
  await expect(page.getByRole("heading", { name: "Worksheets being read" })).toBeVisible();
  await expect(list.getByRole("listitem")).toHaveCount(3);
  await expect(page.getByText(/still being read\. You can keep working meanwhile\./)).toBeVisible();
  // The page stays usable meanwhile: the single-upload card is free.
  await expect(page.getByRole("button", { name: /Drop your worksheet here/ })).toBeEnabled();
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/upload-batch-reading-desktop.png", fullPage: true });

  // A reload keeps the batch and its states.
  await page.reload();
  await expect(list.getByRole("listitem")).toHaveCount(3);

  await expect(page.getByText("All 3 done. Open one to check it.")).toBeVisible({ timeout: 240_000 });
  await expect(list.getByText("Read", { exact: true })).toHaveCount(3);
  await expectAccessible(page);
  await page.setViewportSize({ width: 820, height: 1180 });
  await page.screenshot({ path: "docs/screenshots/upload-batch-tablet.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "docs/screenshots/upload-batch-phone.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByRole("button", { name: "Open ws-clean-007.pdf" }).click();
  await expect(page.getByLabel("Patient Name")).toHaveValue(truth("ws-clean-007").patientName);
  await expect(page.getByLabel("Date of Birth")).toHaveValue(truth("ws-clean-007").patientDob);
  await page.getByRole("button", { name: "Remove ws-clean-007.pdf from the list" }).click();
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await page.screenshot({ path: "docs/screenshots/upload-batch-opened-desktop.png", fullPage: true });
});

import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { expectAccessible, registerClinicViaApi, signIn } from "./support/fixtures";

// Issue 31 item 10: plaque findings ticked on the sheet are read, shown to be checked like the measurements,
// and only those the clinician keeps reach the draft's Findings.
const dir = path.join(import.meta.dirname, "../fixtures/worksheets-plaque");
const truth = JSON.parse(fs.readFileSync(path.join(dir, "ws-clean-000.json"), "utf8")) as {
  plaque: { site: string; side: string; finding: string }[];
};

test("plaque check boxes: checked on the upload screen, an unticked one stays out of the draft", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  await signIn(page, await registerClinicViaApi(request));
  expect((await page.request.post("/api/physicians", { data: { name: "Dr. Maria Chen", title: "MD" } })).ok()).toBe(
    true,
  );
  await page.goto("/");
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: /Drop your worksheet here, or click to browse/ }).click();
  await (await chooser).setFiles(path.join(dir, "ws-clean-000.png"));
  await expect(page.getByText("OCR Complete", { exact: true })).toBeVisible({ timeout: 180_000 });

  const list = page.getByRole("list", { name: "Findings read from check boxes" });
  await expect(list.getByRole("checkbox")).toHaveCount(truth.plaque.length);
  const ulcerated = list.getByRole("checkbox", { name: /Right Carotid bulb: ulcerated plaque/ });
  await expect(ulcerated).toBeChecked();
  await list.getByRole("button", { name: /Show on the sheet: Right Carotid bulb: ulcerated plaque/ }).click();
  await expect(
    page.locator('[aria-label^="Outlined on the worksheet: Right Carotid bulb: ulcerated plaque, ticked as"]'),
  ).toBeVisible();
  await ulcerated.uncheck();
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/plaque-boxes-desktop.png", fullPage: true });

  await page.getByLabel("Reporting Physician").selectOption({ label: "Dr. Maria Chen, MD" });
  const generated = page.waitForResponse((r) => r.url().endsWith("/api/reports/generate"));
  await page.getByRole("button", { name: "Generate Report" }).click();
  const report = (await (await generated).json()) as { findings: string };
  expect(report.findings).toMatch(/heterogeneous/);
  expect(report.findings).toMatch(/irregular surface/);
  expect(report.findings).not.toMatch(/ulcerated/);

  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/plaque-boxes-phone.png", fullPage: true });
});

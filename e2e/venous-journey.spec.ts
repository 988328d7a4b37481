import path from "node:path";
import { expect, test } from "@playwright/test";
import { expectAccessible, registerClinicViaApi, signIn } from "./support/fixtures";

// A venous sheet with great saphenous knee and calf rows through the screens: upload, OCR, physician,
// Generate, draft. Generation used to answer 400 'unknown site code "GSV_KNEE"' for every such sheet.
const worksheet = path.join(import.meta.dirname, "../fixtures/worksheets/ws-clean-010.png");

test("a venous worksheet with knee and calf rows becomes a draft through the screens", async ({ page, request }) => {
  test.setTimeout(300_000);
  await signIn(page, await registerClinicViaApi(request));
  const physician = await page.request.post("/api/physicians", {
    data: { name: "Dr. Maria Chen", title: "MD", specialty: "Vascular Surgery" },
  });
  expect(physician.status(), await physician.text()).toBe(201);
  await page.reload();

  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: /Drop your worksheet here, or click to browse/ }).click();
  await (await chooser).setFiles(worksheet);
  await expect(page.getByText("OCR Complete", { exact: true })).toBeVisible({ timeout: 180_000 });
  await expect(page.getByLabel("Scan type")).toHaveValue("Lower Limb Venous");
  const table = page.getByRole("table");
  await expect(table.getByText("Great saphenous vein, knee").first()).toBeVisible();
  await expect(table.getByText("Great saphenous vein, calf").first()).toBeVisible();

  // A date that cannot be right is said where it is typed, and goes away when corrected.
  const dob = page.getByLabel("Date of Birth");
  const readDob = await dob.inputValue();
  await dob.fill("2035-01-01");
  await expect(page.getByText("Check the dates: they cannot all be right.")).toBeVisible();
  await expect(page.getByText(/The date of birth 2035-01-01 is after the exam date/)).toBeVisible();
  await expectAccessible(page);
  await dob.fill(readDob);
  await expect(page.getByText("Check the dates: they cannot all be right.")).toHaveCount(0);

  // Generate without a physician: said beside the button, no call to the server.
  const generate = page.getByRole("button", { name: "Generate Report" });
  await generate.click();
  await expect(page.getByRole("alert").filter({ hasText: "Please select a reporting physician" })).toBeVisible();
  await expect(page.getByLabel("Reporting Physician")).toBeFocused();

  await page.getByLabel("Reporting Physician").selectOption({ label: "Dr. Maria Chen, MD" });
  const generated = page.waitForResponse((r) => r.url().endsWith("/api/reports/generate"));
  await generate.click();
  expect((await generated).status()).toBe(201);
  await expect(page.getByText("Your ultrasound report has been successfully generated", { exact: true })).toBeVisible({
    timeout: 60_000,
  });
  const preview = page.getByRole("article", { name: "Report" });
  await expect(preview.getByText("Lower Limb Venous")).toBeVisible();
  await expect(preview.getByText(/Left great saphenous vein: .*knee reflux time \d+ ms/)).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: "test-results/venous-journey-draft.png", fullPage: true });
});

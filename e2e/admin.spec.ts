import { expect, test } from "@playwright/test";
import { generate } from "otplib";
import { expectAccessible, PASSWORD, registerClinicViaApi, signIn } from "./support/fixtures";

// The e2e server seeds this account and grants it platform administration (e2e/support/seed-platform-admin.ts).
const WEBMASTER = "webmaster@sonoscribe.test";

test("the platform admin enrols two-factor sign-in and uses the four admin tabs", async ({ page, request }) => {
  test.setTimeout(120_000);
  await registerClinicViaApi(request, "Hillcrest Vascular");
  await signIn(page, { email: WEBMASTER, password: PASSWORD });

  // Granted, but without two-factor sign-in the server refuses the admin calls.
  const refused = await page.request.get("/api/admin/system-stats");
  expect(refused.status()).toBe(403);
  // The panel says why and where to turn it on, instead of "could not be loaded".
  await page.getByRole("link", { name: "Admin Panel" }).click();
  await expect(
    page.getByRole("alert").getByText("Two-factor sign-in is required for platform administrators."),
  ).toBeVisible();
  await expect(page.getByRole("alert").getByText(/from the Account menu/)).toBeVisible();
  await expectAccessible(page);
  const setup = await (await page.request.post("/api/auth/totp/setup")).json();
  const enabled = await page.request.post("/api/auth/totp/enable", {
    data: { code: await generate({ secret: setup.secret }) },
  });
  expect(enabled.ok(), await enabled.text()).toBe(true);

  await page.reload();
  await page.getByRole("link", { name: "Admin Panel" }).click();
  await expect(page.getByRole("heading", { name: "Webmaster Admin Panel" })).toBeVisible();
  await expect(page.getByText("System monitoring, cost analysis, and AI training management")).toBeVisible();
  await expect(page.getByText("Total Database Size")).toBeVisible();
  await expect(page.getByText("Storage Breakdown")).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/admin-monitoring.png", fullPage: true });

  await page.getByRole("tab", { name: "Clinic Analytics" }).click();
  await expect(page.getByRole("cell", { name: "Hillcrest Vascular" })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("tab", { name: "Cost Projection" }).click();
  await expect(page.getByText("Cost Breakdown")).toBeVisible();
  await expect(page.getByText("AI API usage")).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/admin-costs.png", fullPage: true });

  await page.getByRole("tab", { name: "Global AI Training" }).click();
  await expect(page.getByText("No training data uploaded yet")).toBeVisible();
  await page.getByRole("button", { name: "Upload Training Data" }).click();
  await expect(
    page.getByText("Please upload both files and select category and complexity level").first(),
  ).toBeVisible();
  await page.getByLabel("Worksheet file (image or PDF)").setInputFiles("fixtures/worksheets/ws-clean-002.png");
  await page.getByLabel("Report file (PDF, DOC, DOCX or image)").setInputFiles("fixtures/worksheets/ws-clean-000.pdf");
  await page.getByLabel("Scan type").selectOption("Carotid Duplex");
  await page.getByLabel("Clinical finding").selectOption("abnormal");
  await page.getByRole("button", { name: "Upload Training Data" }).click();
  await expect(page.getByRole("cell", { name: "Abnormal Findings" })).toBeVisible();
  await expect(page.getByText("Complete", { exact: true })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/admin-training.png", fullPage: true });
});

test("clinic users do not see the admin panel and cannot call it", async ({ page, request }) => {
  const account = await registerClinicViaApi(request, "Ordinary Clinic");
  await signIn(page, account);
  await expect(page.getByRole("link", { name: "Admin Panel" })).toHaveCount(0);
  expect((await page.request.get("/api/admin/clinic-stats")).status()).toBe(403);
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
});

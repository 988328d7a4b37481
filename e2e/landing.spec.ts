import { expect, test } from "@playwright/test";
import { expectAccessible, registerClinicViaApi, signIn } from "./support/fixtures";

test("the landing page shows the product and its two calls to action", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Start Creating Reports" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Register Your Clinic" }).first()).toHaveAttribute(
    "href",
    "/register-clinic",
  );
  await expect(page.getByText("Smart OCR of handwritten worksheet data")).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/landing-desktop.png", fullPage: true });
});

test("the landing page fits a phone", async ({ browser }) => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await page.goto("/");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "docs/screenshots/landing-phone.png", fullPage: true });
  await page.close();
});

test("Sign In goes to the sign-in page through /api/login", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("banner").getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("heading", { name: "Sign in to Sonoscribe" })).toBeVisible();
  await expectAccessible(page);
});

test("unknown paths show the 404 page, and paths match case-insensitively", async ({ page, request }) => {
  await page.goto("/no-such-page");
  await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
  await page.goto("/REGISTER-CLINIC/");
  await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toHaveCount(0);
  const api = await request.get("/api/no-such-route");
  expect(api.status()).toBe(404);
  expect((await api.json()).code).toBe("NOT_FOUND");
});

test("a signed-in user sees the shell with their name and e-mail", async ({ page, request }) => {
  const account = await registerClinicViaApi(request);
  await signIn(page, account);
  await expect(page.getByText("Ada Lovelace")).toBeVisible();
  await expect(page.getByText(account.email)).toBeVisible();
  for (const tab of ["Upload", "Draw", "Templates", "Reports", "Clinic"]) {
    await expect(page.getByRole("link", { name: tab, exact: true })).toBeVisible();
  }
  await expect(page.getByRole("link", { name: "Admin Panel" })).toHaveCount(0);
});

import { expect, type Page, test } from "@playwright/test";
import { registerClinicViaApi, signIn } from "./support/fixtures";
import { seedReports } from "./support/reports";

/** 255 characters with no place to break: the longest name the API accepts. */
const unbroken = (prefix: string) => `${prefix}${"W".repeat(255 - prefix.length)}`;

const sizes = [
  { name: "phone", width: 390, height: 844 },
  { name: "tablet", width: 820, height: 1180 },
  { name: "desktop", width: 1440, height: 900 },
];

async function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

test("no screen is wider than the window at phone, tablet and desktop sizes, even with 255-character names", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const account = await registerClinicViaApi(request, unbroken("Clinic"));
  await signIn(page, account);
  const api = page.request;
  expect((await api.post("/api/physicians", { data: { name: unbroken("Dr"), title: "MD" } })).ok()).toBe(true);
  expect((await api.post("/api/sonographers", { data: { name: unbroken("Sono"), initials: "SW" } })).ok()).toBe(true);
  expect((await api.post("/api/templates", { data: { name: unbroken("Template") } })).ok()).toBe(true);
  await seedReports(page, [unbroken("Patient")]);

  const overflowing: string[] = [];
  for (const size of sizes) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const path of ["/", "/reports", "/templates", "/physicians", "/staff", "/draw"]) {
      await page.goto(path);
      await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
      await page.waitForLoadState("networkidle");
      const width = await pageWidth(page);
      if (width > size.width) overflowing.push(`${path} at ${size.name}: ${width} px`);
      if (path === "/physicians") await page.screenshot({ path: `test-results/long-names-clinic-${size.name}.png` });
    }
    // The report editor and the clinic's tabs, where the long names are shown.
    await page.goto("/reports");
    await page
      .getByRole("button", { name: /^Edit report #/ })
      .first()
      .click();
    await expect(page.getByRole("dialog", { name: "Edit Report" })).toBeVisible();
    const dialogWidth = await page.evaluate(() => document.querySelector('[role="dialog"]')?.scrollWidth ?? 0);
    if (dialogWidth > size.width) overflowing.push(`editor at ${size.name}: ${dialogWidth} px`);
    await page.screenshot({ path: `test-results/long-names-editor-${size.name}.png` });
  }
  expect(overflowing, overflowing.join("\n")).toEqual([]);
});

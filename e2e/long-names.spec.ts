import path from "node:path";
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

test("the report preview's header shows a 255-character clinic name whole, wrapped, at every size", async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  const clinicName = unbroken("Clinic");
  await signIn(page, await registerClinicViaApi(request, clinicName));
  const physician = await page.request.post("/api/physicians", { data: { name: "Dr. Grace Hopper", title: "MD" } });
  expect(physician.status(), await physician.text()).toBe(201);

  // The preview is the Upload view's: a worksheet read and a report generated from it.
  await page.reload();
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: /Drop your worksheet here, or click to browse/ }).click();
  await (await chooser).setFiles(path.join(import.meta.dirname, "../fixtures/worksheets/ws-clean-000.png"));
  await expect(page.getByText("OCR Complete", { exact: true })).toBeVisible({ timeout: 180_000 });
  await page.getByLabel("Reporting Physician").selectOption({ label: "Dr. Grace Hopper, MD" });
  await page.getByRole("button", { name: "Generate Report" }).click();
  const heading = page.getByRole("article", { name: "Report" }).getByRole("heading", { level: 3 });
  await expect(heading).toBeVisible({ timeout: 60_000 });

  for (const size of sizes) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await heading.scrollIntoViewIfNeeded();
    // The whole name is in the heading and none of it is cut off or scrolls: it wraps onto more lines.
    await expect(heading).toHaveText(clinicName);
    const box = await heading.evaluate((h) => ({
      scroll: h.scrollWidth,
      client: h.clientWidth,
      height: h.clientHeight,
    }));
    expect(box.scroll, `heading at ${size.name}`).toBeLessThanOrEqual(box.client);
    expect(box.height, `heading at ${size.name} wraps`).toBeGreaterThan(40);
    expect(await pageWidth(page), `page at ${size.name}`).toBeLessThanOrEqual(size.width);
    await heading.screenshot({ path: `test-results/long-names-preview-header-${size.name}.png` });
    await page.screenshot({ path: `test-results/long-names-preview-${size.name}.png` });
  }
});

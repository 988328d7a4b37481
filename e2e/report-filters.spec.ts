import { expect, test } from "@playwright/test";
import { expectAccessible, registerClinicViaApi, signIn } from "./support/fixtures";
import { seedReports } from "./support/reports";

test("the reports list filters and sorts, all kept in the address bar: reload and Back keep the list", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await signIn(page, await registerClinicViaApi(request, "Filters Vascular"));
  // Exam dates 2026-11-01 to 2026-11-04, one patient each.
  await seedReports(page, ["Filter One", "Filter Two", "Filter Three", "Filter Four"]);
  await page.goto("/reports");
  const cards = page.getByRole("list", { name: "Reports" }).getByRole("heading", { level: 2 });
  await expect(cards).toHaveCount(4);

  await page.getByLabel("Sort").selectOption({ label: "Oldest exam first" });
  await expect(page).toHaveURL(/\/reports\?sort=exam_asc$/);
  await expect(cards.first()).toHaveText("Filter One");

  await page.getByLabel("Exam from").fill("2026-11-02");
  await page.getByLabel("Exam to").fill("2026-11-03");
  await expect(cards).toHaveText(["Filter Two", "Filter Three"]);
  await expect(page).toHaveURL(/examFrom=2026-11-02/);
  await expect(page).toHaveURL(/examTo=2026-11-03/);
  await expectAccessible(page);

  // A bookmark or a reload shows the same list; Back steps through the filters chosen.
  await page.reload();
  await expect(cards).toHaveText(["Filter Two", "Filter Three"]);
  await expect(page.getByLabel("Exam from")).toHaveValue("2026-11-02");
  await page.goBack();
  await expect(cards).toHaveText(["Filter Two", "Filter Three", "Filter Four"]);
  await page.goForward();
  await expect(cards).toHaveText(["Filter Two", "Filter Three"]);

  // Status: these are drafts; none is signed yet.
  await page.getByLabel("Status").selectOption({ label: "Signed" });
  await expect(page.getByText("No Reports Found")).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(cards).toHaveCount(4);
  await expect(page).toHaveURL(/\/reports\?sort=exam_asc$/);

  // The search box is in the address bar too, and combines with the filters.
  await page.getByRole("searchbox", { name: "Search reports" }).fill("three");
  await expect(cards).toHaveText(["Filter Three"]);
  await expect(page).toHaveURL(/search=three/);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: "test-results/report-filters-phone.png", fullPage: true });
});

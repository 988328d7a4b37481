import fs from "node:fs";
import path from "node:path";
import { expect, type Page, type Route, test } from "@playwright/test";
import { expectAccessible, registerClinicViaApi, signIn } from "./support/fixtures";

// Worksheets read in the background (issue 27): a batch keeps being read while the clinician works elsewhere,
// and a reload picks up where the server is, not where the page was.
const fixture = (n: number) => path.join(import.meta.dirname, `../fixtures/worksheets/ws-clean-00${n}.png`);
const truthOf = (n: number) =>
  JSON.parse(fs.readFileSync(fixture(n).replace(/\.png$/, ".json"), "utf8")) as { patientName: string };

async function chooseFiles(page: Page, files: string[]) {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: /Drop your worksheet here, or click to browse/ }).click();
  await (await chooser).setFiles(files);
}

/** The OCR requests (POST) the server was sent, by worksheet id. */
function countOcrRequests(page: Page): Map<string, number> {
  const counts = new Map<string, number>();
  page.on("request", (request) => {
    const id = /\/api\/worksheets\/(\d+)\/ocr/.exec(request.url())?.[1];
    if (id && request.method() === "POST") counts.set(id, (counts.get(id) ?? 0) + 1);
  });
  return counts;
}

test("a batch is read in the background, survives a reload, and says which files must be chosen again", async ({
  page,
}) => {
  test.setTimeout(600_000);
  await signIn(page, await registerClinicViaApi(page.request));
  const ocrPosts = countOcrRequests(page);
  // The third file's upload never gets an answer before the reload (it is cut short).
  const held: Route[] = [];
  let uploads = 0;
  await page.route("**/api/worksheets/upload", (route) => {
    if (++uploads === 3) held.push(route);
    else void route.continue();
  });

  await chooseFiles(page, [fixture(1), fixture(2), fixture(3)]);
  const list = page.getByRole("region", { name: "Worksheets being read" });
  await expect(page.getByText("3 of 3 still being read. You can keep working meanwhile.")).toBeVisible();
  await expect.poll(() => held.length, { timeout: 60_000 }).toBe(1);
  await expect(list.getByText("Uploading")).toHaveCount(1);
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/background-reading-desktop.png", fullPage: true });

  await page.reload();
  // The files the page still had to send are said as such, not "Uploading" for ever.
  await expect(list.getByText("Not uploaded: choose them again")).toHaveCount(1);
  await expect(list.getByText("Uploading")).toHaveCount(0);
  // The two uploaded ones follow the server's stage (a real progress bar while they are not done).
  await expect(list.getByText(/Waiting for a reader|Opening the file|Reading \(\d+%\)|^Read$/)).toHaveCount(2);

  // Meanwhile the clinician works elsewhere, and comes back to the list.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Upload", exact: true }).click();
  await expect(list).toBeVisible();

  await expect(page.getByText("All 3 done. Open one to check it.")).toBeVisible({ timeout: 540_000 });
  await expect(list.getByText("Read", { exact: true })).toHaveCount(2);
  // Each uploaded worksheet was sent for reading once, before the reload; none again after it.
  expect([...ocrPosts.values()]).toEqual([1, 1]);
  await expectAccessible(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/background-reading-phone.png", fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });

  await list.getByRole("button", { name: `Open ${path.basename(fixture(1))}` }).click();
  await expect(page.getByLabel("Patient Name")).toHaveValue(truthOf(1).patientName);
});

test("a reload just after an upload (before OCR starts) still has the worksheet read", async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page, await registerClinicViaApi(page.request));
  // The first page's OCR request never reaches the server: the page reloads before it would have been sent.
  let reloaded = false;
  await page.route("**/api/worksheets/*/ocr**", (route) => {
    if (reloaded || route.request().method() !== "POST") void route.continue();
  });
  const uploaded = page.waitForResponse((r) => r.url().endsWith("/api/worksheets/upload"));
  await chooseFiles(page, [fixture(4)]);
  const id = ((await (await uploaded).json()) as { id: number }).id;
  await expect(page.getByText("Upload Successful", { exact: true })).toBeVisible();
  page.once("domcontentloaded", () => {
    reloaded = true;
  });
  await page.reload();

  await expect(page.getByLabel("Patient Name")).toHaveValue(truthOf(4).patientName, { timeout: 280_000 });
  const detail = await page.request.get(`/api/worksheets/${id}`);
  expect(((await detail.json()) as { ocrStatus: string }).ocrStatus).toBe("completed");
  await expectAccessible(page);
});

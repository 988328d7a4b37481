import { expect, test } from "@playwright/test";
import { DEMO_CLINIC, DEMO_WORKSHEETS } from "../server/demo/demo-content";
import { type DemoSeedResult, seedDemo } from "../server/demo/seed-demo";
import { fetchTransport } from "../server/demo/seed-http";
import { signIn } from "./support/fixtures";
import { registrationToken } from "./support/outbox";

// The demo clinic seeded through the e2e server's HTTP API by the same code `npm run demo` runs in-process.
// All twelve worksheets by default (about two minutes, mostly OCR), since the screenshot is the README's.
// E2E_DEMO_QUICK=1 seeds one worksheet per report state and a photographed one, and leaves docs/ alone.
const quick = process.env.E2E_DEMO_QUICK === "1";
const plan = !quick
  ? DEMO_WORKSHEETS
  : DEMO_WORKSHEETS.filter((sheet) =>
      ["ws-clean-000.png", "ws-clean-001.png", "ws-clean-003.png", "ws-clean-006.png", "ws-noisy-020.jpg"].includes(
        sheet.file,
      ),
    );

let seed: DemoSeedResult;

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(quick ? 240_000 : 900_000);
  seed = await seedDemo(fetchTransport(baseURL!), { worksheets: plan, registrationToken });
});

test("the demo clinic's reports screen, and every demo account signs in", async ({ page, browser }, testInfo) => {
  const [admin, sonographer] = seed.accounts;
  await signIn(page, admin!);
  await page.getByRole("link", { name: "Reports", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Reports", level: 1 })).toBeVisible();
  const n = plan.length;
  await expect(page.getByText(`Showing 1-${n} of ${n} reports`)).toBeVisible();
  await expect(page.getByText("Finalized", { exact: true }).first()).toBeVisible();
  await expect(page.getByText("Amended, unsigned", { exact: true }).first()).toBeVisible();
  await expect(page.getByText("HERNANDEZ, Barbara")).toBeVisible();
  await expect(page.getByText(DEMO_CLINIC.name).first()).toBeVisible();
  // Wait for every card's image and font so the picture is complete.
  await page.evaluate(() => document.fonts.ready);
  const shot = quick ? testInfo.outputPath("demo-reports.png") : "docs/screenshots/demo-reports.png";
  await page.screenshot({ path: shot, fullPage: true });

  const context = await browser.newContext();
  try {
    await signIn(await context.newPage(), sonographer!);
  } finally {
    await context.close();
  }
});

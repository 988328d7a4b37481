import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { expectAccessible, registerClinicViaApi, signIn } from "./support/fixtures";

test("draw on a worksheet template, type a measurement, and get a draft report", async ({ page, request }) => {
  test.setTimeout(180_000);
  const account = await registerClinicViaApi(request, "Drawing Vascular");
  await signIn(page, account);
  const api = page.request;
  expect((await api.post("/api/sonographers", { data: { name: "Sam Sonographer", initials: "SS" } })).ok()).toBe(true);
  const upload = await api.post("/api/worksheet-templates", {
    multipart: {
      name: "Carotid worksheet",
      category: "vascular",
      description: "Blank carotid duplex sheet",
      worksheetFile: {
        name: "carotid.png",
        mimeType: "image/png",
        buffer: fs.readFileSync("fixtures/worksheets/ws-clean-001.png"),
      },
    },
  });
  expect(upload.ok(), await upload.text()).toBe(true);

  await page.getByRole("link", { name: "Draw", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Digital Drawing" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: /Carotid worksheet/ }).click();

  const dialog = page.getByRole("dialog", { name: "Start Patient Session" });
  await dialog.getByRole("button", { name: "Start Session" }).click();
  await expect(page.getByText("Please fill in patient name and select a sonographer").first()).toBeVisible();
  await dialog.getByLabel("Patient Name *").fill("Jordan Drawn");
  await dialog.getByLabel("Study Type").selectOption("Carotid Duplex");
  await dialog.getByLabel("Sonographer *").selectOption({ label: "Sam Sonographer (SS)" });
  await expect(dialog.getByLabel("Exam Date *")).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);
  await dialog.getByRole("button", { name: "Start Session" }).click();

  await expect(page.getByRole("heading", { name: "Drawing: Carotid worksheet - Jordan Drawn" })).toBeVisible();
  await expect(page.getByText("Session started • Auto-saving enabled")).toBeVisible();
  const canvas = page.getByTestId("drawing-canvas");
  const box = (await canvas.boundingBox())!;

  // A stroke with the mouse, then Undo must become available.
  // The template is centred in the canvas: draw across its middle.
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  await page.mouse.move(cx - 60, cy - 100);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(cx - 60 + i * 12, cy - 100 + i * 4);
  await page.mouse.up();
  await expect(page.getByRole("button", { name: "Undo" })).toBeEnabled();

  // Text typed with the text tool is read directly by the engine.
  await page.getByRole("button", { name: "Text", exact: true }).click();
  await canvas.click({ position: { x: box.width / 2 - 150, y: box.height / 2 + 140 } });
  const text = page.getByLabel("Text to place on the worksheet");
  await text.fill("R ICA prox PSV 250 EDV 110");
  await text.press("Enter");
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/drawing-workspace.png" });

  await page.getByRole("button", { name: "Create Draft Report" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Create Draft Report" }).click();
  await expect(page).toHaveURL(/\/reports$/, { timeout: 60_000 });
  await expect(page.getByText("Jordan Drawn").first()).toBeVisible();

  const list = await (await api.get("/api/reports?search=Jordan")).json();
  const report = list.items[0];
  expect(report.digitalWorksheetId).toBeTruthy();
  expect(report.findings).toContain("250");
  const image = await api.get(`/api/digital-worksheets/${report.digitalWorksheetId}/image`);
  expect(image.headers()["content-type"]).toMatch(/image\/(jpeg|png)/);

  // The editor shows the drawn worksheet.
  await page.getByRole("button", { name: /^Edit/ }).first().click();
  await expect(page.locator(`img[src*="/api/digital-worksheets/${report.digitalWorksheetId}/image"]`)).toBeVisible();
});

test("the drawing screen works on a tablet with touch", async ({ browser, request }) => {
  const account = await registerClinicViaApi(request, "Tablet Clinic");
  const context = await browser.newContext({ viewport: { width: 820, height: 1180 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await signIn(page, account);
  await page.goto("/draw");
  await expect(page.getByText("No Worksheet Templates Available")).toBeVisible();
  await expect(page.getByText("Upload worksheet templates in the Templates section to start drawing")).toBeVisible();
  await page.screenshot({ path: "docs/screenshots/drawing-empty-tablet.png" });
  await context.close();
});

import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { expectAccessible, registerClinicViaApi, signIn } from "./support/fixtures";

const blank = fs.readFileSync("fixtures/forms/form3-blank.png");
const photo = fs.readFileSync("fixtures/forms/form3-photo-018.jpg");
const truth = JSON.parse(fs.readFileSync("fixtures/forms/form3-photo-018.json", "utf8")) as {
  otherFields: { referrer: string };
};
const words = (s: string | null) =>
  (s ?? "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

/** A filled sheet uploaded and read through the API, as the Upload screen does. */
async function readPhoto(page: Page) {
  const up = await page.request.post("/api/worksheets/upload", {
    multipart: { worksheet: { name: "photo.jpg", mimeType: "image/jpeg", buffer: photo } },
  });
  expect(up.status(), await up.text()).toBe(201);
  const { id } = (await up.json()) as { id: number };
  const read = await page.request.post(`/api/worksheets/${id}/ocr`, { timeout: 120_000 });
  expect(read.status(), await read.text()).toBe(200);
  return ((await read.json()) as { ocrResult: { layout: string; fields: Record<string, { value: string | null }> } })
    .ocrResult;
}

test("an admin adjusts a reading zone of the clinic's form and the next upload is read with it", async ({ page }) => {
  test.setTimeout(300_000);
  const account = await registerClinicViaApi(page.request);
  await signIn(page, account);
  const created = await page.request.post("/api/worksheet-templates", {
    multipart: { name: "Carotid form", worksheetFile: { name: "blank.png", mimeType: "image/png", buffer: blank } },
    timeout: 120_000,
  });
  expect(created.status(), await created.text()).toBe(201);

  await page.getByRole("link", { name: "Templates", exact: true }).click();
  await page.getByRole("tab", { name: "Worksheets" }).click();
  await page.getByRole("button", { name: "Reading zones of Carotid form" }).click();
  const dialog = page.getByRole("dialog", { name: "Reading Zones: Carotid form" });
  await expect(dialog.getByRole("img", { name: "Blank form Carotid form" })).toBeVisible();
  const mrn = dialog.getByRole("button", { name: "Zone MRN" });
  await expect(mrn).toBeVisible();
  await expect(dialog.getByRole("button", { name: /^Zone ICA PROX left EDV/ })).toHaveCount(1);
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/templates-zones-desktop.png", fullPage: true });

  // Pointer: drag the MRN zone 40 screen pixels to the right; its position follows.
  await mrn.click();
  const left = dialog.getByLabel("Left (px)");
  const before = Number(await left.inputValue());
  const box = (await mrn.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  expect(Number(await left.inputValue())).toBeGreaterThan(before + 20);
  // Keyboard: the focused zone moves back with the arrow keys.
  await mrn.focus();
  const moved = Number(await left.inputValue());
  await page.keyboard.press("ArrowLeft");
  await expect(left).toHaveValue(String(moved - 4));
  await dialog.getByRole("button", { name: "Undo changes" }).click();

  // Assign: the indication zone goes, the referring physician's zone now reads the indication.
  await dialog.getByLabel("Zone", { exact: true }).selectOption({ label: "Indication" });
  await dialog.getByRole("button", { name: "Remove zone" }).click();
  await dialog.getByLabel("Zone", { exact: true }).selectOption({ label: "Referring physician" });
  await dialog.getByLabel("Reads").selectOption({ label: "Indication" });
  await expect(dialog.getByRole("button", { name: "Zone Referring physician" })).toHaveCount(0);
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Save zones" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Reading Zones Saved" }).first()).toBeVisible();

  const result = await readPhoto(page);
  expect(result.layout).toBe("template");
  expect(words(result.fields.indication!.value)).toBe(words(truth.otherFields.referrer));

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "docs/screenshots/templates-zones-phone.png", fullPage: true });
  await expectAccessible(page);
});

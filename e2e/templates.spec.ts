import { expect, type Page, test } from "@playwright/test";
import { expectAccessible, registerClinicViaApi, signIn } from "./support/fixtures";

const shot = (name: string) => `docs/screenshots/templates-${name}.png`;

async function openTemplates(page: Page) {
  const account = await registerClinicViaApi(page.request);
  await signIn(page, account);
  await page.getByRole("link", { name: "Templates", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Templates" })).toBeVisible();
}

const toast = (page: Page, title: string) => page.getByRole("status").filter({ hasText: title }).first();

test("report templates: create one with a live preview and see its card", async ({ page }) => {
  await openTemplates(page);
  await expect(page.getByText("Create and manage custom report layouts for PDF and DOCX exports")).toBeVisible();
  await expect(page.getByText("No Templates Yet")).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("button", { name: "New Template" }).click();
  const dialog = page.getByRole("dialog", { name: "New Report Template" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Create Template" }).click();
  await expect(dialog.getByText("Template name is required")).toBeVisible();

  const preview = dialog.getByTestId("template-preview");
  await expect(preview).toHaveCSS("font-size", "12px");
  await dialog.getByLabel("Template name").fill("  Riverside Standard  ");
  await dialog.getByLabel("Clinic name").fill("Riverside Vascular Lab");
  await dialog.getByLabel("Font", { exact: true }).selectOption("Times New Roman");
  await dialog.getByLabel("Font size").selectOption("16px");
  await dialog.getByLabel("Patient info layout").selectOption("list");
  await dialog.getByLabel("Signature position").selectOption("left");
  await dialog.getByLabel("Show indication").uncheck();
  await expect(preview).toHaveCSS("font-size", "16px");
  await expect(preview).toHaveCSS("font-family", /Times New Roman/);
  await expect(preview.getByText("Riverside Vascular Lab")).toBeVisible();
  await expect(preview.getByTestId("preview-patient-list")).toBeVisible();
  await expect(preview.getByText("Indication", { exact: true })).toHaveCount(0);
  await expect(preview.getByTestId("preview-signature")).toHaveClass(/items-start/);
  await expectAccessible(page);
  await page.screenshot({ path: shot("report-form-desktop"), fullPage: true });

  await dialog.getByRole("button", { name: "Create Template" }).click();
  await expect(toast(page, "Template Created")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("heading", { name: "Riverside Standard" })).toBeVisible();
  await expect(page.getByText("Times New Roman 16px")).toBeVisible();

  // Editing starts from the saved values; a new template starts from the defaults again.
  await page.getByRole("button", { name: "Edit Riverside Standard" }).click();
  await expect(page.getByLabel("Font size")).toHaveValue("16px");
  await page.getByRole("button", { name: "Close" }).click();
  await page.getByRole("button", { name: "New Template" }).click();
  await expect(page.getByLabel("Template name")).toHaveValue("");
  await expect(page.getByLabel("Font size")).toHaveValue("12px");
  await page.getByRole("button", { name: "Close" }).click();
  await page.screenshot({ path: shot("reports-desktop"), fullPage: true });

  await page.getByRole("button", { name: "Delete Riverside Standard" }).click();
  await expect(page.getByText("Are you sure you want to delete this template?")).toBeVisible();
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(toast(page, "Template Deleted")).toBeVisible();
  await expect(page.getByText("No Templates Yet")).toBeVisible();
});

test("worksheet templates: upload an image and see it in the gallery", async ({ page }) => {
  await openTemplates(page);
  await page.getByRole("tab", { name: "Worksheets" }).click();
  await expect(page.getByText("Upload and manage blank worksheet templates for digital drawing")).toBeVisible();
  await expect(page.getByText("No Worksheet Templates Yet")).toBeVisible();
  await page.getByRole("button", { name: "Upload Worksheet" }).click();
  const dialog = page.getByRole("dialog", { name: "Upload Worksheet Template" });
  await dialog.getByRole("button", { name: "Upload Template" }).click();
  await expect(toast(page, "Please provide a name and select a worksheet file")).toBeVisible();
  await dialog.getByLabel("Template name").fill("Lower Limb Venous");
  await dialog.getByLabel("Description").fill("Blank LLV worksheet");
  await dialog.getByLabel("Worksheet file").setInputFiles("fixtures/worksheets/ws-clean-001.png");
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Upload Template" }).click();
  // The server reads the form to propose its reading zones: seconds on a busy machine.
  await expect(toast(page, "Worksheet Template Created")).toBeVisible({ timeout: 80_000 });
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("heading", { name: "Lower Limb Venous" })).toBeVisible();
  const image = page.getByRole("img", { name: "Worksheet template Lower Limb Venous" });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expectAccessible(page);
  await page.screenshot({ path: shot("worksheets-desktop"), fullPage: true });
});

test("legend: create an entry with a drawing", async ({ page }) => {
  await openTemplates(page);
  await page.getByRole("tab", { name: "Legend" }).click();
  await expect(page.getByText("No Legend Entries Yet")).toBeVisible();
  await page.getByRole("button", { name: "Add Legend Entry" }).click();
  const dialog = page.getByRole("dialog", { name: "New Legend Entry" });
  await dialog.getByRole("button", { name: "Create Entry" }).click();
  await expect(dialog.getByRole("alert")).toHaveText(["Title is required", "Medical meaning is required"]);
  await dialog.getByLabel("Title").fill("Cross-hatching");
  await dialog.getByLabel("Medical meaning").fill("Thrombus within the drawn vein segment");
  await dialog.getByLabel("Keywords (comma-separated)").fill("thrombus, DVT");
  await dialog.getByLabel("Draw").check();
  const canvas = dialog.getByTestId("legend-canvas");
  await expect(canvas).toHaveCSS("touch-action", "none");
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  for (const [from, to] of [
    [0.2, 0.8],
    [0.8, 0.2],
  ]) {
    await page.mouse.move(box.x + box.width * from!, box.y + box.height * 0.2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * to!, box.y + box.height * 0.8, { steps: 12 });
    await page.mouse.up();
  }
  await expectAccessible(page);
  await page.screenshot({ path: shot("legend-form-desktop"), fullPage: true });
  await dialog.getByRole("button", { name: "Create Entry" }).click();
  await expect(toast(page, "Legend Entry Created")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("heading", { name: "Cross-hatching" })).toBeVisible();
  await expect(page.getByText("Active", { exact: true })).toBeVisible();
  const picture = page.getByRole("img", { name: "Example of Cross-hatching" });
  await expect(picture).toHaveAttribute("src", /^data:image\/png;base64,/);
  await expectAccessible(page);
  await page.screenshot({ path: shot("legend-desktop"), fullPage: true });
});

test("shortcuts: create, search, copy and count the use", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await openTemplates(page);
  await page.getByRole("tab", { name: "Shortcuts" }).click();
  await expect(page.getByText("Manage frequently used text snippets for faster report writing")).toBeVisible();
  await expect(page.getByText("No text shortcuts created yet")).toBeVisible();
  // Checked in the dialog with the server's contract, each text at its field.
  await page.getByRole("button", { name: "Add Shortcut" }).click();
  const empty = page.getByRole("dialog", { name: "New Shortcut" });
  await empty.getByRole("button", { name: "Create Shortcut" }).click();
  await expect(empty.getByRole("alert")).toHaveText(["Title is required", "Text is required"]);
  await expect(empty.getByLabel("Title")).toHaveAttribute("aria-invalid", "true");
  await empty.getByRole("button", { name: "Close" }).click();
  for (const [title, text, category, tags] of [
    ["Normal venous", "No evidence of deep vein thrombosis.", "impressions", "venous, normal"],
    ["Follow-up", "Recommend follow-up duplex in 6 months.", "recommendations", ""],
  ]) {
    await page.getByRole("button", { name: "Add Shortcut" }).click();
    const dialog = page.getByRole("dialog", { name: "New Shortcut" });
    await dialog.getByLabel("Title").fill(title!);
    await dialog.getByLabel("Text").fill(text!);
    await dialog.getByLabel("Category").selectOption(category!);
    await dialog.getByLabel("Tags (comma-separated)").fill(tags!);
    await dialog.getByRole("button", { name: "Create Shortcut" }).click();
    await expect(toast(page, "Shortcut Created")).toBeVisible();
    await expect(dialog).toBeHidden();
  }
  await expect(page.getByTestId("shortcut-card")).toHaveCount(2);
  await expect(page.getByLabel("Category")).toContainText("Recommendations");

  await page.getByPlaceholder("Search shortcuts...").fill("thrombosis");
  await expect(page.getByTestId("shortcut-card")).toHaveCount(1);
  await page.getByPlaceholder("Search shortcuts...").fill("nothing like this");
  await expect(page.getByText("No shortcuts match your filters")).toBeVisible();
  await page.getByPlaceholder("Search shortcuts...").fill("");
  await page.getByLabel("Category").selectOption("impressions");
  const card = page.getByTestId("shortcut-card");
  await expect(card).toHaveCount(1);
  await expect(card.getByText("Used 0 times")).toBeVisible();
  await card.getByRole("button", { name: "Copy Normal venous" }).click();
  await expect(toast(page, "Copied to Clipboard")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("No evidence of deep vein thrombosis.");
  await expect(card.getByText("Used 1 time")).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: shot("shortcuts-desktop"), fullPage: true });

  await card.getByRole("button", { name: "Delete Normal venous" }).click();
  await expect(page.getByText("Are you sure you want to delete this text shortcut?")).toBeVisible();
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(toast(page, "Shortcut Deleted")).toBeVisible();
});

test("the Templates screen fits a phone", async ({ browser }) => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await openTemplates(page);
  const post = (url: string, data: Record<string, unknown>) => page.request.post(url, { data });
  await post("/api/templates", { name: "Phone Template", isDefault: true });
  await post("/api/text-shortcuts", {
    title: "Normal carotid",
    shortText: "No haemodynamically significant stenosis.",
  });
  await page.reload();
  await expect(page.getByRole("heading", { name: "Phone Template" })).toBeVisible();
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.screenshot({ path: shot("reports-phone"), fullPage: true });
  await page.getByRole("button", { name: "Edit Phone Template" }).click();
  await expect(page.getByTestId("template-preview")).toBeVisible();
  await page.screenshot({ path: shot("report-form-phone"), fullPage: false });
  await page.getByRole("button", { name: "Close" }).click();
  await page.getByRole("tab", { name: "Shortcuts" }).click();
  await expect(page.getByTestId("shortcut-card")).toHaveCount(1);
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.screenshot({ path: shot("shortcuts-phone"), fullPage: true });
  await page.getByRole("tab", { name: "Legend" }).click();
  await page.getByRole("button", { name: "Add Legend Entry" }).click();
  await page.getByLabel("Draw").check();
  await expect(page.getByTestId("legend-canvas")).toBeVisible();
  await page.screenshot({ path: shot("legend-form-phone"), fullPage: false });
  await page.close();
});

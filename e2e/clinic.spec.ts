import { expect, type Locator, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { expectAccessible, registerClinicViaApi, signIn } from "./support/fixtures";

/** Draws a few strokes on the signature canvas with the mouse, as a person would. */
async function drawSignature(page: Page, canvas: Locator) {
  const box = await canvas.boundingBox();
  if (!box) throw new Error("signature canvas is not visible");
  const at = (fx: number, fy: number) => [box.x + box.width * fx, box.y + box.height * fy] as const;
  await page.mouse.move(...at(0.1, 0.6));
  await page.mouse.down();
  for (const [fx, fy] of [
    [0.2, 0.3],
    [0.3, 0.7],
    [0.45, 0.35],
    [0.6, 0.65],
    [0.75, 0.4],
    [0.9, 0.55],
  ] as const) {
    await page.mouse.move(...at(fx, fy), { steps: 6 });
  }
  await page.mouse.up();
}

/** A toast's text (Radix also repeats it in a live region for screen readers, hence exact). */
const toastText = (page: Page, text: string) => page.getByText(text, { exact: true });

/** An image has loaded (the file route answered with real image bytes). */
async function expectImageLoaded(image: Locator) {
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
}

const logoPng = () =>
  sharp({ create: { width: 240, height: 80, channels: 3, background: { r: 11, g: 92, b: 173 } } })
    .png()
    .toBuffer();

test("an admin adds a physician with a drawn signature, edits and deletes one", async ({ page, request }) => {
  const account = await registerClinicViaApi(request, "Riverside Vascular");
  await signIn(page, account);
  await page.goto("/physicians");
  await expect(page.getByRole("heading", { name: "Clinic Management", level: 1 })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Physicians" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByText("No Physicians Added")).toBeVisible();
  await expectAccessible(page);

  // The name is required, with the spec's texts.
  await page.getByRole("button", { name: "Add Physician" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Physician" });
  await dialog.getByRole("button", { name: "Add Physician" }).click();
  await expect(toastText(page, "Validation Error")).toBeVisible();
  await expect(dialog.getByRole("alert")).toHaveText("Physician name is required");

  // A file that is not an image is refused on the client.
  await dialog.getByLabel("Signature image").setInputFiles({
    name: "notes.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("not an image"),
  });
  await expect(toastText(page, "Invalid File")).toBeVisible();
  await expect(toastText(page, "Please select an image file")).toBeVisible();

  await dialog.getByLabel("Name *").fill("Dr. Jane Smith");
  await dialog.getByLabel("Title").fill("MD, RPVI");
  await dialog.getByLabel("Specialty").fill("Vascular Surgery");
  await dialog.getByRole("button", { name: "Draw" }).click();
  const canvas = dialog.getByTestId("signature-canvas");
  await expect(canvas).toHaveCSS("touch-action", "none");
  await drawSignature(page, canvas);
  await expect(dialog.getByText("Signature drawn")).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/clinic-physician-dialog-desktop.png" });
  await dialog.getByRole("button", { name: "Add Physician" }).click();

  await expect(toastText(page, "Physician Added")).toBeVisible();
  await expect(dialog).toBeHidden();
  const card = page.getByRole("listitem").filter({ hasText: "Dr. Jane Smith" });
  await expect(card.getByText("MD, RPVI")).toBeVisible();
  await expect(card.getByText("Vascular Surgery")).toBeVisible();
  const signature = card.getByRole("img", { name: "Signature of Dr. Jane Smith" });
  await expectImageLoaded(signature);
  expect(await signature.getAttribute("src")).toMatch(/^\/api\/files\/\d+$/);
  // The drawn signature reached the server as a PNG with ink on it, not a blank canvas.
  const file = await page.request.get((await signature.getAttribute("src"))!);
  expect(file.headers()["content-type"]).toBe("image/png");
  const stats = await sharp(await file.body()).stats();
  expect(stats.channels.some((c) => c.min < 100)).toBe(true);

  // A second physician, without a signature; then edit and delete it with confirmation.
  await page.getByRole("button", { name: "Add Physician" }).click();
  await page.getByRole("dialog").getByLabel("Name *").fill("Dr. Temp");
  await page.getByRole("dialog").getByRole("button", { name: "Add Physician" }).click();
  await expect(toastText(page, "Physician Added")).toBeVisible();
  await page.getByRole("button", { name: "Edit Dr. Temp" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Physician" });
  await edit.getByLabel("Specialty").fill("Radiology");
  await edit.getByRole("button", { name: "Update Physician" }).click();
  await expect(toastText(page, "Physician Updated")).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "Dr. Temp" }).getByText("Radiology")).toBeVisible();
  await page.screenshot({ path: "docs/screenshots/clinic-physicians-desktop.png", fullPage: true });

  // Invite Dr. Temp by e-mail from the card: the address is checked with the invitation contract first.
  await page
    .getByRole("listitem")
    .filter({ hasText: "Dr. Temp" })
    .getByRole("button", { name: "Link or invite" })
    .click();
  const invite = page.getByRole("dialog", { name: "Account for Dr. Temp" });
  await invite.getByRole("button", { name: "Send Invitation" }).click();
  await expect(invite.getByRole("alert")).toHaveText("Please enter a valid email address");
  await invite.getByRole("textbox", { name: "E-mail" }).fill("temp.doctor@clinic.test");
  await invite.getByRole("button", { name: "Send Invitation" }).click();
  await expect(toastText(page, "Invitation Created")).toBeVisible();
  await expect(invite.getByLabel("Invitation link")).toHaveValue(/\/invite\//);
  await invite.getByRole("button", { name: "Close" }).click();

  await page.getByRole("button", { name: "Delete Dr. Temp" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("Are you sure you want to delete Dr. Temp?");
  await expectAccessible(page);
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toastText(page, "Physician Deleted")).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "Dr. Temp" })).toHaveCount(0);
  await expect(page.getByRole("listitem").filter({ hasText: "Dr. Jane Smith" })).toBeVisible();
});

test("an admin adds, edits and deletes a sonographer", async ({ page, request }) => {
  await signIn(page, await registerClinicViaApi(request, "Lakeside Vein Center"));
  await page.goto("/physicians");
  await page.getByRole("tab", { name: "Sonographers" }).click();
  await expect(page.getByText("No Sonographers Added")).toBeVisible();
  await page.getByRole("button", { name: "Add Sonographer" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Sonographer" });
  await dialog.getByRole("button", { name: "Add Sonographer" }).click();
  await expect(dialog.getByText("Sonographer name is required")).toBeVisible();
  await dialog.getByLabel("Name *").fill("Jordan Lee");
  await dialog.getByLabel("Initials *").fill("jlee");
  await expect(dialog.getByLabel("Initials *")).toHaveValue("JLEE");
  await expect(dialog.getByLabel("Initials *")).toHaveAttribute("maxlength", "10");
  await dialog.getByLabel("Title").fill("RVT");
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Add Sonographer" }).click();
  await expect(toastText(page, "Sonographer added successfully")).toBeVisible();
  const card = page.getByRole("listitem").filter({ hasText: "Jordan Lee" });
  await expect(card.getByText("JLEE")).toBeVisible();
  await expect(card.getByText("RVT")).toBeVisible();
  await page.screenshot({ path: "docs/screenshots/clinic-sonographers-desktop.png", fullPage: true });

  await page.getByRole("button", { name: "Edit Jordan Lee" }).click();
  await page.getByRole("dialog").getByLabel("Department").fill("Vascular Lab");
  await page.getByRole("dialog").getByRole("button", { name: "Update Sonographer" }).click();
  await expect(toastText(page, "Sonographer updated successfully")).toBeVisible();
  await expect(card.getByText("Vascular Lab")).toBeVisible();

  await page.getByRole("button", { name: "Delete Jordan Lee" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("No Sonographers Added")).toBeVisible();
});

test("an admin updates the clinic information and uploads a logo", async ({ page, request }) => {
  await signIn(page, await registerClinicViaApi(request, "Hillcrest Vascular"));
  await page.goto("/physicians");
  await page.getByRole("tab", { name: "Settings" }).click();
  const info = page.getByRole("form", { name: "Clinic Information" });
  await expect(info.getByLabel("Clinic Name *")).toHaveValue("Hillcrest Vascular");
  await expect(info.getByLabel("City")).toHaveValue("Springfield");

  await info.getByLabel("Clinic Name *").fill("");
  await info.getByRole("button", { name: "Save Clinic Information" }).click();
  await expect(info.getByText("Clinic name is required")).toBeVisible();

  await info.getByLabel("Clinic Name *").fill("Hillcrest Vascular Lab");
  await info.getByLabel("Phone Number").fill("555-0100");
  await info.getByLabel("Fax Number").fill("555-0101");
  await info.getByLabel("Street Address").fill("12 Harbor Road");
  await info.getByLabel("Carotid criteria set").selectOption("carotid-sru-strict");
  await expect(info.getByText(/Source: Carotid: multicentre revalidation/)).toBeVisible();
  await info.getByLabel("Report spelling").selectOption("en-GB");
  await info.getByRole("button", { name: "Save Clinic Information" }).click();
  await expect(toastText(page, "Clinic information updated successfully")).toBeVisible();

  await page
    .getByLabel("Upload a logo")
    .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: await logoPng() });
  await expect(toastText(page, "Logo Uploaded")).toBeVisible();
  await expectImageLoaded(page.getByRole("img", { name: "Hillcrest Vascular Lab logo" }));
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/clinic-settings-desktop.png", fullPage: true });

  // What was saved is what the server now answers.
  await page.reload();
  await page.getByRole("tab", { name: "Settings" }).click();
  await expect(info.getByLabel("Phone Number")).toHaveValue("555-0100");
  await expect(info.getByLabel("Carotid criteria set")).toHaveValue("carotid-sru-strict");
  await expect(info.getByLabel("Report spelling")).toHaveValue("en-GB");
  const clinicInfo = await page.request.get("/api/clinic/info");
  expect(await clinicInfo.json()).toEqual({
    name: "Hillcrest Vascular Lab",
    logoUrl: expect.stringMatching(/^\/api\/files\/\d+$/),
    address: "12 Harbor Road",
    city: "Springfield",
    state: "IL",
    zipCode: null,
    phone: "555-0100",
  });
});

test("the clinic screens fit a phone, and a signature can be drawn by touch", async ({ browser, request }) => {
  const account = await registerClinicViaApi(request, "Phone Clinic");
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await signIn(page, account);
  await page.goto("/physicians");
  await expect(page.getByText("No Physicians Added")).toBeVisible();
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "docs/screenshots/clinic-physicians-phone.png", fullPage: true });

  await page.getByRole("button", { name: "Add Physician" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name *").fill("Dr. Touch");
  await dialog.getByRole("button", { name: "Draw" }).click();
  const canvas = dialog.getByTestId("signature-canvas");
  const box = (await canvas.boundingBox())!;
  expect(box.width).toBeLessThanOrEqual(390);
  // A finger stroke: touch pointer events on the canvas.
  await canvas.dispatchEvent("pointerdown", {
    pointerId: 7,
    pointerType: "touch",
    clientX: box.x + 20,
    clientY: box.y + 30,
    isPrimary: true,
    buttons: 1,
  });
  for (let i = 1; i <= 10; i++) {
    await canvas.dispatchEvent("pointermove", {
      pointerId: 7,
      pointerType: "touch",
      clientX: box.x + 20 + i * 20,
      clientY: box.y + 30 + (i % 2) * 40,
      isPrimary: true,
      buttons: 1,
    });
  }
  await canvas.dispatchEvent("pointerup", { pointerId: 7, pointerType: "touch", isPrimary: true });
  await expect(dialog.getByText("Signature drawn")).toBeVisible();
  await page.screenshot({ path: "docs/screenshots/clinic-physician-dialog-phone.png" });
  await dialog.getByRole("button", { name: "Add Physician" }).click();
  await expectImageLoaded(page.getByRole("img", { name: "Signature of Dr. Touch" }));

  await page.getByRole("tab", { name: "Settings" }).click();
  await expect(page.getByLabel("Clinic Name *")).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "docs/screenshots/clinic-settings-phone.png", fullPage: true });
  await context.close();
});

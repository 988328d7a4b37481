import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { expectAccessible, PASSWORD, registerClinicViaApi, signIn } from "./support/fixtures";

const worksheet = path.join(import.meta.dirname, "../fixtures/worksheets/ws-clean-000.png");

async function signaturePng(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="150"><rect width="400" height="150" fill="white"/><path d="M20 110 C 80 20, 120 140, 180 60 S 300 120, 380 40" stroke="black" stroke-width="4" fill="none"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A physician with a signature image, created through the API as the signed-in user. */
async function createPhysician(page: Page) {
  const upload = await page.request.post("/api/upload-signature", {
    multipart: { signature: { name: "signature.png", mimeType: "image/png", buffer: await signaturePng() } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const { url } = (await upload.json()) as { url: string };
  const res = await page.request.post("/api/physicians", {
    data: { name: "Dr. Grace Hopper", title: "MD", specialty: "Vascular Surgeon", signatureUrl: url },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: number };
}

test("a report from upload to amended and signed again, with its history", async ({ page, request }) => {
  test.setTimeout(300_000);
  await signIn(page, await registerClinicViaApi(request));
  const physician = await createPhysician(page);
  // The admin is this physician: they link their own account, so they sign its reports (issue 26).
  const me = (await (await page.request.get("/api/auth/user")).json()) as { id: string };
  const linked = await page.request.patch(`/api/physicians/${physician.id}`, { data: { userId: me.id } });
  expect(linked.status(), await linked.text()).toBe(200);
  const shortcut = await page.request.post("/api/text-shortcuts", {
    data: {
      title: "No stenosis",
      shortText: "No haemodynamically significant stenosis.",
      category: "findings",
      tags: "",
    },
  });
  expect(shortcut.status(), await shortcut.text()).toBe(201);

  // Upload view: worksheet, OCR, generate.
  await page.reload();
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: /Drop your worksheet here, or click to browse/ }).click();
  await (await chooser).setFiles(worksheet);
  await expect(page.getByText("OCR Complete", { exact: true })).toBeVisible({ timeout: 180_000 });
  await page.getByLabel("Reporting Physician").selectOption({ label: "Dr. Grace Hopper, MD" });
  await page.getByRole("button", { name: "Generate Report" }).click();
  await expect(page.getByText("Your ultrasound report has been successfully generated", { exact: true })).toBeVisible({
    timeout: 60_000,
  });

  const preview = page.getByRole("article", { name: "Report" });
  await expect(preview.getByText("Carotid Duplex")).toBeVisible();
  const signatureBlock = preview.getByTestId("signature-block");
  await expect(signatureBlock.getByText("Dr. Grace Hopper")).toBeVisible();
  await expect(signatureBlock.getByText("Vascular Surgeon")).toBeVisible();
  const signature = signatureBlock.getByRole("img", { name: "Signature of Dr. Grace Hopper" });
  await expect(signature).toBeVisible();
  expect(await signature.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  for (const name of ["PDF", "DOCX", "Print"]) {
    await expect(page.getByRole("button", { name, exact: true })).toBeVisible();
  }
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/reports-upload-with-report-desktop.png", fullPage: true });

  // The sheet's right ICA (345 cm/s) is a critical result (issue 26): the banner names it and its rule, and its
  // call is recorded from the preview before anyone signs.
  const critical = page.getByRole("region", { name: "Critical result: communicate before signing" });
  await expect(critical.getByText("Right internal carotid artery: 70-99% stenosis")).toBeVisible();
  await critical.getByRole("button", { name: "Record communication" }).click();
  const record = page.getByRole("dialog", { name: "Record the communication" });
  await record.getByLabel("Communicated to").fill("Dr S. Gupta, referring physician");
  await record.getByLabel("Phone").check();
  await record.getByLabel("Yes, read back").check();
  await record.getByRole("button", { name: "Record communication" }).click();
  await expect(page.getByRole("region", { name: "Critical result communicated" })).toBeVisible();

  // Edit in the preview, save.
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const editForm = page.getByRole("form", { name: "Edit report" });
  await editForm.getByLabel("Impression").fill("Edited impression from the preview.");
  // Unsaved edits: leaving for another tab asks first, and so would a reload (the browser's prompt).
  expect(await page.evaluate(() => !window.dispatchEvent(new Event("beforeunload", { cancelable: true })))).toBe(true);
  await page.getByRole("link", { name: "Reports", exact: true }).click();
  const unsaved = page.getByRole("alertdialog", { name: "Unsaved changes" });
  await expect(unsaved).toBeVisible();
  await expectAccessible(page);
  await unsaved.getByRole("button", { name: "Keep editing" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(editForm.getByLabel("Impression")).toHaveValue("Edited impression from the preview.");
  // The browser's Back asks the same question.
  await page.evaluate(() => window.history.back());
  await expect(unsaved).toBeVisible();
  await unsaved.getByRole("button", { name: "Keep editing" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(editForm.getByLabel("Impression")).toHaveValue("Edited impression from the preview.");
  await editForm.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Your changes have been saved successfully", { exact: true })).toBeVisible();
  await expect(preview.getByText("Edited impression from the preview.")).toBeVisible();

  // Finalize in the preview: the signing dialog shows what is signed and asks for the password again
  // (signing in is not a re-authentication); then the signed notice appears and Edit becomes Amend.
  await page.getByLabel("Finalize Report").check();
  const signDialog = page.getByRole("dialog", { name: "Sign this report" });
  await expect(signDialog.getByText("Edited impression from the preview.")).toBeVisible();
  await expect(signDialog.getByText("Signed by Ada Lovelace", { exact: true })).toBeVisible();
  await signDialog.getByLabel("Password").fill("wrong password!");
  await signDialog.getByRole("button", { name: "Sign report" }).click();
  await expect(signDialog.getByText("That password is not correct")).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/sign-dialog-desktop.png" });
  await signDialog.getByLabel("Password").fill(PASSWORD);
  await signDialog.getByRole("button", { name: "Sign report" }).click();
  await expect(page.getByText("Report has been electronically signed and finalized", { exact: true })).toBeVisible();
  await expect(signDialog).toHaveCount(0);
  await expect(preview.getByText(/Electronically signed by Ada Lovelace on/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Edit", exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Amend", exact: true })).toBeVisible();

  // Reports screen.
  await page.getByRole("link", { name: "Reports", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Reports", level: 1 })).toBeVisible();
  await expect(page.getByText("Showing 1-1 of 1 reports")).toBeVisible();
  await expect(page.getByText("Finalized", { exact: true })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/reports-list-desktop.png", fullPage: true });
  await page.getByPlaceholder("Search reports...").fill("no such patient");
  await expect(page.getByText("No reports match your search criteria")).toBeVisible();
  await page.getByPlaceholder("Search reports...").fill("carotid");
  await expect(page.getByText("Showing 1-1 of 1 reports")).toBeVisible();

  // Trying to edit the signed report: the server refuses, the editor guides to Amend.
  const reportId = Number(
    (await page
      .getByText(/^#\d+$/)
      .first()
      .textContent())!.slice(1),
  );
  const refused = await page.request.patch(`/api/reports/${reportId}`, { data: { impression: "Sneaky edit" } });
  expect(refused.status()).toBe(409);
  expect((await refused.json()).error).toBe("Finalized reports can only be amended");
  await page.getByRole("button", { name: `Edit report #${reportId}` }).click();
  const editor = page.getByRole("dialog", { name: "Edit Report" });
  await expect(editor.getByText("This report is finalized. Finalized reports can only be amended.")).toBeVisible();
  await expect(editor.getByRole("button", { name: "Save Changes" })).toBeDisabled();
  await expect(editor.getByText("1 of 1")).toBeVisible();
  await expect(editor.getByText(`Uploaded: #`)).toBeVisible();

  // Amend with a reason.
  await editor.getByRole("button", { name: "Amend Report" }).click();
  const amend = page.getByRole("dialog", { name: "Amend Report" });
  await expect(amend.getByText("The reason is recorded in the audit trail and cannot be changed.")).toBeVisible();
  await expect(amend.getByText(/Amending resets the finalization status/)).toBeVisible();
  await amend.getByLabel("Impression").fill("Amended impression: right ICA reviewed.");
  await expect(amend.getByRole("button", { name: "Save Amendment" })).toBeDisabled();
  await amend.getByLabel(/Amendment Reason/).fill("   ");
  await expect(amend.getByRole("button", { name: "Save Amendment" })).toBeDisabled();
  await amend.getByLabel(/Amendment Reason/).fill("Impression wording corrected after review");
  await expectAccessible(page);
  await amend.getByRole("button", { name: "Save Amendment" }).click();
  await expect(page.getByText("Report Amended", { exact: true })).toBeVisible();
  await expect(amend).toHaveCount(0);

  // The amended report is unsigned again: edit in the editor and finalize on save.
  await expect(editor.getByRole("textbox", { name: "Impression" })).toHaveValue(
    "Amended impression: right ICA reviewed.",
  );
  await editor.getByRole("button", { name: "Shortcuts for Findings" }).click();
  const panel = editor.getByRole("region", { name: "Text Shortcuts" });
  const used = page.waitForResponse((r) => /\/api\/text-shortcuts\/\d+\/use$/.test(r.url()));
  await panel.getByRole("button", { name: "Insert No stenosis" }).click();
  expect((await used).ok()).toBe(true);
  await expect(page.getByText("Text Inserted", { exact: true })).toBeVisible();
  await expect(editor.getByRole("textbox", { name: "Findings" })).toHaveValue(
    /\S\n\nNo haemodynamically significant stenosis\.$/,
  );
  await editor.getByLabel("Finalize this report (will add electronic signature timestamp)").check();
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/reports-editor-desktop.png" });
  await editor.getByRole("button", { name: "Save Changes" }).click();
  // Within 5 minutes of the last re-authentication, the dialog signs without asking again.
  const signAgain = page.getByRole("dialog", { name: "Sign this report" });
  await expect(signAgain.getByText(/You confirmed it is you recently/)).toBeVisible();
  await signAgain.getByRole("button", { name: "Sign report" }).click();
  await expect(page.getByText("Report has been electronically signed and finalized", { exact: true })).toBeVisible();
  await expect(editor.getByText("This report is finalized. Finalized reports can only be amended.")).toBeVisible();
  await editor.getByRole("button", { name: "Close", exact: true }).click();
  await expect(editor).toHaveCount(0);

  // History: every version, who, why, and the difference between two.
  await page.getByRole("button", { name: `History of report #${reportId}` }).click();
  const history = page.getByRole("dialog", { name: `Report #${reportId} history` });
  const versions = history.getByRole("list", { name: "Versions" }).getByRole("listitem");
  // The editor saves the edits, then the signing dialog signs: an edited and a signed version.
  await expect(versions).toHaveCount(6);
  await expect(versions.nth(0)).toContainText("Generated");
  await expect(versions.nth(2)).toContainText("Signed");
  await expect(versions.nth(3)).toContainText("Amended #1");
  await expect(versions.nth(3)).toContainText("Reason: Impression wording corrected after review");
  await expect(versions.nth(4)).toContainText("Edited");
  await expect(versions.nth(5)).toContainText("Signed");
  await history.getByLabel("From version").selectOption("3");
  await history.getByLabel("To version").selectOption("4");
  await expect(history.getByText("Amended impression: right ICA reviewed.")).toBeVisible();
  await expect(history.getByText("Edited impression from the preview.")).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/reports-history-desktop.png" });
  await page.keyboard.press("Escape");

  // A report signed once offers no Delete, on its card or in the editor (the server refuses it too).
  await expect(page.getByRole("button", { name: `PDF of report #${reportId}` })).toBeVisible();
  await expect(page.getByRole("button", { name: `Delete report #${reportId}` })).toHaveCount(0);
  await page.getByRole("button", { name: `Edit report #${reportId}`, exact: true }).click();
  const signedEditor = page.getByRole("dialog", { name: "Edit Report" });
  await expect(signedEditor.getByRole("textbox", { name: "Patient Name" })).toBeVisible();
  await expect(signedEditor.getByRole("button", { name: "Delete", exact: true })).toHaveCount(0);
  await signedEditor.getByRole("button", { name: "Close editor" }).click();
  await expect(signedEditor).toHaveCount(0);

  // Phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByPlaceholder("Search reports...").fill("");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "docs/screenshots/reports-list-phone.png", fullPage: true });
});

import { expect, type Locator, type Page, test } from "@playwright/test";
import { expectAccessible, registerClinicViaApi, signIn } from "./support/fixtures";
import { reportsPage, seedReports } from "./support/reports";

const patients = Array.from({ length: 14 }, (_, i) => `Editor Patient ${String(i + 1).padStart(2, "0")}`);

async function openEditor(page: Page, reportId: number): Promise<Locator> {
  await page.getByRole("button", { name: `Edit report #${reportId}`, exact: true }).click();
  const editor = page.getByRole("dialog", { name: "Edit Report" });
  await expect(editor.getByRole("textbox", { name: "Patient Name" })).toBeVisible();
  return editor;
}

test("the editor walks the whole filtered list across pages, asks before losing edits, and deletes to the neighbour", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, await registerClinicViaApi(request, "Lakeside Vascular"));
  await seedReports(page, patients);
  const [first, second] = [await reportsPage(page, 1), await reportsPage(page, 2)];
  expect(first.total).toBe(14);
  const lastOfPage1 = first.items[11]!;
  const firstOfPage2 = second.items[0]!;
  const secondOfPage2 = second.items[1]!;

  await page.goto("/reports");
  await expect(page.getByText("Showing 1-12 of 14 reports")).toBeVisible();
  const editor = await openEditor(page, lastOfPage1.id);
  const name = editor.getByRole("textbox", { name: "Patient Name" });
  const findings = editor.getByRole("textbox", { name: "Findings" });
  const next = editor.getByRole("button", { name: "Next report" });
  const previous = editor.getByRole("button", { name: "Previous report" });
  await expect(editor.getByText("12 of 14", { exact: true })).toBeVisible();
  await expect(name).toHaveValue(lastOfPage1.patientName);
  await expect(editor.getByText("No worksheet image available")).toHaveCount(0);
  await expect(editor.getByText(/^Uploaded: #\d+$/)).toBeVisible();
  await page.waitForTimeout(300); // fullscreen is requested 100 ms after opening
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/reports-editor-fullscreen-desktop.png" });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: "docs/screenshots/reports-editor-fullscreen-tablet.png" });
  await page.setViewportSize({ width: 1440, height: 900 });

  // Across the page boundary: the first report of page 2, then back.
  await next.click();
  await expect(editor.getByText("13 of 14", { exact: true })).toBeVisible();
  await expect(name).toHaveValue(firstOfPage2.patientName);
  await previous.click();
  await expect(editor.getByText("12 of 14", { exact: true })).toBeVisible();
  await expect(name).toHaveValue(lastOfPage1.patientName);

  // Unsaved edits: Next asks; Keep editing stays with the edits.
  const edited = `${lastOfPage1.findings}\n\nEdited but not saved.`;
  await findings.fill(edited);
  await next.click();
  const unsaved = page.getByRole("alertdialog", { name: "Unsaved changes" });
  await expect(unsaved).toBeVisible();
  await expect(unsaved.getByRole("button", { name: "Keep editing" })).toBeFocused();
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/reports-editor-unsaved-desktop.png" });
  await unsaved.getByRole("button", { name: "Keep editing" }).click();
  await expect(unsaved).toHaveCount(0);
  await expect(next).toBeFocused();
  await expect(editor.getByText("12 of 14", { exact: true })).toBeVisible();
  await expect(findings).toHaveValue(edited);

  // Closing asks too (Escape, the close button); Discard then moves on and the edit is gone.
  await page.keyboard.press("Escape");
  await expect(unsaved).toBeVisible();
  await unsaved.getByRole("button", { name: "Keep editing" }).click();
  await expect(editor).toBeVisible();
  await next.click();
  await unsaved.getByRole("button", { name: "Discard changes" }).click();
  await expect(editor.getByText("13 of 14", { exact: true })).toBeVisible();
  await expect(name).toHaveValue(firstOfPage2.patientName);
  await previous.click();
  await expect(findings).toHaveValue(lastOfPage1.findings);
  expect((await (await page.request.get(`/api/reports/${lastOfPage1.id}`)).json()).findings).toBe(lastOfPage1.findings);

  // Save changes from the question: saved, then on to the next report.
  await findings.fill(`${lastOfPage1.findings}\n\nSaved on the way.`);
  await next.click();
  await unsaved.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Your changes have been saved successfully", { exact: true })).toBeVisible();
  await expect(editor.getByText("13 of 14", { exact: true })).toBeVisible();
  expect((await (await page.request.get(`/api/reports/${lastOfPage1.id}`)).json()).findings).toBe(
    `${lastOfPage1.findings}\n\nSaved on the way.`,
  );

  // Leaving fullscreen keeps the form and its edits: the dialog variant, at most 4xl wide.
  await findings.fill("Kept through the mode change.");
  const exit = editor.getByRole("button", { name: "Exit Fullscreen" });
  if (await exit.isVisible()) await exit.click();
  await expect(exit).toHaveCount(0);
  expect((await editor.boundingBox())!.width).toBeLessThanOrEqual(896);
  await expect(findings).toHaveValue("Kept through the mode change.");
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/reports-editor-dialog-desktop.png" });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: "docs/screenshots/reports-editor-dialog-tablet.png" });
  await page.setViewportSize({ width: 1440, height: 900 });
  // With unsaved edits the browser's own prompt guards a reload or a closed tab.
  expect(await page.evaluate(() => !window.dispatchEvent(new Event("beforeunload", { cancelable: true })))).toBe(true);
  await editor.getByRole("button", { name: "Close", exact: true }).click();
  await unsaved.getByRole("button", { name: "Discard changes" }).click();
  await expect(editor).toHaveCount(0);
  // Back in the grid on the page the editor ended on.
  await expect(page.getByText("Showing 13-14 of 14 reports")).toBeVisible();
  expect(await page.evaluate(() => !window.dispatchEvent(new Event("beforeunload", { cancelable: true })))).toBe(false);

  // Delete inside the editor moves to the neighbour: the next one, or at the end the previous one.
  await openEditor(page, firstOfPage2.id);
  await expect(editor.getByText("13 of 14", { exact: true })).toBeVisible();
  const deleteButton = editor.getByRole("button", { name: "Delete", exact: true });
  await deleteButton.click();
  await page.getByRole("alertdialog", { name: "Delete Report" }).getByRole("button", { name: "Cancel" }).click();
  await expect(deleteButton).toBeFocused();
  await deleteButton.click();
  await page.getByRole("alertdialog", { name: "Delete Report" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Report Deleted", { exact: true })).toBeVisible();
  await expect(editor.getByText("13 of 13", { exact: true })).toBeVisible();
  await expect(name).toHaveValue(secondOfPage2.patientName);
  await editor.getByRole("button", { name: "Delete", exact: true }).click();
  await page.getByRole("alertdialog", { name: "Delete Report" }).getByRole("button", { name: "Delete" }).click();
  await expect(editor.getByText("12 of 12", { exact: true })).toBeVisible();
  await expect(name).toHaveValue(lastOfPage1.patientName);
  await expect(next).toBeDisabled();
  await editor.getByRole("button", { name: "Close editor" }).click();
  await expect(editor).toHaveCount(0);
  await expect(page.getByText("Showing 1-12 of 12 reports")).toBeVisible();

  // With a search, "x of n" counts the matches only.
  await page.getByPlaceholder("Search reports...").fill("Editor Patient 1");
  await expect(page.getByText("Showing 1-5 of 5 reports")).toBeVisible();
  const matches = await reportsPage(page, 1, "Editor Patient 1");
  await openEditor(page, matches.items[0]!.id);
  await expect(editor.getByText("1 of 5", { exact: true })).toBeVisible();
  await next.click();
  await expect(editor.getByText("2 of 5", { exact: true })).toBeVisible();
  await expect(name).toHaveValue(matches.items[1]!.patientName);
});

test("deleting the only report in the editor closes it", async ({ page, request }) => {
  await signIn(page, await registerClinicViaApi(request, "Hillside Vascular"));
  const [id] = await seedReports(page, ["Only Patient"]);
  await page.goto("/reports");
  const editor = await openEditor(page, id!);
  await expect(editor.getByText("1 of 1", { exact: true })).toBeVisible();
  await editor.getByRole("button", { name: "Delete", exact: true }).click();
  await page.getByRole("alertdialog", { name: "Delete Report" }).getByRole("button", { name: "Delete" }).click();
  await expect(editor).toHaveCount(0);
  await expect(page.getByText("No reports have been generated yet")).toBeVisible();
});

test("the browser's Back asks before unsaved edits are lost, and leaves once they are discarded", async ({
  page,
  request,
}) => {
  await signIn(page, await registerClinicViaApi(request, "Riverside Vascular"));
  const [id] = await seedReports(page, ["Back Button Patient"]);
  await page.goto("/templates");
  await page.goto("/reports");
  const editor = await openEditor(page, id!);
  const findings = editor.getByRole("textbox", { name: "Findings" });
  await findings.fill("Typed, not saved.");
  const unsaved = page.getByRole("alertdialog", { name: "Unsaved changes" });

  await page.evaluate(() => window.history.back());
  await expect(unsaved).toBeVisible();
  await unsaved.getByRole("button", { name: "Keep editing" }).click();
  await expect(page).toHaveURL(/\/reports$/);
  await expect(findings).toHaveValue("Typed, not saved.");

  await page.evaluate(() => window.history.back());
  await unsaved.getByRole("button", { name: "Discard changes" }).click();
  await expect(page).toHaveURL(/\/templates$/);

  // Discarded in place (Close): the extra entry goes, so the next Back leaves at once. Forward and that Back
  // cross documents (the two page.goto above), so they go through Playwright, which waits for the navigation
  // instead of losing the page under an evaluate.
  await page.goForward();
  await openEditor(page, id!);
  await findings.fill("Typed again.");
  await editor.getByRole("button", { name: "Close", exact: true }).click();
  await unsaved.getByRole("button", { name: "Discard changes" }).click();
  await expect(editor).toHaveCount(0);
  await page.waitForFunction(() => !window.history.state?.sonoscribeUnsavedGuard);
  await page.goBack();
  await expect(page).toHaveURL(/\/templates$/);
});

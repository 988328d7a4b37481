import { expect, test } from "@playwright/test";
import { expectAccessible, registerClinicViaApi, signIn } from "./support/fixtures";
import { seedReports } from "./support/reports";

test("a signed-out bookmark of /reports goes to sign-in and back", async ({ page, request }) => {
  const account = await registerClinicViaApi(request, "Bookmark Vascular");
  await page.goto("/reports?from=bookmark");
  await expect(page).toHaveURL(/\/login\?next=%2Freports%3Ffrom%3Dbookmark$/);
  await page.getByLabel("Email Address").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/reports\?from=bookmark$/);
  await expect(page.getByRole("heading", { name: "Reports", level: 1 })).toBeVisible();
  // Any other path is still the spec's 404, signed out as signed in.
  await page.context().clearCookies();
  await page.goto("/no-such-screen");
  await expect(page.getByText("404 Page Not Found")).toBeVisible();
});

test("text typed in the editor survives an expired session, encrypted, and is gone after sign-out", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const account = await registerClinicViaApi(request, "Kept Edits Vascular");
  await signIn(page, account);
  const [reportId] = await seedReports(page, ["Kept Edits Patient"]);
  const typed = "Moderate heterogeneous plaque at the right carotid bifurcation, typed before the session ended.";

  await page.goto("/reports");
  await page.getByRole("button", { name: `Edit report #${reportId}`, exact: true }).click();
  const editor = page.getByRole("dialog", { name: "Edit Report" });
  await editor.getByRole("textbox", { name: "Findings" }).fill(typed);
  // Kept in the browser, and only encrypted: the text is nowhere in clear.
  await expect
    .poll(() => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("sonoscribe.unsaved."))))
    .toHaveLength(1);
  const stored = await page.evaluate(() => JSON.stringify(localStorage));
  expect(stored).not.toContain("plaque");
  expect(stored).not.toContain("Kept Edits Patient");

  // The session ends (idle timeout, server restart); Save gets a 401: Session Expired, then sign-in.
  await page.context().clearCookies();
  await editor.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Session Expired").first()).toBeVisible();
  await expect(page).toHaveURL(/\/login\?next=%2Freports$/);
  await page.getByLabel("Email Address").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/reports$/);

  await expect(page.getByText("Unsaved edits kept: open Edit to continue")).toBeVisible();
  await page.getByRole("button", { name: `Edit report #${reportId}`, exact: true }).click();
  const reopened = page.getByRole("dialog", { name: "Edit Report" });
  await expect(reopened.getByRole("textbox", { name: "Findings" })).toHaveValue(typed);
  await expect(reopened.getByRole("status").filter({ hasText: "Your unsaved edits from" })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: "test-results/kept-edits-restored.png" });

  // Saving clears what was kept; sign-out leaves nothing in any case.
  await reopened.getByRole("button", { name: "Save Changes" }).click();
  await expect(reopened.getByRole("status").filter({ hasText: "Your unsaved edits from" })).toHaveCount(0);
  await expect
    .poll(() => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("sonoscribe.unsaved."))))
    .toHaveLength(0);
  await reopened.getByRole("textbox", { name: "Findings" }).fill(`${typed} Again.`);
  await expect
    .poll(() => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("sonoscribe.unsaved."))))
    .toHaveLength(1);

  // Leaving without saving keeps them; signing out removes them from this browser.
  page.on("dialog", (dialog) => void dialog.accept());
  await page.goto("/reports");
  await expect(page.getByText("Unsaved edits kept: open Edit to continue")).toBeVisible();
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page.getByRole("link", { name: "Register Your Clinic" }).first()).toBeVisible();
  expect(
    await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("sonoscribe.unsaved."))),
  ).toHaveLength(0);
});

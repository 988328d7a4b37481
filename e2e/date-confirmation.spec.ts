import { expect, test } from "@playwright/test";
import { expectAccessible, registerClinicViaApi, signIn } from "./support/fixtures";
import { seedReports } from "./support/reports";

// A report whose exam date is in the future: the editor says so, and finalizing needs the labelled
// confirmation, which the server insists on too.
test("finalizing a report with an impossible date needs the clinician's confirmation", async ({ page, request }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, await registerClinicViaApi(request, "Dateline Vascular"));
  const [reportId] = await seedReports(page, ["Future Exam"]);
  const moved = await page.request.patch(`/api/reports/${reportId}`, { data: { examDate: "2031-02-03" } });
  expect(moved.status(), await moved.text()).toBe(200);

  await page.goto("/reports");
  await page.getByRole("button", { name: `Edit report #${reportId}`, exact: true }).click();
  const editor = page.getByRole("dialog", { name: "Edit Report" });
  await expect(editor.getByText("Check the dates: they cannot all be right.")).toBeVisible();
  await expect(editor.getByText("The exam date 2031-02-03 is in the future.")).toBeVisible();
  const confirm = editor.getByLabel(/I have checked the dates warned about above against the worksheet/);
  await expect(confirm).toHaveCount(0);

  await editor.getByLabel("Finalize this report (will add electronic signature timestamp)").check();
  await expect(confirm).toBeVisible();
  await page.waitForTimeout(300); // fullscreen is requested 100 ms after opening
  await expectAccessible(page);
  await page.screenshot({ path: "test-results/date-confirmation-editor.png" });

  // Without the confirmation the server refuses, in its own words.
  await editor.getByRole("button", { name: "Save Changes" }).click();
  await expect(
    page.getByText(/^The exam date 2031-02-03 is in the future\. Correct the dates, or confirm/),
  ).toBeVisible();

  await confirm.check();
  await editor.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Report has been electronically signed and finalized", { exact: true })).toBeVisible();
  await expect(editor.getByText("This report is finalized. Finalized reports can only be amended.")).toBeVisible();
  await page.screenshot({ path: "test-results/date-confirmation-finalized.png" });
});

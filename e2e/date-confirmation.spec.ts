import { expect, test } from "@playwright/test";
import { expectAccessible, PASSWORD, registerClinicViaApi, signIn } from "./support/fixtures";
import { seedReports } from "./support/reports";

// A report whose exam date is in the future: the editor says so, and signing needs the labelled
// confirmation in the signing dialog (the server's refusal without it is tested in report-date-checks.test.ts).
test("finalizing a report with an impossible date needs the clinician's confirmation", async ({ page, request }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, await registerClinicViaApi(request, "Dateline Vascular"));
  const [reportId] = await seedReports(page, ["Future Exam"]);
  const moved = await page.request.patch(`/api/reports/${reportId}`, { data: { examDate: "2031-02-03" } });
  expect(moved.status(), await moved.text()).toBe(200);
  // The admin is the report's physician and links their own account, so they may sign it (issue 26).
  const report = (await (await page.request.get(`/api/reports/${reportId}`)).json()) as { physicianId: number };
  const me = (await (await page.request.get("/api/auth/user")).json()) as { id: string };
  const linked = await page.request.patch(`/api/physicians/${report.physicianId}`, { data: { userId: me.id } });
  expect(linked.status(), await linked.text()).toBe(200);

  await page.goto("/reports");
  await page.getByRole("button", { name: `Edit report #${reportId}`, exact: true }).click();
  const editor = page.getByRole("dialog", { name: "Edit Report" });
  await expect(editor.getByText("Check the dates: they cannot all be right.")).toBeVisible();
  await expect(editor.getByText("The exam date 2031-02-03 is in the future.")).toBeVisible();
  await editor.getByLabel("Finalize this report (will add electronic signature timestamp)").check();
  await editor.getByRole("button", { name: "Save Changes" }).click();

  // The signing dialog repeats the warning and will not sign until the dates are confirmed.
  const signDialog = page.getByRole("dialog", { name: "Sign this report" });
  await expect(signDialog.getByText("The exam date 2031-02-03 is in the future.")).toBeVisible();
  const confirm = signDialog.getByLabel(/I have checked the dates warned about above against the worksheet/);
  await signDialog.getByLabel("Password").fill(PASSWORD);
  await signDialog.getByRole("button", { name: "Sign report" }).click();
  await expect(
    signDialog.getByText("Confirm the dates warned about above, or correct them in the editor, before signing."),
  ).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: "test-results/date-confirmation-sign-dialog.png" });

  await confirm.check();
  await signDialog.getByRole("button", { name: "Sign report" }).click();
  await expect(page.getByText("Report has been electronically signed and finalized", { exact: true })).toBeVisible();
  await expect(editor.getByText("This report is finalized. Finalized reports can only be amended.")).toBeVisible();
  await page.screenshot({ path: "test-results/date-confirmation-finalized.png" });
});

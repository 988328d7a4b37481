import { expect, test } from "@playwright/test";
import type { Report } from "../domain/contracts/reports";
import { expectAccessible, registerClinicViaApi, signIn, signingPhysicianWithSrWorksheet } from "./support/fixtures";

// Issue 26: back from the single sign-on provider's re-authentication, the physician is told whether it
// succeeded and the signing dialog of the same report opens again. The provider's part (GET
// /api/auth/reauth/oidc and its callback) is tested with a fake provider in server/features/auth/oidc-reauth.test.ts;
// here the server's re-authentication is the password one and the browser arrives as the callback sends it.

test("a return from the provider reopens the report's signing dialog, or says why nothing was confirmed", async ({
  page,
}) => {
  const account = await registerClinicViaApi(page.request, "Northgate Vascular");
  await signIn(page, account);
  const { worksheetId, physicianId } = await signingPhysicianWithSrWorksheet(page.request);
  const generated = await page.request.post("/api/reports/generate", {
    data: {
      worksheetId,
      physicianId,
      logoUrl: null,
      scanType: "Abdominal Aorta",
      measurements: [{ site: "AO_PROX", parameter: "DIAMETER_MM", value: 31, unit: "mm" }],
      patient: { patientName: "Ada Byron", patientDob: "1950-12-10", examDate: "2025-02-20" },
    },
  });
  expect(generated.status(), await generated.text()).toBe(201);
  const report = (await generated.json()) as Report;

  // A refusal: the dialog opens again with the ways to confirm, and the reason is said.
  await page.goto(`/reports?sign=${report.id}&reauth=not_fresh`);
  const dialog = page.getByRole("dialog", { name: "Sign this report" });
  await expect(dialog.getByRole("status")).toContainText("did not ask for your password again");
  await expect(dialog.getByLabel("Password")).toBeVisible();
  await expect(page).toHaveURL(/\/reports$/);
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // Confirmed (here by password, as the provider's callback would have marked the session): sign at once.
  expect((await page.request.post("/api/auth/reauth", { data: { password: account.password } })).ok()).toBe(true);
  await page.goto(`/reports?sign=${report.id}&reauth=ok`);
  await expect(dialog.getByRole("status")).toContainText("You confirmed it is you with your single sign-on provider");
  await expect(dialog.getByText("You confirmed it is you recently", { exact: false })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/sso-reauth-return.png", fullPage: true });
  await dialog.getByRole("button", { name: "Sign report" }).click();
  await expect(dialog).toBeHidden();
  const signed = (await (await page.request.get(`/api/reports/${report.id}`)).json()) as Report;
  expect(signed.isFinalized).toBe(true);

  // A reload does not open the dialog again: the return's parameters are gone from the address.
  await page.reload();
  await expect(page.getByRole("dialog", { name: "Sign this report" })).toHaveCount(0);

  // For a report signed meanwhile (or no report named) the outcome is said in a notification.
  await page.goto(`/reports?sign=${report.id}&reauth=state`);
  await expect(
    page
      .getByRole("region", { name: "Notifications (F8)" })
      .getByText("The confirmation had expired", { exact: false }),
  ).toBeVisible();
  await expect(page.getByRole("dialog", { name: "Sign this report" })).toHaveCount(0);
});

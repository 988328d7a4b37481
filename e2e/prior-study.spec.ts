import { expect, type Page, test } from "@playwright/test";
import type { Report } from "../domain/contracts/reports";
import { expectAccessible, registerClinicViaApi, signIn, signingPhysicianWithSrWorksheet } from "./support/fixtures";

// Issue 31 item 11: a draft compared with the patient's prior signed study, and the prior shown beside it.

async function generate(page: Page, worksheetId: number, physicianId: number, examDate: string, diameter: number) {
  const res = await page.request.post("/api/reports/generate", {
    data: {
      worksheetId,
      physicianId,
      logoUrl: null,
      scanType: "Abdominal Aorta",
      measurements: [{ site: "AO_PROX", parameter: "DIAMETER_MM", value: diameter, unit: "mm" }],
      patient: { patientName: "Ada Byron", patientDob: "1950-12-10", examDate },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Report;
}

test("the editor shows the prior study beside a draft whose impression is compared with it", async ({ page }) => {
  const account = await registerClinicViaApi(page.request, "Riverside Vascular");
  await signIn(page, account);
  // A DICOM SR as the source document: no OCR to wait for.
  const { worksheetId, physicianId } = await signingPhysicianWithSrWorksheet(page.request);

  const prior = await generate(page, worksheetId, physicianId, "2024-09-01", 40);
  expect((await page.request.post("/api/auth/reauth", { data: { password: account.password } })).ok()).toBe(true);
  const signed = await page.request.post(`/api/reports/${prior.id}/finalize`, { data: {} });
  expect(signed.status(), await signed.text()).toBe(200);
  const current = await generate(page, worksheetId, physicianId, "2025-02-20", 46);
  expect(current.impression).toContain("Compared with the prior study of 2024-09-01");

  await page.goto("/reports");
  await page.getByRole("button", { name: `Edit report #${current.id}`, exact: true }).click();
  const editor = page.getByRole("dialog", { name: "Edit Report" });
  const panel = editor.getByRole("region", { name: /^Prior study of / });
  await expect(panel).toBeVisible();
  await expect(panel.getByText("Abdominal Aorta, signed.", { exact: false })).toBeVisible();
  await expect(panel.getByText("The draft's impression was compared with it.", { exact: false })).toBeVisible();
  await expect(editor.getByRole("textbox", { name: "Impression" })).toHaveValue(/rapid growth/);
  // Rapid growth is a critical result: the call is to be recorded before signing (issue 26).
  const critical = editor.getByRole("region", { name: "Critical result: communicate before signing" });
  await expect(critical.getByText("6 mm more than on", { exact: false })).toBeVisible();
  await expect(critical.getByText(/Rule: Rapid aneurysm growth/)).toBeVisible();
  await panel.getByRole("button", { name: "Show the prior report" }).click();
  await expect(panel.getByText("maximum diameter 40 mm", { exact: false }).first()).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/prior-study-desktop.png", fullPage: true });
  await page.setViewportSize({ width: 820, height: 1180 });
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/prior-study-tablet.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/prior-study-phone.png", fullPage: true });
});

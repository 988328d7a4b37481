import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import type { Report } from "../domain/contracts/reports";
import { expectAccessible, PASSWORD, registerClinicViaApi, signIn } from "./support/fixtures";

const worksheetPng = path.resolve("fixtures/worksheets/ws-clean-000.png");

// Issue 26 item 4: a draft with a right ICA stenosis of 70% or more shows the critical-result banner, cannot
// be signed until the call is recorded, and is signed once it is (the server side: critical-results.test.ts).
test("a critical result is communicated, recorded, then the report is signed", async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, await registerClinicViaApi(page.request, "Carotid Alert Vascular"));

  const upload = await page.request.post("/api/worksheets/upload", {
    multipart: { worksheet: { name: "ws.png", mimeType: "image/png", buffer: fs.readFileSync(worksheetPng) } },
  });
  expect(upload.status(), await upload.text()).toBeLessThan(300);
  const physician = await page.request.post("/api/physicians", {
    data: { name: "Dr. Maria Chen", title: "MD, RPVI", specialty: "Vascular Surgery" },
  });
  const physicianId = ((await physician.json()) as { id: number }).id;
  const generated = await page.request.post("/api/reports/generate", {
    data: {
      worksheetId: ((await upload.json()) as { id: number }).id,
      physicianId,
      logoUrl: null,
      scanType: "Carotid Duplex",
      measurements: [{ site: "ICA_PROX", side: "right", parameter: "PSV", value: 260, unit: "cm/s" }],
      observations: [{ site: "ICA", side: "right", finding: "plaque" }],
      patient: { patientName: "Critical Patient", patientDob: "1950-10-27", examDate: "2026-11-20" },
    },
  });
  expect(generated.status(), await generated.text()).toBe(201);
  const reportId = ((await generated.json()) as Report).id;
  // The admin is the report's physician and links their own account (issue 26's signing rule).
  const me = (await (await page.request.get("/api/auth/user")).json()) as { id: string };
  expect((await page.request.patch(`/api/physicians/${physicianId}`, { data: { userId: me.id } })).status()).toBe(200);

  // The list: the filter keeps the report, and its card carries the marker.
  await page.goto("/reports");
  await page.getByLabel("Critical, not communicated").check();
  const card = page.getByRole("listitem").filter({ hasText: `#${reportId}` });
  await expect(card.getByText("Critical result, not communicated")).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: "test-results/critical-results-list.png" });

  // The editor: the banner names the result and the rule that fired.
  await page.getByRole("button", { name: `Edit report #${reportId}`, exact: true }).click();
  const editor = page.getByRole("dialog", { name: "Edit Report" });
  const banner = editor.getByRole("region", { name: "Critical result: communicate before signing" });
  await expect(banner.getByText("Right internal carotid artery: 70-99% stenosis")).toBeVisible();
  await expect(banner.getByText("Rule: Internal carotid artery stenosis of 70% or more, or occlusion.")).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: "test-results/critical-results-editor.png" });

  // Signing waits for the record: the dialog says why and offers the way to record it.
  await editor.getByLabel("Finalize this report (will add electronic signature timestamp)").check();
  await editor.getByRole("button", { name: "Save Changes" }).click();
  const signDialog = page.getByRole("dialog", { name: "Sign this report" });
  await expect(signDialog.getByText("Signing waits for the communication of a critical result")).toBeVisible();
  await expect(signDialog.getByRole("button", { name: "Sign report" })).toBeDisabled();
  await expectAccessible(page);
  await page.screenshot({ path: "test-results/critical-results-sign-blocked.png" });

  await signDialog.getByRole("button", { name: "Record communication" }).click();
  const record = page.getByRole("dialog", { name: "Record the communication" });
  await record.getByRole("button", { name: "Record communication" }).click();
  await expect(record.getByText("Say whom the result was communicated to")).toBeVisible();
  await expect(record.getByText("Say whether the recipient read the result back")).toBeVisible();
  await record.getByLabel("Communicated to").fill("Dr Amal Lee, referring physician");
  await record.getByLabel("Phone").check();
  await record.getByLabel("Yes, read back").check();
  await expectAccessible(page);
  await page.screenshot({ path: "test-results/critical-results-record-dialog.png" });
  await record.getByRole("button", { name: "Record communication" }).click();
  await expect(record).toBeHidden();

  // Recorded: the block is gone, and the physician signs with a fresh re-authentication.
  await expect(signDialog.getByText("Signing waits for the communication of a critical result")).toBeHidden();
  await signDialog.getByLabel("Password").fill(PASSWORD);
  await signDialog.getByRole("button", { name: "Sign report" }).click();
  await expect(page.getByText("Report has been electronically signed and finalized", { exact: true })).toBeVisible();
  const told = editor.getByRole("region", { name: "Critical result communicated" });
  await expect(
    told.getByText(/Critical result communicated to Dr Amal Lee, referring physician by .* by phone, read back\./),
  ).toBeVisible();
  await page.screenshot({ path: "test-results/critical-results-signed.png" });

  const saved = (await (await page.request.get(`/api/reports/${reportId}`)).json()) as Report;
  expect(saved.isFinalized).toBe(true);
  expect(saved.criticalCommunications).toEqual([
    expect.objectContaining({ recipient: "Dr Amal Lee, referring physician", method: "phone", readBack: true }),
  ]);
});

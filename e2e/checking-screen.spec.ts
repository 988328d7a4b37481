import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import type { OcrMeasurement, OcrResult } from "../domain/contracts/ocr";
import { expectAccessible, registerClinicViaApi, signIn } from "./support/fixtures";
import { seedReports } from "./support/reports";

// The checking screen (issue 22 items 2 and 5) with a synthetic OCR result: the real worksheet image is uploaded,
// and the OCR answer is replaced so that header fields, boxes and confidences are known exactly (the OCR itself
// is tested in upload.spec.ts and server/ocr). Its screenshots stay in test-results/: the made-up boxes do not sit
// on the sheet's cells, so they would misrepresent the screen in docs/ (upload.spec.ts takes those, with real OCR).

const worksheetPng = path.resolve("fixtures/worksheets/ws-clean-000.png");

/** A value on the sheet: rows 60 px apart from y, right column at x 700, left column at x 1100 of the 1654 px page. */
function value(
  site: string,
  side: "left" | "right",
  parameter: string,
  v: number,
  line: number,
  confidence = 0.95,
): OcrMeasurement {
  return {
    site,
    side,
    parameter,
    value: v,
    unit: "cm/s",
    confidence,
    text: String(v),
    box: { page: 0, x: side === "right" ? 700 : 1100, y: 900 + line * 60, width: 90, height: 40 },
  };
}

const field = (v: string, confidence = 0.9) => ({ value: v, confidence, box: null });

// Deliberately out of the sheet's order, sides interleaved, two values unsure.
const measurements = [
  value("ICA_PROX", "left", "PSV", 88, 2),
  value("CCA_PROX", "right", "PSV", 123, 0),
  value("ICA_PROX", "right", "PSV", 345, 2, 0.55),
  value("CCA_PROX", "left", "PSV", 53, 0),
  value("ICA_PROX", "right", "EDV", 120, 3),
  value("ICA_PROX", "left", "EDV", 31, 3, 0.62),
];

const ocr: OcrResult = {
  patientName: "HERNANDEZ, Barbara",
  patientDob: "2002-04-15",
  examDate: "2026-01-20",
  confidence: 0.9,
  scanType: "Carotid Duplex",
  fields: {
    patientName: field("HERNANDEZ, Barbara"),
    patientDob: field("2002-04-15"),
    examDate: field("2026-01-20"),
    indication: field("TIA"),
    referringPhysician: field("Dr S. Gupta"),
    mrn: field("9466977"),
    sonographer: field("M. HOLLOWAY RDMS", 0.7),
    sex: field("female"),
    comments: field("R ICA PSV 345 cm/s c/w 70-99% stenosis"),
  },
  measurements,
  pageCount: 1,
  text: "CAROTID DUPLEX",
  worksheetTemplateId: null,
  layout: "general",
};

async function uploadWithSyntheticOcr(page: Page) {
  await page.route(/\/api\/worksheets\/\d+\/ocr$/, (route) =>
    route.fulfill({ json: { success: true, ocrResult: ocr, confidence: ocr.confidence } }),
  );
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: /Drop your worksheet here, or click to browse/ }).click();
  await (await chooser).setFiles(worksheetPng);
  await expect(page.getByText("OCR Complete", { exact: true })).toBeVisible({ timeout: 30_000 });
}

const valueInput = (page: Page, name: RegExp) => page.getByRole("table").getByRole("textbox", { name });

test("checking screen: header fields, worksheet beside the table, sheet order by side, unsure values first, preview in focus", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, await registerClinicViaApi(request, "Harbour Vascular"));
  const sono = await page.request.post("/api/sonographers", { data: { name: "Maya Holloway", initials: "MH" } });
  expect(sono.status(), await sono.text()).toBeLessThan(300);
  const physician = await page.request.post("/api/physicians", {
    data: { name: "Dr. Maria Chen", title: "MD", specialty: "Vascular Surgery" },
  });
  expect(physician.status()).toBeLessThan(300);
  await page.goto("/");
  await uploadWithSyntheticOcr(page);

  // Patient Information shows every header field, filled from the sheet and editable.
  await expect(page.getByLabel("MRN")).toHaveValue("9466977");
  await expect(page.getByLabel("Sex")).toHaveValue("female");
  await expect(page.getByLabel("Referring Physician")).toHaveValue("Dr S. Gupta");
  await expect(page.getByLabel("Sonographer", { exact: true })).toHaveValue("M. HOLLOWAY RDMS");
  await expect(page.getByText("Clinic sonographer: Maya Holloway")).toBeVisible();
  await expect(page.getByLabel("Indication")).toHaveValue("TIA");
  await expect(page.getByText("low confidence: compare with the worksheet").first()).toBeVisible();
  await page.getByLabel("MRN").fill("9466977-A");

  // The worksheet sits beside the table, both in view together.
  const viewer = page.getByRole("region", { name: /Worksheet image/ });
  const table = page.getByRole("table");
  await expect(viewer.getByRole("img", { name: "The uploaded worksheet" })).toBeVisible();
  const [v, tbl] = [await viewer.boundingBox(), await table.boundingBox()];
  expect(v!.x + v!.width).toBeLessThanOrEqual(tbl!.x);
  expect(Math.abs(v!.y - tbl!.y)).toBeLessThan(200);

  // Rows grouped by side, each in the worksheet's order.
  const groups = table.getByRole("rowgroup").filter({ has: page.getByRole("rowheader") });
  await expect(table.getByRole("rowheader")).toHaveText(["Right", "Left"]);
  const values = await table
    .getByRole("textbox", { name: / value$/ })
    .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
  expect(values).toEqual(["123", "345", "120", "53", "88", "31"]);
  expect(await groups.count()).toBe(2);

  // The keyboard walks the unsure values first; the selected value is outlined on the worksheet.
  await page.getByRole("button", { name: "Check low-confidence values" }).click();
  const rightIcaPsv = valueInput(page, /^Right Internal carotid artery.* Peak systolic velocity value$/);
  await expect(rightIcaPsv).toBeFocused();
  await expect(rightIcaPsv).toHaveValue("345");
  const outline = page.getByTestId("selected-value-outline");
  await expect(outline).toBeVisible();
  await expect(outline).toHaveAccessibleName(/read as 345/);
  await page.keyboard.press("Enter");
  const leftIcaEdv = valueInput(page, /^Left Internal carotid artery.* End.diastolic velocity value$/);
  await expect(leftIcaEdv).toBeFocused();
  await expect(outline).toHaveAccessibleName(/read as 31/);
  await page.keyboard.press("Enter");
  await expect(valueInput(page, /^Right Common carotid artery.* Peak systolic velocity value$/)).toBeFocused();
  await page.keyboard.press("Shift+Enter");
  await expect(leftIcaEdv).toBeFocused();

  // Zoom: the image grows and the outlined value stays in view.
  const image = viewer.getByRole("img", { name: "The uploaded worksheet" });
  const before = (await image.boundingBox())!.width;
  await page.getByRole("button", { name: "Zoom in" }).click();
  await page.getByRole("button", { name: "Zoom in" }).click();
  await expect.poll(async () => (await image.boundingBox())!.width).toBeGreaterThan(before * 1.9);
  await expect(outline).toBeInViewport();
  await expectAccessible(page);
  await page.screenshot({ path: "test-results/checking-desktop.png" });

  // Tablet: the same two columns, nothing off screen sideways.
  await page.setViewportSize({ width: 1024, height: 768 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "test-results/checking-tablet.png" });
  await page.setViewportSize({ width: 1440, height: 900 });

  // Generate: the draft scrolls into view and takes focus, with the sonographer's impression beside it.
  await page.getByLabel("Reporting Physician").selectOption({ label: "Dr. Maria Chen, MD" });
  await page.getByRole("button", { name: "Generate Report" }).click();
  await expect(page.getByText("Report Generated", { exact: true })).toBeVisible();
  const preview = page.getByRole("region", { name: "Generated report" });
  await expect(preview).toBeFocused();
  await expect(preview.getByRole("heading", { name: "Report Preview" })).toBeInViewport();
  const reportArticle = preview.getByRole("article", { name: "Report" });
  await expect(reportArticle).toContainText("TIA");
  await expect(reportArticle).toContainText("9466977-A");
  await expect(reportArticle).toContainText("Dr S. Gupta");
  await expect(reportArticle).not.toContainText("c/w 70-99% stenosis");
  const impression = page.getByRole("region", { name: "Sonographer's preliminary impression" });
  await expect(impression.getByRole("textbox")).toHaveValue("R ICA PSV 345 cm/s c/w 70-99% stenosis");
  await expectAccessible(page);
  await page.screenshot({ path: "test-results/checking-generated-desktop.png" });
});

test("checking screen on a phone: the worksheet collapses above the table", async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, await registerClinicViaApi(request, "Harbour Vascular"));
  await uploadWithSyntheticOcr(page);
  const table = page.getByRole("table");
  const show = page.getByRole("button", { name: "Show worksheet" });
  await expect(show).toBeVisible();
  await expect(page.getByRole("region", { name: /Worksheet image/ })).toBeHidden();
  expect((await show.boundingBox())!.y).toBeLessThan((await table.boundingBox())!.y);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await expectAccessible(page);

  await show.click();
  const viewer = page.getByRole("region", { name: /Worksheet image/ });
  await expect(viewer.getByRole("img", { name: "The uploaded worksheet" })).toBeVisible();
  const box = (await viewer.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(box.y + box.height).toBeLessThan((await table.boundingBox())!.y);
  await valueInput(page, /^Right Internal carotid artery.* Peak systolic velocity value$/).focus();
  await expect(page.getByTestId("selected-value-outline")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await page.screenshot({ path: "test-results/checking-phone.png", fullPage: true });
});

test("the editor's Export PDF prints the clinic's letterhead (name, address, phone) and the MRN", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const account = await registerClinicViaApi(request, "Harbour Vascular");
  await signIn(page, account);
  const clinic = (await (await page.request.get("/api/clinic")).json()) as { id: number };
  const put = await page.request.put(`/api/clinic/${clinic.id}`, {
    data: { name: "Harbour Vascular", email: account.email, address: "12 Quay Street", phone: "(217) 555-0142" },
  });
  expect(put.status(), await put.text()).toBe(200);
  const [reportId] = await seedReports(page, ["Printed Patient"]);
  const patch = await page.request.patch(`/api/reports/${reportId}`, {
    data: { mrn: "MRN-424242", referringPhysician: "Dr S. Gupta" },
  });
  expect(patch.status(), await patch.text()).toBe(200);

  await page.goto("/reports");
  await page.getByRole("button", { name: `Edit report #${reportId}`, exact: true }).click();
  const editor = page.getByRole("dialog", { name: "Edit Report" });
  await expect(editor.getByRole("textbox", { name: "MRN" })).toHaveValue("MRN-424242");
  await expect(editor.getByRole("button", { name: "Delete", exact: true })).toBeVisible();
  const [popup] = await Promise.all([
    page.waitForEvent("popup"),
    editor.getByRole("button", { name: "Export PDF" }).click(),
  ]);
  await popup.waitForLoadState();
  const printed = popup.locator("body");
  await expect(printed).toContainText("Harbour Vascular");
  await expect(printed).toContainText("12 Quay Street");
  await expect(printed).toContainText("(217) 555-0142");
  await expect(printed).toContainText("MRN-424242");
  await expect(printed).toContainText("Dr S. Gupta");
  await popup.close();
});

import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { CODES, vascularSr } from "../server/test-support/dicom-sr-files";
import { expectAccessible, registerClinicViaApi, signIn } from "./support/fixtures";

// Issue 28 item 5: the ultrasound machine's DICOM SR added beside the worksheet of the same study. ws-clean-003 is
// Mei Thompson's venous sheet (born 1992-12-30); OCR reads the right CFV diameter as 5.1, the machine measured 5.3.
const worksheet = path.join(import.meta.dirname, "../fixtures/worksheets/ws-clean-003.png");
const cfv = ["SCT", "397363009", "Common femoral vein"] as const;
const vendorReflux = ["99VENDOR", "RFX-T", "Reflux time"] as const;

const machineSr = (birthDate: string) =>
  vascularSr({
    patientName: "Thompson^Mei",
    birthDate,
    patientId: "MRN7970734",
    studyDate: "20200818",
    sections: [
      {
        laterality: CODES.right,
        groups: [
          {
            vessel: cfv,
            values: [
              { code: CODES.lumenDiameter, value: 5.3, unit: "mm" },
              { code: vendorReflux, value: 3.5, unit: "s" },
            ],
          },
        ],
      },
    ],
  });

async function addSr(page: Page, buffer: Buffer) {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Add DICOM SR (.dcm)" }).click();
  await (await chooser).setFiles({ name: "venous-study.dcm", mimeType: "application/dicom", buffer });
}

test("the machine's SR beside the worksheet: another patient is refused in words, then merged once confirmed", async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  await signIn(page, await registerClinicViaApi(request));
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: /Drop your worksheet here, or click to browse/ }).click();
  await (await chooser).setFiles(worksheet);
  await expect(page.getByText("OCR Complete", { exact: true })).toBeVisible({ timeout: 180_000 });
  const table = page.getByRole("table");
  const cfvDiameter = table.getByRole("textbox", { name: "Right Common femoral vein Diameter value" });
  await expect(cfvDiameter).toHaveValue("5.1");
  await expect(page.getByText("OCR Extracted", { exact: true })).toBeVisible();

  // An SR whose date of birth differs: refused, said in words, nothing changes until the clinician decides.
  await addSr(page, machineSr("19501230"));
  const alert = page.getByRole("alert").filter({ hasText: "may be of another patient" });
  await expect(alert).toContainText(
    'date of birth "1950-12-30" in the structured report, "1992-12-30" on the worksheet',
  );
  await expect(cfvDiameter).toHaveValue("5.1");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Don't add it" }).click();
  await expect(alert).toHaveCount(0);

  // The same SR again, confirmed as the same patient: merged, and the difference stays said.
  await addSr(page, machineSr("19501230"));
  await page.getByRole("button", { name: "Same patient: add it anyway" }).click();
  await expect(page.getByText("Structured Report Added", { exact: true })).toBeVisible();
  await expect(cfvDiameter).toHaveValue("5.3");
  await expect(page.getByText("Read from worksheet and DICOM SR", { exact: true })).toBeVisible();
  await expect(
    page.getByText(
      "Added venous-study.dcm (Sonoscribe test, study of 2020-08-18): 1 measurement from the structured report is in the table, marked DICOM SR.",
    ),
  ).toBeVisible();
  await expect(page.getByText(/They were confirmed as the same patient; check before signing/)).toBeVisible();
  await expect(
    page.getByText(/1 measurement in the structured report was not recognised and left out: Reflux time/),
  ).toBeVisible();
  // The reflux time stays the sheet's, read by OCR; the diameter is the machine's.
  await expect(table.getByRole("textbox", { name: "Right Common femoral vein Reflux time value" })).toHaveValue("3500");
  await expect(table.getByRole("columnheader", { name: "Source" })).toBeVisible();
  await expect(table.getByText("DICOM SR", { exact: true }).filter({ visible: true })).toHaveCount(1);
  await expect(page.getByLabel("Date of Birth")).toHaveValue("1950-12-30");

  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/dicom-sr-beside-desktop.png", fullPage: true });
  await page.setViewportSize({ width: 820, height: 1180 });
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/dicom-sr-beside-tablet.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/dicom-sr-beside-phone.png", fullPage: true });
});

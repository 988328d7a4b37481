import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import type { Report } from "../domain/contracts/reports";
import { expectAccessible, PASSWORD, registerClinicViaApi, signIn, uniqueEmail } from "./support/fixtures";

// Issue 26: a physician signs in, lands on "Awaiting my signature", opens the oldest draft, signs it with a
// re-authentication in the signing dialog and goes on to the next; the turnaround screen counts it.

const worksheetPng = path.resolve("fixtures/worksheets/ws-clean-000.png");
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** A calendar date `days` before today (the server runs on this machine, in the same time zone). */
function daysAgo(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() - days);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Drafts for one physician, generated through the API (no OCR), with the given patients and exam dates. */
async function seedDrafts(page: Page, physicianId: number, drafts: { patientName: string; examDate: string }[]) {
  const upload = await page.request.post("/api/worksheets/upload", {
    multipart: { worksheet: { name: "worksheet.png", mimeType: "image/png", buffer: fs.readFileSync(worksheetPng) } },
  });
  expect(upload.status(), await upload.text()).toBeLessThan(300);
  const worksheetId = ((await upload.json()) as { id: number }).id;
  for (const draft of drafts) {
    const res = await page.request.post("/api/reports/generate", {
      data: {
        worksheetId,
        physicianId,
        logoUrl: null,
        scanType: "Carotid Duplex",
        measurements: [],
        patient: { patientName: draft.patientName, patientDob: "1950-10-27", examDate: draft.examDate },
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    expect(((await res.json()) as Report).physicianId).toBe(physicianId);
  }
}

test("a physician works through the sign-off worklist and signs with re-authentication", async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(180_000);
  // The admin sets up the clinic: a physician, an invitation that links their account, three drafts.
  const account = await registerClinicViaApi(request, "Sign-off Clinic");
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, account);
  const created = await admin.request.post("/api/physicians", {
    data: { name: "Dr. Ines Dubois", title: "MD", specialty: "Vascular Medicine" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const physicianId = ((await created.json()) as { id: number }).id;
  const other = await admin.request.post("/api/physicians", { data: { name: "Dr. Omar Haddad", title: "MD" } });
  expect(other.status()).toBe(201);
  const doctorEmail = uniqueEmail("doctor");
  const invited = await admin.request.post("/api/invitations", {
    data: { email: doctorEmail, role: "physician", physicianId },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const token = new URL(((await invited.json()) as { invitationUrl: string }).invitationUrl).pathname.split("/").pop();
  const joined = await request.post(`/api/invitations/${token}/register`, {
    data: { firstName: "Ines", lastName: "Dubois", password: PASSWORD },
  });
  expect(joined.status(), await joined.text()).toBe(201);
  // Generated newest exam first, so the worklist's order (oldest exam first) is its own doing.
  await seedDrafts(admin, physicianId, [
    { patientName: "Cleo Newest", examDate: daysAgo(0) },
    { patientName: "Bruno Middle", examDate: daysAgo(1) },
    { patientName: "Alma Oldest", examDate: daysAgo(10) },
  ]);

  // The physician signs in and lands on their worklist.
  await signIn(page, { email: doctorEmail, password: PASSWORD });
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Awaiting my signature", level: 1 })).toBeVisible();
  const queue = page.getByRole("list", { name: "Drafts awaiting my signature" });
  const rows = queue.getByRole("article");
  await expect(rows).toHaveCount(3);
  await expect(rows.getByRole("heading", { level: 3 })).toHaveText(["Alma Oldest", "Bruno Middle", "Cleo Newest"]);
  // Ten days after the exam is past the default target of 2 working days; yesterday's and today's are not.
  await expect(rows.nth(0).getByText("Overdue", { exact: true })).toBeVisible();
  await expect(rows.nth(1).getByText("Overdue", { exact: true })).toHaveCount(0);
  await expect(rows.nth(2).getByText("0 working days since the exam", { exact: false })).toBeVisible();
  await expect(page.getByText("3 drafts to sign, 1 overdue", { exact: false })).toBeVisible();
  await expect(rows.nth(0).getByRole("img", { name: "Worksheet of Alma Oldest" })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/sign-off-worklist-desktop.png", fullPage: true });
  await page.setViewportSize({ width: 820, height: 1180 });
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/sign-off-worklist-tablet.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });

  // Open the oldest: the editor shows it beside its worksheet, "1 of 3".
  await rows.nth(0).getByRole("button", { name: "Open the report of Alma Oldest to check and sign" }).click();
  const editor = page.getByRole("dialog", { name: "Edit Report" });
  await expect(editor.getByText(/Alma Oldest · #\d+/)).toBeVisible();
  await expect(editor.getByText("1 of 3")).toBeVisible();
  await editor
    .getByRole("textbox", { name: "Impression" })
    .fill("No haemodynamically significant stenosis. Checked by Dr Dubois.");
  await expectAccessible(page);
  await editor.getByLabel("Finalize this report (will add electronic signature timestamp)").check();
  await editor.getByRole("button", { name: "Save Changes" }).click();

  // The signing dialog: what is signed, who signs, and the password again (signing in is not a re-authentication).
  const signDialog = page.getByRole("dialog", { name: "Sign this report" });
  await expect(signDialog.getByText("Alma Oldest")).toBeVisible();
  await expect(signDialog.getByText("Checked by Dr Dubois.", { exact: false })).toBeVisible();
  await expect(signDialog.getByText("Signed by Ines Dubois", { exact: false })).toBeVisible();
  await expect(signDialog.getByLabel("Password")).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/sign-off-sign-dialog-desktop.png" });
  // Nothing typed is said on the field; a wrong password too, as the server refuses it (by its field).
  await signDialog.getByRole("button", { name: "Sign report" }).click();
  await expect(signDialog.getByText("Enter your password", { exact: true })).toBeVisible();
  await expect(signDialog.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
  await signDialog.getByLabel("Password").fill(`${PASSWORD}-wrong`);
  await signDialog.getByRole("button", { name: "Sign report" }).click();
  await expect(signDialog.getByText("That password is not correct", { exact: true })).toBeVisible();
  await expect(signDialog.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
  await signDialog.getByLabel("Password").fill(PASSWORD);
  await signDialog.getByRole("button", { name: "Sign report" }).click();
  await expect(page.getByText("Report has been electronically signed and finalized", { exact: true })).toBeVisible();
  await expect(signDialog).toHaveCount(0);

  // Next: the following draft opens in its place.
  await expect(editor.getByText(/Bruno Middle · #\d+/)).toBeVisible();
  await expect(editor.getByText("1 of 2")).toBeVisible();
  // Within 5 minutes the next signature needs no password, but still its own dialog and click.
  await editor.getByLabel("Finalize this report (will add electronic signature timestamp)").check();
  await editor.getByRole("button", { name: "Save Changes" }).click();
  await expect(signDialog.getByText("You confirmed it is you recently", { exact: false })).toBeVisible();
  await expect(signDialog.getByLabel("Password")).toHaveCount(0);
  await signDialog.getByRole("button", { name: "Sign report" }).click();
  await expect(editor.getByText(/Cleo Newest · #\d+/)).toBeVisible();
  await expect(editor.getByText("1 of 1")).toBeVisible();
  await editor.getByRole("button", { name: "Close editor" }).click();
  await expect(rows).toHaveCount(1);
  await expect(page.getByText("1 draft to sign, 0 overdue", { exact: false })).toBeVisible();

  // The signed reports are the physician's: the server says so.
  const signed = (await (await page.request.get("/api/reports?pageSize=50")).json()) as { items: Report[] };
  const byName = Object.fromEntries(signed.items.map((r) => [r.patientName, r]));
  expect(byName["Alma Oldest"]).toMatchObject({
    isFinalized: true,
    finalizedByName: "Ines Dubois",
    finalizedOnBehalf: false,
  });
  expect(byName["Bruno Middle"]?.isFinalized).toBe(true);
  expect(byName["Cleo Newest"]?.isFinalized).toBe(false);

  // The turnaround screen counts them.
  await page.getByRole("link", { name: "Turnaround" }).click();
  await expect(page.getByRole("heading", { name: "Turnaround", level: 1 })).toBeVisible();
  const signedStat = page.getByText("Reports signed", { exact: true }).locator("..");
  await expect(signedStat.getByText("2", { exact: true })).toBeVisible();
  await expect(page.getByRole("table", { name: "By physician" }).getByRole("rowheader")).toHaveText([
    "Dr. Ines Dubois",
  ]);
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/turnaround-desktop.png", fullPage: true });
  await page.setViewportSize(PHONE.viewport);
  // The tables scroll in their own boxes; the page itself does not scroll sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/turnaround-phone.png", fullPage: true });
  await page.getByRole("link", { name: "To sign" }).click();
  await expect(page.getByRole("heading", { name: "Awaiting my signature" })).toBeVisible();
  await expect(rows).toHaveCount(1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/sign-off-worklist-phone.png", fullPage: true });

  // The admin sees every queue and hands the last draft to the other physician.
  await admin.goto("/sign-off");
  await expect(admin.getByRole("heading", { name: "Awaiting signature", level: 1 })).toBeVisible();
  await expect(admin.getByRole("heading", { name: "Dr. Ines Dubois", level: 2 })).toBeVisible();
  await expect(admin.getByRole("heading", { name: "Not assigned to a physician", level: 2 })).toBeVisible();
  await expectAccessible(admin);
  await admin.screenshot({ path: "docs/screenshots/sign-off-admin-desktop.png", fullPage: true });
  await admin.getByLabel("Assign Cleo Newest's report to").selectOption({ label: "Dr. Omar Haddad" });
  await admin.getByRole("button", { name: "Reassign" }).click();
  await expect(admin.getByText("Cleo Newest's report now awaits Dr. Omar Haddad.", { exact: true })).toBeVisible();
  const omar = admin.getByRole("list", { name: "Dr. Omar Haddad" });
  await expect(omar.getByRole("heading", { name: "Cleo Newest" })).toBeVisible();

  // The clinic's target is set on the Clinic settings screen, validated.
  await admin.goto("/physicians");
  await admin.getByRole("tab", { name: "Settings" }).click();
  const target = admin.getByLabel("Turnaround target (working days after the exam)");
  await expect(target).toHaveValue("2");
  await target.fill("31");
  await admin.getByRole("button", { name: "Save Clinic Information" }).click();
  await expect(
    admin.getByText("The turnaround target must be a whole number of working days from 0 to 30"),
  ).toBeVisible();
  await target.fill("3");
  await admin.getByRole("button", { name: "Save Clinic Information" }).click();
  await expect(admin.getByText("Clinic information updated successfully", { exact: true })).toBeVisible();
  const clinic = (await (await admin.request.get("/api/clinic")).json()) as { turnaroundTargetDays: number };
  expect(clinic.turnaroundTargetDays).toBe(3);
  await adminContext.close();
});

import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { carotidSr } from "../../server/test-support/dicom-sr-files";

let counter = 0;
export const uniqueEmail = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}${(counter++).toString(36)}@clinic.test`;

export const PASSWORD = "correct horse battery";

export type ClinicAccount = { email: string; password: string; clinicName: string };

/** Registers a clinic through the API (fast); journeys that test registration itself use the screen. */
export async function registerClinicViaApi(
  request: APIRequestContext,
  clinicName = "Riverside Vascular",
): Promise<ClinicAccount> {
  const email = uniqueEmail("admin");
  const res = await request.post("/api/clinics/register", {
    data: {
      name: clinicName,
      email,
      adminFirstName: "Ada",
      adminLastName: "Lovelace",
      password: PASSWORD,
      city: "Springfield",
      state: "IL",
    },
  });
  // The e2e server sends no e-mail, so the clinic exists at once (decision 018).
  expect(res.status(), await res.text()).toBe(201);
  return { email, password: PASSWORD, clinicName };
}

/** Signs in through the sign-in page, as a person does. */
export async function signIn(page: Page, account: { email: string; password: string }) {
  await page.goto("/login");
  await page.getByLabel("Email Address").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
}

/**
 * Waits until no CSS transition is running: axe measures colours as drawn, so a button caught half-way through its
 * hover transition reads as a contrast failure that no user sees at rest. Runs in the page (the app's CSP forbids
 * injecting a style to turn transitions off); endless animations such as spinners are not waited for.
 */
async function settleTransitions(page: Page) {
  await page.evaluate(async () => {
    const running = document.getAnimations().filter((a) => a instanceof CSSTransition);
    const settled = Promise.allSettled(running.map((a) => a.finished));
    await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 2000))]);
  });
}

/** WCAG 2.1 AA checks of the current page; fails the test on any violation. */
export async function expectAccessible(page: Page) {
  await settleTransitions(page);
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(summary, summary.join("\n")).toEqual([]);
}

/**
 * The signed-in admin as a physician who signs (a physician linked to their account) and a DICOM SR uploaded as
 * the source document (no OCR to wait for): what a journey needs to generate and sign reports through the API.
 */
export async function signingPhysicianWithSrWorksheet(request: APIRequestContext) {
  const upload = await request.post("/api/worksheets/upload", {
    multipart: { worksheet: { name: "study.dcm", mimeType: "application/dicom", buffer: carotidSr() } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const worksheetId = ((await upload.json()) as { id: number }).id;
  const physician = await request.post("/api/physicians", { data: { name: "Dr. Maria Chen", title: "MD" } });
  const physicianId = ((await physician.json()) as { id: number }).id;
  const me = (await (await request.get("/api/auth/user")).json()) as { id: string };
  expect((await request.patch(`/api/physicians/${physicianId}`, { data: { userId: me.id } })).ok()).toBe(true);
  return { worksheetId, physicianId };
}

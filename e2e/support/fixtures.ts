import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { registrationToken } from "./outbox";

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
  expect(res.status(), await res.text()).toBe(202);
  await confirmRegistrationViaApi(request, email);
  return { email, password: PASSWORD, clinicName };
}

/** Opens the finish-registering link the server filed for the address (it sends no e-mail in e2e). */
export async function confirmRegistrationViaApi(request: APIRequestContext, email: string, password = PASSWORD) {
  const token = await registrationToken(email);
  expect(token, `no registration link for ${email} in the e2e server's outbox`).toBeTruthy();
  const res = await request.post("/api/clinics/register/confirm", { data: { token, password } });
  expect(res.status(), await res.text()).toBe(201);
  const confirmed = (await res.json()) as { clinicId: number; userId: string; email: string };
  // Opening the link signs in; callers sign in themselves, as before the address had to be proven.
  await request.post("/api/logout", { maxRedirects: 0 });
  return confirmed;
}

/** Signs in through the sign-in page, as a person does. */
export async function signIn(page: Page, account: { email: string; password: string }) {
  await page.goto("/login");
  await page.getByLabel("Email Address").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
}

/** WCAG 2.1 AA checks of the current page; fails the test on any violation. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(summary, summary.join("\n")).toEqual([]);
}

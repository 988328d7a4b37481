import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { expectAccessible, registerClinicViaApi, signIn, uniqueEmail } from "./support/fixtures";
import { resetToken } from "./support/outbox";

const NEW_PASSWORD = "a brand new passphrase";
const sizes = [
  { name: "phone", width: 390, height: 844 },
  { name: "tablet", width: 820, height: 1180 },
  { name: "desktop", width: 1440, height: 900 },
];

/** A sonographer of the signed-in admin's clinic, who joined through an invitation link. */
async function addSonographer(api: APIRequestContext, anonymous: APIRequestContext) {
  const email = uniqueEmail("sono");
  const invited = await api.post("/api/invitations", { data: { email, role: "sonographer" } });
  expect(invited.status(), await invited.text()).toBe(201);
  const token = ((await invited.json()) as { invitationUrl: string }).invitationUrl.split("/invite/")[1];
  const joined = await anonymous.post(`/api/invitations/${token}/register`, {
    data: { firstName: "Sam", lastName: "Forgetful", password: "the first long password" },
  });
  expect(joined.status(), await joined.text()).toBe(201);
  await anonymous.post("/api/logout", { maxRedirects: 0 });
  return { email, password: "the first long password" };
}

async function noWiderThanWindow(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

test("forgot password: the mailed link sets a new password once, and the old one stops working", async ({
  page,
  request,
  browser,
}) => {
  const admin = await registerClinicViaApi(request, "Harbor Vascular");
  await signIn(page, admin);
  const member = await addSonographer(page.request, request);
  const context = await browser.newContext();
  const visitor = await context.newPage();

  await visitor.goto("/login");
  await visitor.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(visitor.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await visitor.getByRole("button", { name: "Send reset link" }).click();
  await expect(visitor.getByText("Please enter a valid email address")).toBeVisible();
  await expectAccessible(visitor);
  for (const size of sizes) {
    await visitor.setViewportSize(size);
    await noWiderThanWindow(visitor, size.width);
    await visitor.screenshot({ path: `docs/screenshots/forgot-password-${size.name}.png`, fullPage: true });
  }
  await visitor.getByLabel("Email Address").fill(member.email);
  await visitor.getByRole("button", { name: "Send reset link" }).click();
  await expect(visitor.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  await expect(visitor.getByText("ask an admin of your clinic for a reset link")).toBeVisible();
  await expectAccessible(visitor);
  await visitor.screenshot({ path: "docs/screenshots/forgot-password-sent-desktop.png", fullPage: true });

  const token = await resetToken(member.email);
  expect(token, "a reset link in the e2e server's outbox").toBeTruthy();
  for (const size of sizes) {
    await visitor.setViewportSize(size);
    await visitor.goto(`/reset-password#token=${token}`);
    await expect(visitor.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
    await noWiderThanWindow(visitor, size.width);
  }
  await visitor.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
  await visitor.getByLabel("New password again").fill("not the same passphrase");
  await visitor.getByRole("button", { name: "Set new password" }).click();
  await expect(visitor.getByText("The two passwords are not the same")).toBeVisible();
  await expectAccessible(visitor);
  await visitor.screenshot({ path: "docs/screenshots/reset-password-desktop.png", fullPage: true });
  await visitor.getByLabel("New password again").fill(NEW_PASSWORD);
  await visitor.getByRole("button", { name: "Set new password" }).click();
  await expect(visitor.getByRole("heading", { name: "Password changed" })).toBeVisible();
  await expectAccessible(visitor);
  await visitor.screenshot({ path: "docs/screenshots/reset-password-done-desktop.png", fullPage: true });

  // The link works once (a fresh load: a change of fragment alone would not reload the page).
  await visitor.goto("/login");
  await visitor.goto(`/reset-password#token=${token}`);
  await visitor.getByLabel("New password", { exact: true }).fill("yet another passphrase");
  await visitor.getByLabel("New password again").fill("yet another passphrase");
  await visitor.getByRole("button", { name: "Set new password" }).click();
  await expect(visitor.getByText("This password reset link has expired or was already used")).toBeVisible();

  // The old password is refused, the new one signs in.
  const old = await request.post("/api/auth/login", { data: { email: member.email, password: member.password } });
  expect(old.status()).toBe(401);
  await signIn(visitor, { email: member.email, password: NEW_PASSWORD });
  await context.close();
});

test("an admin issues a reset link from the Staff page when the server sends no e-mail", async ({
  page,
  request,
  browser,
}) => {
  const admin = await registerClinicViaApi(request, "Bayside Vascular");
  await signIn(page, admin);
  const member = await addSonographer(page.request, request);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/staff");
  await page.getByRole("button", { name: "Reset password of Sam Forgetful" }).click();
  const dialog = page.getByRole("dialog", { name: "Password reset link" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(`send this link to ${member.email} yourself`)).toBeVisible();
  await noWiderThanWindow(page, 390);
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/staff-reset-link-phone.png" });
  const link = await dialog.getByLabel("Link").inputValue();
  expect(link).toMatch(/\/reset-password#token=[A-Za-z0-9_-]{43}$/);
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();

  const context = await browser.newContext();
  const visitor = await context.newPage();
  await visitor.goto(link);
  await visitor.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
  await visitor.getByLabel("New password again").fill(NEW_PASSWORD);
  await visitor.getByRole("button", { name: "Set new password" }).click();
  await expect(visitor.getByRole("heading", { name: "Password changed" })).toBeVisible();
  await signIn(visitor, { email: member.email, password: NEW_PASSWORD });
  await context.close();
});

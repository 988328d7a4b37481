import { expect, type Page, test } from "@playwright/test";
import { expectAccessible, PASSWORD, registerClinicViaApi, signIn, uniqueEmail } from "./support/fixtures";
import { outboxFor } from "./support/outbox";

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

async function fillRegistration(page: Page, email: string) {
  await page.getByLabel("Clinic Name").fill("Lakeside Vascular Lab");
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Phone Number").fill("555-0100");
  await page.getByLabel("Street Address").fill("12 Harbor Road");
  await page.getByLabel("City").fill("Portland");
  await page.getByLabel("State").fill("ME");
  await page.getByLabel("ZIP Code").fill("04101");
  await page.getByLabel("First Name").fill("Grace");
  await page.getByLabel("Last Name").fill("Hopper");
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
}

test("register a clinic, invite a sonographer who joins as a new user, deactivate them: their session ends", async ({
  page,
  browser,
}) => {
  // Registration through the screen, with the client-side checks first.
  const adminEmail = uniqueEmail("lakeside");
  await page.goto("/register-clinic");
  await expect(page.getByRole("heading", { name: "Register Your Clinic" })).toBeVisible();
  await page.getByRole("button", { name: "Register Clinic" }).click();
  await expect(page.getByText("Clinic name is required")).toBeVisible();
  await fillRegistration(page, adminEmail);
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/identity-registration-desktop.png", fullPage: true });
  await page.getByRole("button", { name: "Register Clinic" }).click();
  // This server sends no e-mail, so the clinic exists at once (decision 018): the spec's completion screen.
  await expect(page.getByRole("heading", { name: "Registration Complete!" })).toBeVisible();
  await expect(page.getByRole("main").getByText("Your clinic has been registered successfully.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Log In to Dashboard" })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/identity-registration-complete.png", fullPage: true });

  // The same e-mail again gets the same answer and creates nothing; only the mail to the address says why.
  await page.goto("/register-clinic");
  await fillRegistration(page, adminEmail);
  await page.getByRole("button", { name: "Register Clinic" }).click();
  await expect(page.getByRole("heading", { name: "Registration Complete!" })).toBeVisible();
  const mails = await outboxFor(adminEmail);
  expect(mails.at(-1)?.subject).toBe("You already have a Sonoscribe account");

  // Sign in and invite a sonographer from Staff Management.
  await signIn(page, { email: adminEmail, password: PASSWORD });
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/staff");
  await expect(page.getByRole("heading", { name: "Staff Management" })).toBeVisible();
  await expect(page.getByText("Current Staff (1)")).toBeVisible();
  await expect(page.getByRole("button", { name: "Deactivate Grace Hopper" })).toBeDisabled();
  await page.getByRole("button", { name: "Invite Staff" }).click();
  await page.getByLabel("Email Address").fill("not-an-email");
  await page.getByRole("button", { name: "Send Invitation" }).click();
  await expect(page.getByText("Please enter a valid email address")).toBeVisible();
  const sonographerEmail = uniqueEmail("sono");
  await page.getByLabel("Email Address").fill(sonographerEmail);
  await expect(page.getByLabel("Role")).toHaveValue("sonographer");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Send Invitation" }).click();
  // The e2e server has no e-mail set up: the toast says so instead of "sent successfully".
  await expect(page.getByText("Invitation Created", { exact: true })).toBeVisible();
  await expect(page.getByText(/No e-mail was sent \(this server has no e-mail set up\)/).first()).toBeVisible();
  await expect(page.getByText("Pending Invitations (1)")).toBeVisible();
  const firstLink = await page.evaluate(() => navigator.clipboard.readText());
  expect(firstLink).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
  // A lost link is replaced from the pending list; the old one stops working.
  await page.getByRole("button", { name: `New link for ${sonographerEmail}` }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).not.toBe(firstLink);
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
  await expect(page.getByText("Pending Invitations (1)")).toBeVisible();
  const oldToken = firstLink.split("/invite/")[1];
  expect((await page.request.get(`/api/invitations/${oldToken}/details`)).status()).toBe(404);
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/identity-staff-desktop.png", fullPage: true });

  // A second browser context: a person without an account opens the link and creates one.
  const newcomer = await browser.newContext();
  const other = await newcomer.newPage();
  await other.goto(link);
  await expect(other.getByRole("heading", { name: "Login Required" })).toBeVisible();
  await expect(other.getByText("Lakeside Vascular Lab")).toBeVisible();
  await expect(other.getByText("12 Harbor Road, Portland, ME, 04101")).toBeVisible();
  await expectAccessible(other);
  await other.screenshot({ path: "docs/screenshots/identity-invitation-desktop.png", fullPage: true });
  await other.getByLabel("First Name").fill("Sam");
  await other.getByLabel("Last Name").fill("Sonographer");
  await other.getByLabel(/^Password/).fill(PASSWORD);
  await other.getByLabel("Confirm Password").fill(PASSWORD);
  await other.getByRole("button", { name: "Create Account and Join" }).click();
  await expect(other.getByRole("heading", { name: "Welcome to the Team!" })).toBeVisible();
  await expect(other.getByText("You've successfully joined Lakeside Vascular Lab. Redirecting")).toBeVisible();
  await expect(other.getByRole("navigation", { name: "Main" })).toBeVisible({ timeout: 10_000 });
  await expect(other.getByText("Sam Sonographer")).toBeVisible();

  // The used link is now invalid.
  const strangerContext = await browser.newContext();
  const stranger = await strangerContext.newPage();
  await stranger.goto(link);
  await expect(stranger.getByRole("heading", { name: "Invalid Invitation" })).toBeVisible();
  await expect(stranger.getByText("This invitation has already been used")).toBeVisible();
  await expectAccessible(stranger);
  await strangerContext.close();

  // The admin sees them, deactivates them, and their session ends at once.
  await page.reload();
  await expect(page.getByText("Current Staff (2)")).toBeVisible();
  await expect(page.getByText("Pending Invitations (0)")).toBeVisible();
  await page.getByRole("button", { name: "Deactivate Sam Sonographer" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Deactivate" }).click();
  await expect(page.getByText("Staff Member Deactivated", { exact: true })).toBeVisible();
  await expect(page.getByText("Current Staff (1)")).toBeVisible();

  const api = await other.request.get("/api/auth/user");
  expect(api.status()).toBe(401);
  await other.reload();
  await expect(other.getByRole("button", { name: "Start Creating Reports" })).toBeVisible();

  // Deactivated by mistake: the admin reactivates them and they can sign in again.
  await expect(page.getByText("Deactivated Staff (1)")).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Reactivate Sam Sonographer" }).click();
  await expect(page.getByText("Staff Member Reactivated", { exact: true })).toBeVisible();
  await expect(page.getByText("Current Staff (2)")).toBeVisible();
  await expect(page.getByText(/Deactivated Staff/)).toHaveCount(0);
  await signIn(other, { email: sonographerEmail, password: PASSWORD });
  await newcomer.close();
});

test("the invitation, registration and staff screens fit a phone", async ({ browser, request }) => {
  const phoneContext = await browser.newContext(PHONE);
  const page = await phoneContext.newPage();
  await page.goto("/register-clinic");
  await expect(page.getByRole("heading", { name: "Register Your Clinic" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "docs/screenshots/identity-registration-phone.png", fullPage: true });

  const email = uniqueEmail("phone");
  const res = await request.post("/api/clinics/register", {
    data: { name: "Hillside Vein Center", email, adminFirstName: "Ada", adminLastName: "Lovelace", password: PASSWORD },
  });
  expect(res.status()).toBe(201);
  await signIn(page, { email, password: PASSWORD });
  await page.goto("/staff");
  await page.getByRole("button", { name: "Invite Staff" }).click();
  await page.getByLabel("Email Address").fill(uniqueEmail("invitee"));
  await page.getByLabel("Role").selectOption("admin");
  await page.getByRole("button", { name: "Send Invitation" }).click();
  await expect(page.getByText("Pending Invitations (1)")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/identity-staff-phone.png", fullPage: true });

  // The pending invitation can be cancelled.
  await page.getByRole("button", { name: /^Cancel invitation for/ }).click();
  await expect(page.getByText("Invitation Cancelled", { exact: true })).toBeVisible();
  await expect(page.getByText("Pending Invitations (0)")).toBeVisible();

  // A signed-in user of another clinic is not moved silently by an invitation.
  const invite = await page.request.post("/api/invitations", { data: { email, role: "sonographer" } });
  expect(invite.status()).toBe(409);
  await phoneContext.close();
});

test("the invitation page on a phone and the two-factor dialog", async ({ browser, request }) => {
  const adminEmail = uniqueEmail("tfa");
  await request.post("/api/clinics/register", {
    data: {
      name: "North Clinic",
      email: adminEmail,
      adminFirstName: "Ada",
      adminLastName: "Lovelace",
      password: PASSWORD,
    },
  });
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, { email: adminEmail, password: PASSWORD });
  const created = await admin.request.post("/api/invitations", {
    data: { email: uniqueEmail("x"), role: "sonographer" },
  });
  const { invitationUrl } = (await created.json()) as { invitationUrl: string };

  const phoneContext = await browser.newContext(PHONE);
  const phone = await phoneContext.newPage();
  await phone.goto(invitationUrl);
  await expect(phone.getByRole("heading", { name: "Login Required" })).toBeVisible();
  expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await phone.screenshot({ path: "docs/screenshots/identity-invitation-phone.png", fullPage: true });
  await phoneContext.close();

  // Signed in as the clinic's admin (not the invited address): the invitation view, then a clear refusal.
  await admin.goto(new URL(invitationUrl).pathname);
  await expect(admin.getByRole("heading", { name: "Clinic Invitation" })).toBeVisible();
  await expectAccessible(admin);
  await admin.getByRole("button", { name: "Accept Invitation" }).click();
  await expect(admin.getByText("Failed to Accept Invitation", { exact: true })).toBeVisible();

  // Two-factor set-up from the profile menu.
  await admin.goto("/");
  await admin.getByRole("button", { name: "Account menu" }).click();
  await admin.getByRole("menuitem", { name: /Two-factor sign-in/ }).click();
  await admin.getByRole("button", { name: "Set Up" }).click();
  await expect(admin.getByRole("img", { name: /QR code/ })).toBeVisible();
  await expectAccessible(admin);
  await admin.screenshot({ path: "docs/screenshots/identity-two-factor-desktop.png" });
  await admin.getByLabel("Authentication code").fill("000000");
  await admin.getByRole("button", { name: "Turn On" }).click();
  await expect(admin.getByText("Invalid authentication code")).toBeVisible();
  await adminContext.close();
});

test("Log out signs out with a POST; a GET of /api/logout (what a link on another site sends) does nothing", async ({
  page,
  request,
}) => {
  const account = await registerClinicViaApi(request, "Sign-out Clinic");
  await signIn(page, account);
  expect((await page.request.get("/api/logout")).status()).toBe(404);
  expect((await page.request.get("/api/auth/user")).status()).toBe(200);
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page.getByRole("button", { name: "Start Creating Reports" })).toBeVisible();
  expect((await page.request.get("/api/auth/user")).status()).toBe(401);
});

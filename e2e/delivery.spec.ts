import { expect, test } from "@playwright/test";
import { expectAccessible, registerClinicViaApi, signIn } from "./support/fixtures";
import { seedReports } from "./support/reports";

// Issue 28: an admin sets where signed reports go; a signed report's History shows each delivery and its last error.
test("an admin adds delivery destinations and a signed report shows its deliveries", async ({ page }) => {
  const account = await registerClinicViaApi(page.request, "Riverside Vascular");
  await signIn(page, account);
  await page.goto("/physicians");
  await page.getByRole("tab", { name: "Settings" }).click();
  const card = page.getByRole("form", { name: "Add a destination" });
  await expect(page.getByText("No destinations yet: signed reports stay in Sonoscribe.")).toBeVisible();

  // A scheme other than http(s) is refused in the server's words, on the field.
  await card.getByLabel("Name *").fill("Regional HIE");
  await card.getByLabel("FHIR base address *").fill("file:///etc/passwd");
  await card.getByRole("button", { name: "Add Destination" }).click();
  await expect(card.getByRole("alert")).toHaveText(
    "Enter the FHIR server's base address, starting with https:// or http://",
  );
  await expect(card.getByLabel("FHIR base address *")).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page);

  await card.getByLabel("FHIR base address *").fill("https://fhir.hospital.example/r4");
  await card.getByLabel("Bearer token").fill("a-secret-token");
  await card.getByRole("button", { name: "Add Destination" }).click();
  const list = page.getByRole("list", { name: "Destinations" });
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list).toContainText("https://fhir.hospital.example/r4 (token set)");
  await expect(page.getByText("a-secret-token")).toHaveCount(0);

  // An HL7 listener on this server itself: the server refuses to connect there (loopback is not allowed here).
  await card.getByLabel("Kind").selectOption("mllp");
  await card.getByLabel("Name *").fill("Hospital RIS");
  await card.getByLabel("Host *").fill("127.0.0.1");
  await card.getByLabel("Port *").fill("2575");
  await card.getByRole("button", { name: "Add Destination" }).click();
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await list.getByRole("button", { name: "Turn off Regional HIE" }).click();
  await expect(list.getByRole("listitem").filter({ hasText: "Regional HIE" })).toContainText("Off");
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/delivery-destinations-desktop.png", fullPage: true });
  await page.setViewportSize({ width: 820, height: 1180 });
  await page.screenshot({ path: "docs/screenshots/delivery-destinations-tablet.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/delivery-destinations-phone.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Sign a report (the admin is linked to its physician and re-authenticates), then look at its History.
  const [reportId] = await seedReports(page, ["Margaret O'Neil"]);
  const me = (await (await page.request.get("/api/auth/user")).json()) as { id: string };
  const physicians = (await (await page.request.get("/api/physicians")).json()) as { id: number }[];
  expect((await page.request.patch(`/api/physicians/${physicians[0]!.id}`, { data: { userId: me.id } })).ok()).toBe(
    true,
  );
  expect((await page.request.post("/api/auth/reauth", { data: { password: account.password } })).ok()).toBe(true);
  const signed = await page.request.post(`/api/reports/${reportId}/finalize`, { data: {} });
  expect(signed.status(), await signed.text()).toBe(200);

  await page.goto("/reports");
  await page.getByRole("button", { name: `History of report #${reportId}` }).click();
  const history = page.getByRole("dialog", { name: `Report #${reportId} history` });
  const deliveries = history.getByRole("list", { name: "Deliveries" }).getByRole("listitem");
  // Only the destination that is on receives it.
  await expect(deliveries).toHaveCount(1);
  await expect(deliveries.first()).toContainText("Hospital RIS");
  await expect(deliveries.first()).toContainText("HL7 v2 (MLLP)");
  // The loop tries within seconds; the refusal is shown as the last error while it waits to try again.
  await expect(deliveries.first()).toContainText("is this server itself", { timeout: 30_000 });
  await expect(deliveries.first()).toContainText("Waiting to send");
  // The signed version's PDF/A archive copy is made by a job after the signature (decision 026); History shows it.
  const signedVersion = history
    .getByRole("list", { name: "Versions" })
    .getByRole("listitem")
    .filter({ hasText: "Signed" });
  await expect(signedVersion).toContainText("Archive copy (PDF/A) stored", { timeout: 30_000 });
  const download = signedVersion.getByRole("link", { name: "Download the archive copy" });
  const archived = await page.request.get((await download.getAttribute("href"))!);
  expect(archived.headers()["content-type"]).toContain("application/pdf");
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/report-deliveries-desktop.png" });
});

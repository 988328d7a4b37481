import { eq } from "drizzle-orm";
import sharp from "sharp";
import { auditEvents, users } from "../../db/schema";
import { registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";

/** Owner of the data, a member of another clinic, and a user whose role has no template permissions. */
export async function templateActors(t: TestApp): Promise<{ owner: SignedIn; other: SignedIn; roleless: SignedIn }> {
  const owner = await registerClinic(t.app, "Owner Clinic");
  const other = await registerClinic(t.app, "Other Clinic");
  const roleless = await registerClinic(t.app, "Roleless Clinic");
  // A role outside the permission table (e.g. a future read-only role) must be refused by every service.
  await t.deps.database.db.update(users).set({ role: "viewer" }).where(eq(users.id, roleless.userId));
  return { owner, other, roleless };
}

export const blankPng = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: { r: 255, g: 255, b: 255, alpha: 1 } } })
    .png()
    .toBuffer();

export const pngDataUrl = async (width = 400, height = 300) =>
  `data:image/png;base64,${(await blankPng(width, height)).toString("base64")}`;

export async function auditActionsOf(t: TestApp, clinicId: number): Promise<string[]> {
  const rows = await t.deps.database.db
    .select({ action: auditEvents.action })
    .from(auditEvents)
    .where(eq(auditEvents.clinicId, clinicId));
  return rows.map((r) => r.action);
}

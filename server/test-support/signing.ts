import { eq } from "drizzle-orm";
import type { CriticalResult } from "../../domain/report-engine/critical-results";
import { criticalCommunications, physicians, reports, users } from "../db/schema";
import { hashPassword } from "../platform/passwords";
import { as, type SignedIn, signIn, type TestApp } from "./test-app";

// Signing needs the report physician's linked account and a fresh re-authentication (issue 26);
// these helpers set that up for tests that are about something else.

/** Makes the user the account that signs as this physician (a user signs as one physician at most). */
export async function linkPhysician(t: TestApp, user: { userId: string }, physicianId: number): Promise<void> {
  const db = t.deps.database.db;
  await db.update(physicians).set({ userId: null }).where(eq(physicians.userId, user.userId));
  await db.update(physicians).set({ userId: user.userId }).where(eq(physicians.id, physicianId));
}

/** POST /api/auth/reauth with the user's password; throws unless it succeeds. */
export async function reauth(t: TestApp, user: SignedIn): Promise<void> {
  const res = await as(t.app, user)({ method: "POST", url: "/api/auth/reauth", payload: { password: user.password } });
  if (res.statusCode !== 200) throw new Error(`reauth failed: ${res.statusCode} ${res.body}`);
}

/**
 * Links the report's physician to the user, records the communication of its critical results (issue 26:
 * the test fixtures' right ICA of 250 cm/s is one) and re-authenticates: the user may then sign it.
 */
export async function readyToSign(t: TestApp, user: SignedIn, reportId: number): Promise<void> {
  const [row] = await t.deps.database.db
    .select({ physicianId: reports.physicianId })
    .from(reports)
    .where(eq(reports.id, reportId));
  if (!row?.physicianId) throw new Error(`report ${reportId} has no physician`);
  await linkPhysician(t, user, row.physicianId);
  await communicateCritical(t, user, reportId);
  await reauth(t, user);
}

/**
 * Stores a communication record covering every critical result the report has (as the route would), for
 * tests about something else; server/features/reports/critical-results.test.ts tests the route itself.
 */
export async function communicateCritical(t: TestApp, user: { userId: string }, reportId: number): Promise<void> {
  const db = t.deps.database.db;
  const [row] = await db
    .select({ clinicId: reports.clinicId, results: reports.criticalResults, amendments: reports.amendmentCount })
    .from(reports)
    .where(eq(reports.id, reportId));
  const results = (row?.results ?? []) as CriticalResult[];
  if (!row || results.length === 0) return;
  await db.insert(criticalCommunications).values({
    clinicId: row.clinicId,
    reportId,
    resultKeys: results.map((r) => r.key),
    results,
    recipient: "Dr Referrer",
    method: "phone",
    communicatedAt: new Date(),
    readBack: true,
    recordedBy: user.userId,
    amendmentNumber: row.amendments,
  });
}

/** A member of the clinic with the physician role, signed in, optionally linked to a physician. */
export async function addPhysicianUser(
  t: TestApp,
  clinicId: number,
  physicianId?: number,
  name: { firstName: string; lastName: string } = { firstName: "Grace", lastName: "Hopper" },
): Promise<SignedIn> {
  const signedIn = await addClinicMember(t, clinicId, "physician", name);
  if (physicianId !== undefined) await linkPhysician(t, signedIn, physicianId);
  return signedIn;
}

/** Another member of the clinic with the given role, inserted directly and signed in. */
export async function addClinicMember(
  t: TestApp,
  clinicId: number,
  role: "physician" | "sonographer",
  name: { firstName: string; lastName: string },
): Promise<SignedIn> {
  const email = `${role}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@clinic.test`;
  const password = "correct horse battery";
  const userId = crypto.randomUUID();
  await t.deps.database.db.insert(users).values({
    id: userId,
    email,
    passwordHash: await hashPassword(password),
    ...name,
    clinicId,
    role,
  });
  return { ...(await signIn(t.app, email, password)), clinicId, userId };
}

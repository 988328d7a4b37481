import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lt } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { type SessionData, sessions } from "../db/schema";

export const SESSION_COOKIE = "sid";

export type SessionPolicy = { idleMinutes: number; maxHours: number };

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** Ends at the idle limit, and never later than the absolute limit from sign-in. */
function expiryFor(createdAt: number, policy: SessionPolicy, now = Date.now()): Date {
  return new Date(Math.min(now + policy.idleMinutes * 60_000, createdAt + policy.maxHours * 3_600_000));
}

/** A new random id at every sign-in (no fixation): the cookie holds the token, the table its hash. */
export async function createSession(
  db: Queryable,
  data: Omit<SessionData, "createdAt">,
  policy: SessionPolicy,
): Promise<{ token: string; expire: Date }> {
  const token = randomBytes(32).toString("base64url");
  const createdAt = Date.now();
  const expire = expiryFor(createdAt, policy);
  await db
    .insert(sessions)
    .values({ sid: hashToken(token), sess: { ...data, createdAt }, userId: data.userId, expire });
  return { token, expire };
}

export async function readSession(db: Queryable, token: string): Promise<{ data: SessionData; expire: Date } | null> {
  const [row] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.sid, hashToken(token)), gt(sessions.expire, new Date())));
  return row ? { data: row.sess, expire: row.expire } : null;
}

/** Slides the idle window; writes at most once a minute per session. */
export async function touchSession(
  db: Queryable,
  token: string,
  session: { data: SessionData; expire: Date },
  policy: SessionPolicy,
): Promise<Date> {
  const next = expiryFor(session.data.createdAt, policy);
  if (next.getTime() - session.expire.getTime() < 60_000) return session.expire;
  await db
    .update(sessions)
    .set({ expire: next })
    .where(eq(sessions.sid, hashToken(token)));
  return next;
}

export async function updateSessionData(db: Queryable, token: string, data: SessionData): Promise<void> {
  await db
    .update(sessions)
    .set({ sess: data, userId: data.userId })
    .where(eq(sessions.sid, hashToken(token)));
}

export async function destroySession(db: Queryable, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.sid, hashToken(token)));
}

export async function destroyUserSessions(db: Queryable, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

export async function purgeExpiredSessions(db: Queryable): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expire, new Date()));
}

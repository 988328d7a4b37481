import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lte, sql } from "drizzle-orm";
import type { Db, Queryable } from "../db/client";
import { clinics, reportCounters, type SessionData, sessions, users } from "../db/schema";
import type { SessionUser } from "./context";
import type { Clock } from "./deps";

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

/** What one request needs to know about its session, read in one round trip. */
export type SessionAuth = {
  session: { data: SessionData; expire: Date };
  /** Null when the user no longer exists. */
  user: (Omit<SessionUser, "clinicName"> & { isActive: boolean }) | null;
  clinicName: string | null;
  /** The clinic's locale (its report spelling, en-US or en-GB): how the client writes dates. */
  clinicLocale: string | null;
  /** report_counters.version of the user's clinic: what a remembered report list is checked against. */
  reportsVersion: number;
};

function prepareSessionAuth(db: Db) {
  return db
    .select({
      sess: sessions.sess,
      expire: sessions.expire,
      userId: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      role: users.role,
      clinicId: users.clinicId,
      isActive: users.isActive,
      totpEnabled: users.totpEnabled,
      isPlatformAdmin: users.isPlatformAdmin,
      clinicName: clinics.name,
      clinicLocale: clinics.reportSpelling,
      reportsVersion: reportCounters.version,
    })
    .from(sessions)
    .leftJoin(users, eq(users.id, sessions.userId))
    .leftJoin(clinics, eq(clinics.id, users.clinicId))
    .leftJoin(reportCounters, eq(reportCounters.clinicId, users.clinicId))
    .where(and(eq(sessions.sid, sql.placeholder("sid")), gt(sessions.expire, sql.placeholder("now"))))
    .prepare("session_auth");
}

// Built once per database: the query text is fixed, and PostgreSQL keeps it as a named prepared statement.
const sessionAuthQueries = new WeakMap<Db, ReturnType<typeof prepareSessionAuth>>();

function sessionAuthQuery(db: Db) {
  let query = sessionAuthQueries.get(db);
  if (!query) {
    query = prepareSessionAuth(db);
    sessionAuthQueries.set(db, query);
  }
  return query;
}

/** The text of the session query, which only reads. */
export const sessionAuthSql = (db: Db): string => sessionAuthQuery(db).getQuery().sql;

/**
 * The session, its user, the clinic's name and the clinic's report-list version in one query: every request
 * runs this, so it is one round trip instead of three.
 */
export async function readSessionAuth(db: Db, token: string): Promise<SessionAuth | null> {
  const [row] = await sessionAuthQuery(db).execute({ sid: hashToken(token), now: new Date() });
  if (!row) return null;
  return {
    session: { data: row.sess, expire: row.expire },
    user:
      row.userId === null
        ? null
        : {
            id: row.userId,
            email: row.email!,
            firstName: row.firstName,
            lastName: row.lastName,
            role: row.role!,
            clinicId: row.clinicId,
            isActive: row.isActive!,
            totpEnabled: row.totpEnabled!,
            isPlatformAdmin: row.isPlatformAdmin!,
          },
    clinicName: row.clinicName,
    clinicLocale: row.clinicLocale,
    reportsVersion: Number(row.reportsVersion ?? 0),
  };
}

/**
 * How far the idle window must have moved before it is written again: a tenth of the window, at most a
 * minute. A fixed minute would end every session under SESSION_IDLE_MINUTES=1 while it is in use.
 */
export function slideThresholdMs(policy: SessionPolicy): number {
  return Math.min(60_000, (policy.idleMinutes * 60_000) / 10);
}

/** Slides the idle window; writes at most once per slideThresholdMs per session. */
export async function touchSession(
  db: Queryable,
  token: string,
  session: { data: SessionData; expire: Date },
  policy: SessionPolicy,
): Promise<Date> {
  const next = expiryFor(session.data.createdAt, policy);
  if (next.getTime() - session.expire.getTime() < slideThresholdMs(policy)) return session.expire;
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

/**
 * Deletes sessions past their expiry (a queued job, hourly); returns how many went. A session is valid while its
 * expiry is later than now (readSession), so one expiring exactly now is gone too.
 */
export async function purgeExpiredSessions(db: Queryable, now: Clock = Date.now): Promise<number> {
  const gone = await db
    .delete(sessions)
    .where(lte(sessions.expire, new Date(now())))
    .returning({ sid: sessions.sid });
  return gone.length;
}

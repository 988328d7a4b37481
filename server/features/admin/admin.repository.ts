import { and, count, countDistinct, desc, eq, gte, like, lt, max, sql, sum } from "drizzle-orm";
import { type Queryable, queryRows } from "../../db/client";
import { clinics, reports, storageSnapshots, storedFiles, users } from "../../db/schema";

const daysAgo = (days: number, now: Date) => new Date(now.getTime() - days * 86_400_000);

/** Bytes of the given tables including their indexes and TOAST (works on PostgreSQL and PGlite). */
export async function relationBytes(db: Queryable, tables: string[]): Promise<number> {
  const list = sql.join(
    tables.map((t) => sql`pg_total_relation_size(${t}::regclass)`),
    sql` + `,
  );
  const rows = await queryRows<{ bytes: string }>(db, sql`select (${list})::bigint as bytes`);
  return Number(rows[0]?.bytes ?? 0);
}

export async function fileBytesByKind(db: Queryable): Promise<{ worksheet: number; other: number }> {
  const rows = await db
    .select({ worksheet: sql<boolean>`${storedFiles.kind} like 'worksheet%'`, bytes: sum(storedFiles.byteSize) })
    .from(storedFiles)
    .groupBy(sql`1`);
  const pick = (flag: boolean) => Number(rows.find((r) => Boolean(r.worksheet) === flag)?.bytes ?? 0);
  return { worksheet: pick(true), other: pick(false) };
}

export async function activeUserCount(db: Queryable, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.isActive, true), gte(users.lastSeenAt, daysAgo(30, now))));
  return row?.n ?? 0;
}

export async function reportCounts(db: Queryable, now: Date) {
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const [row] = await db
    .select({
      total: count(),
      thisMonth: sql<number>`count(*) filter (where ${reports.generatedAt} >= ${monthStart})`.mapWith(Number),
      last30Days: sql<number>`count(*) filter (where ${reports.generatedAt} >= ${daysAgo(30, now)})`.mapWith(Number),
    })
    .from(reports);
  return { total: row?.total ?? 0, thisMonth: row?.thisMonth ?? 0, last30Days: row?.last30Days ?? 0 };
}

export function recentFiles(db: Queryable, limit: number) {
  return db
    .select({ storageKey: storedFiles.storageKey, byteSize: storedFiles.byteSize })
    .from(storedFiles)
    .orderBy(desc(storedFiles.id))
    .limit(limit);
}

export async function oldWorksheetFiles(db: Queryable, olderThan: Date) {
  const [row] = await db
    .select({ n: count(), bytes: sum(storedFiles.byteSize) })
    .from(storedFiles)
    .where(and(like(storedFiles.kind, "worksheet%"), lt(storedFiles.createdAt, olderThan)));
  return { count: row?.n ?? 0, bytes: Number(row?.bytes ?? 0) };
}

export async function upsertSnapshot(db: Queryable, day: string, databaseBytes: number, fileBytes: number) {
  await db
    .insert(storageSnapshots)
    .values({ day, databaseBytes, fileBytes })
    .onConflictDoUpdate({ target: storageSnapshots.day, set: { databaseBytes, fileBytes, takenAt: new Date() } });
}

export function snapshotsSince(db: Queryable, day: string) {
  return db.select().from(storageSnapshots).where(gte(storageSnapshots.day, day)).orderBy(storageSnapshots.day);
}

export async function clinicActivity(db: Queryable, now: Date) {
  const since = daysAgo(30, now);
  const reportStats = db
    .select({
      clinicId: reports.clinicId,
      recent: sql<number>`count(*) filter (where ${reports.generatedAt} >= ${since})`.as("recent"),
      lastReport: max(reports.generatedAt).as("last_report"),
    })
    .from(reports)
    .groupBy(reports.clinicId)
    .as("report_stats");
  const userStats = db
    .select({
      clinicId: users.clinicId,
      active: countDistinct(users.id).as("active"),
      lastSeen: max(users.lastSeenAt).as("last_seen"),
    })
    .from(users)
    .where(and(eq(users.isActive, true), gte(users.lastSeenAt, since)))
    .groupBy(users.clinicId)
    .as("user_stats");
  return db
    .select({
      id: clinics.id,
      name: clinics.name,
      city: clinics.city,
      state: clinics.state,
      isActive: clinics.isActive,
      recent: reportStats.recent,
      lastReport: reportStats.lastReport,
      active: userStats.active,
      lastSeen: userStats.lastSeen,
    })
    .from(clinics)
    .leftJoin(reportStats, eq(reportStats.clinicId, clinics.id))
    .leftJoin(userStats, eq(userStats.clinicId, clinics.id))
    .orderBy(clinics.name);
}

import type { AppDeps } from "../../platform/deps";
import { fileBytesByKind, snapshotsSince, upsertSnapshot } from "./admin.repository";

const DAY_MS = 86_400_000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Records today's database and file sizes (one row per day; a later call the same day updates it): a queued job,
 * at a worker's start and daily (server/jobs/queues.ts).
 */
export async function takeStorageSnapshot(deps: Pick<AppDeps, "database">, now = new Date()): Promise<void> {
  const { db } = deps.database;
  const files = await fileBytesByKind(db);
  await upsertSnapshot(db, isoDay(now), await deps.database.sizeBytes(), files.worksheet + files.other);
}

/** Growth per 30 days from the snapshots of the last month, scaled from the span they cover. */
export async function monthlyGrowth(deps: Pick<AppDeps, "database">, now = new Date()) {
  const rows = await snapshotsSince(deps.database.db, isoDay(new Date(now.getTime() - 31 * DAY_MS)));
  const first = rows[0];
  const last = rows.at(-1);
  if (!first || !last) return { percent: 0, basisDays: 0 };
  const basisDays = Math.round((Date.parse(last.day) - Date.parse(first.day)) / DAY_MS);
  const firstTotal = first.databaseBytes + first.fileBytes;
  if (basisDays < 1 || firstTotal === 0) return { percent: 0, basisDays };
  const lastTotal = last.databaseBytes + last.fileBytes;
  return { percent: ((lastTotal - firstTotal) / firstTotal) * 100 * (30 / basisDays), basisDays };
}

import { createHmac, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { type ChainHead, stableStringify } from "./audit";

/**
 * Signed daily checkpoints of the audit chain (issue 25 item 6): each day the verified head (id, hash, count) is
 * written to its own file, signed with the audit key, in a directory apart from the database
 * (DATA_DIR/secrets/audit-checkpoints, or AUDIT_CHECKPOINT_DIR, e.g. a write-once mount). Files are never
 * rewritten, so the history survives a head anchor that is rolled back or deleted: `npm run audit:verify`
 * checks the chain against every one of them.
 */
export type Checkpoint = ChainHead & { day: string; takenAt: string };

export const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const defaultCheckpointDir = (dataDir: string) => path.join(dataDir, "secrets", "audit-checkpoints");

const sign = (key: Buffer, checkpoint: Checkpoint) =>
  createHmac("sha256", key).update(stableStringify(checkpoint)).digest("hex");

export class CheckpointFileError extends Error {}

/**
 * Writes the day's checkpoint unless that day already has one; the path written, or null. The file is created
 * exclusively ("wx"): a second instance on the same day cannot overwrite the first.
 */
export function writeCheckpoint(dir: string, key: Buffer, head: ChainHead, now: number): string | null {
  const checkpoint: Checkpoint = { ...head, day: isoDay(now), takenAt: new Date(now).toISOString() };
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${checkpoint.day}.json`);
  try {
    fs.writeFileSync(file, `${JSON.stringify({ ...checkpoint, mac: sign(key, checkpoint) }, null, 2)}\n`, {
      mode: 0o400,
      flag: "wx",
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return null;
    throw error;
  }
  return file;
}

/** Every checkpoint, oldest first; a file whose signature does not match the key is an error naming it. */
export function readCheckpoints(dir: string, key: Buffer): Checkpoint[] {
  if (!fs.existsSync(dir)) return [];
  const names = fs
    .readdirSync(dir)
    .filter((name) => /^\d{4}-\d{2}-\d{2}\.json$/.test(name))
    .sort();
  return names.map((name) => {
    const file = path.join(dir, name);
    let parsed: Checkpoint & { mac?: string };
    try {
      parsed = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch {
      throw new CheckpointFileError(`${file} is not a checkpoint (unreadable JSON)`);
    }
    const checkpoint: Checkpoint = {
      keyedFromId: Number(parsed.keyedFromId),
      headId: Number(parsed.headId),
      headHash: String(parsed.headHash),
      count: Number(parsed.count),
      day: String(parsed.day),
      takenAt: String(parsed.takenAt),
    };
    const mac = Buffer.from(String(parsed.mac ?? ""), "hex");
    const expected = Buffer.from(sign(key, checkpoint), "hex");
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected) || `${checkpoint.day}.json` !== name) {
      throw new CheckpointFileError(`${file} was changed by hand (its signature does not match the audit key)`);
    }
    return checkpoint;
  });
}

/**
 * The first checkpoint the database no longer matches, with what differs: its head event gone or rewritten,
 * or a different number of events up to it (removed or inserted). Null when every checkpoint matches.
 */
export async function compareWithCheckpoints(db: Queryable, checkpoints: Checkpoint[]): Promise<string | null> {
  for (const checkpoint of checkpoints) {
    if (checkpoint.count === 0) continue;
    const result = await db.execute(sql`
      select hash, (select count(*)::int from audit_events a where a.id <= ${checkpoint.headId}) as up_to
      from audit_events where id = ${checkpoint.headId}`);
    const [row] = (result as unknown as { rows: Array<{ hash: string; up_to: number }> }).rows;
    const where = `the checkpoint of ${checkpoint.day} recorded ${checkpoint.count} events up to event ${checkpoint.headId}`;
    if (!row) return `${where}, and that event is gone: events before the checkpoint were removed`;
    if (row.hash !== checkpoint.headHash) return `${where}, and that event was rewritten (its hash differs)`;
    if (Number(row.up_to) !== checkpoint.count) {
      return `${where}, the database holds ${row.up_to} up to it: events before the checkpoint were removed or inserted`;
    }
  }
  return null;
}

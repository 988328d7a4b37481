import { createHash, createHmac } from "node:crypto";
import { asc, gt, sql } from "drizzle-orm";
import type { AuditAction } from "../../domain/audit-events";
import { type Db, type Queryable, queryRows } from "../db/client";
import { auditEvents } from "../db/schema";

export type AuditEntry = {
  action: AuditAction;
  clinicId?: number | null;
  actorUserId?: string | null;
  entityType?: string;
  entityId?: string | number;
  details?: Record<string, unknown>;
  ip?: string;
  requestId?: string;
};

export const GENESIS = "0".repeat(64);

/**
 * The chain's key (HMAC-SHA256), kept apart from the database (DATA_DIR/secrets/audit-key or AUDIT_KEY): someone
 * who can rewrite rows cannot compute the hashes that would make a rewrite verify. One per process.
 */
let chainKey: Buffer | null = null;
const recordedListeners = new Set<() => void>();

export function setAuditKey(key: Buffer): void {
  chainKey = key;
}

function currentKey(): Buffer {
  if (!chainKey)
    throw new Error("The audit key is not loaded (setAuditKey) before writing or checking the audit chain");
  return chainKey;
}

/** Told after each event is written (still inside its transaction): the head anchor advances soon after. */
export function onAuditRecorded(listener: () => void): () => void {
  recordedListeners.add(listener);
  return () => recordedListeners.delete(listener);
}

/** The stored timestamp exactly, to the microsecond, as PostgreSQL prints it in UTC. */
const exactCreatedAt = sql<string>`to_char(${auditEvents.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const microsecondText = (date: Date) => date.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");

/**
 * The chain's head as this process last wrote or saw it: the guess that lets one statement append (decision 027).
 * A wrong guess (another process appended, a transaction rolled back, another database in tests) costs one
 * statement more, never a wrong link: the database checks it under the chain's lock.
 */
let guessedHead: string | null = null;

/**
 * Appends one event. Call it inside the transaction of the change it records, so that both
 * commit or neither does. Details must never hold patient names or dates of birth.
 *
 * One statement when the guessed head is right: `audit_append` (migration 0028) takes the chain's lock, reads the
 * head after it and inserts only when the hash was computed on that head; otherwise it answers the head and the
 * hash is computed again on it. Inside a transaction the lock is then held, so the second call inserts.
 */
export async function recordAudit(tx: Queryable, entry: AuditEntry): Promise<void> {
  const fields = chainedFieldsOf(entry);
  for (let attempt = 0; attempt < APPEND_ATTEMPTS; attempt++) {
    if (await appendOn(tx, fields)) return;
  }
  throw new Error(
    `The audit chain's head moved on each of ${APPEND_ATTEMPTS} attempts to append (not in a transaction?)`,
  );
}

/** Inside a transaction the second attempt inserts; outside one, other writers may move the head in between. */
const APPEND_ATTEMPTS = 10;

/**
 * An event that records no other change (a view, an export): one statement, its own transaction, when the
 * guessed head is right; otherwise appended in a transaction as recordAudit does.
 */
export async function recordAuditAlone(db: Db, entry: AuditEntry): Promise<void> {
  if (await appendOn(db, chainedFieldsOf(entry))) return;
  await db.transaction((tx) => recordAudit(tx, entry));
}

type EventFields = Omit<ChainedFields, "createdAt" | "prevHash">;

function chainedFieldsOf(entry: AuditEntry): EventFields {
  return {
    clinicId: entry.clinicId ?? null,
    actorUserId: entry.actorUserId ?? null,
    action: entry.action,
    entityType: entry.entityType ?? null,
    entityId: entry.entityId === undefined ? null : String(entry.entityId),
    details: entry.details ?? {},
    ip: entry.ip ?? null,
    requestId: entry.requestId ?? null,
  };
}

/** One call of `audit_append` on the guessed head: true when it inserted, else the guess is now the head. */
async function appendOn(q: Queryable, fields: EventFields): Promise<boolean> {
  const prevHash = guessedHead ?? GENESIS;
  const createdAt = microsecondText(new Date());
  const hash = keyedHash(currentKey(), { ...fields, createdAt, prevHash });
  const [answer] = await queryRows<{ head: string | null }>(
    q,
    sql`select audit_append(${prevHash}::text, ${fields.clinicId}::integer, ${fields.actorUserId}::text,
      ${fields.action}::text, ${fields.entityType}::text, ${fields.entityId}::text,
      ${JSON.stringify(fields.details)}::text, ${fields.ip}::text, ${fields.requestId}::text, ${createdAt}::text,
      ${hash}::text) as head`,
  );
  if (!answer) throw new Error("audit_append answered no row");
  if (answer.head !== null) {
    guessedHead = answer.head;
    return false;
  }
  guessedHead = hash;
  for (const listener of recordedListeners) listener();
  return true;
}

type ChainedFields = {
  clinicId: number | null;
  actorUserId: string | null;
  action: string;
  entityType: string | null;
  entityId: string | null;
  details: unknown;
  ip: string | null;
  requestId: string | null;
  /** Exact text of the stored timestamp (microseconds, UTC). */
  createdAt: string;
  prevHash: string;
};

const content = (e: ChainedFields) =>
  stableStringify([
    e.prevHash,
    e.clinicId,
    e.actorUserId,
    e.action,
    e.entityType,
    e.entityId,
    e.details,
    e.ip,
    e.requestId,
    e.createdAt,
  ]);

/** The hash of events written since the chain was keyed. */
export function keyedHash(key: Buffer, e: ChainedFields): string {
  return createHmac("sha256", key).update(content(e)).digest("hex");
}

/** Events written before the chain was keyed (ids below the anchor's keyedFromId): plain SHA-256, ISO milliseconds. */
function legacyHash(e: ChainedFields & { createdAtDate: Date }): string {
  return createHash("sha256")
    .update(content({ ...e, createdAt: e.createdAtDate.toISOString() }))
    .digest("hex");
}

/**
 * Where keyed hashes begin in a chain that has no anchor yet: the first event whose plain SHA-256 does not
 * match (events from before this version keep theirs). Decided once, when the anchor is first written.
 */
export async function findKeyedFromId(db: Queryable): Promise<number> {
  const rows = await db.select({ row: auditEvents, exactCreatedAt }).from(auditEvents).orderBy(asc(auditEvents.id));
  for (const { row, exactCreatedAt: exact } of rows) {
    if (legacyHash({ ...row, createdAt: exact, createdAtDate: row.createdAt }) !== row.hash) return row.id;
  }
  return (rows.at(-1)?.row.id ?? 0) + 1;
}

/** JSON with sorted keys: jsonb does not keep key order, the hash must not depend on it. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  if (value && typeof value === "object" && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Where the chain stood when last anchored (see audit-anchor.ts): outside the database. */
export type ChainHead = { keyedFromId: number; headId: number; headHash: string; count: number };

export type ChainCheck =
  | { ok: true; count: number; headId: number | null; headHash: string }
  | { ok: false; count: number; brokenAtId: number | null; reason: string };

type WalkOptions = { key?: Buffer; keyedFromId?: number; afterId?: number; afterHash?: string };

/**
 * Walks the chain in id order from the start (or from a known head, `afterId`/`afterHash`); names the first row
 * that was changed, or that follows a removed row.
 */
export async function walkAuditChain(db: Queryable, options: WalkOptions = {}): Promise<ChainCheck> {
  const key = options.key ?? currentKey();
  const keyedFromId = options.keyedFromId ?? 0;
  const rows = await db
    .select({ row: auditEvents, exactCreatedAt })
    .from(auditEvents)
    .where(gt(auditEvents.id, options.afterId ?? 0))
    .orderBy(asc(auditEvents.id));
  let prev = options.afterHash ?? GENESIS;
  let count = 0;
  let headId: number | null = null;
  for (const { row, exactCreatedAt: exact } of rows) {
    if (row.prevHash !== prev) {
      return { ok: false, count, brokenAtId: row.id, reason: "the row before it was changed or removed" };
    }
    const fields = { ...row, createdAt: exact };
    const expected =
      row.id >= keyedFromId ? keyedHash(key, fields) : legacyHash({ ...fields, createdAtDate: row.createdAt });
    if (expected !== row.hash) return { ok: false, count, brokenAtId: row.id, reason: "its content was changed" };
    prev = row.hash;
    headId = row.id;
    count++;
  }
  return { ok: true, count, headId, headHash: prev };
}

/**
 * The whole chain, and when a head anchor is given, that the anchored head is still there with as many events
 * up to it: removing the newest events (or all of them) is reported as a truncated tail.
 */
export async function verifyAuditChain(
  db: Queryable,
  anchor: ChainHead | null = null,
  key?: Buffer,
): Promise<ChainCheck> {
  const walked = await walkAuditChain(db, { key, keyedFromId: anchor?.keyedFromId });
  if (!walked.ok || !anchor || anchor.count === 0) return walked;
  const [found] = await db
    .select({
      hash: auditEvents.hash,
      upTo: sql<number>`(select count(*)::int from ${auditEvents} a where a.id <= ${anchor.headId})`,
    })
    .from(auditEvents)
    .where(sql`${auditEvents.id} = ${anchor.headId}`);
  if (!found || found.hash !== anchor.headHash || Number(found.upTo) !== anchor.count) {
    return {
      ok: false,
      count: walked.count,
      brokenAtId: walked.headId,
      reason: `the tail was cut: the anchor recorded ${anchor.count} events up to event ${anchor.headId}, the database holds ${walked.count}${walked.headId === null ? "" : ` ending at event ${walked.headId}`}`,
    };
  }
  return walked;
}

import { createHash } from "node:crypto";
import { asc, desc, sql } from "drizzle-orm";
import type { AuditAction } from "../../domain/audit-events";
import type { Queryable } from "../db/client";
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

const GENESIS = "0".repeat(64);
/** Arbitrary constant: serialises writers of the chain across connections and instances. */
const CHAIN_LOCK = 730_117;

/**
 * Appends one event. Call it inside the transaction of the change it records, so that both
 * commit or neither does. Details must never hold patient names or dates of birth.
 */
export async function recordAudit(tx: Queryable, entry: AuditEntry): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${CHAIN_LOCK})`);
  const [last] = await tx.select({ hash: auditEvents.hash }).from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
  const row = {
    clinicId: entry.clinicId ?? null,
    actorUserId: entry.actorUserId ?? null,
    action: entry.action,
    entityType: entry.entityType ?? null,
    entityId: entry.entityId === undefined ? null : String(entry.entityId),
    details: entry.details ?? {},
    ip: entry.ip ?? null,
    requestId: entry.requestId ?? null,
    createdAt: new Date(),
    prevHash: last?.hash ?? GENESIS,
  };
  await tx.insert(auditEvents).values({ ...row, hash: hashEvent(row) });
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
  createdAt: Date;
  prevHash: string;
};

export function hashEvent(e: ChainedFields): string {
  const content = stableStringify([
    e.prevHash,
    e.clinicId,
    e.actorUserId,
    e.action,
    e.entityType,
    e.entityId,
    e.details,
    e.ip,
    e.requestId,
    e.createdAt.toISOString(),
  ]);
  return createHash("sha256").update(content).digest("hex");
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

export type ChainCheck = { ok: true; count: number } | { ok: false; count: number; brokenAtId: number; reason: string };

/** Walks the chain in id order; names the first row that was changed, or that follows a removed row. */
export async function verifyAuditChain(db: Queryable): Promise<ChainCheck> {
  const rows = await db.select().from(auditEvents).orderBy(asc(auditEvents.id));
  let prev = GENESIS;
  let count = 0;
  for (const row of rows) {
    if (row.prevHash !== prev) {
      return { ok: false, count, brokenAtId: row.id, reason: "the row before it was changed or removed" };
    }
    if (hashEvent(row) !== row.hash) return { ok: false, count, brokenAtId: row.id, reason: "its content was changed" };
    prev = row.hash;
    count++;
  }
  return { ok: true, count };
}

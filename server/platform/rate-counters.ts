import { createHash } from "node:crypto";
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import { and, gt, inArray, lte, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { rateCounters } from "../db/schema";
import type { Clock } from "./deps";

export type Count = { count: number; expiresAt: number };

/** Keys are stored hashed: the table holds no addresses and none of what was typed as an e-mail. */
const stored = (key: string) => createHash("sha256").update(key).digest("hex");

/**
 * Counts that expire, in the database every web process shares (issue 27): the rate limits' windows and the
 * failed sign-ins. Each hit is one atomic upsert, so processes counting the same key at once never lose a count.
 */
export class RateCounters {
  constructor(
    private readonly db: Queryable,
    readonly clock: Clock,
  ) {}

  /**
   * Adds one to the key's live count, or starts it at one (absent or expired) to expire `ttlMs` from now. A fixed
   * window keeps its end while it lives; `slide` moves the end to `ttlMs` from now on every hit.
   */
  async hit(key: string, ttlMs: number, slide: boolean): Promise<Count> {
    const now = this.clock();
    const at = sql`${new Date(now).toISOString()}::timestamptz`;
    const end = new Date(now + ttlMs);
    const expired = sql`${rateCounters.expiresAt} <= ${at}`;
    const [row] = await this.db
      .insert(rateCounters)
      .values({ key: stored(key), count: 1, expiresAt: end })
      .onConflictDoUpdate({
        target: rateCounters.key,
        set: {
          count: sql`case when ${expired} then 1 else ${rateCounters.count} + 1 end`,
          expiresAt: slide
            ? end
            : sql`case when ${expired} then excluded.expires_at else ${rateCounters.expiresAt} end`,
        },
      })
      .returning({ count: rateCounters.count, expiresAt: rateCounters.expiresAt });
    return { count: row!.count, expiresAt: row!.expiresAt.getTime() };
  }

  /** The live counts of these keys (a key absent or expired is not in the answer). */
  async read(keys: string[]): Promise<Map<string, Count>> {
    const byStored = new Map(keys.map((key) => [stored(key), key]));
    const rows = await this.db
      .select()
      .from(rateCounters)
      .where(and(inArray(rateCounters.key, [...byStored.keys()]), gt(rateCounters.expiresAt, new Date(this.clock()))));
    return new Map(
      rows.map((row) => [byStored.get(row.key)!, { count: row.count, expiresAt: row.expiresAt.getTime() }]),
    );
  }

  async forget(key: string): Promise<void> {
    await this.db.delete(rateCounters).where(inArray(rateCounters.key, [stored(key)]));
  }

  /** Deletes expired counts (with the hourly session purge); answers how many went. */
  async purgeExpired(): Promise<number> {
    const gone = await this.db
      .delete(rateCounters)
      .where(lte(rateCounters.expiresAt, new Date(this.clock())))
      .returning({ key: rateCounters.key });
    return gone.length;
  }
}

/**
 * The rate-limit plugin's store on RateCounters: each route counts apart (as the plugin's own per-process store
 * does), fixed windows. The plugin's continueExceeding and exponentialBackoff options are not supported.
 */
export function rateLimitStore(counters: RateCounters): FastifyRateLimitStoreCtor {
  class DatabaseStore implements FastifyRateLimitStore {
    private readonly scope: string;

    constructor(options: { routeInfo?: { method?: unknown; url?: unknown } }) {
      const route = options.routeInfo;
      this.scope = route?.url ? `${String(route.method)} ${String(route.url)}` : "*";
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      window: number,
    ) {
      counters.hit(`rate|${this.scope}|${key}`, window, false).then(
        (count) => callback(null, { current: count.count, ttl: Math.max(0, count.expiresAt - counters.clock()) }),
        (error: Error) => callback(error),
      );
    }

    read(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void) {
      const name = `rate|${this.scope}|${key}`;
      counters.read([name]).then(
        (counts) => {
          const count = counts.get(name);
          callback(
            null,
            count ? { current: count.count, ttl: count.expiresAt - counters.clock() } : { current: 0, ttl: 0 },
          );
        },
        (error: Error) => callback(error),
      );
    }

    child(routeOptions: object): FastifyRateLimitStore {
      return new DatabaseStore(routeOptions as { routeInfo?: { method?: unknown; url?: unknown } });
    }
  }
  return DatabaseStore as unknown as FastifyRateLimitStoreCtor;
}

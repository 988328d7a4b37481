import pg from "pg";
import type { ChangeCounter } from "./local-changes";

/** Sent by the triggers of migration 0006 when a table a session read depends on changes. */
export const SESSION_AUTH_CHANNEL = "sonoscribe_session_auth";

const RELISTEN_MS = 1_000;

type Query = (config: unknown, ...rest: unknown[]) => Promise<unknown>;

/**
 * PostgreSQL: a count that rises with every statement this process runs that may change the database (before
 * it is sent and again when it has finished, because other connections read meanwhile) and with every notice
 * that another process changed a session, user, clinic or report-list version (migration 0006). The notice
 * arrives a few milliseconds after the other process commits; this process's own writes are counted at once.
 * While the listening connection is down nothing can be vouched for, and the value is null.
 */
export class PostgresChanges implements ChangeCounter {
  private count = 0;
  private listener: pg.Client | null = null;
  private listening = false;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private readonly readOnly = new Set<string>();

  constructor(private readonly url: string) {}

  get value(): number | null {
    return this.listening ? this.count : null;
  }

  /** Only for a plain SELECT of the app's own that calls no function with side effects. */
  markReadOnly(sqlText: string): void {
    this.readOnly.add(sqlText);
  }

  /** Connects the listener; when that fails the value stays null and it tries again every second. */
  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    this.listener = client;
    client.on("notification", () => this.count++);
    client.on("error", () => this.lost(client));
    client.on("end", () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${SESSION_AUTH_CHANNEL}`);
    } catch {
      this.lost(client);
      return;
    }
    if (this.listener !== client) return;
    // Whatever was read before LISTEN took effect may have missed a notice.
    this.count++;
    this.listening = true;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    if (this.retry) clearTimeout(this.retry);
    const client = this.listener;
    this.listener = null;
    await client?.end().catch(() => {});
  }

  /** The pool to give drizzle: the same pool, counting as it goes (also in the clients of transactions). */
  wrap(pool: pg.Pool): pg.Pool {
    return new Proxy(pool, {
      get: (target, property) => {
        const value = Reflect.get(target, property, target);
        if (property === "query") return this.counting((value as Query).bind(target));
        if (property === "connect") {
          return async () => {
            const client = await target.connect();
            return new Proxy(client, {
              get: (inner, key) => {
                const method = Reflect.get(inner, key, inner);
                if (typeof method !== "function") return method;
                const bound = method.bind(inner);
                return key === "query" ? this.counting(bound) : bound;
              },
            });
          };
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }

  private counting(query: Query): Query {
    return async (config, ...rest) => {
      const text = typeof config === "string" ? config : (config as { text?: string } | null)?.text;
      if (text !== undefined && this.readOnly.has(text)) return query(config, ...rest);
      this.count++;
      try {
        return await query(config, ...rest);
      } finally {
        this.count++;
      }
    };
  }

  private lost(client: pg.Client): void {
    if (this.listener !== client) return;
    this.listener = null;
    this.listening = false;
    this.count++;
    client.end().catch(() => {});
    if (this.closed) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (!this.closed) void this.start();
    }, RELISTEN_MS);
    this.retry.unref();
  }
}

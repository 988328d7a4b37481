import type { PGlite } from "@electric-sql/pglite";

/**
 * A count that rises whenever the database may have changed: a read made while it is unchanged is still
 * exact. Null while no such promise can be made (PostgreSQL without its change notices).
 */
export interface ChangeCounter {
  readonly value: number | null;
  markReadOnly(sqlText: string): void;
}

/**
 * Counts the statements run on an embedded database that could have changed it. PGlite is opened by one
 * process only (directory lock) and every statement goes through this client, so while the count is
 * unchanged nothing in the database has changed: a read made at that count is still exact. Conservative on
 * purpose: every statement counts unless its exact text was declared read-only, and a transaction counts
 * when it starts and when it ends.
 */
export class LocalChanges implements ChangeCounter {
  private count = 0;
  private readonly readOnly = new Set<string>();

  get value(): number {
    return this.count;
  }

  markReadOnly(sqlText: string): void {
    this.readOnly.add(sqlText);
  }

  bump(): void {
    this.count++;
  }

  /** The client to give drizzle: the same PGlite, counting as it goes. */
  wrap(client: PGlite): PGlite {
    return new Proxy(client, {
      get: (target, property) => {
        const value = Reflect.get(target, property, target);
        if (typeof value !== "function") return value;
        // Bound to the real client: PGlite's private fields do not work through a proxy.
        const method = (value as (...args: unknown[]) => unknown).bind(target);
        if (property === "query") {
          return (text: string, ...rest: unknown[]) => {
            if (!this.readOnly.has(text)) this.bump();
            return method(text, ...rest);
          };
        }
        if (
          ["exec", "transaction", "sql", "execProtocol", "execProtocolRaw", "runExclusive"].includes(String(property))
        ) {
          return async (...args: unknown[]) => {
            this.bump();
            try {
              return await method(...args);
            } finally {
              this.bump();
            }
          };
        }
        return method;
      },
    });
  }
}

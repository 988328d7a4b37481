import { PgDialect } from "drizzle-orm/pg-core";
import { vi } from "vitest";

/**
 * The SQL texts drizzle sends while `run` runs, on PGlite and PostgreSQL alike: each is a round trip to the
 * database (issue 27: their count is the web thread's largest cost). BEGIN, COMMIT and ROLLBACK are left
 * out: drizzle sends them as statements on PostgreSQL but not on PGlite (its transaction() does), so only this
 * way do both drivers give the same list. Run nothing else meanwhile: every statement of the process counts.
 */
export async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  const spy = vi.spyOn(PgDialect.prototype, "sqlToQuery");
  try {
    await run();
    return spy.mock.results
      .map((r) => (r.value as { sql: string }).sql)
      .filter((text) => !/^(begin|commit|rollback)\b/i.test(text.trim()));
  } finally {
    spy.mockRestore();
  }
}

/** The tables a statement list reads from (`from "x"`, `join "x"`), one entry per statement and table. */
export const tablesRead = (statements: string[]) =>
  statements.flatMap((text) => [...text.matchAll(/(?:from|join) "(\w+)"/g)].map((m) => m[1]));

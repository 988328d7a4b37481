import fs from "node:fs";
import { describe, expect, it } from "vitest";

// Drizzle's migrator applies only migrations whose `when` is later than the newest one a database has already run:
// a migration dated before its predecessor is silently skipped on every existing database.
describe("migration journal", () => {
  const journal = JSON.parse(fs.readFileSync("server/db/migrations/meta/_journal.json", "utf8")) as {
    entries: { idx: number; when: number; tag: string }[];
  };

  it("dates every migration after the one before it", () => {
    const late = journal.entries.filter((e, i) => i > 0 && e.when <= journal.entries[i - 1]!.when).map((e) => e.tag);
    expect(late).toEqual([]);
  });

  it("has a SQL file for every entry", () => {
    const missing = journal.entries
      .filter((e) => !fs.existsSync(`server/db/migrations/${e.tag}.sql`))
      .map((e) => e.tag);
    expect(missing).toEqual([]);
  });
});

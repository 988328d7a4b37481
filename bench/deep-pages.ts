/**
 * Deep pages of the reports list and search (issue 30 item 5): the repository's page statement alone (no memo, no
 * HTTP), at 1,000, 10,000 and 100,000 reports in one clinic, page 1 against the last page and the middle one.
 *
 *   npx tsx bench/deep-pages.ts [--sizes 1000,10000,100000] [--db pglite|postgres|both] [--before /work/main]
 *
 * --before names another checkout whose listReports runs against the same database, interleaved call by call with
 * this one's (paired before/after on a noisy machine). PostgreSQL: TEST_DATABASE_URL, else
 * postgresql://postgres@127.0.0.1:5432/test; a fresh database is created and dropped.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../server/db/client";
import { clinics } from "../server/db/schema";
import { parseSearch } from "../server/features/reports/report-search";
import { listReports } from "../server/features/reports/reports.repository";
import { openTestDatabase } from "../server/test-support/test-database";
import { seedReports } from "./report-seed";

const { values: args } = parseArgs({
  options: {
    sizes: { type: "string", default: "1000,10000,100000" },
    db: { type: "string", default: "both" },
    before: { type: "string" },
    runs: { type: "string", default: "15" },
  },
});
const RUNS = Number(args.runs);
const PAGE = 12;
type List = typeof listReports;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const before: List | null = args.before
    ? (await import(path.resolve(args.before, "server/features/reports/reports.repository.ts"))).listReports
    : null;
  const kinds = args.db === "both" ? ["pglite", "postgres"] : [args.db!];
  console.log(
    `load average ${(await import("node:os"))
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  console.log("| database | reports | query | page | before ms (median) | after ms (median) |");
  console.log("| --- | ---: | --- | ---: | ---: | ---: |");
  for (const kind of kinds) {
    for (const size of args.sizes!.split(",").map(Number)) {
      const database =
        kind === "postgres"
          ? await openTestDatabase(process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test")
          : await openDatabase({ dataDir: null });
      const [clinic] = await database.db.insert(clinics).values({ name: "Bench", email: "b@clinic.test" }).returning();
      await seedReports(database.db, clinic!.id, size);
      for (const search of ["", "smith"]) {
        const tokens = parseSearch(search);
        const { total } = await listReports(database.db, clinic!.id, { tokens, limit: PAGE, offset: 0 });
        const last = Math.max(1, Math.ceil(total / PAGE));
        const pages = [...new Set([1, Math.ceil(last / 2), Math.min(8000, last), last])];
        for (const page of pages) {
          const query = { tokens, limit: PAGE, offset: (page - 1) * PAGE };
          const times = { before: [] as number[], after: [] as number[] };
          for (let i = 0; i < RUNS; i++) {
            for (const [side, list] of [
              ["before", before],
              ["after", listReports],
            ] as const) {
              if (!list) continue;
              const started = performance.now();
              await list(database.db, clinic!.id, query);
              times[side].push(performance.now() - started);
            }
          }
          const b = before ? median(times.before).toFixed(1) : "";
          const label = search ? `search "${search}" (${total})` : "list";
          const name = page === last ? `${page} (last)` : page === Math.ceil(last / 2) ? `${page} (middle)` : `${page}`;
          console.log(`| ${kind} | ${size} | ${label} | ${name} | ${b} | ${median(times.after).toFixed(1)} |`);
        }
      }
      await database.close();
    }
  }
}

await main();

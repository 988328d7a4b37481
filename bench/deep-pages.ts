/**
 * Deep pages of the reports list and search (issue 30 item 5): the repository's page statement alone (no memo, no
 * HTTP), at 1,000, 10,000 and 100,000 reports in one clinic: page 1, the middle page, page 8,000 and the last.
 *
 *   npx tsx bench/deep-pages.ts [--sizes 1000,10000,100000] [--db pglite|postgres|both] [--before DIR] [--runs 9]
 *
 * --before names another checkout whose listReports runs interleaved call by call with this one's (paired
 * before/after on a noisy machine). Each side has its own database with the same reports: the "before" one
 * without the indexes this checkout's later migrations add (dropped by name, see BEFORE_DROPS), so "before" is
 * what the old code did on the old schema. PostgreSQL: TEST_DATABASE_URL, else
 * postgresql://postgres@127.0.0.1:5432/test; fresh databases are created and dropped.
 *
 * "after" is the median of warm calls (the page's bookmarks kept from the call before); "cold" is the median of
 * calls made right after the clinic's report-list version was raised (as any write does), so the bookmarks are
 * read again within the call.
 */
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import type { ReportSort } from "../domain/contracts/reports";
import { type Database, openDatabase } from "../server/db/client";
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
    runs: { type: "string", default: "9" },
    cold: { type: "string", default: "5" },
    sorts: { type: "string", default: "generated_desc,exam_desc" },
    searches: { type: "string", default: ",smith,duplex" },
  },
});
const RUNS = Number(args.runs);
const COLD = Number(args.cold);
const PAGE = 12;
/** Indexes added for issue 30 item 5: absent from the "before" database. */
const BEFORE_DROPS = ["reports_clinic_live_exam_idx"];
type List = typeof listReports;

const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! : Number.NaN);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

async function open(kind: string): Promise<Database> {
  return kind === "postgres"
    ? openTestDatabase(process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test")
    : openDatabase({ dataDir: null });
}

async function seeded(kind: string, size: number, drops: string[]) {
  const database = await open(kind);
  for (const index of drops) await database.db.execute(sql.raw(`drop index if exists ${index}`));
  const [clinic] = await database.db.insert(clinics).values({ name: "Bench", email: "b@clinic.test" }).returning();
  await seedReports(database.db, clinic!.id, size);
  // One report in seven without an exam date, as the exam-date orders put those last.
  await database.db.execute(sql`update reports set exam_date = null where id % 7 = 0`);
  await database.db.execute(sql`vacuum analyze reports`);
  return { database, clinicId: clinic!.id };
}

async function main() {
  const before: List | null = args.before
    ? (await import(path.resolve(args.before, "server/features/reports/reports.repository.ts"))).listReports
    : null;
  const kinds = args.db === "both" ? ["pglite", "postgres"] : [args.db!];
  console.log(`load average at start ${load()}`);
  console.log("| database | reports | query | sort | page | before ms | after ms (warm) | after ms (cold) |");
  console.log("| --- | ---: | --- | --- | ---: | ---: | ---: | ---: |");
  for (const kind of kinds) {
    for (const size of args.sizes!.split(",").map(Number)) {
      const after = await seeded(kind, size, []);
      const old = before ? await seeded(kind, size, BEFORE_DROPS) : null;
      for (const search of args.searches!.split(",")) {
        for (const sort of args.sorts!.split(",") as ReportSort[]) {
          const tokens = parseSearch(search);
          const { total } = await listReports(after.database.db, after.clinicId, {
            tokens,
            sort,
            limit: PAGE,
            offset: 0,
          });
          const last = Math.max(1, Math.ceil(total / PAGE));
          const middle = Math.ceil(last / 2);
          const pages = [...new Set([1, middle, Math.min(8000, last), last])];
          for (const page of pages) {
            const query = { tokens, sort, limit: PAGE, offset: (page - 1) * PAGE };
            const times = { before: [] as number[], after: [] as number[], cold: [] as number[] };
            const time = async (list: List, side: { database: Database; clinicId: number }) => {
              const started = performance.now();
              const { rows } = await list(side.database.db, side.clinicId, query);
              if (rows.length === 0 && total > 0) throw new Error(`page ${page} empty`);
              return performance.now() - started;
            };
            await time(listReports, after); // keeps the page's bookmarks
            for (let i = 0; i < RUNS; i++) {
              if (before && old) times.before.push(await time(before, old));
              times.after.push(await time(listReports, after));
            }
            for (let i = 0; i < COLD; i++) {
              await after.database.db.execute(
                sql`update report_counters set version = version + 1 where clinic_id = ${after.clinicId}`,
              );
              times.cold.push(await time(listReports, after));
            }
            const label = search ? `search "${search}" (${total})` : `list (${total})`;
            const name = page === last ? `${page} (last)` : page === middle ? `${page} (middle)` : `${page}`;
            const b = before ? median(times.before).toFixed(1) : "";
            console.log(
              `| ${kind} | ${size} | ${label} | ${sort} | ${name} | ${b} | ${median(times.after).toFixed(1)} | ${median(times.cold).toFixed(1)} |`,
            );
          }
        }
      }
      console.log(`(load average ${load()})`);
      await after.database.close();
      await old?.database.close();
    }
  }
}

await main();

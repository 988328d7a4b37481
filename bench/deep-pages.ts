/**
 * Deep pages of the reports list and search (issue 30 item 5): the repository's page statement alone (no memo, no
 * HTTP), at 1,000, 10,000 and 100,000 reports in one clinic: page 1, the middle page, page 8,000 and the last.
 *
 *   npx tsx bench/deep-pages.ts [--sizes 1000,10000,100000] [--db pglite|postgres|both] [--before DIR] [--runs 9]
 *     [--pages 1,middle,8000,last] [--searches ,smith,duplex] [--sorts generated_desc,exam_desc]
 *
 * --before names another checkout whose listReports runs interleaved call by call with this one's (paired
 * before/after on a noisy machine). Each side has its own database with the same reports: the "before" one
 * without the indexes this checkout's later migrations add (dropped by name, see BEFORE_DROPS), so "before" is
 * what the old code did on the old schema. PostgreSQL: TEST_DATABASE_URL, else
 * postgresql://postgres@127.0.0.1:5432/test; fresh databases are created and dropped.
 *
 * Times are wall-clock ms and CPU ms (medians). CPU is load-independent enough to compare on a shared machine:
 * on PGlite the bench process's own CPU time (the database runs in it), on PostgreSQL the CPU time of the
 * database's server processes (/proc/PID/schedstat of every backend of that database, nanoseconds).
 *
 * "warm" is the median of calls with the page's bookmarks kept from the call before; "after a write" the median of
 * calls made right after one report was written to both databases (alternately a new newest report and a report
 * whose exam date moved by a day), so that each side brings its bookmarks up to date within the call (read again
 * before, recounted around the change after). --drops names the indexes left out of the "before" database.
 */
import fs from "node:fs";
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
    drops: { type: "string", default: "reports_clinic_live_exam_idx" },
    /** Which pages: numbers, "middle" and "last". */
    pages: { type: "string", default: "1,middle,8000,last" },
  },
});
const RUNS = Number(args.runs);
const COLD = Number(args.cold);
const PAGE = 12;
/** Indexes added for issue 30 item 5: absent from the "before" database. */
const BEFORE_DROPS = args.drops!.split(",").filter(Boolean);
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

/** CPU ms spent so far by whatever runs this database's statements (see the header). */
async function cpuClock(database: Database): Promise<() => number> {
  if (database.kind === "pglite") {
    return () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    };
  }
  const { rows } = await database.executeSql("select current_database() as name");
  const name = (rows[0] as { name: string }).name;
  const pids = async () =>
    (
      (await database.executeSql("select pid from pg_stat_activity where datname = $1", [name])).rows as {
        pid: number;
      }[]
    ).map((r) => r.pid);
  let backends = await pids();
  return () => {
    let ns = 0;
    for (const pid of backends) {
      try {
        ns += Number(fs.readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // a backend that ended: its time is lost to both readings alike
      }
    }
    void pids().then((found) => {
      backends = found;
    });
    return ns / 1e6;
  };
}

async function seeded(kind: string, size: number, drops: string[]) {
  const database = await open(kind);
  for (const index of drops) await database.db.execute(sql.raw(`drop index if exists ${index}`));
  const [clinic] = await database.db.insert(clinics).values({ name: "Bench", email: "b@clinic.test" }).returning();
  await seedReports(database.db, clinic!.id, size);
  // One report in seven without an exam date, as the exam-date orders put those last.
  await database.db.execute(sql`update reports set exam_date = null where id % 7 = 0`);
  await database.db.execute(sql`vacuum analyze reports`);
  return { database, clinicId: clinic!.id, cpu: await cpuClock(database) };
}

/** One report written, as the product writes them: a new newest report, or an exam date moved by a day. */
async function writeOne(side: Awaited<ReturnType<typeof seeded>>, i: number) {
  const { db } = side.database;
  if (i % 2 === 0) {
    await db.execute(sql`insert into reports (clinic_id, patient_name, patient_dob, exam_date, study_type, indication,
        findings, impression, is_draft, generated_at, updated_at)
      select clinic_id, patient_name, patient_dob, exam_date, study_type, indication, findings, impression, is_draft,
        now(), now() from reports where clinic_id = ${side.clinicId} order by id desc limit 1`);
  } else {
    await db.execute(sql`update reports set exam_date = exam_date + 1, updated_at = now()
      where id = (select id from reports where clinic_id = ${side.clinicId} and exam_date is not null
                  order by id offset (select count(*) / 2 + ${i} from reports where clinic_id = ${side.clinicId}) limit 1)`);
  }
}

async function main() {
  const before: List | null = args.before
    ? (await import(path.resolve(args.before, "server/features/reports/reports.repository.ts"))).listReports
    : null;
  const kinds = args.db === "both" ? ["pglite", "postgres"] : [args.db!];
  console.log(`load average at start ${load()}`);
  console.log(
    "| database | reports | query | sort | page | ms warm before | after | ms after a write before | after | CPU ms warm before | after | CPU ms after a write before | after |",
  );
  console.log("| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
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
          const pages = [
            ...new Set(
              args
                .pages!.split(",")
                .map((p) => (p === "last" ? last : p === "middle" ? middle : Math.min(Number(p), last))),
            ),
          ];
          for (const page of pages) {
            const query = { tokens, sort, limit: PAGE, offset: (page - 1) * PAGE };
            const times = {
              before: [] as number[],
              after: [] as number[],
              beforeWrite: [] as number[],
              afterWrite: [] as number[],
            };
            const cpu = {
              before: [] as number[],
              after: [] as number[],
              beforeWrite: [] as number[],
              afterWrite: [] as number[],
            };
            const time = async (list: List, side: Awaited<ReturnType<typeof seeded>>, into: keyof typeof times) => {
              const cpuAtStart = side.cpu();
              const started = performance.now();
              const { rows } = await list(side.database.db, side.clinicId, query);
              times[into].push(performance.now() - started);
              cpu[into].push(side.cpu() - cpuAtStart);
              if (rows.length === 0 && total > 0) throw new Error(`page ${page} empty`);
            };
            // Keep the page's bookmarks.
            await listReports(after.database.db, after.clinicId, query);
            if (before && old) await before(old.database.db, old.clinicId, query);
            for (let i = 0; i < RUNS; i++) {
              if (before && old) await time(before, old, "before");
              await time(listReports, after, "after");
            }
            for (let i = 0; i < COLD; i++) {
              for (const side of old ? [after, old] : [after]) await writeOne(side, i);
              if (before && old) await time(before, old, "beforeWrite");
              await time(listReports, after, "afterWrite");
            }
            const label = search ? `search "${search}" (${total})` : `list (${total})`;
            const name = page === last ? `${page} (last)` : page === middle ? `${page} (middle)` : `${page}`;
            const m = (xs: number[]) => (xs.length ? median(xs).toFixed(1) : "");
            console.log(
              `| ${kind} | ${size} | ${label} | ${sort} | ${name} | ${m(times.before)} | ${m(times.after)} | ${m(times.beforeWrite)} | ${m(times.afterWrite)} | ${m(cpu.before)} | ${m(cpu.after)} | ${m(cpu.beforeWrite)} | ${m(cpu.afterWrite)} |`,
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

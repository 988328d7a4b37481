/**
 * The plans of the deep-page statements on PostgreSQL (issue 30 item 5, decision 024): EXPLAIN (ANALYZE, BUFFERS)
 * of each statement the page functions run, on a fresh database of 100,000 reports seeded as bench/deep-pages.ts
 * seeds them (one in seven undated).
 *
 *   npx tsx bench/deep-pages-explain.ts deep [generated_desc|exam_desc]   first deep page (8,000) after a write
 *   npx tsx bench/deep-pages-explain.ts start WORD SORT                   page 1 of a search, its total kept
 *
 * PostgreSQL: TEST_DATABASE_URL, else postgresql://postgres@127.0.0.1:5432/test (a database created and dropped).
 */
import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { ReportSort } from "../domain/contracts/reports";
import { clinics, reports } from "../server/db/schema";
import { pageFromBookmarks, pageFromStart } from "../server/features/reports/report-list-pages";
import { openTestDatabase } from "../server/test-support/test-database";
import { seedReports } from "./report-seed";

const dialect = new PgDialect();
const database = await openTestDatabase(process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test");
const db = database.db;
const [clinic] = await db.insert(clinics).values({ name: "Explain", email: "explain@clinic.test" }).returning();
const clinicId = clinic!.id;
await seedReports(db, clinicId, 100_000);
await db.execute(sql`update reports set exam_date = null where id % 7 = 0`);
await db.execute(sql`vacuum analyze reports`);
let show = false;
const read = async (ids: SQL, changes: SQL) => {
  const q = sql`select page.page_id as id, ${changes} as changes, page.page_id is not null as "onPage" from ${ids} as page`;
  if (show) {
    const { sql: text, params } = dialect.sqlToQuery(q);
    const res = await database.executeSql(`explain (analyze, buffers, costs off) ${text}`, params);
    console.log((res.rows as Record<string, string>[]).map((r) => r["QUERY PLAN"]).join("\n"), "\n-----");
  }
  return (await database.executeSql(dialect.sqlToQuery(q).sql, dialect.sqlToQuery(q).params)).rows as {
    id: number;
    changes: unknown;
    onPage: boolean;
  }[];
};
const live = and(eq(reports.clinicId, clinicId), isNull(reports.deletedAt))!;
const search = (w: string) =>
  and(
    live,
    sql`lower(${reports.patientName} || ' ' || ${reports.studyType} || ' ' || coalesce(${reports.mrn}, '')) like ${`%${w}%`}`,
  )!;
const mode = process.argv[2];
if (mode === "deep") {
  const sort = (process.argv[3] ?? "generated_desc") as ReportSort;
  await pageFromBookmarks(db, { clinicId, sort, where: live, offset: 95988, limit: 12, read }, "jump");
  await db.execute(sql`insert into reports (clinic_id, patient_name, study_type, indication, findings, impression, exam_date, generated_at)
    select clinic_id, patient_name, study_type, indication, findings, impression, exam_date, now() from reports where clinic_id = ${clinicId} order by id desc limit 1`);
  show = true;
  console.log("== first deep page after a write");
  await pageFromBookmarks(db, { clinicId, sort, where: live, offset: 95988, limit: 12, read }, "jump");
} else {
  const word = process.argv[3]!;
  const sort = process.argv[4] as ReportSort;
  await pageFromStart(db, { clinicId, sort, where: search(word), offset: 0, limit: 12, read }, true);
  show = true;
  console.log(`== page 1 of ${word} ${sort}, total kept`);
  await pageFromStart(db, { clinicId, sort, where: search(word), offset: 0, limit: 12, read }, true);
}
await database.close();

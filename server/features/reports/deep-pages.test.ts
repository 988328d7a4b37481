import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReportSort } from "../../../domain/contracts/reports";
import type { Database } from "../../db/client";
import { clinics, reports } from "../../db/schema";
import { openTestDatabase } from "../../test-support/test-database";
import { parseSearch } from "./report-search";
import { listReports } from "./reports.repository";

// Issue 30: a deep page is read from the nearer end of the index; it must be the very page OFFSET gives.
const REPORTS = 1_000;
let database: Database;
let clinicId = 0;

beforeAll(async () => {
  database = await openTestDatabase();
  const { db } = database;
  const [clinic] = await db.insert(clinics).values({ name: "Deep Clinic", email: "deep@clinic.test" }).returning();
  clinicId = clinic!.id;
  // Ties on purpose: ten reports share each generation time and exam date, and one in seven has no exam date, so
  // only the id tells many rows apart; every 13th is deleted.
  await db.execute(sql`
    insert into reports (clinic_id, patient_name, study_type, indication, findings, impression, exam_date,
                         generated_at, deleted_at)
    select ${clinicId}, case when i % 3 = 0 then 'Ann Smith' else 'Bo Jones' end, 'Carotid Duplex', '-', '-', '-',
           case when i % 7 = 0 then null else date '2024-01-01' + (i % 40) end,
           timestamptz '2024-01-01 00:00:00+00' + make_interval(mins => i / 10),
           case when i % 13 = 0 then now() else null end
    from generate_series(1, ${REPORTS}) as s(i)`);
});
afterAll(async () => {
  await database?.close();
});

const orderBy: Record<ReportSort, string> = {
  generated_desc: "generated_at desc nulls last, id desc",
  generated_asc: "generated_at asc nulls last, id asc",
  exam_desc: "exam_date desc nulls last, id desc",
  exam_asc: "exam_date asc nulls last, id asc",
};

/** The page as plain OFFSET reads it. */
async function offsetPage(sort: ReportSort, search: string, offset: number, limit: number) {
  const matching = search ? sql`and lower(patient_name) like ${`%${search}%`}` : sql``;
  const rows = await database.db
    .select({ id: reports.id })
    .from(reports)
    .where(sql`${reports.clinicId} = ${clinicId} and ${reports.deletedAt} is null ${matching}`)
    .orderBy(sql.raw(orderBy[sort]))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => r.id);
}

describe("deep pages of the reports list", () => {
  const live = REPORTS - Math.floor(REPORTS / 13);
  const sorts = Object.keys(orderBy) as ReportSort[];
  // Near the start, past the deep threshold, the middle, near and at the end (a short last page), past the end.
  const offsets = [0, 12, 600, 612, Math.floor(live / 2) - 5, live - 30, live - 12, live - 5, live, live + 50];

  for (const sort of sorts) {
    for (const search of ["", "smith"]) {
      it(`gives OFFSET's rows in order, ${sort}${search ? `, searching "${search}"` : ""}`, async () => {
        for (const offset of offsets) {
          const { rows, total } = await listReports(database.db, clinicId, {
            tokens: parseSearch(search),
            sort,
            limit: 12,
            offset,
          });
          expect(total).toBe(search ? Math.round(live / 3) : live);
          const expected = await offsetPage(sort, search, offset, 12);
          expect(
            rows.map((r) => r.report.id),
            `offset ${offset}`,
          ).toEqual(expected);
        }
      });
    }
  }

  it("walking every page visits every live report once", async () => {
    const seen: number[] = [];
    for (let offset = 0; offset < live; offset += 50) {
      const { rows } = await listReports(database.db, clinicId, { tokens: [], sort: "exam_desc", limit: 50, offset });
      seen.push(...rows.map((r) => r.report.id));
    }
    expect(seen).toHaveLength(live);
    expect(new Set(seen).size).toBe(live);
  });
});

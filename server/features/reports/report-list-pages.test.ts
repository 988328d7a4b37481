import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReportSort } from "../../../domain/contracts/reports";
import type { Database } from "../../db/client";
import { queryRows } from "../../db/client";
import { clinics, reports } from "../../db/schema";
import { statementsOf } from "../../test-support/statements";
import { openTestDatabase } from "../../test-support/test-database";
import { BOOKMARK_EVERY, bookmarkStats, pageFromBookmarks } from "./report-list-pages";
import { parseSearch } from "./report-search";
import { listReports, type ReportFilters } from "./reports.repository";

// Issue 30: pages read from bookmarks (keyset) must be, id for id, the pages plain OFFSET gives, for random data,
// every sort, searches and filters, after writes between reads, and with a write between the bookmarks and the page.

let database: Database;
const clinicIds: number[] = [];

/** A small seeded generator (mulberry32), so that a failure can be replayed. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = ["Ann Smith", "Bo Jones", "Cy Smithson", "Di Brown", "Ed Nguyen", "Flo Smith-Wood"];
const TYPES = ["Carotid Duplex", "Lower Limb Venous", "Renal Duplex"];
const day = (n: number) => new Date(Date.UTC(2024, 0, 1 + n)).toISOString().slice(0, 10);

/** Reports with many ties: few generation times (some a microsecond apart), few exam dates, some undated, some deleted. */
function reportRows(clinicId: number, count: number, next: () => number) {
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]!;
  return Array.from({ length: count }, () => ({
    clinicId,
    patientName: pick(NAMES),
    studyType: pick(TYPES),
    mrn: next() < 0.5 ? `MRN${Math.floor(next() * 50)}` : null,
    patientDob: next() < 0.8 ? day(Math.floor(next() * 30) - 20_000) : null,
    indication: "-",
    findings: "-",
    impression: "-",
    examDate: next() < 0.15 ? null : day(Math.floor(next() * 40)),
    generatedAt:
      sql`timestamptz '2024-01-01 00:00:00.000001+00' + make_interval(secs => ${Math.floor(next() * 60) / 1000})` as unknown as Date,
    deletedAt: next() < 0.08 ? new Date() : null,
  }));
}

async function seed(clinicId: number, count: number, next: () => number) {
  const rows = reportRows(clinicId, count, next);
  for (let i = 0; i < rows.length; i += 400) await database.db.insert(reports).values(rows.slice(i, i + 400));
}

beforeAll(async () => {
  database = await openTestDatabase();
  for (const name of ["Keyset A", "Keyset B"]) {
    const [clinic] = await database.db
      .insert(clinics)
      .values({ name, email: `${name.replace(" ", "").toLowerCase()}@clinic.test` })
      .returning();
    clinicIds.push(clinic!.id);
  }
  const next = random(20261125);
  await seed(clinicIds[0]!, 1_500, next);
  await seed(clinicIds[1]!, 1_300, next);
});
afterAll(async () => {
  await database?.close();
});

const orderBy: Record<ReportSort, string> = {
  generated_desc: "generated_at desc, id desc",
  generated_asc: "generated_at asc, id asc",
  exam_desc: "exam_date desc nulls last, id desc",
  exam_asc: "exam_date asc nulls last, id asc",
};

type Query = { search: string; filters: ReportFilters };

/** The query written out by hand as the spec reads it: each word matches text, the report number or a date. */
function referenceWhere(clinicId: number, { search, filters }: Query): SQL {
  const parts = [sql`clinic_id = ${clinicId} and deleted_at is null`];
  for (const token of parseSearch(search)) {
    const text = sql`lower(patient_name || ' ' || study_type || ' ' || coalesce(mrn, '')) like ${`%${token.text.toLowerCase()}%`}`;
    const id = token.id !== null ? sql` or id = ${token.id}` : sql``;
    const date = token.date !== null ? sql` or exam_date = ${token.date} or patient_dob = ${token.date}` : sql``;
    parts.push(sql`(${text}${id}${date})`);
  }
  if (filters.scanType) parts.push(sql`study_type = ${filters.scanType}`);
  if (filters.examFrom) parts.push(sql`exam_date >= ${filters.examFrom}`);
  if (filters.examTo) parts.push(sql`exam_date <= ${filters.examTo}`);
  return sql.join(parts, sql` and `);
}

/** The page as plain OFFSET reads it, and the total. */
async function offsetPage(clinicId: number, query: Query, sort: ReportSort, offset: number, limit: number) {
  const where = referenceWhere(clinicId, query);
  const rows = await queryRows<{ id: number }>(
    database.db,
    sql`select id from reports where ${where} order by ${sql.raw(orderBy[sort])} offset ${offset} limit ${limit}`,
  );
  const [count] = await queryRows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from reports where ${where}`,
  );
  return { ids: rows.map((r) => Number(r.id)), total: Number(count!.n) };
}

async function keysetPage(clinicId: number, query: Query, sort: ReportSort, offset: number, limit: number) {
  const { rows, total } = await listReports(database.db, clinicId, {
    tokens: parseSearch(query.search),
    filters: query.filters,
    sort,
    limit,
    offset,
  });
  return { ids: rows.map((r) => r.report.id), total };
}

const sorts = Object.keys(orderBy) as ReportSort[];
const queries: Query[] = [
  { search: "", filters: {} },
  { search: "smith", filters: {} },
  { search: "duplex", filters: {} },
  { search: "a", filters: { examFrom: day(5), examTo: day(35) } },
  { search: "", filters: { scanType: "Carotid Duplex" } },
  { search: "", filters: { examFrom: day(10) } },
  { search: day(3), filters: {} },
];

/** Offsets to try: random ones across the whole list, and the edges around bookmarks and the end. */
function offsetsFor(total: number, next: () => number) {
  const edges = [0, 599, 600, BOOKMARK_EVERY * 7 - 1, BOOKMARK_EVERY * 7, BOOKMARK_EVERY * 7 + 1, total - 1, total];
  const randoms = Array.from({ length: 6 }, () => Math.floor(next() * (total + 20)));
  return [...edges, ...randoms].filter((o) => o >= 0);
}

describe("report list pages from bookmarks", () => {
  // One test a sort (each well inside the test timeout on a loaded machine).
  for (const sort of sorts) {
    it(`give OFFSET's ids and total for random pages, searches and filters, ${sort}`, async () => {
      const next = random(7 + sorts.indexOf(sort));
      let compared = 0;
      for (const clinicId of clinicIds) {
        for (const query of queries) {
          const { total } = await offsetPage(clinicId, query, sort, 0, 1);
          for (const offset of offsetsFor(total, next)) {
            const limit = 1 + Math.floor(next() * 60);
            const expected = await offsetPage(clinicId, query, sort, offset, limit);
            const actual = await keysetPage(clinicId, query, sort, offset, limit);
            expect(actual, `clinic ${clinicId} ${JSON.stringify(query)} offset ${offset} limit ${limit}`).toEqual(
              expected,
            );
            compared += 1;
          }
        }
      }
      expect(compared).toBeGreaterThan(180);
    });
  }

  it("give the new pages after inserts, edits and deletes between reads (the version renews the bookmarks)", async () => {
    const next = random(11);
    const clinicId = clinicIds[0]!;
    const writes: (() => Promise<unknown>)[] = [
      // New reports at the top of the newest-first list and among the first exam dates: every deep page shifts.
      () => seed(clinicId, 1 + Math.floor(next() * 30), next),
      () =>
        database.db.execute(
          sql`update reports set exam_date = null where clinic_id = ${clinicId} and id % 17 = ${Math.floor(next() * 17)}`,
        ),
      () =>
        database.db.execute(
          sql`update reports set deleted_at = now() where clinic_id = ${clinicId} and deleted_at is null and id % 23 = ${Math.floor(next() * 23)}`,
        ),
      () =>
        database.db.execute(
          sql`update reports set patient_name = 'Zed Smith' where clinic_id = ${clinicId} and id % 13 = ${Math.floor(next() * 13)}`,
        ),
      () =>
        database.db.execute(
          sql`update reports set generated_at = generated_at - interval '1 day' where clinic_id = ${clinicId} and id % 29 = ${Math.floor(next() * 29)}`,
        ),
    ];
    for (let round = 0; round < 10; round++) {
      for (const sort of sorts) {
        for (const query of [queries[0]!, queries[1]!]) {
          const { total } = await offsetPage(clinicId, query, sort, 0, 1);
          // Read twice before the write: the second read is from the bookmarks (or sizes) the first one kept.
          const deep = 600 + Math.floor(next() * Math.max(1, total - 600));
          const shallow = Math.floor(next() * Math.min(total, 600));
          for (const offset of round % 2 ? [deep, shallow, deep, shallow] : [shallow, deep, shallow, deep]) {
            expect(await keysetPage(clinicId, query, sort, offset, 12)).toEqual(
              await offsetPage(clinicId, query, sort, offset, 12),
            );
          }
        }
      }
      await writes[round % writes.length]!();
    }
  });

  it("recounts the bookmarks around one-report writes (new, amended, moved, undated, deleted) in two clinics", async () => {
    const next = random(31);
    /** A live report of the clinic, picked at random. */
    const pick = async (clinicId: number) => {
      const [row] = await queryRows<{ id: number }>(
        database.db,
        sql`select id from reports where clinic_id = ${clinicId} and deleted_at is null order by id
            offset ${Math.floor(next() * 1000)} limit 1`,
      );
      return Number(row!.id);
    };
    const set = async (clinicId: number, change: SQL) =>
      database.db.execute(sql`update reports set ${change} where id = ${await pick(clinicId)}`);
    const writes: ((clinicId: number) => Promise<unknown>)[] = [
      // The commonest write: a new report at the top of the newest-first list.
      (clinicId) =>
        database.db.insert(reports).values({ ...reportRows(clinicId, 1, next)[0]!, generatedAt: new Date() }),
      (clinicId) => seed(clinicId, 1, next),
      (clinicId) => set(clinicId, sql`exam_date = ${day(Math.floor(next() * 40))}`),
      (clinicId) => set(clinicId, sql`exam_date = null`),
      (clinicId) => set(clinicId, sql`deleted_at = now()`),
      (clinicId) =>
        set(clinicId, sql`generated_at = generated_at + make_interval(secs => ${Math.floor(next() * 60) / 1000})`),
      (clinicId) => set(clinicId, sql`patient_name = 'Zed Smith', study_type = 'Carotid Duplex'`),
      (clinicId) => set(clinicId, sql`patient_name = 'Zed Jones', study_type = 'Renal Duplex'`),
    ];
    const checked = [queries[0]!, queries[1]!, queries[4]!, queries[5]!];
    const compare = async (queriesEach: number) => {
      for (const clinicId of clinicIds) {
        for (const sort of sorts) {
          const start = Math.floor(next() * checked.length);
          for (let q = 0; q < queriesEach; q++) {
            const query = checked[(start + q) % checked.length]!;
            const { total } = await offsetPage(clinicId, query, sort, 0, 1);
            // A deep page (from bookmarks) and a page near the start (its total kept with the query's sizes).
            const deep = 600 + Math.floor(next() * Math.max(1, total - 600));
            const shallow = Math.floor(next() * Math.min(total, 600));
            // Either first: the first read after a write brings the query's kept sizes up to date.
            for (const offset of next() < 0.5 ? [deep, shallow] : [shallow, deep]) {
              expect(await keysetPage(clinicId, query, sort, offset, 12), `${clinicId} ${sort} ${offset}`).toEqual(
                await offsetPage(clinicId, query, sort, offset, 12),
              );
            }
          }
        }
      }
    };
    await compare(checked.length);
    const start = { ...bookmarkStats };
    for (let round = 0; round < 16; round++) {
      await writes[round % writes.length]!(clinicIds[Math.floor(next() * 2)]!);
      await compare(2);
    }
    // The writes were recounted around, not read again (a segment grown past its bound may be read again).
    expect(bookmarkStats.recounted - start.recounted).toBeGreaterThan(100);
    expect(bookmarkStats.read - start.read).toBeLessThan(10);
    // ... and most of those pages were read in the recount's own statement (from an older bookmark).
    expect(bookmarkStats.pagedWithRecount - start.pagedWithRecount).toBeGreaterThan(40);
    // ... and no stale page statement needed a statement of its own to read the log.
    expect(bookmarkStats.logReadAlone - start.logReadAlone).toBe(0);
    // A write whose log is gone (pruned, or a raise of the version the reports' triggers did not make): read again.
    for (const clinicId of clinicIds) {
      await writes[2]!(clinicId);
      await writes[4]!(clinicId);
      await database.db.execute(sql`delete from report_list_changes where clinic_id = ${clinicId}`);
    }
    await compare(checked.length);
  }, 120_000);

  it("keeps a search's or filter's total for pages near the start only while the version holds", async () => {
    // Queries never read deep here: their totals are kept alone (no bookmarks) and counted again after a write.
    const next = random(41);
    const clinicId = clinicIds[1]!;
    const shallowOnly: Query[] = [
      { search: "duplex", filters: { examTo: day(30) } },
      { search: "jones", filters: {} },
      { search: "", filters: { scanType: "Renal Duplex" } },
    ];
    const start = { ...bookmarkStats };
    for (let round = 0; round < 6; round++) {
      for (const sort of sorts) {
        for (const query of shallowOnly) {
          for (let i = 0; i < 2; i++) {
            const offset = Math.floor(next() * 500);
            expect(await keysetPage(clinicId, query, sort, offset, 12), `${sort} ${offset}`).toEqual(
              await offsetPage(clinicId, query, sort, offset, 12),
            );
          }
        }
      }
      // One new report (first one in every query, so that each total moves; then in or out of each), or an exam
      // date moved.
      if (round === 0) {
        const row = { ...reportRows(clinicId, 1, next)[0]!, patientName: "Bo Jones", studyType: "Renal Duplex" };
        await database.db.insert(reports).values({ ...row, examDate: day(3), deletedAt: null });
      } else if (round % 2 === 0) await seed(clinicId, 1, next);
      else
        await database.db.execute(
          sql`update reports set exam_date = ${day(Math.floor(next() * 40))}, study_type = 'Renal Duplex'
              where id = (select id from reports where clinic_id = ${clinicId} and deleted_at is null order by id desc limit 1)`,
        );
    }
    // Counted once per query and sort: after the first write its bookmarks are read in the page statement instead
    // of a second count, and later writes recount a few segments around them.
    const each = sorts.length * shallowOnly.length;
    expect(bookmarkStats.sized - start.sized).toBe(each);
    expect(bookmarkStats.markedFromStart - start.markedFromStart).toBe(each);
    // (a page past the end is counted by the caller: not every write is recounted at once)
    expect(bookmarkStats.recounted - start.recounted).toBeGreaterThan(2 * each);
  });

  for (const how of ["rank", "jump"] as const) {
    it(`reads a page again when a write lands between its bookmarks and the page (bookmarks by ${how})`, async () => {
      const clinicId = clinicIds[1]!;
      const where = referenceWhere(clinicId, { search: "", filters: {} });
      for (const sort of sorts) {
        // Warm the bookmarks, then read a deep page whose first statement is preceded by a write (as another
        // connection's commit would be).
        const first = await pageFromBookmarks(
          database.db,
          { clinicId, sort, where, offset: 900, limit: 12, read: (ids, changes) => readIds(ids, changes, sort) },
          how,
        );
        expect(first?.rows.map((r) => r.id)).toEqual(
          (await offsetPage(clinicId, { search: "", filters: {} }, sort, 900, 12)).ids,
        );
        let wrote = false;
        const page = await pageFromBookmarks(
          database.db,
          {
            clinicId,
            sort,
            where,
            offset: 900,
            limit: 12,
            read: async (ids, changes) => {
              if (!wrote) {
                wrote = true;
                await seed(clinicId, 150, random(sorts.indexOf(sort) + (how === "jump" ? 10 : 1)));
                await database.db.execute(
                  sql`update reports set exam_date = null where clinic_id = ${clinicId} and id % 5 = 0`,
                );
              }
              return readIds(ids, changes, sort);
            },
          },
          how,
        );
        const expected = await offsetPage(clinicId, { search: "", filters: {} }, sort, 900, 12);
        expect(page?.rows.map((r) => r.id)).toEqual(expected.ids);
        expect(page?.total).toBe(expected.total);
      }
    });
  }

  it("reads the first deep page after a write in two statements: the gated page answers the log", async () => {
    const clinicId = clinicIds[0]!;
    const next = random(53);
    for (const sort of sorts) {
      // The plain list (bookmarks by jumps) and a search (by rank).
      for (const query of [queries[0]!, queries[2]!]) {
        const { total } = await offsetPage(clinicId, query, sort, 0, 1);
        const offset = 600 + Math.floor(next() * (total - 700));
        await keysetPage(clinicId, query, sort, offset, 12);
        // One new report at the top of the newest-first list, found by the search too.
        await database.db
          .insert(reports)
          .values({ ...reportRows(clinicId, 1, next)[0]!, studyType: "Carotid Duplex", generatedAt: new Date() });
        const start = { ...bookmarkStats };
        let page: Awaited<ReturnType<typeof keysetPage>> | undefined;
        const statements = await statementsOf(async () => {
          page = await keysetPage(clinicId, query, sort, offset, 12);
        });
        expect(page).toEqual(await offsetPage(clinicId, query, sort, offset, 12));
        // The stale page statement (its gate held the page back, its one row the log), then recount and page.
        expect(statements.filter(isStatement), `${sort} ${JSON.stringify(query)}`).toHaveLength(2);
        expect(bookmarkStats.pagedWithRecount - start.pagedWithRecount).toBe(1);
        expect(bookmarkStats.logReadAlone - start.logReadAlone).toBe(0);
      }
    }
  });

  it("never serves one clinic's bookmarks to another clinic", async () => {
    // Both clinics at the same version, the same query and sort: each gets its own reports.
    await database.db.execute(
      sql`update report_counters set version = 500 where clinic_id in (${clinicIds[0]!}, ${clinicIds[1]!})`,
    );
    for (const sort of sorts) {
      for (const clinicId of [...clinicIds, ...clinicIds]) {
        const actual = await keysetPage(clinicId, queries[0]!, sort, 700, 20);
        expect(actual).toEqual(await offsetPage(clinicId, queries[0]!, sort, 700, 20));
        const owners = await queryRows<{ clinic_id: number }>(
          database.db,
          sql`select distinct clinic_id from reports where id in ${actual.ids.length ? sql`(${sql.join(actual.ids, sql`, `)})` : sql`(0)`}`,
        );
        expect(owners.map((o) => Number(o.clinic_id))).toEqual(actual.ids.length ? [clinicId] : []);
      }
    }
  });
});

/** SQL sent as a statement (statementsOf also sees the query key's rendering of a WHERE). */
const isStatement = (text: string) => /^\s*(select|with|insert|update|delete)\b/i.test(text);

/**
 * The page's ids in the list's order, each with the changes its statement saw, and the row a gated statement
 * answers without a report (as listReports reads a page: right-joined).
 */
async function readIds(pageIds: SQL, changes: SQL, sort: ReportSort) {
  const rows = await queryRows<{ id: number; changes: unknown; on_page: boolean }>(
    database.db,
    sql`select id, ${changes} as changes, page.page_id is not null as on_page
        from reports right join ${pageIds} as page on page.page_id = reports.id
        order by ${sql.raw(orderBy[sort])}`,
  );
  return rows.map((r) => ({ id: Number(r.id), changes: r.changes, onPage: r.on_page }));
}

import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { ReportSort } from "../../../domain/contracts/reports";
import { type Queryable, queryRows } from "../../db/client";
import { reportCounters, reports } from "../../db/schema";

/**
 * Pages of the reports list at any depth (issue 30): keyset reads from bookmarks instead of OFFSET.
 *
 * An order is cut into parts that an index reads in order: the generation time (never null) is one part; the
 * exam date is two, the dated reports and then the undated ones (the spec puts them last either way), so that
 * both directions are a scan of reports_clinic_live_exam_idx. A page is the union of the parts from where it
 * starts, each read from a start key (`(key, id) < (k, i)`) with a small OFFSET after it.
 *
 * The start keys are bookmarks: the (key, id) of every BOOKMARK_EVERY-th row of each part, read in one statement
 * with the part sizes and the clinic's report-list version (report_counters.version, raised in the writer's own
 * transaction by every change to a clinic's reports and by what the critical filter reads). They are kept per
 * database, clinic and query (the rendered WHERE with its values) with that version. A page read from them
 * carries the version it saw in the same statement (one snapshot): if it is not the bookmarks' version, the page
 * is thrown away and the bookmarks are read again. So a page is what OFFSET gives at the page's own snapshot.
 */
export const BOOKMARK_EVERY = 100;

type Part = {
  /** The sort column of this part. */
  column: AnyColumn;
  /** False for the undated reports: their key is null and the id alone tells them apart. */
  keyed: boolean;
  desc: boolean;
  /** The rows of the part: an extra condition, or null. */
  condition: SQL | null;
  /**
   * Where the index that reads the part puts nulls when read descending. A part holds no nulls, so this only
   * has to match the index for the planner to read it in order instead of sorting.
   */
  nullsLastDesc: boolean;
};

// reports_clinic_live_idx is (generated_at desc nulls last, id desc nulls last): read forwards or backwards.
const generatedAt = (desc: boolean): Part[] => [
  { column: reports.generatedAt, keyed: true, desc, condition: null, nullsLastDesc: true },
];
// reports_clinic_live_exam_idx is (exam_date, id), ascending nulls last: descending it puts nulls first.
const examDate = (desc: boolean): Part[] => [
  {
    column: reports.examDate,
    keyed: true,
    desc,
    condition: sql`${reports.examDate} is not null`,
    nullsLastDesc: false,
  },
  // Ordered by the (null) date too, so that it is read from the same index and not from the primary key's.
  { column: reports.examDate, keyed: false, desc, condition: sql`${reports.examDate} is null`, nullsLastDesc: false },
];
const partsOf: Record<ReportSort, Part[]> = {
  generated_desc: generatedAt(true),
  generated_asc: generatedAt(false),
  exam_desc: examDate(true),
  exam_asc: examDate(false),
};

/** The part's order as its index reads it. */
function partOrder(part: Part): SQL {
  const nullsLast = part.nullsLastDesc === part.desc;
  const dir = sql.raw(`${part.desc ? "desc" : "asc"} ${nullsLast ? "nulls last" : "nulls first"}`);
  return sql`${part.column} ${dir}, ${reports.id} ${dir}`;
}

type Mark = { key: string | null; id: number };

/** Rows after a bookmark of the part, in its order (strictly after: the bookmark's own row is before). */
function after(part: Part, mark: Mark): SQL {
  const type = sql.raw(part.column === reports.generatedAt ? "timestamptz" : "date");
  return afterKey(part, sql`${mark.key}::${type}`, sql`${mark.id}`);
}
function afterKey(part: Part, key: SQL, id: SQL): SQL {
  const cmp = sql.raw(part.desc ? "<" : ">");
  if (!part.keyed) return sql`${reports.id} ${cmp} ${id}`;
  return sql`(${part.column}, ${reports.id}) ${cmp} (${key}, ${id})`;
}

/** The key of a row as text that casts back to the same value (microseconds included). */
const keyText = (part: Part) => (part.keyed ? sql`${part.column}::text` : sql`null::text`);
/** The key of a row in a page's subquery; the undated part's is a null date, to stand beside the dated part's. */
const keyColumn = (part: Part) => (part.keyed ? sql`${part.column}` : sql`null::date`);

const and = (...conditions: (SQL | null)[]) =>
  sql.join(
    conditions.filter((c): c is SQL => c !== null).map((c) => sql`(${c})`),
    sql` and `,
  );

/**
 * The ids of `limit` rows from the `skip`-th row after `mark` in part `first` (from the part's start when mark is
 * null), running on into the later parts; as a subquery whose rows are the page's ids (`page_id`).
 */
export function pageIdsFrom(
  sort: ReportSort,
  where: SQL,
  first: number,
  mark: Mark | null,
  skip: number,
  limit: number,
): SQL {
  const parts = partsOf[sort].slice(first);
  const reach = skip + limit;
  const branches = parts.map((part, i) => {
    const condition = and(where, part.condition, i === 0 && mark ? after(part, mark) : null);
    return sql`(select ${reports.id} as id, ${i}::int as part, ${keyColumn(part)} as k from ${reports}
      where ${condition} order by ${partOrder(part)} limit ${reach})`;
  });
  if (branches.length === 1) {
    const [part] = parts;
    return sql`(select id as page_id from ${branches[0]} as p order by ${pageOrder(part!)} offset ${skip} limit ${limit})`;
  }
  const dir = sql.raw(parts[0]!.desc ? "desc" : "asc");
  return sql`(select id as page_id from (${sql.join(branches, sql` union all `)}) as p
    order by part, k ${dir}, id ${dir} offset ${skip} limit ${limit})`;
}

/** The one-part page's order over its subquery's columns. */
function pageOrder(part: Part): SQL {
  const dir = sql.raw(part.desc ? "desc" : "asc");
  return part.keyed ? sql`k ${dir}, id ${dir}` : sql`id ${dir}`;
}

/** Where a page of one query starts: the part and the part's rows before it. */
type Bookmarks = { version: number; total: number; parts: { count: number; marks: Mark[] }[] };

/** The clinic's report-list version, as one statement's snapshot sees it (-1: no counter row, no reports). */
export const listVersion = (clinicId: number) =>
  sql<number>`coalesce((select ${reportCounters.version} from ${reportCounters} where ${reportCounters.clinicId} = ${clinicId}), -1)`;

/** Reads the bookmarks of one query: the parts' sizes and every BOOKMARK_EVERY-th key, with the version. */
/**
 * How the bookmarks are read: "rank" numbers every row of the part (row_number() over the part's order: one
 * pass, whatever plan the planner picks for the query's rows); "jump" walks the index from bookmark to bookmark
 * (each step the 100th row after the last, OFFSET 99 LIMIT 1 from a keyset), about 3 times cheaper on the
 * plain list but a step per bookmark, so only for queries the index reads in order (no search words).
 */
export type BookmarkRead = "rank" | "jump";

function rankedPart(part: Part, where: SQL): SQL {
  return sql`(select json_build_object('n', count(*),
        'marks', coalesce(json_agg(json_build_array(k, id) order by rn) filter (where rn % ${BOOKMARK_EVERY} = 0), '[]'))
      from (select ${keyText(part)} as k, ${reports.id} as id, row_number() over (order by ${partOrder(part)}) as rn
            from ${reports} where ${and(where, part.condition)}) as ranked)`;
}

function jumpedPart(part: Part, where: SQL): SQL {
  const rows = and(where, part.condition);
  const step = (condition: SQL | null) =>
    sql`select ${keyColumn(part)} as k, ${reports.id} as id from ${reports} where ${and(rows, condition)}
        order by ${partOrder(part)} offset ${BOOKMARK_EVERY - 1} limit 1`;
  // The rows after the last bookmark (fewer than BOOKMARK_EVERY), or the whole part when it has none.
  const tail = sql`(case when (select n from last) is null
      then (select count(*) from (select 1 from ${reports} where ${rows} limit ${BOOKMARK_EVERY}) as t)
      else (select count(*) from (select 1 from ${reports}
              where ${and(rows, afterKey(part, sql`(select k from last)`, sql`(select id from last)`))}
              limit ${BOOKMARK_EVERY}) as t) end)`;
  return sql`(with recursive marks(k, id, n) as (
        (select k, id, 1 from (${step(null)}) as first)
        union all
        (select x.k, x.id, m.n + 1 from marks as m cross join lateral (${step(afterKey(part, sql`m.k`, sql`m.id`))}) as x)
      ), last as (select k, id, n from marks order by n desc limit 1)
      select json_build_object('n', coalesce((select n from last), 0) * ${BOOKMARK_EVERY} + ${tail},
        'marks', coalesce((select json_agg(json_build_array(k::text, id) order by n) from marks), '[]')))`;
}

async function readBookmarks(
  db: Queryable,
  clinicId: number,
  sort: ReportSort,
  where: SQL,
  how: BookmarkRead,
): Promise<Bookmarks> {
  const parts = partsOf[sort];
  const columns = parts.map((part) => (how === "jump" ? jumpedPart(part, where) : rankedPart(part, where)));
  const [row] = await queryRows<{ version: string | number; parts: unknown }>(
    db,
    sql`select ${listVersion(clinicId)} as version, json_build_array(${sql.join(columns, sql`, `)}) as parts`,
  );
  const read = (typeof row!.parts === "string" ? JSON.parse(row!.parts) : row!.parts) as {
    n: number;
    marks: [string | null, number][];
  }[];
  const counted = read.map((p) => ({ count: Number(p.n), marks: p.marks.map(([key, id]) => ({ key, id })) }));
  return {
    version: Number(row!.version),
    total: counted.reduce((sum, p) => sum + p.count, 0),
    parts: counted,
  };
}

/** Where row `offset` (0-based) is: its part, the nearest bookmark at or before it, and the rows after that. */
export function locate(bookmarks: Bookmarks, offset: number): { part: number; mark: Mark | null; skip: number } {
  let rest = offset;
  let part = 0;
  while (part < bookmarks.parts.length - 1 && rest >= bookmarks.parts[part]!.count) {
    rest -= bookmarks.parts[part]!.count;
    part += 1;
  }
  // Bookmark j is the part's row (j + 1) * BOOKMARK_EVERY - 1.
  const j = Math.floor(rest / BOOKMARK_EVERY) - 1;
  const mark = j >= 0 ? (bookmarks.parts[part]!.marks[j] ?? null) : null;
  if (j >= 0 && !mark) throw new Error("bookmark missing below the part's size");
  return { part, mark, skip: mark ? rest % BOOKMARK_EVERY : rest };
}

/** Bookmarks of recent queries, per database (a test process opens several with the same clinic ids). */
class BookmarkCache {
  private readonly entries = new Map<string, Bookmarks>();
  private marks = 0;
  constructor(
    private readonly maxEntries: number,
    private readonly maxMarks: number,
  ) {}

  get(key: string) {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, value: Bookmarks) {
    this.delete(key);
    this.entries.set(key, value);
    this.marks += size(value);
    for (const [oldest] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.marks <= this.maxMarks) break;
      this.delete(oldest);
    }
  }

  delete(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.marks -= size(entry);
  }
}
const size = (b: Bookmarks) => b.parts.reduce((sum, p) => sum + p.marks.length, 0);

// At most 256 queries and 200,000 bookmarks (20 million rows' worth, about 20 MB) per database.
const caches = new WeakMap<object, BookmarkCache>();
const cacheOf = (db: Queryable) => {
  let cache = caches.get(db);
  if (!cache) {
    cache = new BookmarkCache(256, 200_000);
    caches.set(db, cache);
  }
  return cache;
};

const dialect = new PgDialect();

export type DeepPage<Row> = { rows: Row[]; total: number } | null;

/**
 * A page from the bookmarks of its query: `read(pageIds, version)` runs the page statement with the page's id
 * subquery and must answer its rows, each carrying the version its statement saw. Null when the data changed
 * twice under it (the caller then reads the page in one statement without bookmarks).
 */
export async function pageFromBookmarks<Row extends { version: number }>(
  db: Queryable,
  clinicId: number,
  sort: ReportSort,
  where: SQL,
  offset: number,
  limit: number,
  read: (pageIds: SQL) => Promise<Row[]>,
  how: BookmarkRead = "rank",
): Promise<DeepPage<Row>> {
  const rendered = dialect.sqlToQuery(where);
  const key = `${clinicId}|${sort}|${rendered.sql}|${JSON.stringify(rendered.params)}`;
  const cache = cacheOf(db);
  for (let attempt = 0; attempt < 3; attempt++) {
    let bookmarks = cache.get(key);
    if (!bookmarks) {
      bookmarks = await readBookmarks(db, clinicId, sort, where, how);
      cache.set(key, bookmarks);
    }
    if (offset >= bookmarks.total) {
      // Past the end: true only while the version is the bookmarks' own.
      const [row] = await queryRows<{ version: string | number }>(db, sql`select ${listVersion(clinicId)} as version`);
      if (Number(row!.version) === bookmarks.version) return { rows: [], total: bookmarks.total };
    } else {
      const { part, mark, skip } = locate(bookmarks, offset);
      const rows = await read(pageIdsFrom(sort, where, part, mark, skip, limit));
      if (rows.length > 0 && rows.every((r) => Number(r.version) === bookmarks.version)) {
        return { rows, total: bookmarks.total };
      }
    }
    cache.delete(key);
  }
  return null;
}

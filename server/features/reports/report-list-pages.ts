import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { ReportSort } from "../../../domain/contracts/reports";
import { type Queryable, queryRows } from "../../db/client";
import { reportCounters, reportListChanges, reports } from "../../db/schema";

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
 * carries the version it saw in the same statement (one snapshot), with the changes logged since the bookmarks'
 * version: if it is not the bookmarks' version, the page is thrown away and the bookmarks are recounted around
 * those changes (recountBookmarks) or read again. So a page is what OFFSET gives at the page's own snapshot.
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

/**
 * A bookmark: the (key, id) of a row of the part, as text for SQL and as a number for comparing positions in
 * JavaScript (`ord`: microseconds or days since 1970, as report_list_changes writes them; null in the undated
 * part), and `before`, how many of the part's rows are at or before it in the order. Read, bookmark j has before
 * = (j + 1) x BOOKMARK_EVERY; recounted after writes, any number (its row may even be gone: it still separates).
 */
type Mark = { key: string | null; id: number; ord: number | null; before: number };
type Key = Pick<Mark, "key" | "id">;

/** Rows after a bookmark of the part, in its order (strictly after: the bookmark's own row is before). */
function after(part: Part, mark: Key): SQL {
  return afterKey(part, markKey(part, mark), sql`${mark.id}`);
}
/** Rows at or before a bookmark of the part (its own row included). */
function upTo(part: Part, mark: Key): SQL {
  return afterKey(part, markKey(part, mark), sql`${mark.id}`, part.desc ? ">=" : "<=");
}
function markKey(part: Part, mark: Key): SQL {
  const type = sql.raw(part.column === reports.generatedAt ? "timestamptz" : "date");
  return sql`${mark.key}::${type}`;
}
function afterKey(part: Part, key: SQL, id: SQL, comparison?: string): SQL {
  const cmp = sql.raw(comparison ?? (part.desc ? "<" : ">"));
  if (!part.keyed) return sql`${reports.id} ${cmp} ${id}`;
  return sql`(${part.column}, ${reports.id}) ${cmp} (${key}, ${id})`;
}

/** The key of a row as text that casts back to the same value (microseconds included). */
const keyText = (part: Part) => (part.keyed ? sql`${part.column}::text` : sql`null::text`);
/** A key as the number report_list_changes writes for it (exact: microseconds since 1970 stay below 2^53). */
const ordOf = (part: Part, key: SQL) =>
  !part.keyed
    ? sql`null::bigint`
    : part.column === reports.generatedAt
      ? sql`(extract(epoch from ${key}) * 1000000)::bigint`
      : sql`(${key} - date '1970-01-01')`;
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
  mark: Key | null,
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
type ReadMark = [key: string | null, id: number, ord: number | string | null];

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
        'marks', coalesce(json_agg(json_build_array(k, id, o) order by rn) filter (where rn % ${BOOKMARK_EVERY} = 0), '[]'))
      from (select ${keyText(part)} as k, ${reports.id} as id, ${ordOf(part, sql`${part.column}`)} as o,
              row_number() over (order by ${partOrder(part)}) as rn
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
        'marks', coalesce((select json_agg(json_build_array(k::text, id, ${ordOf(part, sql`k`)}) order by n) from marks), '[]')))`;
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
    marks: ReadMark[];
  }[];
  const counted = read.map((p) => ({
    count: Number(p.n),
    marks: p.marks.map(([key, id, ord], j) => ({
      key,
      id: Number(id),
      ord: ord === null ? null : Number(ord),
      before: (j + 1) * BOOKMARK_EVERY,
    })),
  }));
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
  // The last bookmark with at most `rest` rows at or before it (binary search: `before` rises along the part).
  const marks = bookmarks.parts[part]!.marks;
  let low = 0;
  let high = marks.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (marks[mid]!.before <= rest) low = mid + 1;
    else high = mid;
  }
  const mark = low > 0 ? marks[low - 1]! : null;
  return { part, mark, skip: mark ? rest - mark.before : rest };
}

/** How bookmarks were obtained since the process started: read whole, or recounted after writes (for tests). */
export const bookmarkStats = { read: 0, recounted: 0 };

/** A segment may grow to this many rows by writes before its query's bookmarks are read again. */
const MAX_SEGMENT = 2 * BOOKMARK_EVERY;

type Position = [ord: number, day: number | null, id: number];

/** The segment of a part a position falls in: s covers (mark s-1, mark s]; marks.length is the tail. */
function segmentOf(part: Part, marks: Mark[], position: Position): number {
  const [micros, day, id] = position;
  const ord = part.column === reports.generatedAt ? micros : day!;
  // Negative when the position comes before the mark in the part's order.
  const compare = (mark: Mark) => {
    const ascending = part.keyed && ord !== mark.ord ? ord - mark.ord! : id - mark.id;
    return part.desc ? -ascending : ascending;
  };
  let low = 0;
  let high = marks.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (compare(marks[mid]!) > 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

const inPart = (sort: ReportSort, index: number, [, day]: Position) =>
  sort.startsWith("generated") || (index === 0) === (day !== null);

/**
 * The clinic's report-list version as one statement's snapshot sees it, with what changed since `version`: the
 * number of logged raises and their positions (json text; cheap when nothing changed: an empty range of
 * report_list_changes' primary key). A page statement carries it, so that a page read from stale bookmarks
 * brings the changes to recount them with.
 */
export const changesSince = (clinicId: number, version: number) =>
  sql<string>`(select json_build_object('version', v.version, 'logged', count(c.version),
      'positions', coalesce(json_agg(c.positions order by c.version) filter (where c.version is not null), '[]'))::text
    from (select ${listVersion(clinicId)} as version) as v
      left join ${reportListChanges} as c
        on c.clinic_id = ${clinicId} and c.version > ${version} and c.version <= v.version
    group by v.version)`;

type Changes = { version: number; logged: number; positions: (Position[] | null)[] };
function parseChanges(text: unknown): Changes {
  const read = (typeof text === "string" ? JSON.parse(text) : text) as Changes;
  return { version: Number(read.version), logged: Number(read.logged), positions: read.positions };
}

/**
 * The bookmarks of an older version brought to the current one without reading them again: every write since
 * logs the old and new positions of the reports it wrote (report_list_changes, migration 0026), and only the
 * segments between bookmarks that hold one of those positions are counted again (a bounded range of the index
 * each). The bookmarks stay where they were; their `before` counts move. Null when that cannot be done: a raise
 * of the version without its log row (a critical-result change, an old log pruned, a bulk write), or a segment
 * grown past MAX_SEGMENT (then the caller reads the bookmarks again).
 */
async function recountBookmarks(
  db: Queryable,
  clinicId: number,
  sort: ReportSort,
  where: SQL,
  old: Bookmarks,
  changes?: unknown,
): Promise<Bookmarks | null> {
  const log = parseChanges(
    changes ??
      (await queryRows<{ changes: unknown }>(db, sql`select ${changesSince(clinicId, old.version)} as changes`))[0]!
        .changes,
  );
  const version = log.version;
  if (version < old.version || log.logged !== version - old.version) return null;
  const logged = log.positions;
  if (logged.some((positions) => positions === null)) return null;
  const positions = (logged as Position[][])
    .flat()
    .map((p) => p.map((v) => (v === null ? null : Number(v))) as Position);
  const parts = partsOf[sort];
  const dirty = parts.map((part, i) => {
    const marks = old.parts[i]!.marks;
    return [...new Set(positions.filter((p) => inPart(sort, i, p)).map((p) => segmentOf(part, marks, p)))];
  });
  const counts = dirty.flatMap((segments, i) =>
    segments.map((s) => {
      const part = parts[i]!;
      const marks = old.parts[i]!.marks;
      const range = and(
        where,
        part.condition,
        s > 0 ? after(part, marks[s - 1]!) : null,
        s < marks.length ? upTo(part, marks[s]!) : null,
      );
      return sql`(select count(*) from (select 1 from ${reports} where ${range} limit ${MAX_SEGMENT + 1}) as segment)`;
    }),
  );
  let fresh: number[] = [];
  if (counts.length > 0) {
    const [row] = await queryRows<{ version: string | number; counts: unknown }>(
      db,
      sql`select ${listVersion(clinicId)} as version, json_build_array(${sql.join(counts, sql`, `)}) as counts`,
    );
    // Another write since the log was read: its positions are not among these.
    if (Number(row!.version) !== version) return null;
    fresh = ((typeof row!.counts === "string" ? JSON.parse(row!.counts) : row!.counts) as unknown[]).map(Number);
    if (fresh.some((n) => n > MAX_SEGMENT)) return null;
  }
  let next = 0;
  const recounted = old.parts.map((oldPart, i) => {
    const sizes = [...oldPart.marks.map((m, j) => m.before - (j > 0 ? oldPart.marks[j - 1]!.before : 0))];
    sizes.push(oldPart.count - (oldPart.marks.at(-1)?.before ?? 0));
    for (const s of dirty[i]!) sizes[s] = fresh[next++]!;
    let before = 0;
    const marks = oldPart.marks.map((mark, j) => {
      before += sizes[j]!;
      return { ...mark, before };
    });
    return { count: before + sizes.at(-1)!, marks };
  });
  return { version, total: recounted.reduce((sum, p) => sum + p.count, 0), parts: recounted };
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
 * A page from the bookmarks of its query: `read(pageIds, changes)` runs the page statement with the page's id
 * subquery and must answer its rows, each carrying the `changes` expression (changesSince) as its statement saw
 * it. Null when the data changed under every try (the caller then reads the page in one statement without
 * bookmarks).
 */
export async function pageFromBookmarks<Row extends { changes: unknown }>(
  db: Queryable,
  clinicId: number,
  sort: ReportSort,
  where: SQL,
  offset: number,
  limit: number,
  read: (pageIds: SQL, changes: SQL) => Promise<Row[]>,
  how: BookmarkRead = "rank",
): Promise<DeepPage<Row>> {
  const rendered = dialect.sqlToQuery(where);
  const key = `${clinicId}|${sort}|${rendered.sql}|${JSON.stringify(rendered.params)}`;
  const cache = cacheOf(db);
  for (let attempt = 0; attempt < 4; attempt++) {
    let bookmarks = cache.get(key);
    if (!bookmarks) {
      bookmarks = await readBookmarks(db, clinicId, sort, where, how);
      bookmarkStats.read += 1;
      cache.set(key, bookmarks);
    }
    const changes = changesSince(clinicId, bookmarks.version);
    let seen: unknown;
    if (offset >= bookmarks.total) {
      // Past the end: true only while the version is the bookmarks' own.
      const [row] = await queryRows<{ changes: unknown }>(db, sql`select ${changes} as changes`);
      seen = row!.changes;
      if (parseChanges(seen).version === bookmarks.version) return { rows: [], total: bookmarks.total };
    } else {
      const { part, mark, skip } = locate(bookmarks, offset);
      const rows = await read(pageIdsFrom(sort, where, part, mark, skip, limit), changes);
      seen = rows[0]?.changes;
      // One statement, one snapshot: every row carries the same changes.
      if (rows.length > 0 && parseChanges(seen).version === bookmarks.version) return { rows, total: bookmarks.total };
    }
    // The clinic's reports changed since the bookmarks: recount them around the changes, or read them again.
    const recounted = await recountBookmarks(db, clinicId, sort, where, bookmarks, seen);
    if (recounted) {
      bookmarkStats.recounted += 1;
      cache.set(key, recounted);
    } else cache.delete(key);
  }
  return null;
}

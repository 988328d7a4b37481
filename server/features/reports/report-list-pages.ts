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
 * How a page statement reads its page beyond the plain (part, mark, skip): `gate`, a condition on the statement's
 * snapshot that must hold for any row to be read (a one-time filter: when it fails the statement reads no report,
 * and the subquery answers one row with a null page_id instead, so that the statement still answers what its
 * caller selects beside the page, the changes since the bookmarks: PageQuery.read keeps that row);
 * `skip`, the rows to skip as an SQL expression computed in the statement (at most `skipAtMost`), from `counts`,
 * a CTE of the page's subquery; `state`, a column every row of the page carries (page.page_state).
 */
export type PageShape = {
  gate?: SQL;
  skip?: SQL;
  skipAtMost?: number;
  counts?: SQL;
  state?: SQL;
  /**
   * A page from the start, chosen among all the query's rows collected first and then sorted, instead of read
   * in index order: for a query with few rows (a narrow search), where walking the index in order past every row
   * that does not match can cost many times more than the matches themselves.
   */
  collect?: boolean;
};

/**
 * The ids of `limit` rows from the `skip`-th row after `mark` in part `first` (from the part's start when mark is
 * null), running on into the later parts; as a subquery whose rows are the page's ids (`page_id`) and its
 * `page_state` (null unless the shape gives one).
 */
export function pageIdsFrom(
  sort: ReportSort,
  where: SQL,
  first: number,
  mark: Key | null,
  skip: number,
  limit: number,
  shape: PageShape = {},
): SQL {
  if (shape.collect && first === 0 && !mark) return collectedPage(sort, where, skip, limit);
  const parts = partsOf[sort].slice(first);
  const reach = (shape.skip ? shape.skipAtMost! : skip) + limit;
  const skipped = shape.skip ?? sql`${skip}`;
  const state = shape.state ?? sql`null::text`;
  const counts = shape.counts ? sql`with counts as (${shape.counts}) ` : sql``;
  const branches = parts.map((part, i) => {
    const condition = and(where, part.condition, i === 0 && mark ? after(part, mark) : null, shape.gate ?? null);
    return sql`(select ${reports.id} as id, ${i}::int as part, ${keyColumn(part)} as k from ${reports}
      where ${condition} order by ${partOrder(part)} limit ${reach})`;
  });
  if (branches.length === 1) {
    const [part] = parts;
    return carried(
      shape,
      sql`(${counts}select id as page_id, ${state} as page_state from ${branches[0]} as p
      order by ${pageOrder(part!)} offset ${skipped} limit ${limit})`,
    );
  }
  const dir = sql.raw(parts[0]!.desc ? "desc" : "asc");
  return carried(
    shape,
    sql`(${counts}select id as page_id, ${state} as page_state from (${sql.join(branches, sql` union all `)}) as p
    order by part, k ${dir}, id ${dir} offset ${skipped} limit ${limit})`,
  );
}

/**
 * A gated page's ids left-joined to one row: while the gate holds they are the page (a page from bookmarks at
 * their own version always has rows), and when it fails the one row with a null page_id carries the statement.
 */
const carried = (shape: PageShape, page: SQL) =>
  shape.gate ? sql`(select p.page_id, p.page_state from (select 1) as carrier left join ${page} as p on true)` : page;

/** See PageShape.collect: the matches are materialized (one bitmap scan for a search), then the page sorted out. */
function collectedPage(sort: ReportSort, where: SQL, skip: number, limit: number): SQL {
  const parts = partsOf[sort];
  const partOf =
    parts.length === 1
      ? sql`0`
      : sql`case ${sql.join(
          parts.map((part, i) => sql`when ${part.condition} then ${i}`),
          sql` `,
        )} end`;
  const dir = sql.raw(parts[0]!.desc ? "desc" : "asc");
  return sql`(with matches as materialized (select ${reports.id} as id, ${partOf} as part, ${parts[0]!.column} as k
      from ${reports} where ${where})
    select id as page_id, null::text as page_state from matches order by part, k ${dir}, id ${dir}
    offset ${skip} limit ${limit})`;
}

/** The one-part page's order over its subquery's columns. */
function pageOrder(part: Part): SQL {
  const dir = sql.raw(part.desc ? "desc" : "asc");
  return part.keyed ? sql`k ${dir}, id ${dir}` : sql`id ${dir}`;
}

/**
 * Where a page of one query starts: the part and the part's rows before it. `marked` is false for the sizes alone,
 * kept by a page read from the start (its total): no bookmarks, so no deep page starts from it.
 */
type Bookmarks = {
  version: number;
  total: number;
  marked: boolean;
  parts: { count: number; marks: Mark[] }[];
  /** The clinic's live reports when the sizes were counted (known for sizes kept by a page from the start). */
  clinicRows?: number;
};
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
  const [row] = await queryRows<{ version: string | number; parts: unknown }>(
    db,
    sql`select ${listVersion(clinicId)} as version, ${partsRead(sort, where, how)} as parts`,
  );
  return bookmarksOf(row!.version, row!.parts);
}

/** The bookmarks of every part of a query, as one json array (readBookmarks). */
const partsRead = (sort: ReportSort, where: SQL, how: BookmarkRead) =>
  sql`json_build_array(${sql.join(
    partsOf[sort].map((part) => (how === "jump" ? jumpedPart(part, where) : rankedPart(part, where))),
    sql`, `,
  )})`;

function bookmarksOf(version: string | number, parts: unknown): Bookmarks {
  const read = (typeof parts === "string" ? JSON.parse(parts) : parts) as {
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
    version: Number(version),
    total: counted.reduce((sum, p) => sum + p.count, 0),
    marked: true,
    parts: counted,
  };
}

/** Where row `offset` (0-based) is: its part, the nearest bookmark at or before it, and the rows after that. */
export function locate(
  bookmarks: Bookmarks,
  offset: number,
): { part: number; mark: Mark | null; skip: number; segments: number } {
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
  // segments: the part's segments at or before the mark (segment s ends at mark s).
  return { part, mark, skip: mark ? rest - mark.before : rest, segments: low };
}

/**
 * How bookmarks were obtained since the process started: read whole, recounted after writes, or only sized (the
 * total of a page from the start) or read in a page from the start when those sizes went stale, how many pages
 * came with their recount in one statement, and how many stale page statements answered no row, so that the log
 * took a statement of its own (for tests).
 */
export const bookmarkStats = {
  read: 0,
  recounted: 0,
  pagedWithRecount: 0,
  sized: 0,
  logReadAlone: 0,
  markedFromStart: 0,
};

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
 * How bookmarks of an older version are brought to the current one without reading them again: every write since
 * logs the old and new positions of the reports it wrote (report_list_changes, migration 0026), and only the
 * segments between bookmarks that hold one of those positions are counted again (a bounded range of the index
 * each). The bookmarks stay where they were; their `before` counts move. Null when that cannot be done: a raise
 * of the version without its log row (a critical-result change, an old log pruned, a bulk write).
 */
type Recount = {
  version: number;
  /** The dirty segments of each part, and one count (SQL, at most MAX_SEGMENT + 1) per dirty segment in that order. */
  dirty: number[][];
  counts: SQL[];
  /** How many positions were logged: the rows before any point moved by at most this many. */
  moved: number;
};

function planRecount(sort: ReportSort, where: SQL, old: Bookmarks, changes: unknown): Recount | null {
  const log = parseChanges(changes);
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
  return { version, dirty, counts, moved: positions.length };
}

/** The sizes of a part's segments (the last one the tail after its last bookmark). */
const segmentSizes = (part: Bookmarks["parts"][number]) => [
  ...part.marks.map((m, j) => m.before - (j > 0 ? part.marks[j - 1]!.before : 0)),
  part.count - (part.marks.at(-1)?.before ?? 0),
];

/** The bookmarks with the dirty segments' fresh counts; null when a segment grew past MAX_SEGMENT. */
function applyCounts(old: Bookmarks, plan: Recount, fresh: number[]): Bookmarks | null {
  if (fresh.some((n) => n > MAX_SEGMENT)) return null;
  let next = 0;
  const recounted = old.parts.map((oldPart, i) => {
    const sizes = segmentSizes(oldPart);
    for (const s of plan.dirty[i]!) sizes[s] = fresh[next++]!;
    let before = 0;
    const marks = oldPart.marks.map((mark, j) => {
      before += sizes[j]!;
      return { ...mark, before };
    });
    return { count: before + sizes.at(-1)!, marks };
  });
  return {
    ...old,
    version: plan.version,
    total: recounted.reduce((sum, p) => sum + p.count, 0),
    parts: recounted,
  };
}

const countsOf = (json: unknown) => ((typeof json === "string" ? JSON.parse(json) : json) as unknown[]).map(Number);

/** The recount alone, in one statement that checks it still sees the logged version. */
async function recountBookmarks(db: Queryable, clinicId: number, old: Bookmarks, plan: Recount) {
  if (plan.counts.length === 0) return applyCounts(old, plan, []);
  const [row] = await queryRows<{ version: string | number; counts: unknown }>(
    db,
    sql`select ${listVersion(clinicId)} as version, json_build_array(${sql.join(plan.counts, sql`, `)}) as counts`,
  );
  // Another write since the log was read: its positions are not among these.
  if (Number(row!.version) !== plan.version) return null;
  return applyCounts(old, plan, countsOf(row!.counts));
}

/**
 * The recount and the page in one statement. The page cannot start from the recounted bookmarks (they are not
 * known yet), so it starts from an old one far enough back: the rows before any point moved by at most
 * `plan.moved`, so the bookmark at or before `offset - moved` is at or before the page in the new order too, and
 * the statement skips `offset` less the new count of rows before that bookmark (its old count, plus the fresh
 * counts less the old sizes of the dirty segments before it). Every row carries the version and the counts.
 */
function pageAfterRecount(
  clinicId: number,
  sort: ReportSort,
  where: SQL,
  old: Bookmarks,
  plan: Recount,
  offset: number,
  limit: number,
) {
  const from = Math.max(0, offset - plan.moved);
  const start = locate(old, from);
  const beforeStart = from - start.skip;
  // The dirty segments before the start: all of the earlier parts', and the start part's up to its bookmark.
  let oldSizes = 0;
  const counted: string[] = [];
  let n = 0;
  plan.dirty.forEach((segments, i) => {
    const sizes = segmentSizes(old.parts[i]!);
    for (const s of segments) {
      if (i < start.part || (i === start.part && s < start.segments)) {
        oldSizes += sizes[s]!;
        counted.push(`n${n}`);
      }
      n += 1;
    }
  });
  const columns = plan.counts.map((count, i) => sql`${count} as ${sql.raw(`n${i}`)}`);
  const base = offset - beforeStart + oldSizes;
  const skip = counted.length
    ? sql`(select greatest(${base} - (${sql.raw(counted.join(" + "))}), 0) from counts)`
    : sql`${base}`;
  const all = sql.raw(plan.counts.map((_, i) => `n${i}`).join(", "));
  const skipAtMost = offset - beforeStart + plan.moved;
  return {
    /** The skip the statement used, from its counts (in the counts' order); outside 0..skipAtMost it was wrong. */
    skipOf: (fresh: number[]) => base - counted.reduce((sum, name) => sum + fresh[Number(name.slice(1))]!, 0),
    skipAtMost,
    pageIds: pageIdsFrom(sort, where, start.part, start.mark, 0, limit, {
      counts: sql`select ${sql.join(columns, sql`, `)}`,
      skip,
      // The skip is offset - beforeStart at most `moved` rows either way.
      skipAtMost,
      state: sql`(select json_build_object('version', ${listVersion(clinicId)}, 'counts', json_build_array(${all}))::text from counts)`,
    }),
  };
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
 * One page of one query: `read(pageIds, changes)` runs the page statement with the page's id subquery
 * right-joined `as page` (`page.page_id = reports.id`) and answers its rows, each carrying the `changes`
 * expression as its statement saw it and `onPage`, `page.page_id is not null`: false on the one row a gated page
 * statement answers when its gate held the page back (PageShape.gate), which carries only the changes.
 */
export type PageQuery<Row> = {
  clinicId: number;
  sort: ReportSort;
  where: SQL;
  offset: number;
  limit: number;
  read: (pageIds: SQL, changes: SQL) => Promise<Row[]>;
};

/**
 * A page from the bookmarks of its query (PageQuery). Null when the data changed under every try (the caller then reads the page in one statement without
 * bookmarks).
 *
 * Warm (the clinic's list unchanged since the bookmarks), a page is one statement. The page statement only reads
 * the page while the version is the bookmarks' own (a one-time check), so a stale one costs a look at the version
 * and the log, which it answers in a row of its own; then the recount of the dirty segments and the page are one
 * statement (pageAfterRecount): two statements after a write.
 */
export async function pageFromBookmarks<Row extends { changes: unknown; onPage: unknown }>(
  db: Queryable,
  { clinicId, sort, where, offset, limit, read }: PageQuery<Row>,
  how: BookmarkRead = "rank",
): Promise<DeepPage<Row>> {
  const key = queryKey(clinicId, sort, where);
  const cache = cacheOf(db);
  for (let attempt = 0; attempt < 4; attempt++) {
    let bookmarks = cache.get(key);
    if (!bookmarks?.marked) {
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
      const gate = sql`${listVersion(clinicId)} = ${bookmarks.version}`;
      const answered = await read(pageIdsFrom(sort, where, part, mark, skip, limit, { gate }), changes);
      const rows = answered.filter((row) => row.onPage);
      // One statement, one snapshot: every row carries the same changes, the one the gate left too.
      seen = answered[0]?.changes;
      if (rows.length > 0 && parseChanges(seen).version === bookmarks.version) return { rows, total: bookmarks.total };
      // No row at all (a read that dropped the gate's row): read the version with the log.
      if (answered.length === 0) {
        seen = (await queryRows<{ changes: unknown }>(db, sql`select ${changes} as changes`))[0]!.changes;
        bookmarkStats.logReadAlone += 1;
      }
    }
    // The clinic's reports changed since the bookmarks: recount them around the changes, or read them again.
    const plan = planRecount(sort, where, bookmarks, seen);
    if (!plan) {
      cache.delete(key);
      continue;
    }
    if (offset < bookmarks.total && plan.counts.length > 0) {
      const page = pageAfterRecount(clinicId, sort, where, bookmarks, plan, offset, limit);
      const rows = await read(page.pageIds, sql`page.page_state`);
      if (rows.length > 0) {
        const state = JSON.parse(String(rows[0]!.changes)) as { version: number | string; counts: unknown };
        const fresh = countsOf(state.counts);
        // Another write since the log was read: its positions are not among these; try again from the log.
        if (Number(state.version) !== plan.version) continue;
        const recounted = applyCounts(bookmarks, plan, fresh);
        if (!recounted) {
          cache.delete(key);
          continue;
        }
        bookmarkStats.recounted += 1;
        cache.set(key, recounted);
        const skip = page.skipOf(fresh);
        if (skip >= 0 && skip <= page.skipAtMost) {
          bookmarkStats.pagedWithRecount += 1;
          return { rows, total: recounted.total };
        }
        continue;
      }
    }
    // Nothing to count (a name changed), or a page past the new end: the recount alone, then the page again.
    const recounted = await recountBookmarks(db, clinicId, bookmarks, plan);
    if (recounted) {
      bookmarkStats.recounted += 1;
      cache.set(key, recounted);
    } else cache.delete(key);
  }
  return null;
}

/** The cache key of a query: the clinic, the sort and the rendered WHERE with its values. */
function queryKey(clinicId: number, sort: ReportSort, where: SQL) {
  const rendered = dialect.sqlToQuery(where);
  return `${clinicId}|${sort}|${rendered.sql}|${JSON.stringify(rendered.params)}`;
}

const clinicRowsNow = (clinicId: number) =>
  sql`(select ${reportCounters.liveCount} from ${reportCounters} where ${reportCounters.clinicId} = ${clinicId})`;

/** The query's part sizes, the clinic's live reports and the version, as json text, in one scan of its rows. */
const sizesNow = (clinicId: number, sort: ReportSort, where: SQL) => {
  const counts = partsOf[sort].map((part) =>
    part.condition ? sql`count(*) filter (where ${part.condition})` : sql`count(*)`,
  );
  return sql`(select json_build_object('version', ${listVersion(clinicId)}, 'clinicRows', ${clinicRowsNow(clinicId)},
      'counts', json_build_array(${sql.join(counts, sql`, `)}))::text from ${reports} where ${where})`;
};

/** The query's bookmarks (by rank), the clinic's live reports and the version, as json text. */
const marksNow = (clinicId: number, sort: ReportSort, where: SQL) =>
  sql`(select json_build_object('version', ${listVersion(clinicId)}, 'clinicRows', ${clinicRowsNow(clinicId)},
      'parts', ${partsRead(sort, where, "rank")})::text)`;

/**
 * Whether a page from the start is better collected and sorted (PageShape.collect) than read in index order: an
 * ordered walk passes about pageEnd x clinicRows / total rows if the matches were spread evenly; they often are
 * not (a name not seen lately), so the walk is taken only when that estimate is a tenth of the matches or less.
 */
const collects = (kept: Bookmarks | undefined, pageEnd: number) =>
  kept?.clinicRows !== undefined && kept.total * kept.total < 10 * pageEnd * kept.clinicRows;

/**
 * A page near the start of a query whose total is a count (a search or a filter). The total is the expensive
 * part (a search's every match is read to count it), so it is kept with the query's bookmarks, or alone: while the
 * version is the kept one the page statement only reads the page; after writes, kept bookmarks are recounted
 * around the logged positions at the page statement's version (a few segments), and in place of kept sizes alone
 * the page statement reads the query's bookmarks (a CASE that reads them only when the version moved: one
 * statement, as without them; marksNow), so that later writes are recounted; without kept sizes the page
 * statement counts (sizesNow) and they are kept. `read(pageIds,
 * changes)` as for pageFromBookmarks. Null for a page past the end (the caller counts). `collectable`: the query's
 * rows can be collected cheaply (search words: a trigram index).
 */
export async function pageFromStart<Row extends { changes: unknown }>(
  db: Queryable,
  { clinicId, sort, where, offset, limit, read }: PageQuery<Row>,
  collectable: boolean,
): Promise<DeepPage<Row>> {
  const key = queryKey(clinicId, sort, where);
  const cache = cacheOf(db);
  let kept = cache.get(key);
  const collect = collectable && collects(kept, offset + limit);
  const pageIds = pageIdsFrom(sort, where, 0, null, offset, limit, { collect });
  if (kept?.marked) {
    const rows = await read(pageIds, changesSince(clinicId, kept.version));
    if (rows.length === 0) return null;
    const seen = rows[0]!.changes;
    if (parseChanges(seen).version === kept.version) return { rows, total: kept.total };
    // Recounted at the version the page was read at (recountBookmarks checks it): the same snapshot's total.
    const plan = planRecount(sort, where, kept, seen);
    const recounted = plan ? await recountBookmarks(db, clinicId, kept, plan) : null;
    if (recounted) {
      bookmarkStats.recounted += 1;
      cache.set(key, recounted);
      return { rows, total: recounted.total };
    }
    cache.delete(key);
    kept = undefined;
  }
  // Sizes kept alone and now stale: the query is read again across a write, so its bookmarks are read instead of
  // its count (one pass over its rows, as the count is), and later writes recount a few segments around them.
  const sizes = kept
    ? sql`(select case when ${listVersion(clinicId)} = ${kept.version} then '{"kept": true}'
        else ${marksNow(clinicId, sort, where)} end)`
    : sizesNow(clinicId, sort, where);
  const rows = await read(pageIds, sizes);
  if (rows.length === 0) return null;
  const state = JSON.parse(String(rows[0]!.changes)) as {
    kept?: true;
    version: number | string;
    clinicRows: number | string | null;
    counts?: unknown;
    parts?: unknown;
  };
  if (state.kept && kept) return { rows, total: kept.total };
  if (state.parts) {
    const marked = { ...bookmarksOf(state.version, state.parts), clinicRows: Number(state.clinicRows ?? 0) };
    bookmarkStats.markedFromStart += 1;
    cache.set(key, marked);
    return { rows, total: marked.total };
  }
  const counts = countsOf(state.counts);
  const counted: Bookmarks = {
    version: Number(state.version),
    total: counts.reduce((sum, n) => sum + n, 0),
    marked: false,
    parts: counts.map((count) => ({ count, marks: [] })),
    clinicRows: Number(state.clinicRows ?? 0),
  };
  bookmarkStats.sized += 1;
  cache.set(key, counted);
  return { rows, total: counted.total };
}

import { type AnyColumn, and, asc, eq, gte, inArray, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { ReportSort, ReportStatusFilter } from "../../../domain/contracts/reports";
import type { Queryable } from "../../db/client";
import {
  clinics,
  physicians,
  reportCounters,
  reports,
  reportTemplates,
  reportVersions,
  sonographers,
  users,
  worksheets,
} from "../../db/schema";
import { pageFromBookmarks, pageFromStart, pageIdsFrom } from "./report-list-pages";

export type ReportRow = typeof reports.$inferSelect;
export type NewReportRow = typeof reports.$inferInsert;

const finalizer = alias(users, "finalizer");
const amender = alias(users, "amender");

const personName = (u: { firstName: AnyColumn; lastName: AnyColumn }) =>
  sql<string | null>`nullif(trim(coalesce(${u.firstName}, '') || ' ' || coalesce(${u.lastName}, '')), '')`;

/** A report with what its responses show beside it: the physician and the signers' names. */
const reportWithPeople = {
  report: reports,
  physicianName: physicians.name,
  physicianTitle: physicians.title,
  physicianSpecialty: physicians.specialty,
  physicianSignatureUrl: physicians.signatureUrl,
  finalizedByName: sql<string | null>`coalesce(${personName(finalizer)}, ${finalizer.email})`,
  amendedByName: sql<string | null>`coalesce(${personName(amender)}, ${amender.email})`,
};
export type ReportWithPeople = {
  report: ReportRow;
  physicianName: string | null;
  physicianTitle: string | null;
  physicianSpecialty: string | null;
  physicianSignatureUrl: string | null;
  finalizedByName: string | null;
  amendedByName: string | null;
};

function selectReportsWithPeople(db: Queryable) {
  return db
    .select(reportWithPeople)
    .from(reports)
    .leftJoin(physicians, and(eq(physicians.id, reports.physicianId), eq(physicians.clinicId, reports.clinicId)))
    .leftJoin(finalizer, eq(finalizer.id, reports.finalizedBy))
    .leftJoin(amender, eq(amender.id, reports.amendedBy));
}

const live = (clinicId: number) => and(eq(reports.clinicId, clinicId), isNull(reports.deletedAt));

export async function findReport(db: Queryable, clinicId: number, id: number): Promise<ReportWithPeople | undefined> {
  const [row] = await selectReportsWithPeople(db).where(and(live(clinicId), eq(reports.id, id)));
  return row;
}

/** Locks the live report row for the rest of the transaction: state checks and version numbers stay consistent. */
export async function lockReport(tx: Queryable, clinicId: number, id: number): Promise<ReportRow | undefined> {
  const [row] = await tx
    .select()
    .from(reports)
    .where(and(live(clinicId), eq(reports.id, id)))
    .for("update");
  return row;
}

export async function insertReport(tx: Queryable, values: NewReportRow): Promise<ReportRow> {
  const [row] = await tx.insert(reports).values(values).returning();
  return row!;
}

export async function updateReport(
  tx: Queryable,
  clinicId: number,
  id: number,
  values: Partial<NewReportRow>,
): Promise<void> {
  await tx
    .update(reports)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(reports.clinicId, clinicId), eq(reports.id, id)));
}

/** The list's filters besides the search words (see reportListQuery). */
export type ReportFilters = {
  status?: ReportStatusFilter;
  physicianId?: number;
  scanType?: string;
  examFrom?: string;
  examTo?: string;
};
export type ReportSearch = {
  tokens: SearchToken[];
  filters?: ReportFilters;
  sort?: ReportSort;
  limit: number;
  offset: number;
  /** An extra condition (the "critical, not communicated" filter), or null. */
  critical?: SQL | null;
};
/** One word of the search box: it must match the name/study type/MRN text, the report number or a date. */
export type SearchToken = { text: string; id: number | null; date: string | null };

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function tokenCondition(token: SearchToken): SQL {
  // Same expression as the reports_search_trgm_idx index, so the planner can use it.
  const alternatives: SQL[] = [
    sql`lower(${reports.patientName} || ' ' || ${reports.studyType} || ' ' || coalesce(${reports.mrn}, '')) like ${`%${escapeLike(token.text.toLowerCase())}%`}`,
  ];
  if (token.id !== null) alternatives.push(eq(reports.id, token.id));
  // A date is the exam date or the date of birth (each has its own index with the clinic).
  if (token.date !== null) alternatives.push(eq(reports.examDate, token.date), eq(reports.patientDob, token.date));
  return or(...alternatives)!;
}

/** One key of a list order (the outer sort of a page's rows; the page itself is chosen by report-list-pages). */
type OrderKey = { column: AnyColumn; desc: boolean; nullsLast: boolean };
const key = (column: AnyColumn, desc: boolean, nullsLast = true): OrderKey => ({ column, desc, nullsLast });
const orderSql = (keys: OrderKey[]) =>
  keys.map(
    ({ column, desc, nullsLast }) =>
      sql`${column} ${sql.raw(desc ? "desc" : "asc")} ${sql.raw(nullsLast ? "nulls last" : "nulls first")}`,
  );

const newestFirstKeys = [key(reports.generatedAt, true), key(reports.id, true)];
const newestFirst = orderSql(newestFirstKeys);

const orders: Record<ReportSort, OrderKey[]> = {
  generated_desc: newestFirstKeys,
  generated_asc: [key(reports.generatedAt, false), key(reports.id, false)],
  // Reports without an exam date go last either way; the id keeps pages stable among equal dates.
  exam_desc: [key(reports.examDate, true), key(reports.id, true)],
  exam_asc: [key(reports.examDate, false), key(reports.id, false)],
};

/** Below this many rows skipped a page is read from the start in one statement; deeper ones from bookmarks. */
const DEEP_OFFSET = 600;

const statusConditions: Record<ReportStatusFilter, SQL> = {
  draft: sql`${reports.isFinalized} = false and ${reports.amendmentCount} = 0`,
  awaiting_signature: sql`${reports.isFinalized} = false and ${reports.physicianId} is not null`,
  signed: sql`${reports.isFinalized} = true`,
  amended: sql`${reports.amendmentCount} > 0`,
};

function filterConditions(filters: ReportFilters = {}): SQL[] {
  const conditions: SQL[] = [];
  if (filters.status) conditions.push(statusConditions[filters.status]);
  if (filters.physicianId !== undefined) conditions.push(eq(reports.physicianId, filters.physicianId));
  if (filters.scanType) conditions.push(eq(reports.studyType, filters.scanType));
  if (filters.examFrom) conditions.push(gte(reports.examDate, filters.examFrom));
  if (filters.examTo) conditions.push(lte(reports.examDate, filters.examTo));
  return conditions;
}

/**
 * One page and its total. The page's ids are chosen first, in the order of an index (an index-only scan for the
 * list), so that the page joins the names of its own rows only. A page near the start is one statement (the total
 * an uncorrelated subquery). A deeper one (issue 30) starts from the nearest bookmark of its query, a (key, id)
 * kept every 100 rows while the clinic's report-list version is unchanged (report-list-pages.ts): it skips at most
 * 99 rows at any depth.
 */
export async function listReports(
  db: Queryable,
  clinicId: number,
  search: ReportSearch,
): Promise<{ rows: ReportWithPeople[]; total: number }> {
  const filters = filterConditions(search.filters);
  const where = and(live(clinicId), ...search.tokens.map(tokenCondition), ...filters, search.critical ?? undefined)!;
  const sort = search.sort ?? "generated_desc";
  const keys = orders[sort];
  // Unfiltered totals come from the trigger-kept counter: counting 100,000 rows per page is too slow.
  const counted = search.tokens.length > 0 || filters.length > 0 || !!search.critical;
  const total = !counted
    ? sql<number>`coalesce((select ${reportCounters.liveCount} from ${reportCounters} where ${eq(reportCounters.clinicId, clinicId)}), 0)`
    : sql<number>`(select count(*)::int from ${reports} where ${where})`;
  const countTotal = async () => {
    const [count] = await db.select({ total: total.mapWith(Number) }).from(sql`(select 1) as one`);
    return count?.total ?? 0;
  };
  // The page right-joined: a gated page statement whose gate held the page back answers one row without a report
  // (onPage false, `report` null) that carries the changes (report-list-pages.ts, PageQuery); every other row has
  // its report, so the rows typed as pages are those with onPage.
  const withPeople = (totalOfRows: SQL<number>, pageIds: SQL, changes: SQL = sql`null`) =>
    db
      .select({
        ...reportWithPeople,
        total: totalOfRows.mapWith(Number),
        changes: sql<unknown>`${changes}`,
        onPage: sql<boolean>`page.page_id is not null`,
      })
      .from(reports)
      .rightJoin(sql`${pageIds} as page`, sql`page.page_id = ${reports.id}`)
      .leftJoin(physicians, and(eq(physicians.id, reports.physicianId), eq(physicians.clinicId, reports.clinicId)))
      .leftJoin(finalizer, eq(finalizer.id, reports.finalizedBy))
      .leftJoin(amender, eq(amender.id, reports.amendedBy))
      .orderBy(...orderSql(keys)) as unknown as Promise<PageRow[]>;
  const fromStart = async () => {
    const rows = await withPeople(total, pageIdsFrom(sort, where, 0, null, search.offset, search.limit));
    // A page past the end has no row to carry the total.
    return { rows: rows.map(withoutCounts), total: rows.length > 0 ? rows[0]!.total : await countTotal() };
  };
  const query = {
    clinicId,
    sort,
    where,
    offset: search.offset,
    limit: search.limit,
    read: (pageIds: SQL, changes: SQL) => withPeople(sql<number>`0`, pageIds, changes),
  };
  // A counted total near the start is kept with the query's sizes (report-list-pages.ts), not counted per page.
  // Deeper, without search words or the critical filter the index reads the rows in order: bookmarks by jumps.
  const page =
    search.offset < DEEP_OFFSET
      ? counted
        ? await pageFromStart(db, query, search.tokens.length > 0)
        : null
      : await pageFromBookmarks(db, query, search.tokens.length === 0 && !search.critical ? "jump" : "rank");
  // Null for the plain list near the start, a page past the end, or when the clinic's reports changed under every
  // try: one statement, OFFSET from the start.
  return page ? { rows: page.rows.map(withoutCounts), total: page.total } : fromStart();
}

type PageRow = ReportWithPeople & { total: number; changes: unknown; onPage: boolean };
const withoutCounts = ({ total: _total, changes: _changes, onPage: _onPage, ...row }: PageRow) => row;

export async function recentReports(db: Queryable, clinicId: number, limit: number): Promise<ReportWithPeople[]> {
  return selectReportsWithPeople(db)
    .where(live(clinicId))
    .orderBy(...newestFirst)
    .limit(limit);
}

/**
 * Stores the report's next version, numbered in the same statement (one round trip, not a read of the highest
 * number first), and answers its number. Call it with the report's row locked (lockReport): writers of one
 * report take turns, so two never get the same number.
 */
export async function insertNextVersion(
  tx: Queryable,
  values: Omit<typeof reportVersions.$inferInsert, "versionNumber">,
): Promise<number> {
  const next = sql<number>`(select coalesce(max(v.version_number), 0) + 1 from ${reportVersions} v where v.report_id = ${values.reportId})`;
  const [row] = await tx
    .insert(reportVersions)
    .values({ ...values, versionNumber: next })
    .returning({ versionNumber: reportVersions.versionNumber });
  return row!.versionNumber;
}

export async function insertVersion(tx: Queryable, values: typeof reportVersions.$inferInsert): Promise<void> {
  await tx.insert(reportVersions).values(values);
}

const versionAuthor = sql<string | null>`coalesce(${personName(users)}, ${users.email})`;

export async function listVersions(db: Queryable, clinicId: number, reportId: number) {
  return db
    .select({
      versionNumber: reportVersions.versionNumber,
      kind: reportVersions.kind,
      reason: reportVersions.reason,
      snapshot: reportVersions.snapshot,
      createdBy: versionAuthor,
      createdAt: reportVersions.createdAt,
    })
    .from(reportVersions)
    .leftJoin(users, eq(users.id, reportVersions.createdBy))
    .where(and(eq(reportVersions.clinicId, clinicId), eq(reportVersions.reportId, reportId)))
    .orderBy(asc(reportVersions.versionNumber));
}

export async function findVersions(db: Queryable, clinicId: number, reportId: number, numbers: number[]) {
  return db
    .select({
      versionNumber: reportVersions.versionNumber,
      kind: reportVersions.kind,
      reason: reportVersions.reason,
      snapshot: reportVersions.snapshot,
      createdBy: versionAuthor,
      createdAt: reportVersions.createdAt,
    })
    .from(reportVersions)
    .leftJoin(users, eq(users.id, reportVersions.createdBy))
    .where(
      and(
        eq(reportVersions.clinicId, clinicId),
        eq(reportVersions.reportId, reportId),
        inArray(reportVersions.versionNumber, numbers),
      ),
    );
}

// Reads of other aggregates that generation needs. They stay here (not in those features) because they
// are plain clinic-scoped look-ups with no rules of their own.

export async function findWorksheet(db: Queryable, clinicId: number, id: number) {
  const [row] = await db
    .select()
    .from(worksheets)
    .where(and(eq(worksheets.clinicId, clinicId), eq(worksheets.id, id)));
  return row;
}

export async function findPhysician(db: Queryable, clinicId: number, id: number) {
  const [row] = await db
    .select({ id: physicians.id })
    .from(physicians)
    .where(and(eq(physicians.clinicId, clinicId), eq(physicians.id, id)));
  return row;
}

/** The clinic's physician with what a report shows beside it (the names of ReportWithPeople). */
export async function findPhysicianShown(db: Queryable, clinicId: number, id: number) {
  const [row] = await db
    .select({
      id: physicians.id,
      physicianName: physicians.name,
      physicianTitle: physicians.title,
      physicianSpecialty: physicians.specialty,
      physicianSignatureUrl: physicians.signatureUrl,
    })
    .from(physicians)
    .where(and(eq(physicians.clinicId, clinicId), eq(physicians.id, id)));
  return row;
}
export type PhysicianShown = NonNullable<Awaited<ReturnType<typeof findPhysicianShown>>>;

export async function findTemplateId(db: Queryable, clinicId: number, id: number) {
  const [row] = await db
    .select({ id: reportTemplates.id })
    .from(reportTemplates)
    .where(and(eq(reportTemplates.clinicId, clinicId), eq(reportTemplates.id, id)));
  return row;
}

/**
 * The clinic's settings a draft is written with, in one query: its spelling for the report text (American unless
 * the clinic chose British), its carotid criteria set (null: the default) and its critical-result rules that are
 * off (the new report's critical state is answered from them, without reading it again).
 */
export async function findDraftSettings(
  db: Queryable,
  clinicId: number,
): Promise<{ spelling: "en-US" | "en-GB"; criteriaSet: string | null; criticalRulesOff: string[] }> {
  const [row] = await db
    .select({
      spelling: clinics.reportSpelling,
      criteriaSet: clinics.carotidCriteriaSet,
      criticalRulesOff: clinics.criticalRulesOff,
    })
    .from(clinics)
    .where(eq(clinics.id, clinicId));
  return {
    spelling: row?.spelling === "en-GB" ? "en-GB" : "en-US",
    criteriaSet: row?.criteriaSet ?? null,
    criticalRulesOff: Array.isArray(row?.criticalRulesOff) ? row.criticalRulesOff : [],
  };
}

/** The clinic's sonographers, for matching the name written on a worksheet. */
export async function listSonographers(db: Queryable, clinicId: number) {
  return db
    .select({ id: sonographers.id, name: sonographers.name, initials: sonographers.initials })
    .from(sonographers)
    .where(eq(sonographers.clinicId, clinicId));
}

/**
 * Raises the clinic's report-list version for a change the reports table's triggers do not see (a critical
 * result's communication, the clinic's critical-result rules): remembered list answers are then not reused.
 */
export async function renewReportLists(tx: Queryable, clinicId: number): Promise<void> {
  await tx
    .update(reportCounters)
    .set({ version: sql`${reportCounters.version} + 1` })
    .where(eq(reportCounters.clinicId, clinicId));
}

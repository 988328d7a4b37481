import {
  type ReportSort,
  type ReportStatusFilter,
  reportSorts,
  reportStatusFilters,
} from "../../../../domain/contracts/reports";

/**
 * What the Reports list shows: search words, filters, sort and page. It lives in the address bar (the same
 * parameter names as GET /api/reports), so a list can be bookmarked or shared and Back returns to it.
 */
export type ReportListView = {
  search: string;
  status?: ReportStatusFilter;
  physicianId?: number;
  scanType?: string;
  examFrom?: string;
  examTo?: string;
  /** "Critical, not communicated" (issue 26): unsigned reports with a critical result not yet communicated. */
  critical?: boolean;
  sort: ReportSort;
  page: number;
};

export const DEFAULT_SORT: ReportSort = "generated_desc";

const isoDay = /^\d{4}-\d{2}-\d{2}$/;
const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  values.find((v) => v === value);
const positiveInt = (value: string | null) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};
const day = (value: string | null) => (value && isoDay.test(value) ? value : undefined);

/** A view from the address bar's query; anything unknown or malformed is left out rather than refused. */
export function viewFromQuery(query: string): ReportListView {
  const params = new URLSearchParams(query);
  return {
    search: params.get("search")?.trim() ?? "",
    status: oneOf(reportStatusFilters, params.get("status")),
    physicianId: positiveInt(params.get("physicianId")),
    scanType: params.get("scanType")?.trim() || undefined,
    examFrom: day(params.get("examFrom")),
    examTo: day(params.get("examTo")),
    critical: params.get("critical") === "uncommunicated" || undefined,
    sort: oneOf(reportSorts, params.get("sort")) ?? DEFAULT_SORT,
    page: positiveInt(params.get("page")) ?? 1,
  };
}

/** The list's query for the API, without the page: also the identity of "this list" for the editor's Next. */
export function listQueryOf(view: ReportListView): string {
  const params = new URLSearchParams();
  if (view.search) params.set("search", view.search);
  if (view.status) params.set("status", view.status);
  if (view.physicianId) params.set("physicianId", String(view.physicianId));
  if (view.scanType) params.set("scanType", view.scanType);
  if (view.examFrom) params.set("examFrom", view.examFrom);
  if (view.examTo) params.set("examTo", view.examTo);
  if (view.critical) params.set("critical", "uncommunicated");
  if (view.sort !== DEFAULT_SORT) params.set("sort", view.sort);
  return params.toString();
}

/** The address-bar query of a view ("" for the plain list). */
export function queryOfView(view: ReportListView): string {
  const params = new URLSearchParams(listQueryOf(view));
  if (view.page > 1) params.set("page", String(view.page));
  const query = params.toString();
  return query ? `?${query}` : "";
}

export const hasFilters = (view: ReportListView) =>
  Boolean(view.status || view.physicianId || view.scanType || view.examFrom || view.examTo || view.critical);

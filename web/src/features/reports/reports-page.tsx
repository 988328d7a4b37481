import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { FileText, Search } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { useLocation, useSearch } from "wouter";
import { REPORTS_PAGE_SIZE, type Report } from "../../../../domain/contracts/reports";
import { EmptyState, Spinner } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/dialog";
import { Input, Label } from "../../components/ui/input";
import { errorMessage } from "../../lib/api";
import { keptEditNames } from "../../lib/local-drafts";
import { useAuth } from "../auth/use-auth";
import { AmendDialog } from "./amend-dialog";
import { HistoryDialog } from "./history-dialog";
import { Pagination } from "./pagination";
import { reportPageQuery, useReportMutations } from "./report-api";
import { ReportCard } from "./report-card";
import { DELETE_CONFIRMATION, ReportEditor } from "./report-editor";
import { exportDocx, printReport, useClinicInfo, useTemplates } from "./report-exports";
import { ReportFilters } from "./report-filters";
import { listQueryOf, queryOfView, type ReportListView, viewFromQuery } from "./report-list-view";
import { type EditorTarget, pageOfPosition } from "./report-navigation";
import { SignDialog } from "./sign-dialog";
import { keptReportName } from "./use-report-draft";

const SEARCH_DEBOUNCE_MS = 300;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** The Reports screen: server-side search, 12 per page, and every report action (spec part 1, section 2). */
export function ReportsPage() {
  const id = useId();
  // The list shown lives in the address bar: shareable, and Back returns to the previous filters or page.
  const [, navigate] = useLocation();
  const view = viewFromQuery(useSearch());
  const showView = (next: ReportListView, replace = false) => navigate(`/reports${queryOfView(next)}`, { replace });
  const { page } = view;
  const setPage = (next: number) => showView({ ...view, page: next });
  const search = listQueryOf(view);
  const [searchText, setSearchText] = useState(view.search);
  const typed = useDebounced(searchText.trim(), SEARCH_DEBOUNCE_MS);
  // Typing replaces the entry (no Back step per letter) and starts at page 1; a search changed by Back or a
  // link shows in the box, but the box's own write-back must not overwrite what is still being typed.
  const written = useRef(view.search);
  useEffect(() => {
    if (typed === written.current) return;
    written.current = typed;
    navigate(`/reports${queryOfView({ ...viewFromQuery(window.location.search), search: typed, page: 1 })}`, {
      replace: true,
    });
  }, [typed, navigate]);
  useEffect(() => {
    if (view.search === written.current) return;
    written.current = view.search;
    setSearchText(view.search);
  }, [view.search]);
  const [editor, setEditor] = useState<EditorTarget | null>(null);
  const [amending, setAmending] = useState<Report | null>(null);
  const [deleting, setDeleting] = useState<Report | null>(null);
  const [historyOf, setHistoryOf] = useState<number | null>(null);
  const templates = useTemplates();
  const clinic = useClinicInfo();
  const { remove } = useReportMutations();
  const [signing, setSigning] = useState<Report | null>(null);
  const { user } = useAuth();
  // Read at each render: the editor writes them while open, and the list re-renders when it closes.
  const keptEdits = new Set(user ? keptEditNames(user.id) : []);

  const list = useQuery({ ...reportPageQuery(search, page), placeholderData: keepPreviousData });
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;

  // Past the last page (after deletions), step back to the last page that exists.
  const pageCount = Math.max(1, Math.ceil(total / REPORTS_PAGE_SIZE));
  const beyondLastPage = Boolean(list.data) && page > pageCount;
  useEffect(() => {
    if (beyondLastPage)
      navigate(`/reports${queryOfView({ ...viewFromQuery(window.location.search), page: pageCount })}`, {
        replace: true,
      });
  }, [beyondLastPage, pageCount, navigate]);

  // Back from the editor, the grid shows the page of the report the clinician ended on.
  const closeEditor = () => {
    const endedOn = editor && editor.search === search ? pageOfPosition(editor.position) : page;
    if (endedOn !== page) showView({ ...view, page: endedOn }, true);
    setEditor(null);
  };

  return (
    <div className="grid gap-6">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">Reports</h1>
          <p className="mt-1 text-slate-700" aria-live="polite">
            {list.data ? `${total} ${total === 1 ? "report" : "reports"}` : "\u00a0"}
          </p>
        </div>
        <div className="relative w-full sm:max-w-sm">
          <Label htmlFor={`${id}-search`} className="sr-only">
            Search reports
          </Label>
          <Search className="pointer-events-none absolute left-3 top-3 h-4 w-4 text-slate-600" aria-hidden />
          <Input
            id={`${id}-search`}
            type="search"
            placeholder="Search reports..."
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
            className="pl-9"
            aria-describedby={`${id}-search-help`}
          />
          <p id={`${id}-search-help`} className="sr-only">
            Matches patient name, report number, study type or exam date
          </p>
        </div>
      </header>
      <ReportFilters view={view} onChange={(change) => showView({ ...view, ...change, page: 1 })} />

      {list.isLoading ? (
        <Spinner label="Loading reports..." />
      ) : list.isError ? (
        <EmptyState title="Reports could not be loaded">
          {errorMessage(list.error, "Failed to load reports")}
        </EmptyState>
      ) : items.length === 0 ? (
        <EmptyState title="No Reports Found" icon={<FileText className="h-8 w-8" aria-hidden />}>
          {search ? "No reports match your search criteria" : "No reports have been generated yet"}
        </EmptyState>
      ) : (
        <>
          <ul
            className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3"
            aria-label="Reports"
            aria-busy={list.isFetching}
          >
            {items.map((report, index) => (
              <li key={report.id} className="grid min-w-0 grid-cols-1">
                <ReportCard
                  report={report}
                  hasKeptEdits={keptEdits.has(keptReportName(report) ?? "")}
                  actions={{
                    onEdit: () =>
                      setEditor({ search, position: (page - 1) * REPORTS_PAGE_SIZE + index, reportId: report.id }),
                    onPdf: () => printReport(report, templates.data, clinic.data),
                    onDocx: () => exportDocx(report, templates.data, "list"),
                    onFinalize: () => setSigning(report),
                    onAmend: () => setAmending(report),
                    onDelete: () => setDeleting(report),
                    onHistory: () => setHistoryOf(report.id),
                    finalizing: signing?.id === report.id,
                  }}
                />
              </li>
            ))}
          </ul>
          <Pagination page={page} pageSize={REPORTS_PAGE_SIZE} total={total} onPage={setPage} />
        </>
      )}

      {editor ? <ReportEditor target={editor} onMove={setEditor} onClose={closeEditor} /> : null}
      {signing ? <SignDialog report={signing} open onOpenChange={(open) => (open ? null : setSigning(null))} /> : null}
      <AmendDialog
        report={amending}
        open={amending !== null}
        onOpenChange={(open) => (open ? null : setAmending(null))}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? null : setDeleting(null))}
        title="Delete Report"
        description={DELETE_CONFIRMATION}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
      <HistoryDialog reportId={historyOf} onOpenChange={(open) => (open ? null : setHistoryOf(null))} />
    </div>
  );
}

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { FileText, Search } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { REPORTS_PAGE_SIZE, type Report } from "../../../../domain/contracts/reports";
import { EmptyState, Spinner } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/dialog";
import { Input, Label } from "../../components/ui/input";
import { errorMessage } from "../../lib/api";
import { AmendDialog } from "./amend-dialog";
import { HistoryDialog } from "./history-dialog";
import { Pagination } from "./pagination";
import { reportPageQuery, useReportMutations } from "./report-api";
import { ReportCard } from "./report-card";
import { DELETE_CONFIRMATION, ReportEditor } from "./report-editor";
import { exportDocx, printReport, useClinicInfo, useTemplates } from "./report-exports";
import { type EditorTarget, pageOfPosition } from "./report-navigation";
import { SignDialog } from "./sign-dialog";

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
  const [searchText, setSearchText] = useState("");
  const search = useDebounced(searchText.trim(), SEARCH_DEBOUNCE_MS);
  // The page belongs to one search: a new search starts at its first page.
  const [paging, setPaging] = useState({ search: "", page: 1 });
  const page = paging.search === search ? paging.page : 1;
  const setPage = (next: number) => setPaging({ search, page: next });
  const [editor, setEditor] = useState<EditorTarget | null>(null);
  const [amending, setAmending] = useState<Report | null>(null);
  const [deleting, setDeleting] = useState<Report | null>(null);
  const [historyOf, setHistoryOf] = useState<number | null>(null);
  const templates = useTemplates();
  const clinic = useClinicInfo();
  const { remove } = useReportMutations();
  const [signing, setSigning] = useState<Report | null>(null);

  const list = useQuery({ ...reportPageQuery(search, page), placeholderData: keepPreviousData });
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;

  // Past the last page (after deletions), step back to the last page that exists.
  const pageCount = Math.max(1, Math.ceil(total / REPORTS_PAGE_SIZE));
  const beyondLastPage = Boolean(list.data) && page > pageCount;
  useEffect(() => {
    if (beyondLastPage) setPaging({ search, page: pageCount });
  }, [beyondLastPage, search, pageCount]);

  // Back from the editor, the grid shows the page of the report the clinician ended on.
  const closeEditor = () => {
    if (editor) setPaging({ search: editor.search, page: pageOfPosition(editor.position) });
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
          <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Reports" aria-busy={list.isFetching}>
            {items.map((report, index) => (
              <li key={report.id} className="grid">
                <ReportCard
                  report={report}
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

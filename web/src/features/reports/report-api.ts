import { queryOptions, useMutation } from "@tanstack/react-query";
import {
  type AmendReportRequest,
  deleteReportResponse,
  type EditableReportFields,
  REPORTS_PAGE_SIZE,
  type Report,
  reportListSchema,
  reportSchema,
  type UpdateReportRequest,
} from "../../../../domain/contracts/reports";
import { toast } from "../../components/ui/use-toast";
import { api, errorMessage, isUnauthorizedError } from "../../lib/api";
import { showDate, showDateTime } from "../../lib/dates";
import { queryClient } from "../../lib/query-client";
import { type HeaderForm, headerFieldsOf } from "./header-fields";

/** Every reports query starts with this segment, so one invalidation refreshes lists, reports and histories. */
export const REPORTS_KEY = "/api/reports";

export const refreshReports = () => queryClient.invalidateQueries({ queryKey: [REPORTS_KEY] });

/** One page of the filtered list; the Reports grid and the editor's Previous/Next share this cache entry. */
/** One page of a list; `listQuery` is the list's search words and filters as a query string (listQueryOf). */
export function reportPageQuery(listQuery: string, page: number) {
  const params = new URLSearchParams(listQuery);
  params.set("page", String(page));
  params.set("pageSize", String(REPORTS_PAGE_SIZE));
  return queryOptions({
    queryKey: [REPORTS_KEY, { list: listQuery, page, pageSize: REPORTS_PAGE_SIZE }],
    queryFn: () => api.get(`/api/reports?${params}`, reportListSchema),
  });
}

/** The form's text fields, as the editor, the preview and the amend dialog edit them ("" for none). */
export type ReportForm = Pick<
  EditableReportFields,
  "patientName" | "studyType" | "indication" | "findings" | "impression"
> & {
  patientDob: string;
  examDate: string;
} & HeaderForm;

export function formOf(report: Report): ReportForm {
  return {
    patientName: report.patientName,
    patientDob: report.patientDob ?? "",
    examDate: report.examDate ?? "",
    mrn: report.mrn ?? "",
    patientSex: report.patientSex ?? "",
    referringPhysician: report.referringPhysician ?? "",
    sonographerName: report.sonographerName ?? "",
    studyType: report.studyType,
    indication: report.indication,
    findings: report.findings,
    impression: report.impression,
  };
}

export function isFormChanged(form: ReportForm, report: Report): boolean {
  const saved = formOf(report);
  return (Object.keys(saved) as (keyof ReportForm)[]).some((k) => form[k] !== saved[k]);
}

/** Empty date inputs mean "no date"; empty header fields mean none. */
export function fieldsOf(form: ReportForm) {
  return {
    ...form,
    patientDob: form.patientDob || null,
    examDate: form.examDate || null,
    ...headerFieldsOf(form),
  };
}

const failed = (title: string, fallback: string) => (error: unknown) => {
  // The query client already answers a 401 with Session Expired and the redirect.
  if (isUnauthorizedError(error)) return;
  toast({ title, description: errorMessage(error, fallback), variant: "destructive" });
};

/** The report mutations with the spec's notices; each refreshes every reports query. */
export function useReportMutations(onSaved?: (report: Report) => void) {
  const update = useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateReportRequest }) =>
      api.send("PATCH", `/api/reports/${id}`, body, reportSchema),
    onSuccess: (report) => {
      toast({
        title: "Report Updated",
        description: "Your changes have been saved successfully",
        variant: "success",
      });
      onSaved?.(report);
      void refreshReports();
    },
    onError: failed("Update Failed", "Failed to update report"),
  });
  const amend = useMutation({
    mutationFn: ({ id, body }: { id: number; body: AmendReportRequest }) =>
      api.send("POST", `/api/reports/${id}/amend`, body, reportSchema),
    onSuccess: (report) => {
      toast({ title: "Report Amended", description: "The amendment and its reason were recorded", variant: "success" });
      onSaved?.(report);
      void refreshReports();
    },
    onError: failed("Amendment Failed", "Failed to amend report"),
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.send("DELETE", `/api/reports/${id}`, undefined, deleteReportResponse),
    onSuccess: (_result, id) => {
      toast({ title: "Report Deleted", description: "The report was deleted", variant: "success" });
      // Awaited, so a caller's onSuccess sees the lists without the report; the deleted report's own
      // queries are left alone (refetching them would only answer 404 while the editor still shows it).
      return queryClient.invalidateQueries({ queryKey: [REPORTS_KEY], predicate: (q) => q.queryKey[1] !== id });
    },
    onError: failed("Delete Failed", "Failed to delete report"),
  });
  // Finalizing is not here: it is the signing dialog's act (sign-dialog.tsx), with its re-authentication.
  return { update, amend, remove };
}

/** "15 Mar 2024" for a date-only value; no time zone shift (it is a calendar date). */
export function formatDate(value: string | null | undefined): string {
  return showDate(value);
}

export function formatDateTime(value: string | null | undefined): string {
  return showDateTime(value);
}

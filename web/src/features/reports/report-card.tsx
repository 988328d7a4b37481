import { FileDown, FileText, History, Pencil, PenLine, Siren, Trash2 } from "lucide-react";
import { useId } from "react";
import { isDeletable, type Report } from "../../../../domain/contracts/reports";
import { Button } from "../../components/ui/button";
import { Badge, Card } from "../../components/ui/card";
import { Checkbox, Label } from "../../components/ui/input";
import { formatDate } from "./report-api";

export type CardActions = {
  onEdit: () => void;
  onPdf: () => void;
  onDocx: () => void;
  onFinalize: () => void;
  onAmend: () => void;
  onDelete: () => void;
  onHistory: () => void;
  finalizing: boolean;
};

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-3">
      <dt className="text-slate-700">{label}</dt>
      <dd className="text-right font-medium text-slate-900">{value}</dd>
    </div>
  );
}

/** One report in the Reports grid: the spec's fields and actions. */
export function ReportCard({
  report,
  actions,
  hasKeptEdits = false,
}: {
  report: Report;
  actions: CardActions;
  /** Unsaved edits of this report are kept in this browser (an earlier session ended before Save). */
  hasKeptEdits?: boolean;
}) {
  const id = useId();
  return (
    <Card className="flex flex-col gap-4 p-4">
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="truncate text-base font-semibold text-slate-900">{report.patientName || "Unnamed patient"}</h2>
          <p className="text-sm text-slate-700">#{report.id}</p>
          {hasKeptEdits ? (
            <p className="mt-1 text-sm font-medium text-amber-800">Unsaved edits kept: open Edit to continue</p>
          ) : null}
        </div>
        {report.isFinalized ? (
          <Badge tone="green">Finalized</Badge>
        ) : report.isAmended ? (
          <Badge tone="yellow">Amended, unsigned</Badge>
        ) : (
          <Badge>Draft</Badge>
        )}
      </div>
      <dl className="grid gap-1 text-sm">
        <Row label="Exam date" value={formatDate(report.examDate)} />
        <Row label="Study type" value={report.studyType} />
        <Row label="Generated" value={formatDate(report.generatedAt)} />
        {report.finalizedAt ? <Row label="Signed" value={formatDate(report.finalizedAt)} /> : null}
        {report.amendedAt ? <Row label="Amended" value={formatDate(report.amendedAt)} /> : null}
      </dl>
      {report.criticalUncommunicated ? (
        <p className="flex items-center gap-2 rounded border border-red-300 bg-red-50 px-2 py-1 text-sm text-red-900">
          <Siren className="h-4 w-4 shrink-0" aria-hidden />
          <span className="font-medium">Critical result, not communicated</span>
        </p>
      ) : null}
      <div className="mt-auto grid gap-3 border-t border-slate-200 pt-3">
        {report.isFinalized ? null : (
          <div className="flex items-center gap-2">
            <Checkbox
              id={`${id}-finalize`}
              checked={actions.finalizing}
              disabled={actions.finalizing}
              onChange={(e) => {
                if (e.target.checked) actions.onFinalize();
              }}
            />
            <Label htmlFor={`${id}-finalize`}>Finalize</Label>
          </div>
        )}
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={actions.onEdit} aria-label={`Edit report #${report.id}`}>
            <Pencil className="h-4 w-4" aria-hidden />
            Edit
          </Button>
          <Button variant="outline" size="sm" onClick={actions.onPdf} aria-label={`PDF of report #${report.id}`}>
            <FileText className="h-4 w-4" aria-hidden />
            PDF
          </Button>
          <Button variant="outline" size="sm" onClick={actions.onDocx} aria-label={`DOCX of report #${report.id}`}>
            <FileDown className="h-4 w-4" aria-hidden />
            DOCX
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={actions.onHistory}
            aria-label={`History of report #${report.id}`}
          >
            <History className="h-4 w-4" aria-hidden />
            History
          </Button>
          {report.isFinalized ? (
            <Button variant="outline" size="sm" onClick={actions.onAmend} aria-label={`Amend report #${report.id}`}>
              <PenLine className="h-4 w-4" aria-hidden />
              Amend
            </Button>
          ) : null}
          {isDeletable(report) ? (
            <Button
              variant="ghost"
              size="sm"
              className="text-red-800 hover:bg-red-50"
              onClick={actions.onDelete}
              aria-label={`Delete report #${report.id}`}
            >
              <Trash2 className="h-4 w-4" aria-hidden />
              Delete
            </Button>
          ) : null}
        </div>
      </div>
    </Card>
  );
}

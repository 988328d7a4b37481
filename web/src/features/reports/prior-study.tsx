import { History } from "lucide-react";
import { useId, useState } from "react";
import { priorReportAnswer } from "../../../../domain/contracts/reports";
import { Button } from "../../components/ui/button";
import { useApiQuery } from "../../lib/api";
import { formatDate, REPORTS_KEY } from "./report-api";

/**
 * The patient's prior finalized study of the same scan type beside the draft: the one the draft's impression was
 * compared with when it was generated (or, when none was recorded, the latest now), opened in place to read.
 */
export function PriorStudy({ reportId }: { reportId: number }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const answer = useApiQuery([REPORTS_KEY, reportId, "prior"], priorReportAnswer);
  const prior = answer.data?.prior;
  if (!prior) return null;
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="grid gap-2 rounded-md border border-slate-300 bg-white p-3 text-sm text-slate-900"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={`${id}-title`} className="flex items-center gap-2 font-semibold">
          <History className="h-4 w-4" aria-hidden />
          Prior study of {formatDate(prior.examDate)}
        </h3>
        <Button
          variant="outline"
          size="sm"
          aria-expanded={open}
          aria-controls={`${id}-body`}
          onClick={() => setOpen((value) => !value)}
        >
          {open ? "Hide the prior report" : "Show the prior report"}
        </Button>
      </div>
      <p className="text-xs text-slate-700">
        {prior.studyType}, {prior.status === "amended" ? "signed after an amendment" : "signed"}.{" "}
        {prior.comparedInDraft
          ? "The draft's impression was compared with it."
          : "The draft was not compared with it: it was found after the draft was written."}
      </p>
      {open ? (
        <div id={`${id}-body`} className="grid gap-2">
          <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-700">Impression</h4>
          <p className="whitespace-pre-wrap leading-relaxed">{prior.impression}</p>
          <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-700">Findings</h4>
          <p className="whitespace-pre-wrap leading-relaxed">{prior.findings}</p>
        </div>
      ) : null}
    </section>
  );
}

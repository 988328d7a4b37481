import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import type { TurnaroundFiguresDto, TurnaroundReport } from "../../../../domain/contracts/sign-off";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle, EmptyState, Spinner } from "../../components/ui/card";
import { Input, Label } from "../../components/ui/input";
import { errorMessage } from "../../lib/api";
import { formatDate } from "../reports/report-api";
import { percent, turnaroundQuery, workingDaysText } from "./sign-off-api";

const days = (n: number | null) => (n === null ? "—" : String(n));
/** Hours to one decimal; under an hour in whole minutes (a signature minutes after the draft is common). */
const hours = (n: number | null) => (n === null ? "—" : n < 1 ? `${Math.round(n * 60)} min` : `${n.toFixed(1)} h`);

function Stat({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <Card className="grid gap-1 p-4">
      <p className="text-sm text-slate-700">{label}</p>
      <p className="text-2xl font-semibold text-slate-900">{value}</p>
      {note ? <p className="text-xs text-slate-700">{note}</p> : null}
    </Card>
  );
}

/** The figures' columns, shared by the physicians' and the weeks' tables. */
function FigureCells({ figures }: { figures: TurnaroundFiguresDto }) {
  return (
    <>
      <td className="px-3 py-2 text-right">{figures.signed}</td>
      <td className="px-3 py-2 text-right">{days(figures.medianWorkingDays)}</td>
      <td className="px-3 py-2 text-right">
        {percent(figures.shareWithinTarget)}
        <span className="sr-only">
          {" "}
          ({figures.withinTarget} of {figures.signed})
        </span>
      </td>
      <td className="px-3 py-2 text-right">{hours(figures.medianHoursGeneratedToSigned)}</td>
    </>
  );
}

const figureHeads = [
  "Signed",
  "Median working days, exam to signature",
  "Signed within target",
  "Median hours, draft to signature",
];

function Table({ caption, first, children }: { caption: string; first: string[]; children: React.ReactNode }) {
  return (
    // relative: the screen-reader-only text inside stays within this scroll box (absolute positioning escapes it).
    // A keyboard reaches the box to scroll it on a narrow screen (WCAG 2.1.1).
    <section
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to scroll by keyboard
      tabIndex={0}
      aria-label={caption}
      className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white"
    >
      <table className="w-full min-w-[40rem] text-sm">
        <caption className="px-3 py-2 text-left font-semibold text-slate-900">{caption}</caption>
        <thead className="bg-slate-50 text-slate-800">
          <tr>
            {first.map((h) => (
              <th key={h} scope="col" className="px-3 py-2 text-left font-medium">
                {h}
              </th>
            ))}
            {figureHeads.map((h) => (
              <th key={h} scope="col" className="px-3 py-2 text-right font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 text-slate-900">{children}</tbody>
      </table>
    </section>
  );
}

/**
 * Turnaround: per physician and per ISO week, the reports first signed in the period, the median working days
 * from exam to signature, the share signed within the clinic's target, and the drafts overdue today. Every
 * number is counted from the database by the server (domain/turnaround.ts says how days are counted).
 */
export function TurnaroundPage() {
  const id = useId();
  const [period, setPeriod] = useState({ from: "", to: "" });
  const [form, setForm] = useState(period);
  const report = useQuery({ ...turnaroundQuery(period.from, period.to), placeholderData: keepPreviousData });
  const data = report.data;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setPeriod(form);
  };

  return (
    // minmax(0, 1fr): a wide table scrolls inside its own box instead of widening the page on a phone.
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <header className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold text-slate-900">Turnaround</h1>
          <p className="text-slate-700">
            {data
              ? `Reports first signed ${formatDate(data.from)} to ${formatDate(data.to)}; target ${workingDaysText(data.targetDays)} after the exam.`
              : "\u00a0"}
          </p>
          <p className="text-sm text-slate-700">
            Working days are Monday to Friday, counted from the day after the exam to the signing day; weekends are not
            counted, public holidays are.
          </p>
        </div>
        <form onSubmit={submit} className="flex flex-wrap items-end gap-3" aria-label="Period">
          <div className="grid gap-1">
            <Label htmlFor={`${id}-from`}>From</Label>
            <Input
              id={`${id}-from`}
              type="date"
              value={form.from}
              onChange={(e) => setForm({ ...form, from: e.target.value })}
            />
          </div>
          <div className="grid gap-1">
            <Label htmlFor={`${id}-to`}>To</Label>
            <Input
              id={`${id}-to`}
              type="date"
              value={form.to}
              onChange={(e) => setForm({ ...form, to: e.target.value })}
            />
          </div>
          <Button type="submit" disabled={report.isFetching}>
            {report.isFetching ? "Counting..." : "Show"}
          </Button>
        </form>
      </header>

      {report.isLoading ? (
        <Spinner label="Counting signed reports..." />
      ) : report.isError && !data ? (
        <EmptyState title="Turnaround could not be counted">
          {errorMessage(report.error, "Failed to load turnaround")}
        </EmptyState>
      ) : data ? (
        <Figures data={data} error={report.isError ? errorMessage(report.error, "Failed to load turnaround") : null} />
      ) : null}
    </div>
  );
}

function Figures({ data, error }: { data: TurnaroundReport; error: string | null }) {
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      {error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          {error}
        </p>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Stat label="Reports signed" value={String(data.clinic.signed)} />
        <Stat
          label="Median, exam to signature"
          value={data.clinic.medianWorkingDays === null ? "—" : workingDaysText(data.clinic.medianWorkingDays)}
        />
        <Stat
          label={`Signed within ${workingDaysText(data.targetDays)}`}
          value={percent(data.clinic.shareWithinTarget)}
          note={`${data.clinic.withinTarget} of ${data.clinic.signed}`}
        />
        <Stat
          label="Drafts overdue today"
          value={String(data.overdueDrafts)}
          note={`of ${data.awaitingDrafts} awaiting a signature`}
        />
      </div>
      {data.clinic.timedFromGenerated > 0 ? (
        <p className="text-sm text-slate-700">
          {data.clinic.timedFromGenerated} signed {data.clinic.timedFromGenerated === 1 ? "report has" : "reports have"}{" "}
          no exam date: timed from the day {data.clinic.timedFromGenerated === 1 ? "it was" : "they were"} generated.
        </p>
      ) : null}

      <Table caption="By physician" first={["Physician", "Overdue drafts"]}>
        {data.physicians.map((p) => (
          <tr key={p.physicianId ?? "unassigned"}>
            <th scope="row" className="px-3 py-2 text-left font-medium">
              {p.physicianName ?? "No physician assigned"}
            </th>
            <td className={p.overdueDrafts > 0 ? "px-3 py-2 font-semibold text-red-800" : "px-3 py-2"}>
              {p.overdueDrafts} of {p.awaitingDrafts}
            </td>
            <FigureCells figures={p.total} />
          </tr>
        ))}
      </Table>

      <Table caption="By week (ISO weeks, Monday to Sunday), whole clinic" first={["Week"]}>
        {data.weeks.length === 0 ? (
          <tr>
            <td colSpan={5} className="px-3 py-4 text-center text-slate-700">
              No report was first signed in this period.
            </td>
          </tr>
        ) : (
          data.weeks.map((w) => (
            <tr key={w.week}>
              <th scope="row" className="px-3 py-2 text-left font-medium">
                {w.week} <span className="font-normal text-slate-700">(from {formatDate(w.weekStart)})</span>
              </th>
              <FigureCells figures={w} />
            </tr>
          ))
        )}
      </Table>

      {data.physicians
        .filter((p) => p.weeks.length > 0)
        .map((p) => (
          <Card key={p.physicianId ?? "unassigned"}>
            <CardHeader>
              <CardTitle>{p.physicianName ?? "No physician assigned"}, by week</CardTitle>
            </CardHeader>
            <CardContent>
              <Table
                caption={`${p.physicianName ?? "No physician assigned"}: reports signed per week`}
                first={["Week"]}
              >
                {p.weeks.map((w) => (
                  <tr key={w.week}>
                    <th scope="row" className="px-3 py-2 text-left font-medium">
                      {w.week}
                    </th>
                    <FigureCells figures={w} />
                  </tr>
                ))}
              </Table>
            </CardContent>
          </Card>
        ))}
    </div>
  );
}

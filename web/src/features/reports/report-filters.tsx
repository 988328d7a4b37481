import { useId } from "react";
import { z } from "zod";
import { physician } from "../../../../domain/contracts/physicians";
import type { ReportSort, ReportStatusFilter } from "../../../../domain/contracts/reports";
import { scanTypes } from "../../../../domain/vocabulary/study-terms";
import { Button } from "../../components/ui/button";
import { Checkbox, Input, Label, Select } from "../../components/ui/input";
import { useApiQuery } from "../../lib/api";
import { hasFilters, type ReportListView } from "./report-list-view";

const statusLabels: Record<ReportStatusFilter, string> = {
  draft: "Draft (never signed)",
  awaiting_signature: "Awaiting signature",
  signed: "Signed",
  amended: "Amended",
};

const sortLabels: Record<ReportSort, string> = {
  generated_desc: "Newest generated first",
  generated_asc: "Oldest generated first",
  exam_desc: "Newest exam first",
  exam_asc: "Oldest exam first",
};

type Change = Partial<Omit<ReportListView, "search" | "page">>;

/** The Reports list's filters and sort; every change starts the list at its first page. */
export function ReportFilters({ view, onChange }: { view: ReportListView; onChange: (change: Change) => void }) {
  const id = useId();
  const physicians = useApiQuery(["/api/physicians"], z.array(physician));
  const field = "grid min-w-0 gap-1";
  return (
    <fieldset className="grid grid-cols-2 items-end gap-3 sm:grid-cols-3 lg:grid-cols-7">
      <legend className="sr-only">Filter and sort reports</legend>
      <div className={field}>
        <Label htmlFor={`${id}-status`}>Status</Label>
        <Select
          id={`${id}-status`}
          value={view.status ?? ""}
          onChange={(e) => onChange({ status: (e.target.value || undefined) as ReportStatusFilter | undefined })}
        >
          <option value="">All statuses</option>
          {Object.entries(statusLabels).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
      </div>
      <div className={field}>
        <Label htmlFor={`${id}-physician`}>Physician</Label>
        <Select
          id={`${id}-physician`}
          value={view.physicianId ? String(view.physicianId) : ""}
          onChange={(e) => onChange({ physicianId: e.target.value ? Number(e.target.value) : undefined })}
        >
          <option value="">All physicians</option>
          {physicians.data?.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </Select>
      </div>
      <div className={field}>
        <Label htmlFor={`${id}-scan`}>Scan type</Label>
        <Select
          id={`${id}-scan`}
          value={view.scanType ?? ""}
          onChange={(e) => onChange({ scanType: e.target.value || undefined })}
        >
          <option value="">All scan types</option>
          {/* A scan type stored before the vocabulary settled still shows as the chosen value. */}
          {view.scanType && !(scanTypes as readonly string[]).includes(view.scanType) ? (
            <option value={view.scanType}>{view.scanType}</option>
          ) : null}
          {scanTypes.map((scanType) => (
            <option key={scanType} value={scanType}>
              {scanType}
            </option>
          ))}
        </Select>
      </div>
      <div className={field}>
        <Label htmlFor={`${id}-from`}>Exam from</Label>
        <Input
          id={`${id}-from`}
          type="date"
          value={view.examFrom ?? ""}
          max={view.examTo}
          onChange={(e) => onChange({ examFrom: e.target.value || undefined })}
        />
      </div>
      <div className={field}>
        <Label htmlFor={`${id}-to`}>Exam to</Label>
        <Input
          id={`${id}-to`}
          type="date"
          value={view.examTo ?? ""}
          min={view.examFrom}
          onChange={(e) => onChange({ examTo: e.target.value || undefined })}
        />
      </div>
      <div className={field}>
        <Label htmlFor={`${id}-sort`}>Sort</Label>
        <Select id={`${id}-sort`} value={view.sort} onChange={(e) => onChange({ sort: e.target.value as ReportSort })}>
          {Object.entries(sortLabels).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
      </div>
      <div className="flex min-h-10 items-center gap-2">
        <Checkbox
          id={`${id}-critical`}
          checked={Boolean(view.critical)}
          onChange={(e) => onChange({ critical: e.target.checked || undefined })}
        />
        <Label htmlFor={`${id}-critical`}>Critical, not communicated</Label>
      </div>
      {hasFilters(view) ? (
        <div className="col-span-2 sm:col-span-3 lg:col-span-7">
          <Button
            variant="outline"
            size="sm"
            onClick={() =>
              onChange({
                status: undefined,
                physicianId: undefined,
                scanType: undefined,
                examFrom: undefined,
                examTo: undefined,
                critical: undefined,
              })
            }
          >
            Clear filters
          </Button>
        </div>
      ) : null}
    </fieldset>
  );
}

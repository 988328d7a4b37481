import { useMutation } from "@tanstack/react-query";
import { Sparkles } from "lucide-react";
import { useId, useState } from "react";
import { z } from "zod";
import { physician } from "../../../../domain/contracts/physicians";
import { type GenerateReportRequest, type PatientInput, reportSchema } from "../../../../domain/contracts/reports";
import type { Observation } from "../../../../domain/contracts/study";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { Label, Select } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { ApiError, api, errorMessage, isUnauthorizedError, useApiQuery } from "../../lib/api";
import { physicianRetry } from "../../lib/query-client";
import { refreshReports } from "./report-api";
import type { StudyMeasurementInput } from "./report-types";

/** Reporting physician selector and Generate Report (spec part 1, sections 2 and 5). */
export function ReportSettingsCard({
  worksheetId,
  scanType,
  measurements,
  observations = null,
  patient,
  onGenerated,
}: {
  worksheetId: number | null;
  scanType: string | null;
  measurements: StudyMeasurementInput[] | null;
  /** The findings read from check boxes that the clinician kept (none kept is an empty list, not "use OCR's"). */
  observations?: Observation[] | null;
  /** The patient and header fields as checked on the upload screen. */
  patient: PatientInput;
  onGenerated: (report: unknown) => void;
}) {
  const id = useId();
  const [physicianId, setPhysicianId] = useState("");
  // Why Generate cannot go on, shown beside the button until the clinician changes something.
  const [problem, setProblem] = useState<{ field: "physician" | "scanType" | "request"; text: string } | null>(null);
  const physicians = useApiQuery(["/api/physicians"], z.array(physician), { retry: physicianRetry });

  const generate = useMutation({
    mutationFn: (body: GenerateReportRequest) => api.send("POST", "/api/reports/generate", body, reportSchema),
    onSuccess: (report) => {
      setProblem(null);
      onGenerated(report);
      toast({
        title: "Report Generated",
        description: "Your ultrasound report has been successfully generated",
        variant: "success",
      });
      void refreshReports();
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return;
      // The server's own words (for example "Please select the scan type"), else the catalogue's text.
      const text = errorMessage(error, "Failed to generate report. Please try again.");
      toast({ title: "Generation Failed", description: text, variant: "destructive" });
      const field = error instanceof ApiError ? serverField(error) : null;
      setProblem({
        field: field === "physicianId" ? "physician" : field === "scanType" ? "scanType" : "request",
        text,
      });
    },
  });

  const onGenerate = () => {
    if (!worksheetId) {
      toast({ title: "No Worksheet", description: "Please upload a worksheet first", variant: "destructive" });
      return;
    }
    if (!scanType) {
      setProblem({
        field: "scanType",
        text: "Choose the scan type in Patient Information before generating the report.",
      });
      document.getElementById("scanType")?.focus();
      return;
    }
    if (!physicianId) {
      setProblem({ field: "physician", text: "Please select a reporting physician" });
      document.getElementById(`${id}-physician`)?.focus();
      return;
    }
    setProblem(null);
    generate.mutate({
      worksheetId,
      physicianId: Number(physicianId),
      logoUrl: null,
      ...(scanType ? { scanType: scanType as GenerateReportRequest["scanType"] } : {}),
      ...(measurements ? { measurements } : {}),
      ...(observations ? { observations } : {}),
      patient,
    });
  };

  const list = physicians.data ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Report Settings</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-physician`}>Reporting Physician</Label>
          <Select
            id={`${id}-physician`}
            value={physicianId}
            onChange={(e) => {
              setPhysicianId(e.target.value);
              if (problem?.field === "physician") setProblem(null);
            }}
            disabled={physicians.isLoading}
            aria-invalid={problem?.field === "physician"}
            aria-describedby={`${id}-physician-help${problem?.field === "physician" ? ` ${id}-problem` : ""}`}
          >
            <option value="">{physicians.isLoading ? "Loading physicians..." : "Select a physician"}</option>
            {list.map((p) => (
              <option key={p.id} value={p.id}>
                {[p.name, p.title].filter(Boolean).join(", ")}
              </option>
            ))}
          </Select>
          <p id={`${id}-physician-help`} className="text-sm text-slate-700">
            {physicians.isError
              ? "The physician list could not be loaded."
              : !physicians.isLoading && list.length === 0
                ? "No physicians yet: add one in the Clinic tab."
                : "Shown in the report's signature block."}
          </p>
        </div>
        {problem ? (
          <p id={`${id}-problem`} role="alert" className="text-sm font-medium text-red-800">
            {problem.text}
          </p>
        ) : null}
        <Button onClick={onGenerate} disabled={generate.isPending} className="w-full">
          {generate.isPending ? (
            <>
              <span className="h-4 w-4 animate-spin rounded-full border-2 border-white/40 border-t-white" aria-hidden />
              Generating report...
            </>
          ) : (
            <>
              <Sparkles className="h-4 w-4" aria-hidden />
              Generate Report
            </>
          )}
        </Button>
        {generate.isPending ? (
          <p role="status" className="text-sm text-slate-700">
            Grading the measurements and writing the draft. This can take a few seconds.
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** The field the server named in its refusal, if any. */
function serverField(error: ApiError): string | null {
  try {
    const body = JSON.parse(error.bodyText) as { field?: unknown };
    return typeof body.field === "string" ? body.field : null;
  } catch {
    return null;
  }
}

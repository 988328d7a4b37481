import { useMutation, useQuery } from "@tanstack/react-query";
import { Sparkles } from "lucide-react";
import { useId, useState } from "react";
import type { Physician } from "../../../../domain/contracts/physicians";
import type { GenerateReportRequest, Report } from "../../../../domain/contracts/reports";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { Label, Select } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { apiJson, isUnauthorizedError } from "../../lib/api";
import { physicianRetry } from "../../lib/query-client";
import { refreshReports } from "./report-api";
import type { StudyMeasurementInput } from "./report-types";

/** Reporting physician selector and Generate Report (spec part 1, sections 2 and 5). */
export function ReportSettingsCard({
  worksheetId,
  scanType,
  measurements,
  patient,
  onGenerated,
}: {
  worksheetId: number | null;
  scanType: string | null;
  measurements: StudyMeasurementInput[] | null;
  patient: { patientName: string; patientDob: string; examDate: string };
  onGenerated: (report: unknown) => void;
}) {
  const id = useId();
  const [physicianId, setPhysicianId] = useState("");
  const physicians = useQuery<Physician[]>({ queryKey: ["/api/physicians"], retry: physicianRetry });

  const generate = useMutation({
    mutationFn: (body: GenerateReportRequest) => apiJson<Report>("POST", "/api/reports/generate", body),
    onSuccess: (report) => {
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
      toast({
        title: "Generation Failed",
        description: "Failed to generate report. Please try again.",
        variant: "destructive",
      });
    },
  });

  const onGenerate = () => {
    if (!worksheetId) {
      toast({ title: "No Worksheet", description: "Please upload a worksheet first", variant: "destructive" });
      return;
    }
    if (!physicianId) {
      toast({
        title: "No Physician Selected",
        description: "Please select a reporting physician",
        variant: "destructive",
      });
      return;
    }
    generate.mutate({
      worksheetId,
      physicianId: Number(physicianId),
      logoUrl: null,
      ...(scanType ? { scanType: scanType as GenerateReportRequest["scanType"] } : {}),
      ...(measurements ? { measurements } : {}),
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
            onChange={(e) => setPhysicianId(e.target.value)}
            disabled={physicians.isLoading}
            aria-describedby={`${id}-physician-help`}
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

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useRef, useState } from "react";
import { z } from "zod";
import { clinicalFindings, trainingPair } from "../../../../domain/contracts/admin";
import { scanTypes } from "../../../../domain/report-engine/vocabulary";
import { Button } from "../../components/ui/button";
import { Badge, Card, CardContent, CardHeader, CardTitle, EmptyState, Spinner } from "../../components/ui/card";
import { Input, Label, Select } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { api, errorMessage, useApiQuery } from "../../lib/api";
import { queryClient } from "../../lib/query-client";
import { formatDate } from "./format";

const findingLabel = (value: string) => clinicalFindings.find((f) => f.value === value)?.label ?? value;

export function TrainingTab() {
  const history = useApiQuery(["/api/training"], z.array(trainingPair));
  const form = useRef<HTMLFormElement>(null);
  const [worksheet, setWorksheet] = useState<File | null>(null);
  const [report, setReport] = useState<File | null>(null);
  const [category, setCategory] = useState("");
  const [complexity, setComplexity] = useState("");

  const upload = useMutation({
    mutationFn: (body: FormData) => api.send("POST", "/api/training", body, trainingPair),
    onSuccess: (pair) => {
      toast({
        title: "Training Data Added",
        description: pair.reportTextLength
          ? "The pair was stored and its report text extracted."
          : "The pair was stored; this report format has no extractable text.",
        variant: "success",
      });
      form.current?.reset();
      setWorksheet(null);
      setReport(null);
      setCategory("");
      setComplexity("");
      void queryClient.invalidateQueries({ queryKey: ["/api/training"] });
    },
    onError: (error) => toast({ title: "Upload Failed", description: errorMessage(error), variant: "destructive" }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!worksheet || !report || !category || !complexity) {
      toast({
        title: "Missing Information",
        description: "Please upload both files and select category and complexity level",
        variant: "destructive",
      });
      return;
    }
    const body = new FormData();
    body.append("worksheet", worksheet);
    body.append("report", report);
    body.append("category", category);
    body.append("complexityLevel", complexity);
    upload.mutate(body);
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <Card>
        <CardHeader>
          <CardTitle>Upload a training pair</CardTitle>
          <p className="text-sm text-slate-700">
            A worksheet and its final report. Report text (PDF, DOCX) becomes an example for the language model.
          </p>
        </CardHeader>
        <CardContent>
          <form ref={form} className="grid gap-4" onSubmit={submit} noValidate>
            <div className="grid gap-1.5">
              <Label htmlFor="training-worksheet">Worksheet file (image or PDF)</Label>
              <Input
                id="training-worksheet"
                type="file"
                accept="image/*,.pdf"
                onChange={(e) => setWorksheet(e.target.files?.[0] ?? null)}
              />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="training-report">Report file (PDF, DOC, DOCX or image)</Label>
              <Input
                id="training-report"
                type="file"
                accept=".pdf,.doc,.docx,image/*"
                onChange={(e) => setReport(e.target.files?.[0] ?? null)}
              />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="training-scan-type">Scan type</Label>
              <Select id="training-scan-type" value={category} onChange={(e) => setCategory(e.target.value)}>
                <option value="">Select a scan type</option>
                {scanTypes.map((type) => (
                  <option key={type} value={type}>
                    {type}
                  </option>
                ))}
              </Select>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="training-finding">Clinical finding</Label>
              <Select id="training-finding" value={complexity} onChange={(e) => setComplexity(e.target.value)}>
                <option value="">Select a finding</option>
                {clinicalFindings.map((f) => (
                  <option key={f.value} value={f.value}>
                    {f.label}
                  </option>
                ))}
              </Select>
            </div>
            <Button type="submit" disabled={upload.isPending}>
              {upload.isPending ? "Uploading..." : "Upload Training Data"}
            </Button>
          </form>
        </CardContent>
      </Card>
      <Card className="overflow-x-auto">
        <CardHeader>
          <CardTitle>Training history</CardTitle>
        </CardHeader>
        <CardContent>
          {history.isLoading ? (
            <Spinner label="Loading training data..." />
          ) : !history.data?.length ? (
            <EmptyState title="No training data uploaded yet" />
          ) : (
            <table className="w-full min-w-[480px] text-left text-sm">
              <thead className="border-b border-slate-200 text-slate-800">
                <tr>
                  <th scope="col" className="py-2 font-semibold">
                    Date
                  </th>
                  <th scope="col" className="py-2 font-semibold">
                    Scan Type
                  </th>
                  <th scope="col" className="py-2 font-semibold">
                    Finding
                  </th>
                  <th scope="col" className="py-2 font-semibold">
                    Status
                  </th>
                </tr>
              </thead>
              <tbody>
                {history.data.map((pair) => (
                  <tr key={pair.id} className="border-b border-slate-100 last:border-0">
                    <td className="py-2 text-slate-700">{formatDate(pair.uploadedAt)}</td>
                    <td className="py-2">{pair.category}</td>
                    <td className="py-2">{findingLabel(pair.complexityLevel)}</td>
                    <td className="py-2">
                      <Badge tone="green">Complete</Badge>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { z } from "zod";
import { type DigitalWorksheet, digitalWorksheetSchema } from "../../../../domain/contracts/drawings";
import { sonographer } from "../../../../domain/contracts/sonographers";
import type { WorksheetTemplate } from "../../../../domain/contracts/templates";
import { localIsoDate } from "../../../../domain/dates";
import { scanTypes } from "../../../../domain/report-engine/vocabulary";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { Input, Label, Select } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { api, errorMessage, useApiQuery } from "../../lib/api";

// The date input needs ISO (YYYY-MM-DD), in the reader's own day.
const today = () => localIsoDate();

export function StartSessionDialog({
  template,
  onClose,
  onStarted,
}: {
  template: WorksheetTemplate | null;
  onClose: () => void;
  onStarted: (session: DigitalWorksheet) => void;
}) {
  // Asked afresh each time the dialog opens: a sonographer added since (another screen, another admin) must be there.
  const sonographers = useApiQuery(["/api/sonographers"], z.array(sonographer), { staleTime: 0 });
  const [patientName, setPatientName] = useState("");
  const [patientDob, setPatientDob] = useState("");
  const [examDate, setExamDate] = useState(today);
  const [studyType, setStudyType] = useState("");
  const [sonographerId, setSonographerId] = useState("");

  const start = useMutation({
    mutationFn: () =>
      api.send(
        "POST",
        "/api/digital-worksheets",
        {
          templateId: template!.id,
          patientName: patientName.trim(),
          patientDob: patientDob || null,
          examDate,
          studyType: studyType || null,
          sonographerId: Number(sonographerId),
          drawingData: "",
        },
        digitalWorksheetSchema,
      ),
    onSuccess: (session) => {
      toast({
        title: "Patient Session Started",
        description: `Drawing session created for ${session.patientName}`,
        variant: "success",
      });
      onStarted(session);
    },
    onError: (error) =>
      toast({
        title: "Failed to Start Session",
        description: errorMessage(error, "Failed to create drawing session"),
        variant: "destructive",
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!patientName.trim() || !sonographerId) {
      toast({
        title: "Missing Information",
        description: "Please fill in patient name and select a sonographer",
        variant: "destructive",
      });
      return;
    }
    start.mutate();
  };

  return (
    <Dialog open={template !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent title="Start Patient Session" description={template ? `Worksheet: ${template.name}` : undefined}>
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <div className="grid gap-1.5">
            <Label htmlFor="session-patient">Patient Name *</Label>
            <Input
              id="session-patient"
              value={patientName}
              onChange={(e) => setPatientName(e.target.value)}
              autoComplete="off"
            />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid gap-1.5">
              <Label htmlFor="session-dob">Date of Birth</Label>
              <Input id="session-dob" type="date" value={patientDob} onChange={(e) => setPatientDob(e.target.value)} />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="session-exam">Exam Date *</Label>
              <Input
                id="session-exam"
                type="date"
                required
                value={examDate}
                onChange={(e) => setExamDate(e.target.value)}
              />
            </div>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="session-study">Study Type</Label>
            <Select id="session-study" value={studyType} onChange={(e) => setStudyType(e.target.value)}>
              <option value="">Select a study type</option>
              {scanTypes.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </Select>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="session-sonographer">Sonographer *</Label>
            <Select id="session-sonographer" value={sonographerId} onChange={(e) => setSonographerId(e.target.value)}>
              <option value="">{sonographers.isLoading ? "Loading sonographers..." : "Select a sonographer"}</option>
              {sonographers.data?.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} ({s.initials})
                </option>
              ))}
            </Select>
            {sonographers.data?.length === 0 ? (
              <p className="text-sm text-slate-700">Add sonographers in the Clinic tab first.</p>
            ) : null}
          </div>
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={start.isPending}>
              {start.isPending ? "Starting..." : "Start Session"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

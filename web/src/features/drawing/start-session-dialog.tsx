import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { z } from "zod";
import {
  type DigitalWorksheet,
  digitalWorksheetSchema,
  type StartSessionForm,
  startSessionForm,
} from "../../../../domain/contracts/drawings";
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
  const form = useForm<StartSessionForm, unknown, z.output<typeof startSessionForm>>({
    resolver: zodResolver(startSessionForm),
    defaultValues: { patientName: "", patientDob: "", examDate: today(), studyType: "", sonographerId: "" },
  });

  const start = useMutation({
    mutationFn: (values: z.output<typeof startSessionForm>) =>
      api.send(
        "POST",
        "/api/digital-worksheets",
        { ...values, templateId: template!.id, drawingData: "" },
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

  // The dialog's one message for what is missing (a toast, not field errors): the contract's first text.
  const submit = form.handleSubmit(
    (values) => start.mutate(values),
    (errors) =>
      toast({
        title: "Missing Information",
        description: Object.values(errors)[0]?.message ?? "Please fill in patient name and select a sonographer",
        variant: "destructive",
      }),
  );

  return (
    <Dialog open={template !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent title="Start Patient Session" description={template ? `Worksheet: ${template.name}` : undefined}>
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <div className="grid gap-1.5">
            <Label htmlFor="session-patient">Patient Name *</Label>
            <Input id="session-patient" {...form.register("patientName")} autoComplete="off" />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid gap-1.5">
              <Label htmlFor="session-dob">Date of Birth</Label>
              <Input id="session-dob" type="date" {...form.register("patientDob")} />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="session-exam">Exam Date *</Label>
              <Input id="session-exam" type="date" required {...form.register("examDate")} />
            </div>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="session-study">Study Type</Label>
            <Select id="session-study" {...form.register("studyType")}>
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
            <Select id="session-sonographer" {...form.register("sonographerId")}>
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

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { ImageIcon, Upload } from "lucide-react";
import { useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { type ClinicRecord, clinicRecord, clinicUpdate, criteriaSets } from "../../../../domain/contracts/clinic";
import { criticalRuleIds, criticalRuleNames } from "../../../../domain/report-engine/critical-results";
import { MAX_TURNAROUND_TARGET_DAYS } from "../../../../domain/turnaround";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle, Spinner } from "../../components/ui/card";
import { Checkbox, FieldError, Input, Label, Select, Textarea } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { ApiError, api, errorMessage, useApiQuery } from "../../lib/api";
import { queryClient } from "../../lib/query-client";
import { DeliveryDestinationsCard } from "./delivery-destinations-card";
import { imageFileProblem, uploadImage } from "./upload-image";

type FormInput = z.input<typeof clinicUpdate>;
type FormOutput = z.output<typeof clinicUpdate>;

const refreshClinic = () => {
  queryClient.invalidateQueries({ queryKey: ["/api/clinic"] });
  queryClient.invalidateQueries({ queryKey: ["/api/clinic/info"] });
  queryClient.invalidateQueries({ queryKey: ["/api/auth/user"] });
};

export function ClinicSettingsTab({ canManage }: { canManage: boolean }) {
  const { data: clinic, isLoading, isError, error } = useApiQuery(["/api/clinic"], clinicRecord);
  if (isLoading) return <Spinner label="Loading clinic information..." />;
  if (isError || !clinic) {
    return (
      <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900">
        {errorMessage(error, "Failed to load clinic information")}
      </p>
    );
  }
  return (
    <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
      <ClinicInformationCard key={clinic.updatedAt} clinic={clinic} canManage={canManage} />
      <ClinicLogoCard clinic={clinic} canManage={canManage} />
      {canManage ? <DeliveryDestinationsCard /> : null}
    </div>
  );
}

function ClinicInformationCard({ clinic, canManage }: { clinic: ClinicRecord; canManage: boolean }) {
  const ids = useId();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(clinicUpdate),
    defaultValues: {
      name: clinic.name,
      email: clinic.email,
      phone: clinic.phone ?? "",
      fax: clinic.fax ?? "",
      address: clinic.address ?? "",
      city: clinic.city ?? "",
      state: clinic.state ?? "",
      zipCode: clinic.zipCode ?? "",
      website: clinic.website ?? "",
      carotidCriteriaSet: clinic.carotidCriteriaSet,
      reportSpelling: clinic.reportSpelling,
      allowSignOnBehalf: clinic.allowSignOnBehalf,
      turnaroundTargetDays: clinic.turnaroundTargetDays,
      criticalRules: clinic.criticalRules,
    },
  });
  const { errors } = form.formState;
  const chosenSet = criteriaSets.find((s) => s.id === form.watch("carotidCriteriaSet"));

  const save = useMutation({
    // The logo is managed by its own card; leaving it out keeps it.
    mutationFn: (values: FormOutput) => api.send("PUT", `/api/clinic/${clinic.id}`, values, clinicRecord),
    onSuccess: () => {
      refreshClinic();
      toast({ title: "Success", description: "Clinic information updated successfully", variant: "success" });
    },
    onError: (err) =>
      toast({ title: "Error", description: errorMessage(err, "Failed to update clinic"), variant: "destructive" }),
  });

  type TextField = "name" | "email" | "phone" | "fax" | "city" | "state" | "zipCode" | "website";
  const field = (name: TextField, label: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={`${ids}-${name}`}>{label}</Label>
      <Input
        id={`${ids}-${name}`}
        readOnly={!canManage}
        aria-invalid={Boolean(errors[name])}
        aria-describedby={errors[name] ? `${ids}-${name}-error` : undefined}
        {...props}
        {...form.register(name)}
      />
      <FieldError id={`${ids}-${name}-error`}>{errors[name]?.message}</FieldError>
    </div>
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Clinic Information</CardTitle>
        <p className="text-sm text-slate-700">The name, address and logo appear in every report header.</p>
      </CardHeader>
      <CardContent>
        <form
          className="flex flex-col gap-4"
          onSubmit={form.handleSubmit((values) => save.mutate(values))}
          noValidate
          aria-label="Clinic Information"
        >
          <div className="grid gap-4 sm:grid-cols-2">
            {field("name", "Clinic Name *", { maxLength: 255 })}
            {field("email", "Email Address *", { type: "email", maxLength: 255, autoComplete: "email" })}
            {field("phone", "Phone Number", { type: "tel", maxLength: 50 })}
            {field("fax", "Fax Number", { type: "tel", maxLength: 50 })}
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${ids}-address`}>Street Address</Label>
            <Textarea
              id={`${ids}-address`}
              rows={2}
              readOnly={!canManage}
              maxLength={1000}
              aria-invalid={Boolean(errors.address)}
              {...form.register("address")}
            />
            <FieldError>{errors.address?.message}</FieldError>
          </div>
          <div className="grid gap-4 sm:grid-cols-3">
            {field("city", "City", { maxLength: 100 })}
            {field("state", "State", { maxLength: 50 })}
            {field("zipCode", "ZIP Code", { maxLength: 20 })}
          </div>
          {field("website", "Website", { type: "url", maxLength: 255, placeholder: "https://" })}
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${ids}-criteria`}>Carotid criteria set</Label>
            <Select
              id={`${ids}-criteria`}
              disabled={!canManage}
              aria-describedby={`${ids}-criteria-source`}
              {...form.register("carotidCriteriaSet")}
            >
              {criteriaSets.map((set) => (
                <option key={set.id} value={set.id}>
                  {set.label}
                </option>
              ))}
            </Select>
            <p id={`${ids}-criteria-source`} className="text-xs text-slate-700">
              Source: {chosenSet?.source ?? "not chosen"}
            </p>
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${ids}-spelling`}>Report spelling</Label>
            <Select
              id={`${ids}-spelling`}
              disabled={!canManage}
              aria-describedby={`${ids}-spelling-note`}
              {...form.register("reportSpelling")}
            >
              <option value="en-US">American English (caliber, hyperemia)</option>
              <option value="en-GB">British English (calibre, hyperaemia)</option>
            </Select>
            <p id={`${ids}-spelling-note`} className="text-xs text-slate-700">
              Drafts are written in this spelling from the next one on.
            </p>
          </div>
          <div className="grid gap-1">
            <div className="flex items-center gap-2">
              <Checkbox
                id={`${ids}-on-behalf`}
                disabled={!canManage}
                aria-describedby={`${ids}-on-behalf-note`}
                {...form.register("allowSignOnBehalf")}
              />
              <Label htmlFor={`${ids}-on-behalf`}>Staff may sign reports on a physician's behalf</Label>
            </div>
            <p id={`${ids}-on-behalf-note`} className="pl-6 text-xs text-slate-700">
              Off: only the physician's own account signs their reports. On: any staff member may sign after confirming
              their password, and the report, its exports and the audit trail say "Signed by (name) on behalf of
              (physician)".
            </p>
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${ids}-turnaround`}>Turnaround target (working days after the exam)</Label>
            <Input
              id={`${ids}-turnaround`}
              type="number"
              inputMode="numeric"
              min={0}
              max={MAX_TURNAROUND_TARGET_DAYS}
              step={1}
              readOnly={!canManage}
              className="w-32"
              aria-invalid={Boolean(errors.turnaroundTargetDays)}
              aria-describedby={`${ids}-turnaround-note${errors.turnaroundTargetDays ? ` ${ids}-turnaround-error` : ""}`}
              {...form.register("turnaroundTargetDays", { valueAsNumber: true })}
            />
            <FieldError id={`${ids}-turnaround-error`}>{errors.turnaroundTargetDays?.message}</FieldError>
            <p id={`${ids}-turnaround-note`} className="text-xs text-slate-700">
              Reports should be signed within this many working days (Monday to Friday) after the exam; drafts past it
              are marked overdue in the sign-off worklist and counted on the Turnaround screen.
            </p>
          </div>
          <fieldset className="grid gap-1" aria-describedby={`${ids}-critical-note`}>
            <legend className="text-sm font-medium text-slate-900">Critical results that need a call</legend>
            <p id={`${ids}-critical-note`} className="text-xs text-slate-700">
              A report with a result under a rule that is on cannot be signed until its communication to the referring
              clinician is recorded. All are on by default.
            </p>
            {criticalRuleIds.map((rule) => (
              <div key={rule} className="flex items-center gap-2">
                <Checkbox
                  id={`${ids}-critical-${rule}`}
                  disabled={!canManage}
                  {...form.register(`criticalRules.${rule}`)}
                />
                <Label htmlFor={`${ids}-critical-${rule}`}>{criticalRuleNames[rule]}</Label>
              </div>
            ))}
          </fieldset>
          {canManage ? (
            <div className="flex justify-end">
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? "Saving..." : "Save Clinic Information"}
              </Button>
            </div>
          ) : null}
        </form>
      </CardContent>
    </Card>
  );
}

function ClinicLogoCard({ clinic, canManage }: { clinic: ClinicRecord; canManage: boolean }) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);

  const upload = async (file: File | undefined) => {
    if (!file) return;
    const problem = imageFileProblem(file);
    if (problem) {
      toast({ ...problem, variant: "destructive" });
    } else {
      setUploading(true);
      try {
        await uploadImage("/api/upload-logo", "logo", file, file.name);
        refreshClinic();
        toast({ title: "Logo Uploaded", description: "The clinic logo has been updated.", variant: "success" });
      } catch (err) {
        const status = err instanceof ApiError ? err.status : "network error";
        toast({
          title: "Upload Failed",
          description: errorMessage(err, `Failed to upload logo: ${status}`),
          variant: "destructive",
        });
      } finally {
        setUploading(false);
      }
    }
    if (input.current) input.current.value = "";
  };

  return (
    <Card className="h-fit">
      <CardHeader>
        <CardTitle>Clinic Logo</CardTitle>
        <p className="text-sm text-slate-700">Shown at the top of reports and exports.</p>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="flex h-32 items-center justify-center rounded-md border border-slate-200 bg-slate-50 p-2">
          {clinic.logoUrl ? (
            <img src={clinic.logoUrl} alt={`${clinic.name} logo`} className="max-h-28 max-w-full object-contain" />
          ) : (
            <span className="flex flex-col items-center gap-1 text-sm text-slate-700">
              <ImageIcon className="h-6 w-6" aria-hidden />
              No logo uploaded
            </span>
          )}
        </div>
        {canManage ? (
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={inputId}>Upload a logo</Label>
            <input
              ref={input}
              id={inputId}
              type="file"
              accept="image/*"
              disabled={uploading}
              onChange={(e) => upload(e.target.files?.[0])}
              className="text-sm text-slate-800 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-slate-800 hover:file:bg-slate-100"
            />
            <p className="text-xs text-slate-700">PNG, JPEG, GIF or WebP, up to 10 MB.</p>
            {uploading ? (
              <p role="status" className="flex items-center gap-2 text-sm text-slate-700">
                <Upload className="h-4 w-4 animate-pulse" aria-hidden />
                Uploading logo...
              </p>
            ) : null}
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

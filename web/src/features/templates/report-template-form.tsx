import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useId } from "react";
import { type FieldErrors, useForm } from "react-hook-form";
import {
  type ReportTemplateForm as FormValues,
  fontFamilies,
  fontSizes,
  patientInfoLayouts,
  type ReportTemplate,
  reportTemplate,
  reportTemplateDefaults,
  reportTemplateForm,
  signaturePositions,
  TEMPLATE_NAME_REQUIRED,
  templateTypes,
} from "../../../../domain/contracts/templates";
import { Button } from "../../components/ui/button";
import { Checkbox, Input, Label, Select, Textarea } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { api, errorMessage } from "../../lib/api";
import { queryClient } from "../../lib/query-client";
import { Field, Group, invalidProps } from "./form-field";
import { ReportTemplatePreview } from "./report-template-preview";

const TEXT_FIELDS = ["name", "description", "clinicName", "clinicAddress", "clinicPhone", "footerText"] as const;
type BooleanKey = { [K in keyof FormValues]: FormValues[K] extends boolean ? K : never }[keyof FormValues];
const typeLabels = { pdf: "PDF only", docx: "DOCX only", both: "PDF and DOCX" } as const;
const layoutLabels = { grid: "Grid", list: "List", compact: "Compact" } as const;
const positionLabels = { left: "Left", center: "Center", right: "Right" } as const;

function initialValues(template?: ReportTemplate): FormValues {
  if (!template) return { ...reportTemplateDefaults };
  const values = { ...reportTemplateDefaults } as Record<string, unknown>;
  for (const key of Object.keys(reportTemplateDefaults)) {
    values[key] =
      (template as Record<string, unknown>)[key] ?? (reportTemplateDefaults as Record<string, unknown>)[key];
  }
  return values as FormValues;
}

/** Texts are trimmed; on create, empty ones are left out (the spec), on edit they are sent empty to clear. */
function payload(values: FormValues, editing: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { ...values };
  for (const key of TEXT_FIELDS) {
    const text = values[key].trim();
    if (text || editing) body[key] = text;
    else delete body[key];
  }
  return body;
}

export function ReportTemplateForm({ template, onSaved }: { template?: ReportTemplate; onSaved: () => void }) {
  const id = useId();
  const editing = Boolean(template);
  // Checked with the shared contract before sending: the name with the service's own text.
  const form = useForm<FormValues>({
    resolver: zodResolver(reportTemplateForm),
    defaultValues: initialValues(template),
  });
  const values = form.watch();
  const nameError = form.formState.errors.name?.message;

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      template
        ? api.send("PATCH", `/api/templates/${template.id}`, body, reportTemplate)
        : api.send("POST", "/api/templates", body, reportTemplate),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["/api/templates"] });
      toast({ title: editing ? "Template Updated" : "Template Created", variant: "success" });
      onSaved();
    },
    onError: (error) =>
      toast({
        title: editing ? "Update Failed" : "Creation Failed",
        description: errorMessage(error, editing ? "Failed to update template" : "Failed to create template"),
        variant: "destructive",
      }),
  });

  // The name is marked at its field; every refusal (a text too long, too) is also told in a toast.
  const refused = (found: FieldErrors<FormValues>) => {
    const first = Object.values(found).find((error) => error?.message)?.message;
    toast({ title: "Validation Error", description: first ?? TEMPLATE_NAME_REQUIRED, variant: "destructive" });
  };

  const check = (key: BooleanKey, label: string) => (
    <div className="flex items-center gap-2">
      <Checkbox id={`${id}-${key}`} {...form.register(key)} />
      <Label htmlFor={`${id}-${key}`} className="font-normal">
        {label}
      </Label>
    </div>
  );

  return (
    <form
      onSubmit={form.handleSubmit((valid) => save.mutate(payload(valid, editing)), refused)}
      noValidate
      className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]"
    >
      <div className="space-y-5">
        <Group title="Template">
          <Field label="Template name" htmlFor={`${id}-name`} required error={nameError}>
            <Input
              id={`${id}-name`}
              {...invalidProps(`${id}-name`, nameError)}
              maxLength={255}
              {...form.register("name")}
            />
          </Field>
          <Field label="Description" htmlFor={`${id}-description`}>
            <Textarea id={`${id}-description`} rows={2} {...form.register("description")} />
          </Field>
          <Field label="Output format" htmlFor={`${id}-type`}>
            <Select id={`${id}-type`} {...form.register("templateType")}>
              {templateTypes.map((t) => (
                <option key={t} value={t}>
                  {typeLabels[t]}
                </option>
              ))}
            </Select>
          </Field>
        </Group>

        <Group title="Header">
          {check("showHeader", "Show header")}
          {check("showLogo", "Show clinic logo")}
          <Field label="Clinic name" htmlFor={`${id}-clinic`}>
            <Input id={`${id}-clinic`} {...form.register("clinicName")} />
          </Field>
          <Field label="Clinic address" htmlFor={`${id}-address`}>
            <Input id={`${id}-address`} {...form.register("clinicAddress")} />
          </Field>
          <Field label="Clinic phone" htmlFor={`${id}-phone`}>
            <Input id={`${id}-phone`} type="tel" {...form.register("clinicPhone")} />
          </Field>
        </Group>

        <Group title="Patient information and sections">
          <Field label="Patient info layout" htmlFor={`${id}-layout`}>
            <Select id={`${id}-layout`} {...form.register("patientInfoLayout")}>
              {patientInfoLayouts.map((l) => (
                <option key={l} value={l}>
                  {layoutLabels[l]}
                </option>
              ))}
            </Select>
          </Field>
          <div className="grid gap-2 sm:grid-cols-2">
            {check("showPatientId", "Show patient ID")}
            {check("showStudyType", "Show study type")}
            {check("showIndication", "Show indication")}
            {check("showFindings", "Show findings")}
            {check("showImpression", "Show impression")}
          </div>
        </Group>

        <Group title="Signature and footer">
          {check("showSignature", "Show signature")}
          <Field label="Signature position" htmlFor={`${id}-signature`}>
            <Select id={`${id}-signature`} {...form.register("signaturePosition")}>
              {signaturePositions.map((p) => (
                <option key={p} value={p}>
                  {positionLabels[p]}
                </option>
              ))}
            </Select>
          </Field>
          <div className="grid gap-2 sm:grid-cols-2">
            {check("showFooter", "Show footer")}
            {check("showReportId", "Show report ID")}
            {check("showGenerationDate", "Show generation date")}
          </div>
          <Field label="Footer text" htmlFor={`${id}-footer`}>
            <Textarea id={`${id}-footer`} rows={2} {...form.register("footerText")} />
          </Field>
        </Group>

        <Group title="Style">
          <div className="grid gap-3 sm:grid-cols-3">
            <Field label="Primary colour" htmlFor={`${id}-color`}>
              <Input
                id={`${id}-color`}
                type="color"
                className="h-10 cursor-pointer p-1"
                {...form.register("primaryColor")}
              />
            </Field>
            <Field label="Font" htmlFor={`${id}-font`}>
              <Select id={`${id}-font`} {...form.register("fontFamily")}>
                {fontFamilies.map((f) => (
                  <option key={f}>{f}</option>
                ))}
              </Select>
            </Field>
            <Field label="Font size" htmlFor={`${id}-size`}>
              <Select id={`${id}-size`} {...form.register("fontSize")}>
                {fontSizes.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </Select>
            </Field>
          </div>
          {check("isDefault", "Use as the clinic's default template")}
        </Group>
      </div>

      <div className="space-y-4 lg:sticky lg:top-0 lg:self-start">
        <ReportTemplatePreview values={values} />
        <div className="flex justify-end gap-2">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? "Saving..." : editing ? "Update Template" : "Create Template"}
          </Button>
        </div>
      </div>
    </form>
  );
}

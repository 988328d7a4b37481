import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import {
  type ReportTemplateForm as FormValues,
  fontFamilies,
  fontSizes,
  patientInfoLayouts,
  type ReportTemplate,
  reportTemplateDefaults,
  signaturePositions,
  TEMPLATE_NAME_REQUIRED,
  templateTypes,
} from "../../../../domain/contracts/templates";
import { Button } from "../../components/ui/button";
import { Checkbox, FieldError, Input, Label, Select, Textarea } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { apiJson, errorMessage } from "../../lib/api";
import { queryClient } from "../../lib/query-client";
import { Field, Group } from "./form-field";
import { ReportTemplatePreview } from "./report-template-preview";

const TEXT_FIELDS = ["name", "description", "clinicName", "clinicAddress", "clinicPhone", "footerText"] as const;
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
  const [values, setValues] = useState<FormValues>(() => initialValues(template));
  const [nameError, setNameError] = useState<string>();
  const id = useId();
  const editing = Boolean(template);
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      template
        ? apiJson<ReportTemplate>("PATCH", `/api/templates/${template.id}`, body)
        : apiJson<ReportTemplate>("POST", "/api/templates", body),
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

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!values.name.trim()) {
      setNameError(TEMPLATE_NAME_REQUIRED);
      toast({ title: "Validation Error", description: TEMPLATE_NAME_REQUIRED, variant: "destructive" });
      return;
    }
    setNameError(undefined);
    save.mutate(payload(values, editing));
  }

  const check = (key: keyof FormValues, label: string) => (
    <div className="flex items-center gap-2">
      <Checkbox
        id={`${id}-${key}`}
        checked={values[key] as boolean}
        onChange={(e) => set(key, e.target.checked as never)}
      />
      <Label htmlFor={`${id}-${key}`} className="font-normal">
        {label}
      </Label>
    </div>
  );

  return (
    <form onSubmit={submit} noValidate className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]">
      <div className="space-y-5">
        <Group title="Template">
          <Field label="Template name" htmlFor={`${id}-name`} required>
            <Input
              id={`${id}-name`}
              value={values.name}
              onChange={(e) => set("name", e.target.value)}
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? `${id}-name-error` : undefined}
              maxLength={255}
            />
            <FieldError id={`${id}-name-error`}>{nameError}</FieldError>
          </Field>
          <Field label="Description" htmlFor={`${id}-description`}>
            <Textarea
              id={`${id}-description`}
              value={values.description}
              onChange={(e) => set("description", e.target.value)}
              rows={2}
            />
          </Field>
          <Field label="Output format" htmlFor={`${id}-type`}>
            <Select
              id={`${id}-type`}
              value={values.templateType}
              onChange={(e) => set("templateType", e.target.value as FormValues["templateType"])}
            >
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
            <Input id={`${id}-clinic`} value={values.clinicName} onChange={(e) => set("clinicName", e.target.value)} />
          </Field>
          <Field label="Clinic address" htmlFor={`${id}-address`}>
            <Input
              id={`${id}-address`}
              value={values.clinicAddress}
              onChange={(e) => set("clinicAddress", e.target.value)}
            />
          </Field>
          <Field label="Clinic phone" htmlFor={`${id}-phone`}>
            <Input
              id={`${id}-phone`}
              type="tel"
              value={values.clinicPhone}
              onChange={(e) => set("clinicPhone", e.target.value)}
            />
          </Field>
        </Group>

        <Group title="Patient information and sections">
          <Field label="Patient info layout" htmlFor={`${id}-layout`}>
            <Select
              id={`${id}-layout`}
              value={values.patientInfoLayout}
              onChange={(e) => set("patientInfoLayout", e.target.value as FormValues["patientInfoLayout"])}
            >
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
            <Select
              id={`${id}-signature`}
              value={values.signaturePosition}
              onChange={(e) => set("signaturePosition", e.target.value as FormValues["signaturePosition"])}
            >
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
            <Textarea
              id={`${id}-footer`}
              value={values.footerText}
              onChange={(e) => set("footerText", e.target.value)}
              rows={2}
            />
          </Field>
        </Group>

        <Group title="Style">
          <div className="grid gap-3 sm:grid-cols-3">
            <Field label="Primary colour" htmlFor={`${id}-color`}>
              <Input
                id={`${id}-color`}
                type="color"
                className="h-10 cursor-pointer p-1"
                value={values.primaryColor}
                onChange={(e) => set("primaryColor", e.target.value)}
              />
            </Field>
            <Field label="Font" htmlFor={`${id}-font`}>
              <Select
                id={`${id}-font`}
                value={values.fontFamily}
                onChange={(e) => set("fontFamily", e.target.value as FormValues["fontFamily"])}
              >
                {fontFamilies.map((f) => (
                  <option key={f}>{f}</option>
                ))}
              </Select>
            </Field>
            <Field label="Font size" htmlFor={`${id}-size`}>
              <Select
                id={`${id}-size`}
                value={values.fontSize}
                onChange={(e) => set("fontSize", e.target.value as FormValues["fontSize"])}
              >
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

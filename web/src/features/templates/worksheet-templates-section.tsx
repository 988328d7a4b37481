import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { ImageIcon, ScanText } from "lucide-react";
import { useId, useState } from "react";
import { type FieldErrors, useForm } from "react-hook-form";
import type { z } from "zod";
import {
  type WorksheetTemplateForm as UploadInput,
  WORKSHEET_TEMPLATE_REQUIRED,
  type WorksheetTemplate,
  worksheetCategories,
  worksheetTemplate,
  worksheetTemplateForm,
} from "../../../../domain/contracts/templates";
import { DeleteButton } from "../../components/ui/action-buttons";
import { Button } from "../../components/ui/button";
import { Badge, Card, EmptyState } from "../../components/ui/card";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { Input, Select, Textarea } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { api } from "../../lib/api";
import { EntityScreen, useEntityScreen } from "../../lib/entity-screen";
import { queryClient } from "../../lib/query-client";
import { Field, invalidProps } from "./form-field";
import { FormZonesEditor } from "./form-zones-editor";
import { capitalize, responseText } from "./template-text";

const KEY = ["/api/worksheet-templates"];
/** Blank worksheets that the drawing screen draws on: a gallery, an upload dialog, delete with confirmation. */
export function WorksheetTemplatesSection({
  adding,
  onAddingChange,
}: {
  adding: boolean;
  onAddingChange: (open: boolean) => void;
}) {
  const screen = useEntityScreen({
    queryKey: KEY,
    item: worksheetTemplate,
    deleteUrl: (id) => `/api/worksheet-templates/${id}`,
    deleted: { title: "Worksheet Template Deleted" },
    deleteFailed: { title: "Deletion Failed", fallback: "Failed to delete worksheet template" },
    adding,
    onAddingChange,
  });
  // Besides add and delete, a template's reading zones are edited in a dialog of their own.
  const [zoning, setZoning] = useState<WorksheetTemplate | null>(null);

  return (
    <>
      <EntityScreen
        state={screen}
        loadingLabel="Loading templates..."
        empty={
          <EmptyState title="No Worksheet Templates Yet" icon={<ImageIcon className="h-8 w-8" aria-hidden />}>
            Upload a blank worksheet (image or PDF) to draw on it in the Draw screen and to read filled worksheets of it
            by its zones.
          </EmptyState>
        }
        listClassName="grid gap-4 sm:grid-cols-2 xl:grid-cols-3"
        renderItem={(t) => (
          <Card className="flex h-full flex-col overflow-hidden">
            <div className="flex aspect-[4/3] items-center justify-center border-b border-slate-200 bg-slate-50">
              <img
                src={t.imageUrl}
                alt={`Worksheet template ${t.name}`}
                className="max-h-full max-w-full object-contain"
                loading="lazy"
              />
            </div>
            <div className="flex flex-1 flex-col p-4">
              <div className="flex items-start justify-between gap-2">
                <h3 className="text-base font-semibold text-slate-900">{t.name}</h3>
                <Badge tone="blue">{capitalize(t.category)}</Badge>
              </div>
              {t.description ? <p className="mt-1 text-sm text-slate-700">{t.description}</p> : null}
              <p className="mt-1 truncate text-xs text-slate-700">{t.originalFilename}</p>
              {t.zonesToCheck ? (
                <p
                  role="status"
                  className="mt-2 rounded-md border border-amber-700 bg-amber-50 p-2 text-sm text-slate-900"
                >
                  {t.zonesToCheck === 1 ? "1 reading zone keeps" : `${t.zonesToCheck} reading zones keep`} being
                  corrected on checked worksheets: check them in Reading zones.
                </p>
              ) : null}
              <div className="mt-auto flex justify-end gap-2 pt-3">
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => setZoning(t)}
                  aria-label={`Reading zones of ${t.name}`}
                >
                  <ScanText className="h-4 w-4" aria-hidden />
                  Reading zones
                </Button>
                <DeleteButton name={t.name} onClick={() => screen.askDelete(t)} />
              </div>
            </div>
          </Card>
        )}
        form={{
          // Uploaded, never edited: the dialog only adds.
          title: () => "Upload Worksheet Template",
          description: "An image or a PDF (its first page is used), up to 10 MB.",
          render: (_editing, close) => <WorksheetTemplateForm onSaved={close} />,
        }}
        confirmDelete={{
          title: "Delete Worksheet Template",
          description: () => "Are you sure you want to delete this worksheet template?",
        }}
      />

      <Dialog open={zoning !== null} onOpenChange={(open) => !open && setZoning(null)}>
        {zoning ? (
          <DialogContent
            title={`Reading Zones: ${zoning.name}`}
            description="Where each value is written on this form. Filled worksheets of this form are read zone by zone."
            className="max-w-6xl"
          >
            <FormZonesEditor templateId={zoning.id} imageUrl={zoning.imageUrl} name={zoning.name} />
          </DialogContent>
        ) : null}
      </Dialog>
    </>
  );
}

type UploadValues = z.output<typeof worksheetTemplateForm>;

function WorksheetTemplateForm({ onSaved }: { onSaved: () => void }) {
  const id = useId();
  const form = useForm<UploadInput, unknown, UploadValues>({
    resolver: zodResolver(worksheetTemplateForm),
    defaultValues: { name: "", description: "", category: "vascular", worksheetFile: undefined },
  });
  const { errors } = form.formState;

  const upload = useMutation({
    mutationFn: (body: FormData) => api.send("POST", "/api/worksheet-templates", body, worksheetTemplate),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: KEY });
      toast({ title: "Worksheet Template Created", variant: "success" });
      onSaved();
    },
    onError: (error) =>
      toast({
        title: "Upload Failed",
        description: `Failed to create worksheet template: ${responseText(error)}`,
        variant: "destructive",
      }),
  });

  const submit = (values: UploadValues) => {
    const body = new FormData();
    body.append("name", values.name);
    body.append("description", values.description);
    body.append("category", values.category);
    body.append("worksheetFile", values.worksheetFile);
    upload.mutate(body);
  };

  // The spec tells a missing name or file in one toast; the fields at fault are marked too.
  const refused = (found: FieldErrors<UploadInput>) => {
    const first = found.name ?? found.worksheetFile ?? found.description ?? found.category;
    toast({
      title: "Upload Failed",
      description: first?.message ?? WORKSHEET_TEMPLATE_REQUIRED,
      variant: "destructive",
    });
  };

  return (
    <form onSubmit={form.handleSubmit(submit, refused)} noValidate className="space-y-4">
      <Field label="Template name" htmlFor={`${id}-name`} required>
        <Input
          id={`${id}-name`}
          maxLength={255}
          aria-invalid={errors.name ? true : undefined}
          {...form.register("name")}
        />
      </Field>
      <Field label="Description" htmlFor={`${id}-description`} error={errors.description?.message}>
        <Textarea
          id={`${id}-description`}
          rows={2}
          {...invalidProps(`${id}-description`, errors.description?.message)}
          {...form.register("description")}
        />
      </Field>
      <Field label="Category" htmlFor={`${id}-category`}>
        <Select id={`${id}-category`} {...form.register("category")}>
          {worksheetCategories.map((c) => (
            <option key={c} value={c}>
              {capitalize(c)}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Worksheet file" htmlFor={`${id}-file`} required>
        <Input
          id={`${id}-file`}
          type="file"
          accept="image/jpeg,image/png,image/gif,image/webp,application/pdf,.pdf"
          className="h-auto py-1.5"
          aria-invalid={errors.worksheetFile ? true : undefined}
          onChange={(e) =>
            form.setValue("worksheetFile", e.target.files?.[0], { shouldValidate: form.formState.isSubmitted })
          }
        />
      </Field>
      <div className="flex justify-end">
        <Button type="submit" disabled={upload.isPending}>
          {upload.isPending ? (
            <>
              <span className="h-4 w-4 animate-spin rounded-full border-2 border-white/50 border-t-white" aria-hidden />
              Uploading...
            </>
          ) : (
            "Upload Template"
          )}
        </Button>
      </div>
    </form>
  );
}

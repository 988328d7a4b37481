import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { BookOpen } from "lucide-react";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import {
  type LegendEntry,
  type LegendEntryForm,
  legendCategories,
  legendEntry,
  legendEntryForm,
  legendImageTypes,
} from "../../../../domain/contracts/templates";
import { DeleteButton, EditButton } from "../../components/ui/action-buttons";
import { Button } from "../../components/ui/button";
import { Badge, Card, EmptyState } from "../../components/ui/card";
import { Checkbox, Input, Label, Select, Textarea } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { api } from "../../lib/api";
import { EntityScreen, useEntityScreen } from "../../lib/entity-screen";
import { queryClient } from "../../lib/query-client";
import { Field, invalidProps } from "./form-field";
import { LegendDrawingCanvas } from "./legend-drawing-canvas";
import { capitalize, responseText } from "./template-text";

const KEY = ["/api/legend-entries"];

/** The legend teaches generation what drawn patterns mean: cards, a create/edit dialog, delete with confirmation. */
export function LegendSection({
  adding,
  onAddingChange,
}: {
  adding: boolean;
  onAddingChange: (open: boolean) => void;
}) {
  const screen = useEntityScreen({
    queryKey: KEY,
    item: legendEntry,
    deleteUrl: (id) => `/api/legend-entries/${id}`,
    deleted: { title: "Legend Entry Deleted" },
    deleteFailed: { title: "Deletion Failed", fallback: "Failed to delete legend entry" },
    adding,
    onAddingChange,
  });

  return (
    <EntityScreen
      state={screen}
      loadingLabel="Loading templates..."
      empty={
        <EmptyState title="No Legend Entries Yet" icon={<BookOpen className="h-8 w-8" aria-hidden />}>
          Add a symbol or pattern your sonographers draw, and what it means, so generated reports read it correctly.
        </EmptyState>
      }
      listClassName="grid gap-4 sm:grid-cols-2 xl:grid-cols-3"
      renderItem={(e) => {
        const picture = e.imageType === "drawing" ? e.drawingData : e.exampleImage;
        return (
          <Card className="flex h-full flex-col overflow-hidden">
            {picture ? (
              <div className="flex aspect-[4/3] items-center justify-center border-b border-slate-200 bg-slate-50">
                <img src={picture} alt={`Example of ${e.title}`} className="max-h-full max-w-full object-contain" />
              </div>
            ) : null}
            <div className="flex flex-1 flex-col p-4">
              <div className="flex items-start justify-between gap-2">
                <h3 className="text-base font-semibold text-slate-900">{e.title}</h3>
                <Badge tone={e.isActive ? "green" : "neutral"}>{e.isActive ? "Active" : "Inactive"}</Badge>
              </div>
              <div className="mt-1">
                <Badge tone="blue">{capitalize(e.category)}</Badge>
              </div>
              <p className="mt-2 text-sm text-slate-800">{e.medicalMeaning}</p>
              {e.description ? <p className="mt-1 text-sm text-slate-700">{e.description}</p> : null}
              {e.keywords ? (
                <p className="mt-2 text-xs text-slate-700">
                  <span className="font-medium">Keywords:</span> {e.keywords}
                </p>
              ) : null}
              <div className="mt-auto flex justify-end gap-2 pt-3">
                <EditButton name={e.title} onClick={() => screen.openEdit(e)} />
                <DeleteButton name={e.title} onClick={() => screen.askDelete(e)} />
              </div>
            </div>
          </Card>
        );
      }}
      form={{
        title: (editing) => (editing ? "Edit Legend Entry" : "New Legend Entry"),
        description: "Describe a drawing pattern and its medical meaning; active entries guide report generation.",
        className: "max-w-2xl",
        render: (editing, close) => (
          <LegendForm key={editing?.id ?? "new"} entry={editing ?? undefined} onSaved={close} />
        ),
      }}
      confirmDelete={{
        title: "Delete Legend Entry",
        description: () => "Are you sure you want to delete this legend entry?",
      }}
    />
  );
}

function LegendForm({ entry, onSaved }: { entry?: LegendEntry; onSaved: () => void }) {
  const id = useId();
  const editing = Boolean(entry);
  // The texts are checked with the shared contract (the server's required texts) before sending.
  const form = useForm<LegendEntryForm>({
    resolver: zodResolver(legendEntryForm),
    defaultValues: {
      title: entry?.title ?? "",
      description: entry?.description ?? "",
      medicalMeaning: entry?.medicalMeaning ?? "",
      category: entry?.category ?? "vascular",
      keywords: entry?.keywords ?? "",
      isActive: entry?.isActive ?? true,
      imageType: entry?.imageType ?? "upload",
    },
  });
  const { errors } = form.formState;
  const imageType = form.watch("imageType");
  // The picture is not a text field: the chosen file or the drawn PNG travels beside the values.
  const [file, setFile] = useState<File | null>(null);
  const [drawing, setDrawing] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (body: FormData) =>
      entry
        ? api.send("PATCH", `/api/legend-entries/${entry.id}`, body, legendEntry)
        : api.send("POST", "/api/legend-entries", body, legendEntry),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: KEY });
      toast({ title: editing ? "Legend Entry Updated" : "Legend Entry Created", variant: "success" });
      onSaved();
    },
    onError: (error) =>
      toast({
        title: editing ? "Update Failed" : "Creation Failed",
        description: `Failed to ${editing ? "update" : "create"} legend entry: ${responseText(error)}`,
        variant: "destructive",
      }),
  });

  const submit = (values: LegendEntryForm) => {
    const body = new FormData();
    body.append("title", values.title);
    body.append("description", values.description);
    body.append("medicalMeaning", values.medicalMeaning);
    body.append("category", values.category);
    body.append("keywords", values.keywords);
    body.append("isActive", String(values.isActive));
    body.append("imageType", values.imageType);
    if (values.imageType === "upload" && file) body.append("exampleImage", file);
    if (values.imageType === "drawing" && drawing) body.append("drawingData", drawing);
    save.mutate(body);
  };

  const text = (name: "title" | "medicalMeaning" | "description" | "keywords") => ({
    id: `${id}-${name}`,
    ...invalidProps(`${id}-${name}`, errors[name]?.message),
    ...form.register(name),
  });

  return (
    <form onSubmit={form.handleSubmit(submit)} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Title" htmlFor={`${id}-title`} required error={errors.title?.message}>
          <Input {...text("title")} maxLength={255} />
        </Field>
        <Field label="Category" htmlFor={`${id}-category`}>
          <Select id={`${id}-category`} {...form.register("category")}>
            {legendCategories.map((c) => (
              <option key={c} value={c}>
                {capitalize(c)}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <Field label="Medical meaning" htmlFor={`${id}-medicalMeaning`} required error={errors.medicalMeaning?.message}>
        <Textarea {...text("medicalMeaning")} rows={2} />
      </Field>
      <Field label="Description" htmlFor={`${id}-description`} error={errors.description?.message}>
        <Textarea {...text("description")} rows={2} />
      </Field>
      <Field label="Keywords (comma-separated)" htmlFor={`${id}-keywords`} error={errors.keywords?.message}>
        <Input {...text("keywords")} placeholder="e.g. thrombus, DVT" />
      </Field>
      <div className="flex items-center gap-2">
        <Checkbox id={`${id}-active`} {...form.register("isActive")} />
        <Label htmlFor={`${id}-active`} className="font-normal">
          Active (used when generating reports)
        </Label>
      </div>
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-slate-800">Example picture</legend>
        <div className="flex gap-4">
          {legendImageTypes.map((type) => (
            <label key={type} className="flex items-center gap-2 text-sm text-slate-800">
              <input type="radio" value={type} {...form.register("imageType")} className="h-4 w-4 accent-brand-600" />
              {type === "upload" ? "Upload image" : "Draw"}
            </label>
          ))}
        </div>
        {imageType === "upload" ? (
          <Field label="Example image" htmlFor={`${id}-file`}>
            <Input
              id={`${id}-file`}
              type="file"
              accept="image/jpeg,image/png,image/gif,image/webp"
              className="h-auto py-1.5"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </Field>
        ) : (
          <div className="space-y-1.5">
            <p id={`${id}-pad`} className="text-sm font-medium text-slate-800">
              Drawing pad (400 x 300)
            </p>
            <LegendDrawingCanvas labelledBy={`${id}-pad`} initial={entry?.drawingData} onChange={setDrawing} />
          </div>
        )}
      </fieldset>
      <div className="flex justify-end">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving..." : editing ? "Update Entry" : "Create Entry"}
        </Button>
      </div>
    </form>
  );
}

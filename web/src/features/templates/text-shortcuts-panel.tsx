import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { Copy, CornerDownLeft, Plus, Search } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import {
  shortcutCategories,
  type TextShortcut,
  textShortcut,
  textShortcutRequest,
} from "../../../../domain/contracts/templates";
import { DeleteButton, EditButton } from "../../components/ui/action-buttons";
import { Button } from "../../components/ui/button";
import { Badge, Card, EmptyState } from "../../components/ui/card";
import { Input, Label, Select, Textarea } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { api, apiRequest, errorMessage } from "../../lib/api";
import { EntityScreen, useEntityScreen } from "../../lib/entity-screen";
import { queryClient } from "../../lib/query-client";
import { Field, invalidProps } from "./form-field";
import { capitalize } from "./template-text";

const KEY = ["/api/text-shortcuts"];
const splitTags = (tags: string | null) =>
  (tags ?? "")
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);

/**
 * The Text Shortcuts panel. With onInsert (the report editor) each card inserts its text; without it
 * (the Templates screen) each card copies it. Both record a use. The Add dialog can be driven from
 * outside (addOpen) when the host has its own add button; otherwise the panel shows one.
 */
export function TextShortcutsPanel({
  onInsert,
  addOpen,
  onAddOpenChange,
}: {
  onInsert?: (text: string) => void;
  addOpen?: boolean;
  onAddOpenChange?: (open: boolean) => void;
}) {
  const id = useId();
  const screen = useEntityScreen({
    queryKey: KEY,
    item: textShortcut,
    deleteUrl: (id) => `/api/text-shortcuts/${id}`,
    deleted: { title: "Shortcut Deleted" },
    deleteFailed: { title: "Deletion Failed", fallback: "Failed to delete shortcut" },
    adding: addOpen,
    onAddingChange: onAddOpenChange,
  });
  const shortcuts = screen.list;
  const [search, setSearch] = useState("");
  const [category, setCategory] = useState("all");
  const controlled = addOpen !== undefined;

  const inUse = useMemo(() => [...new Set((shortcuts.data ?? []).map((s) => s.category))].sort(), [shortcuts.data]);
  const visible = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (shortcuts.data ?? []).filter(
      (s) =>
        (category === "all" || s.category === category) &&
        (!needle || [s.title, s.shortText, s.tags ?? ""].some((field) => field.toLowerCase().includes(needle))),
    );
  }, [shortcuts.data, search, category]);

  const recordUse = useMutation({
    mutationFn: (shortcutId: number) => apiRequest("POST", `/api/text-shortcuts/${shortcutId}/use`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });

  async function use(shortcut: TextShortcut) {
    if (onInsert) {
      onInsert(shortcut.shortText);
    } else {
      try {
        await navigator.clipboard.writeText(shortcut.shortText);
        toast({ title: "Copied to Clipboard", description: shortcut.title, variant: "success" });
      } catch (error) {
        toast({
          title: "Copy Failed",
          description: errorMessage(error, "Could not copy the text"),
          variant: "destructive",
        });
        return;
      }
    }
    recordUse.mutate(shortcut.id);
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <div className="relative min-w-0 flex-1 basis-56">
          <Label htmlFor={`${id}-search`} className="sr-only">
            Search shortcuts
          </Label>
          <Search className="pointer-events-none absolute left-3 top-3 h-4 w-4 text-slate-600" aria-hidden />
          <Input
            id={`${id}-search`}
            type="search"
            placeholder="Search shortcuts..."
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="pl-9"
          />
        </div>
        <div className="w-full basis-44 sm:w-auto">
          <Label htmlFor={`${id}-category`} className="sr-only">
            Category
          </Label>
          <Select id={`${id}-category`} value={category} onChange={(e) => setCategory(e.target.value)}>
            <option value="all">All Categories</option>
            {inUse.map((c) => (
              <option key={c} value={c}>
                {capitalize(c)}
              </option>
            ))}
          </Select>
        </div>
        {controlled ? null : (
          <Button onClick={screen.openAdd}>
            <Plus className="h-4 w-4" aria-hidden />
            Add Shortcut
          </Button>
        )}
      </div>

      <EntityScreen
        state={screen}
        loadingLabel="Loading shortcuts..."
        items={visible}
        empty={
          <EmptyState
            title={shortcuts.data?.length ? "No shortcuts match your filters" : "No text shortcuts created yet"}
          />
        }
        listClassName="grid gap-3 md:grid-cols-2"
        renderItem={(s) => (
          <Card className="flex h-full flex-col p-4" data-testid="shortcut-card">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <h3 className="text-base font-semibold text-slate-900">{s.title}</h3>
              <div className="flex items-center gap-2">
                <Badge tone="blue">{capitalize(s.category)}</Badge>
                <span className="text-xs text-slate-700" data-testid="usage-count">
                  Used {s.usageCount} {s.usageCount === 1 ? "time" : "times"}
                </span>
              </div>
            </div>
            <p className="mt-2 whitespace-pre-wrap text-sm text-slate-800">{s.shortText}</p>
            {splitTags(s.tags).length ? (
              <ul className="mt-2 flex flex-wrap gap-1" aria-label="Tags">
                {splitTags(s.tags).map((tag) => (
                  <li key={tag}>
                    <Badge>#{tag}</Badge>
                  </li>
                ))}
              </ul>
            ) : null}
            <div className="mt-auto flex flex-wrap justify-end gap-2 pt-3">
              <Button size="sm" onClick={() => use(s)} aria-label={`${onInsert ? "Insert" : "Copy"} ${s.title}`}>
                {onInsert ? (
                  <CornerDownLeft className="h-4 w-4" aria-hidden />
                ) : (
                  <Copy className="h-4 w-4" aria-hidden />
                )}
                {onInsert ? "Insert" : "Copy"}
              </Button>
              <EditButton name={s.title} onClick={() => screen.openEdit(s)} />
              <DeleteButton name={s.title} onClick={() => screen.askDelete(s)} />
            </div>
          </Card>
        )}
        form={{
          title: (editing) => (editing ? "Edit Shortcut" : "New Shortcut"),
          description: "Reusable text for report writing.",
          render: (editing, close) => (
            <ShortcutForm key={editing?.id ?? "new"} shortcut={editing ?? undefined} onSaved={close} />
          ),
        }}
        confirmDelete={{
          title: "Delete Shortcut",
          description: () => "Are you sure you want to delete this text shortcut?",
        }}
      />
    </div>
  );
}

type ShortcutValues = z.output<typeof textShortcutRequest>;

function ShortcutForm({ shortcut, onSaved }: { shortcut?: TextShortcut; onSaved: () => void }) {
  const id = useId();
  const editing = Boolean(shortcut);
  // The server's own contract: the same required texts and lengths, checked before sending.
  const form = useForm<z.input<typeof textShortcutRequest>, unknown, ShortcutValues>({
    resolver: zodResolver(textShortcutRequest),
    defaultValues: {
      title: shortcut?.title ?? "",
      shortText: shortcut?.shortText ?? "",
      category: (shortcut?.category ?? "general") as ShortcutValues["category"],
      tags: shortcut?.tags ?? "",
    },
  });
  const { errors } = form.formState;

  const save = useMutation({
    mutationFn: (body: ShortcutValues) =>
      shortcut
        ? api.send("PUT", `/api/text-shortcuts/${shortcut.id}`, body, textShortcut)
        : api.send("POST", "/api/text-shortcuts", body, textShortcut),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: KEY });
      toast({ title: editing ? "Shortcut Updated" : "Shortcut Created", variant: "success" });
      onSaved();
    },
    onError: (error) =>
      toast({
        title: editing ? "Update Failed" : "Creation Failed",
        description: errorMessage(error, editing ? "Failed to update shortcut" : "Failed to create shortcut"),
        variant: "destructive",
      }),
  });

  return (
    <form onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate className="space-y-4">
      <Field label="Title" htmlFor={`${id}-title`} required error={errors.title?.message}>
        <Input
          id={`${id}-title`}
          maxLength={255}
          {...invalidProps(`${id}-title`, errors.title?.message)}
          {...form.register("title")}
        />
      </Field>
      <Field label="Text" htmlFor={`${id}-text`} required error={errors.shortText?.message}>
        <Textarea
          id={`${id}-text`}
          rows={4}
          {...invalidProps(`${id}-text`, errors.shortText?.message)}
          {...form.register("shortText")}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Category" htmlFor={`${id}-category`} error={errors.category?.message}>
          <Select id={`${id}-category`} {...form.register("category")}>
            {shortcutCategories.map((c) => (
              <option key={c} value={c}>
                {capitalize(c)}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Tags (comma-separated)" htmlFor={`${id}-tags`} error={errors.tags?.message}>
          <Input
            id={`${id}-tags`}
            placeholder="e.g. venous, normal"
            {...invalidProps(`${id}-tags`, errors.tags?.message)}
            {...form.register("tags")}
          />
        </Field>
      </div>
      <div className="flex justify-end">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving..." : editing ? "Update Shortcut" : "Create Shortcut"}
        </Button>
      </div>
    </form>
  );
}

import { useMutation, useQuery } from "@tanstack/react-query";
import { Copy, CornerDownLeft, Plus, Search } from "lucide-react";
import { type FormEvent, useId, useMemo, useState } from "react";
import { shortcutCategories, type TextShortcut } from "../../../../domain/contracts/templates";
import { DeleteButton, EditButton } from "../../components/ui/action-buttons";
import { Button } from "../../components/ui/button";
import { Badge, Card, EmptyState, Spinner } from "../../components/ui/card";
import { ConfirmDialog, Dialog, DialogContent } from "../../components/ui/dialog";
import { Input, Label, Select, Textarea } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { apiJson, apiRequest, errorMessage } from "../../lib/api";
import { queryClient } from "../../lib/query-client";
import { useDeleteMutation } from "../../lib/use-delete-mutation";
import { Field } from "./form-field";
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
  const shortcuts = useQuery<TextShortcut[]>({ queryKey: KEY });
  const [search, setSearch] = useState("");
  const [category, setCategory] = useState("all");
  const [ownAddOpen, setOwnAddOpen] = useState(false);
  const [editing, setEditing] = useState<TextShortcut | null>(null);
  const [deleting, setDeleting] = useState<TextShortcut | null>(null);
  const controlled = addOpen !== undefined;
  const adding = controlled ? addOpen : ownAddOpen;
  const setAdding = (open: boolean) => (controlled ? onAddOpenChange?.(open) : setOwnAddOpen(open));
  const dialogOpen = adding || editing !== null;
  const close = () => {
    setAdding(false);
    setEditing(null);
  };

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
  const remove = useDeleteMutation({
    url: (id) => `/api/text-shortcuts/${id}`,
    queryKey: KEY,
    success: { title: "Shortcut Deleted" },
    failure: { title: "Deletion Failed", fallback: "Failed to delete shortcut" },
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
          <Button onClick={() => setAdding(true)}>
            <Plus className="h-4 w-4" aria-hidden />
            Add Shortcut
          </Button>
        )}
      </div>

      {shortcuts.isLoading ? (
        <Spinner label="Loading shortcuts..." />
      ) : shortcuts.isError ? (
        <p role="alert" className="text-red-700">
          {errorMessage(shortcuts.error)}
        </p>
      ) : !visible.length ? (
        <EmptyState
          title={shortcuts.data?.length ? "No shortcuts match your filters" : "No text shortcuts created yet"}
        />
      ) : (
        <ul className="grid gap-3 md:grid-cols-2">
          {visible.map((s) => (
            <li key={s.id}>
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
                  <EditButton name={s.title} onClick={() => setEditing(s)} />
                  <DeleteButton name={s.title} onClick={() => setDeleting(s)} />
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}

      <Dialog open={dialogOpen} onOpenChange={(next) => !next && close()}>
        {dialogOpen ? (
          <DialogContent
            title={editing ? "Edit Shortcut" : "New Shortcut"}
            description="Reusable text for report writing."
          >
            <ShortcutForm key={editing?.id ?? "new"} shortcut={editing ?? undefined} onSaved={close} />
          </DialogContent>
        ) : null}
      </Dialog>

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(next) => !next && setDeleting(null)}
        title="Delete Shortcut"
        description="Are you sure you want to delete this text shortcut?"
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
    </div>
  );
}

function ShortcutForm({ shortcut, onSaved }: { shortcut?: TextShortcut; onSaved: () => void }) {
  const id = useId();
  const editing = Boolean(shortcut);
  const [title, setTitle] = useState(shortcut?.title ?? "");
  const [shortText, setShortText] = useState(shortcut?.shortText ?? "");
  const [category, setCategory] = useState(shortcut?.category ?? "general");
  const [tags, setTags] = useState(shortcut?.tags ?? "");

  const save = useMutation({
    mutationFn: (body: Record<string, string>) =>
      shortcut
        ? apiJson<TextShortcut>("PUT", `/api/text-shortcuts/${shortcut.id}`, body)
        : apiJson<TextShortcut>("POST", "/api/text-shortcuts", body),
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

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate({ title, shortText, category, tags });
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <Field label="Title" htmlFor={`${id}-title`} required>
        <Input id={`${id}-title`} value={title} onChange={(e) => setTitle(e.target.value)} maxLength={255} />
      </Field>
      <Field label="Text" htmlFor={`${id}-text`} required>
        <Textarea id={`${id}-text`} value={shortText} onChange={(e) => setShortText(e.target.value)} rows={4} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Category" htmlFor={`${id}-category`}>
          <Select id={`${id}-category`} value={category} onChange={(e) => setCategory(e.target.value)}>
            {shortcutCategories.map((c) => (
              <option key={c} value={c}>
                {capitalize(c)}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Tags (comma-separated)" htmlFor={`${id}-tags`}>
          <Input
            id={`${id}-tags`}
            value={tags}
            onChange={(e) => setTags(e.target.value)}
            placeholder="e.g. venous, normal"
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

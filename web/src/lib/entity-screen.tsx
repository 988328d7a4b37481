import type { UseQueryOptions } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { z } from "zod";
import { Spinner } from "../components/ui/card";
import { ConfirmDialog, Dialog, DialogContent } from "../components/ui/dialog";
import type { ToastOptions } from "../components/ui/use-toast";
import { type Answer, errorMessage, useApiQuery } from "./api";
import { useDeleteMutation } from "./use-delete-mutation";

// One pattern for the clinic's record screens (physicians, sonographers, legend, worksheet templates, report
// templates, shortcuts): a list read with its contract, a dialog to add or edit one, a confirmation to delete.

type Identified = { id: number };

/**
 * The state of an entity screen: its list, which record the form dialog shows (null: a new one) and which one
 * waits for the delete confirmation. `adding` and `onAddingChange` let a host with its own Add button drive it.
 */
export function useEntityScreen<S extends z.ZodType<Identified>>(options: {
  queryKey: readonly unknown[];
  item: S;
  queryOptions?: Omit<UseQueryOptions<Answer<S>[]>, "queryKey" | "queryFn">;
  deleteUrl: (id: number) => string;
  deleted: Omit<ToastOptions, "variant">;
  deleteFailed: { title: string; fallback: string };
  adding?: boolean;
  onAddingChange?: (open: boolean) => void;
}) {
  type Item = Answer<S>;
  const list = useApiQuery(options.queryKey, z.array(options.item), options.queryOptions as never);
  const [ownAdding, setOwnAdding] = useState(false);
  const [editing, setEditing] = useState<Item | null>(null);
  const [deleting, setDeleting] = useState<Item | null>(null);
  const controlled = options.adding !== undefined;
  const adding = controlled ? Boolean(options.adding) : ownAdding;
  const setAdding = (open: boolean) => (controlled ? options.onAddingChange?.(open) : setOwnAdding(open));
  const remove = useDeleteMutation({
    url: options.deleteUrl,
    queryKey: options.queryKey,
    success: options.deleted,
    failure: options.deleteFailed,
  });
  return {
    list: list as typeof list & { data: Item[] | undefined },
    editing,
    formOpen: adding || editing !== null,
    openAdd: () => {
      setEditing(null);
      setAdding(true);
    },
    openEdit: (item: Item) => setEditing(item),
    closeForm: () => {
      setAdding(false);
      setEditing(null);
    },
    deleting,
    askDelete: (item: Item) => setDeleting(item),
    cancelDelete: () => setDeleting(null),
    remove,
  };
}

export type EntityScreenState<T extends Identified> = {
  list: { data: T[] | undefined; isLoading: boolean; isError: boolean; error: unknown };
  editing: T | null;
  formOpen: boolean;
  closeForm: () => void;
  deleting: T | null;
  cancelDelete: () => void;
  remove: { mutate: (id: number) => void };
};

/**
 * The list (loading, error, empty, cards), the add/edit dialog and the delete confirmation of one screen.
 * `items` narrows the list (a search); `empty` is shown when nothing is left to show.
 */
export function EntityScreen<T extends Identified>({
  state,
  loadingLabel,
  loadFailed,
  empty,
  items,
  listClassName,
  renderItem,
  form,
  confirmDelete,
}: {
  state: EntityScreenState<T>;
  loadingLabel: string;
  loadFailed?: string;
  empty: ReactNode;
  items?: T[];
  listClassName: string;
  renderItem: (item: T) => ReactNode;
  form: {
    title: (editing: T | null) => string;
    description: string;
    className?: string;
    /** The form, keyed by the caller's record so each opening starts from its saved values. */
    render: (editing: T | null, close: () => void) => ReactNode;
  } | null;
  confirmDelete: { title: string; description: (item: T) => string };
}) {
  const { list, deleting } = state;
  const shown = items ?? list.data ?? [];
  return (
    <>
      {list.isLoading ? (
        <Spinner label={loadingLabel} />
      ) : list.isError ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900">
          {errorMessage(list.error, loadFailed)}
        </p>
      ) : !shown.length ? (
        empty
      ) : (
        <ul className={listClassName}>
          {shown.map((item) => (
            <li key={item.id}>{renderItem(item)}</li>
          ))}
        </ul>
      )}

      {form ? (
        <Dialog open={state.formOpen} onOpenChange={(next) => !next && state.closeForm()}>
          {state.formOpen ? (
            <DialogContent title={form.title(state.editing)} description={form.description} className={form.className}>
              {form.render(state.editing, state.closeForm)}
            </DialogContent>
          ) : null}
        </Dialog>
      ) : null}

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(next) => !next && state.cancelDelete()}
        title={confirmDelete.title}
        description={deleting ? confirmDelete.description(deleting) : ""}
        onConfirm={() => {
          if (deleting) state.remove.mutate(deleting.id);
          state.cancelDelete();
        }}
      />
    </>
  );
}

import { useMutation, useQuery } from "@tanstack/react-query";
import { Plus, UserRound } from "lucide-react";
import { useState } from "react";
import type { Sonographer } from "../../../../domain/contracts/sonographers";
import { DeleteButton, EditButton } from "../../components/ui/action-buttons";
import { Button } from "../../components/ui/button";
import { Badge, Card, CardContent, EmptyState, Spinner } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/dialog";
import { toast } from "../../components/ui/use-toast";
import { apiJson, errorMessage } from "../../lib/api";
import { queryClient } from "../../lib/query-client";
import { useDeleteMutation } from "../../lib/use-delete-mutation";
import { SonographerFormDialog, type SonographerValues } from "./sonographer-form-dialog";

const KEY = ["/api/sonographers"];

export function SonographersTab({ canManage }: { canManage: boolean }) {
  const { data: sonographers, isLoading, isError, error } = useQuery<Sonographer[]>({ queryKey: KEY });
  const [editing, setEditing] = useState<Sonographer | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [deleting, setDeleting] = useState<Sonographer | null>(null);

  const save = useMutation({
    mutationFn: ({ id, values }: { id: number | null; values: SonographerValues }) =>
      id === null
        ? apiJson<Sonographer>("POST", "/api/sonographers", values)
        : apiJson<Sonographer>("PUT", `/api/sonographers/${id}`, values),
    onSuccess: (_saved, { id }) => {
      queryClient.invalidateQueries({ queryKey: KEY });
      setFormOpen(false);
      toast({
        title: "Success",
        description: id === null ? "Sonographer added successfully" : "Sonographer updated successfully",
        variant: "success",
      });
    },
    onError: (err, { id }) =>
      toast({
        title: "Error",
        description: errorMessage(err, id === null ? "Failed to add sonographer" : "Failed to update sonographer"),
        variant: "destructive",
      }),
  });

  const remove = useDeleteMutation({
    url: (id) => `/api/sonographers/${id}`,
    queryKey: KEY,
    success: { title: "Success", description: "Sonographer deleted successfully" },
    failure: { title: "Error", fallback: "Failed to delete sonographer" },
  });

  const openForm = (s: Sonographer | null) => {
    setEditing(s);
    setFormOpen(true);
  };

  return (
    <section aria-labelledby="sonographers-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="sonographers-heading" className="text-lg font-semibold text-slate-900">
            Sonographers
          </h2>
          <p className="text-sm text-slate-700">The people who perform the scans.</p>
        </div>
        {canManage ? (
          <Button onClick={() => openForm(null)}>
            <Plus className="h-4 w-4" aria-hidden />
            Add Sonographer
          </Button>
        ) : null}
      </div>

      {isLoading ? (
        <Spinner label="Loading sonographers..." />
      ) : isError ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900">
          {errorMessage(error, "Failed to load sonographers")}
        </p>
      ) : !sonographers?.length ? (
        <EmptyState title="No Sonographers Added" icon={<UserRound className="h-8 w-8" aria-hidden />}>
          {canManage
            ? "Add your sonographers so that drawing sessions and reports can name them."
            : "An administrator of your clinic adds the sonographers."}
        </EmptyState>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {sonographers.map((s) => (
            <li key={s.id}>
              <Card className="flex h-full flex-col">
                <CardContent className="flex flex-1 flex-col gap-3 pt-5">
                  <div className="flex items-start justify-between gap-2">
                    <div>
                      <h3 className="font-semibold text-slate-900">{s.name}</h3>
                      {s.title ? <p className="text-sm text-slate-700">{s.title}</p> : null}
                      {s.department ? <p className="text-sm text-slate-700">{s.department}</p> : null}
                    </div>
                    <Badge tone="blue">
                      <span className="sr-only">Initials: </span>
                      {s.initials}
                    </Badge>
                  </div>
                  {canManage ? (
                    <div className="mt-auto flex justify-end gap-2">
                      <EditButton name={s.name} onClick={() => openForm(s)} />
                      <DeleteButton name={s.name} onClick={() => setDeleting(s)} />
                    </div>
                  ) : null}
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      )}

      <SonographerFormDialog
        open={formOpen}
        onOpenChange={setFormOpen}
        sonographer={editing}
        pending={save.isPending}
        onSubmit={(values) => save.mutate({ id: editing?.id ?? null, values })}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
        title="Delete Sonographer"
        description={`Are you sure you want to delete ${deleting?.name ?? "this sonographer"}? This cannot be undone.`}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id);
          setDeleting(null);
        }}
      />
    </section>
  );
}

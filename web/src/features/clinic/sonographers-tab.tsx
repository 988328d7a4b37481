import { useMutation } from "@tanstack/react-query";
import { Plus, UserRound } from "lucide-react";
import { sonographer } from "../../../../domain/contracts/sonographers";
import { DeleteButton, EditButton } from "../../components/ui/action-buttons";
import { Button } from "../../components/ui/button";
import { Badge, Card, CardContent, EmptyState } from "../../components/ui/card";
import { toast } from "../../components/ui/use-toast";
import { api, errorMessage } from "../../lib/api";
import { EntityScreen, useEntityScreen } from "../../lib/entity-screen";
import { queryClient } from "../../lib/query-client";
import { SonographerForm, type SonographerValues } from "./sonographer-form-dialog";

const KEY = ["/api/sonographers"];

export function SonographersTab({ canManage }: { canManage: boolean }) {
  const screen = useEntityScreen({
    queryKey: KEY,
    item: sonographer,
    deleteUrl: (id) => `/api/sonographers/${id}`,
    deleted: { title: "Success", description: "Sonographer deleted successfully" },
    deleteFailed: { title: "Error", fallback: "Failed to delete sonographer" },
  });

  const save = useMutation({
    mutationFn: ({ id, values }: { id: number | null; values: SonographerValues }) =>
      id === null
        ? api.send("POST", "/api/sonographers", values, sonographer)
        : api.send("PUT", `/api/sonographers/${id}`, values, sonographer),
    onSuccess: (_saved, { id }) => {
      queryClient.invalidateQueries({ queryKey: KEY });
      screen.closeForm();
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
          <Button onClick={screen.openAdd}>
            <Plus className="h-4 w-4" aria-hidden />
            Add Sonographer
          </Button>
        ) : null}
      </div>

      <EntityScreen
        state={screen}
        loadingLabel="Loading sonographers..."
        loadFailed="Failed to load sonographers"
        empty={
          <EmptyState title="No Sonographers Added" icon={<UserRound className="h-8 w-8" aria-hidden />}>
            {canManage
              ? "Add your sonographers so that drawing sessions and reports can name them."
              : "An administrator of your clinic adds the sonographers."}
          </EmptyState>
        }
        listClassName="grid gap-4 sm:grid-cols-2 lg:grid-cols-3"
        renderItem={(s) => (
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
                  <EditButton name={s.name} onClick={() => screen.openEdit(s)} />
                  <DeleteButton name={s.name} onClick={() => screen.askDelete(s)} />
                </div>
              ) : null}
            </CardContent>
          </Card>
        )}
        form={{
          title: (editing) => (editing ? "Edit Sonographer" : "Add Sonographer"),
          description: "Sonographers are chosen when a drawing session starts; their initials mark their work.",
          render: (editing) => (
            <SonographerForm
              key={editing?.id ?? "new"}
              sonographer={editing}
              pending={save.isPending}
              onSubmit={(values) => save.mutate({ id: editing?.id ?? null, values })}
            />
          ),
        }}
        confirmDelete={{
          title: "Delete Sonographer",
          description: (s) => `Are you sure you want to delete ${s.name}? This cannot be undone.`,
        }}
      />
    </section>
  );
}

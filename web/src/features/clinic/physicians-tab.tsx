import { useMutation } from "@tanstack/react-query";
import { Plus, Stethoscope } from "lucide-react";
import { type PhysicianCreate, physician } from "../../../../domain/contracts/physicians";
import { DeleteButton, EditButton } from "../../components/ui/action-buttons";
import { Button } from "../../components/ui/button";
import { Card, CardContent, EmptyState } from "../../components/ui/card";
import { toast } from "../../components/ui/use-toast";
import { api, errorMessage } from "../../lib/api";
import { EntityScreen, useEntityScreen } from "../../lib/entity-screen";
import { physicianRetry, queryClient } from "../../lib/query-client";
import { PhysicianAccount } from "./physician-account";
import { PhysicianForm, type PhysicianFormValues } from "./physician-form-dialog";
import { uploadImage } from "./upload-image";

const KEY = ["/api/physicians"];

class SignatureError extends Error {
  constructor(readonly original: unknown) {
    super("Failed to process signature");
  }
}

/** Uploads a new signature first (when there is one), then answers the physician fields to save. */
async function withSignature(values: PhysicianFormValues): Promise<PhysicianCreate> {
  let signatureUrl = values.signatureUrl;
  if (values.newSignature) {
    try {
      signatureUrl = await uploadImage(
        "/api/upload-signature",
        "signature",
        values.newSignature.blob,
        values.newSignature.name,
      );
    } catch (error) {
      throw new SignatureError(error);
    }
  }
  return { name: values.name, title: values.title, specialty: values.specialty, signatureUrl };
}

function failure(title: string, fallback: string, error: unknown) {
  const description =
    error instanceof SignatureError
      ? errorMessage(error.original, "Failed to process signature")
      : errorMessage(error, fallback);
  toast({ title, description, variant: "destructive" });
}

export function PhysiciansTab({ canManage }: { canManage: boolean }) {
  const screen = useEntityScreen({
    queryKey: KEY,
    item: physician,
    queryOptions: { retry: physicianRetry },
    deleteUrl: (id) => `/api/physicians/${id}`,
    deleted: { title: "Physician Deleted", description: "The physician has been removed." },
    deleteFailed: { title: "Failed to Delete Physician", fallback: "Failed to delete physician" },
  });
  const physicians = screen.list.data;

  const save = useMutation({
    mutationFn: async ({ id, values }: { id: number | null; values: PhysicianFormValues }) => {
      const body = await withSignature(values);
      return id === null
        ? api.send("POST", "/api/physicians", body, physician)
        : api.send("PATCH", `/api/physicians/${id}`, body, physician);
    },
    onSuccess: (_saved, { id }) => {
      queryClient.invalidateQueries({ queryKey: KEY });
      screen.closeForm();
      toast({
        title: id === null ? "Physician Added" : "Physician Updated",
        description: id === null ? "The physician has been added." : "The physician has been updated.",
        variant: "success",
      });
    },
    onError: (err, { id }) =>
      id === null
        ? failure("Failed to Add Physician", "Failed to add physician", err)
        : failure("Failed to Update Physician", "Failed to update physician", err),
  });

  return (
    <section aria-labelledby="physicians-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="physicians-heading" className="text-lg font-semibold text-slate-900">
            Physicians
          </h2>
          <p className="text-sm text-slate-700">Reporting physicians and the signatures shown on their reports.</p>
        </div>
        {canManage ? (
          <Button onClick={screen.openAdd}>
            <Plus className="h-4 w-4" aria-hidden />
            Add Physician
          </Button>
        ) : null}
      </div>

      <EntityScreen
        state={screen}
        loadingLabel="Loading physicians..."
        loadFailed="Failed to load physicians"
        empty={
          <EmptyState title="No Physicians Added" icon={<Stethoscope className="h-8 w-8" aria-hidden />}>
            {canManage
              ? "Add the physicians who sign your reports, with their signatures."
              : "An administrator of your clinic adds the physicians who sign reports."}
          </EmptyState>
        }
        listClassName="grid gap-4 sm:grid-cols-2 lg:grid-cols-3"
        renderItem={(p) => (
          <Card className="flex h-full flex-col">
            <CardContent className="flex flex-1 flex-col gap-3 pt-5">
              <div>
                <h3 className="font-semibold text-slate-900">{p.name}</h3>
                {p.title ? <p className="text-sm text-slate-700">{p.title}</p> : null}
                {p.specialty ? <p className="text-sm text-slate-700">{p.specialty}</p> : null}
              </div>
              <div className="flex h-20 items-center justify-center rounded-md border border-slate-200 bg-slate-50">
                {p.signatureUrl ? (
                  <img
                    src={p.signatureUrl}
                    alt={`Signature of ${p.name}`}
                    className="max-h-16 max-w-full object-contain"
                  />
                ) : (
                  <span className="text-sm text-slate-700">No signature</span>
                )}
              </div>
              <PhysicianAccount physician={p} physicians={physicians ?? []} canManage={canManage} />
              {canManage ? (
                <div className="mt-auto flex justify-end gap-2">
                  <EditButton name={p.name} onClick={() => screen.openEdit(p)} />
                  <DeleteButton name={p.name} onClick={() => screen.askDelete(p)} />
                </div>
              ) : null}
            </CardContent>
          </Card>
        )}
        form={{
          title: (editing) => (editing ? "Edit Physician" : "Add Physician"),
          description: "The name, title and specialty appear in the report's signature block.",
          className: "max-w-xl",
          render: (editing) => (
            // Keyed so that each opening starts from the physician's saved values.
            <PhysicianForm
              key={editing?.id ?? "new"}
              physician={editing}
              pending={save.isPending}
              onSubmit={(values) => save.mutate({ id: editing?.id ?? null, values })}
            />
          ),
        }}
        confirmDelete={{
          title: "Delete Physician",
          description: (p) => `Are you sure you want to delete ${p.name}? This cannot be undone.`,
        }}
      />
    </section>
  );
}

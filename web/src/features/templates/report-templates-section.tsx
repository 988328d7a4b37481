import { useQuery } from "@tanstack/react-query";
import { FileText, Star } from "lucide-react";
import { useState } from "react";
import type { ReportTemplate } from "../../../../domain/contracts/templates";
import { DeleteButton, EditButton } from "../../components/ui/action-buttons";
import { Badge, Card, EmptyState, Spinner } from "../../components/ui/card";
import { ConfirmDialog, Dialog, DialogContent } from "../../components/ui/dialog";
import { errorMessage } from "../../lib/api";
import { useDeleteMutation } from "../../lib/use-delete-mutation";
import { ReportTemplateForm } from "./report-template-form";

const typeLabel = { pdf: "PDF", docx: "DOCX", both: "PDF + DOCX" } as const;

/** Report layouts: a card per template, a dialog to create or edit, a confirmation to delete. */
export function ReportTemplatesSection({
  adding,
  onAddingChange,
}: {
  adding: boolean;
  onAddingChange: (open: boolean) => void;
}) {
  const templates = useQuery<ReportTemplate[]>({ queryKey: ["/api/templates"] });
  const [editing, setEditing] = useState<ReportTemplate | null>(null);
  const [deleting, setDeleting] = useState<ReportTemplate | null>(null);
  const open = adding || editing !== null;
  const close = () => {
    onAddingChange(false);
    setEditing(null);
  };

  const remove = useDeleteMutation({
    url: (id) => `/api/templates/${id}`,
    queryKey: ["/api/templates"],
    success: { title: "Template Deleted" },
    failure: { title: "Deletion Failed", fallback: "Failed to delete template" },
  });

  return (
    <>
      {templates.isLoading ? (
        <Spinner label="Loading templates..." />
      ) : templates.isError ? (
        <p role="alert" className="text-red-700">
          {errorMessage(templates.error)}
        </p>
      ) : !templates.data?.length ? (
        <EmptyState title="No Templates Yet" icon={<FileText className="h-8 w-8" aria-hidden />}>
          Create a report layout to control how PDF and DOCX exports look.
        </EmptyState>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {templates.data.map((t) => (
            <li key={t.id}>
              <Card className="flex h-full flex-col p-5">
                <div className="flex items-start justify-between gap-2">
                  <h3 className="text-base font-semibold text-slate-900">{t.name}</h3>
                  <span
                    className="mt-1 h-4 w-4 shrink-0 rounded-full border border-slate-300"
                    style={{ backgroundColor: t.primaryColor }}
                    title={`Primary colour ${t.primaryColor}`}
                    aria-hidden
                  />
                </div>
                {t.description ? <p className="mt-1 text-sm text-slate-700">{t.description}</p> : null}
                <div className="mt-3 flex flex-wrap gap-1.5">
                  {t.isDefault ? (
                    <Badge tone="green">
                      <Star className="mr-1 h-3 w-3" aria-hidden />
                      Default
                    </Badge>
                  ) : null}
                  <Badge tone="blue">{typeLabel[t.templateType]}</Badge>
                  <Badge>
                    {t.fontFamily} {t.fontSize}
                  </Badge>
                  <Badge>Layout: {t.patientInfoLayout}</Badge>
                  <Badge>Signature: {t.signaturePosition}</Badge>
                </div>
                <div className="mt-auto flex justify-end gap-2 pt-4">
                  <EditButton name={t.name} onClick={() => setEditing(t)} />
                  <DeleteButton name={t.name} onClick={() => setDeleting(t)} />
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}

      <Dialog open={open} onOpenChange={(next) => !next && close()}>
        {open ? (
          <DialogContent
            title={editing ? "Edit Report Template" : "New Report Template"}
            description="Choose what the report shows and how it looks; the preview updates as you change settings."
            className="max-w-5xl"
          >
            {/* Keyed so a new dialog starts from the defaults or the chosen template, never a stale form. */}
            <ReportTemplateForm key={editing?.id ?? "new"} template={editing ?? undefined} onSaved={close} />
          </DialogContent>
        ) : null}
      </Dialog>

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(next) => !next && setDeleting(null)}
        title="Delete Template"
        description="Are you sure you want to delete this template?"
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
    </>
  );
}

import { FileText, Star } from "lucide-react";
import { reportTemplate } from "../../../../domain/contracts/templates";
import { DeleteButton, EditButton } from "../../components/ui/action-buttons";
import { Badge, Card, EmptyState } from "../../components/ui/card";
import { EntityScreen, useEntityScreen } from "../../lib/entity-screen";
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
  const screen = useEntityScreen({
    queryKey: ["/api/templates"],
    item: reportTemplate,
    deleteUrl: (id) => `/api/templates/${id}`,
    deleted: { title: "Template Deleted" },
    deleteFailed: { title: "Deletion Failed", fallback: "Failed to delete template" },
    adding,
    onAddingChange,
  });

  return (
    <EntityScreen
      state={screen}
      loadingLabel="Loading templates..."
      empty={
        <EmptyState title="No Templates Yet" icon={<FileText className="h-8 w-8" aria-hidden />}>
          Create a report layout to control how PDF and DOCX exports look.
        </EmptyState>
      }
      listClassName="grid gap-4 sm:grid-cols-2 xl:grid-cols-3"
      renderItem={(t) => (
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
            <EditButton name={t.name} onClick={() => screen.openEdit(t)} />
            <DeleteButton name={t.name} onClick={() => screen.askDelete(t)} />
          </div>
        </Card>
      )}
      form={{
        title: (editing) => (editing ? "Edit Report Template" : "New Report Template"),
        description: "Choose what the report shows and how it looks; the preview updates as you change settings.",
        className: "max-w-5xl",
        // Keyed so a new dialog starts from the defaults or the chosen template, never a stale form.
        render: (editing, close) => (
          <ReportTemplateForm key={editing?.id ?? "new"} template={editing ?? undefined} onSaved={close} />
        ),
      }}
      confirmDelete={{ title: "Delete Template", description: () => "Are you sure you want to delete this template?" }}
    />
  );
}

import { PenTool } from "lucide-react";
import { useState } from "react";
import { z } from "zod";
import type { DigitalWorksheet } from "../../../../domain/contracts/drawings";
import { digitalWorksheetSchema } from "../../../../domain/contracts/drawings";
import type { WorksheetTemplate } from "../../../../domain/contracts/templates";
import { worksheetTemplate } from "../../../../domain/contracts/templates";
import { Badge, Card, EmptyState, Spinner } from "../../components/ui/card";
import { useApiQuery } from "../../lib/api";
import { showDateTime } from "../../lib/dates";
import { DrawingWorkspace } from "./drawing-workspace";
import { StartSessionDialog } from "./start-session-dialog";

export function DrawingPage() {
  const templates = useApiQuery(["/api/worksheet-templates"], z.array(worksheetTemplate));
  const sessions = useApiQuery(["/api/digital-worksheets"], z.array(digitalWorksheetSchema));
  const [picked, setPicked] = useState<WorksheetTemplate | null>(null);
  const [active, setActive] = useState<{ session: DigitalWorksheet; template: WorksheetTemplate } | null>(null);

  if (active) return <DrawingWorkspace session={active.session} template={active.template} />;

  const openDrafts = (sessions.data ?? []).filter((s) => !s.completedAt);
  const templateOf = (id: number | null) => templates.data?.find((t) => t.id === id) ?? null;

  return (
    <section className="grid gap-6">
      <header>
        <h1 className="text-2xl font-semibold text-slate-900">Digital Drawing</h1>
        <p className="text-slate-700">
          Pick a worksheet template, start a patient session, and draw with a stylus, finger or mouse.
        </p>
      </header>
      {templates.isLoading ? (
        <Spinner label="Loading templates..." />
      ) : !templates.data?.length ? (
        <EmptyState title="No Worksheet Templates Available" icon={<PenTool className="h-8 w-8" aria-hidden />}>
          Upload worksheet templates in the Templates section to start drawing
        </EmptyState>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {templates.data.map((template) => (
            <li key={template.id}>
              <button
                type="button"
                onClick={() => setPicked(template)}
                className="w-full overflow-hidden rounded-lg border border-slate-200 bg-white text-left shadow-sm transition hover:border-brand-600 hover:shadow"
              >
                <img src={template.imageUrl} alt="" className="h-48 w-full bg-slate-100 object-contain" />
                <div className="grid gap-1 p-4">
                  <span className="font-semibold text-slate-900">{template.name}</span>
                  {template.description ? <span className="text-sm text-slate-700">{template.description}</span> : null}
                  <Badge className="w-fit capitalize">{template.category}</Badge>
                </div>
              </button>
            </li>
          ))}
        </ul>
      )}
      {openDrafts.length ? (
        <Card className="p-5">
          <h2 className="text-lg font-semibold text-slate-900">Continue a drawing</h2>
          <ul className="mt-3 divide-y divide-slate-100">
            {openDrafts.map((session) => {
              const template = templateOf(session.templateId);
              return (
                <li key={session.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <span className="text-sm text-slate-800">
                    {session.patientName} • {template?.name ?? "Template removed"} • last saved{" "}
                    {showDateTime(session.updatedAt)}
                  </span>
                  {template ? (
                    <button
                      type="button"
                      className="text-sm font-medium text-brand-700 underline"
                      onClick={() => setActive({ session, template })}
                    >
                      Continue
                    </button>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </Card>
      ) : null}
      <StartSessionDialog
        template={picked}
        onClose={() => setPicked(null)}
        onStarted={(session) => {
          if (picked) setActive({ session, template: picked });
          setPicked(null);
        }}
      />
    </section>
  );
}

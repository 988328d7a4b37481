import { BookOpen, FileText, ImageIcon, Plus, Type } from "lucide-react";
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs";
import { LegendSection } from "./legend-section";
import { ReportTemplatesSection } from "./report-templates-section";
import { TextShortcutsPanel } from "./text-shortcuts-panel";
import { WorksheetTemplatesSection } from "./worksheet-templates-section";

type Section = "reports" | "worksheets" | "legend" | "shortcuts";

const sections: Record<Section, { label: string; subtitle: string; add: string; icon: typeof FileText }> = {
  reports: {
    label: "Reports",
    subtitle: "Create and manage custom report layouts for PDF and DOCX exports",
    add: "New Template",
    icon: FileText,
  },
  worksheets: {
    label: "Worksheets",
    subtitle: "Upload and manage blank worksheet templates for digital drawing",
    add: "Upload Worksheet",
    icon: ImageIcon,
  },
  legend: {
    label: "Legend",
    subtitle: "Teach the AI about drawing meanings to improve report generation accuracy",
    add: "Add Legend Entry",
    icon: BookOpen,
  },
  shortcuts: {
    label: "Shortcuts",
    subtitle: "Manage frequently used text snippets for faster report writing",
    add: "Add Shortcut",
    icon: Type,
  },
};

/** The Templates screen: four sections, one add button that adds to the section on show. */
export function TemplatesPage() {
  const [section, setSection] = useState<Section>("reports");
  const [adding, setAdding] = useState<Section | null>(null);
  const current = sections[section];
  const addingProps = (s: Section) => ({
    adding: adding === s,
    onAddingChange: (open: boolean) => setAdding(open ? s : null),
  });

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">Templates</h1>
          <p className="mt-1 text-slate-700">{current.subtitle}</p>
        </div>
        <Button onClick={() => setAdding(section)}>
          <Plus className="h-4 w-4" aria-hidden />
          {current.add}
        </Button>
      </div>
      <Tabs value={section} onValueChange={(v) => setSection(v as Section)}>
        <TabsList aria-label="Template sections" className="mb-6">
          {(Object.keys(sections) as Section[]).map((key) => {
            const Icon = sections[key].icon;
            return (
              <TabsTrigger key={key} value={key} className="flex items-center gap-1.5">
                <Icon className="h-4 w-4" aria-hidden />
                {sections[key].label}
              </TabsTrigger>
            );
          })}
        </TabsList>
        <TabsContent value="reports">
          <ReportTemplatesSection {...addingProps("reports")} />
        </TabsContent>
        <TabsContent value="worksheets">
          <WorksheetTemplatesSection {...addingProps("worksheets")} />
        </TabsContent>
        <TabsContent value="legend">
          <LegendSection {...addingProps("legend")} />
        </TabsContent>
        <TabsContent value="shortcuts">
          <TextShortcutsPanel
            addOpen={adding === "shortcuts"}
            onAddOpenChange={(open) => setAdding(open ? "shortcuts" : null)}
          />
        </TabsContent>
      </Tabs>
    </div>
  );
}

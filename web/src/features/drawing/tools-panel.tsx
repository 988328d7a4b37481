import { Eraser, Highlighter, Paintbrush, Pen, Trash2, Type } from "lucide-react";
import type { DrawingTool } from "../../../../domain/drawing/drawing-document";
import { Button } from "../../components/ui/button";
import { cn } from "../../lib/cn";
import { HIGHLIGHTER_COLOURS, PEN_COLOURS, selectTool, sizeBounds, type ToolState } from "./drawing-tools";

const tools: Array<{ type: DrawingTool; label: string; icon: typeof Pen }> = [
  { type: "pen", label: "Pen", icon: Pen },
  { type: "highlighter", label: "Highlighter", icon: Highlighter },
  { type: "whiteout", label: "Whiteout", icon: Paintbrush },
  { type: "eraser", label: "Eraser", icon: Eraser },
  { type: "text", label: "Text", icon: Type },
];

export function ToolsPanel({
  tool,
  onChange,
  onClear,
}: {
  tool: ToolState;
  onChange: (tool: ToolState) => void;
  onClear: () => void;
}) {
  const palette =
    tool.type === "highlighter" ? HIGHLIGHTER_COLOURS : tool.type === "pen" || tool.type === "text" ? PEN_COLOURS : [];
  const bounds = sizeBounds[tool.type];
  return (
    <aside
      aria-label="Drawing tools"
      className="grid content-start gap-5 rounded-lg border border-slate-200 bg-white p-4"
    >
      <fieldset>
        <legend className="mb-2 text-sm font-semibold text-slate-900">Tool</legend>
        <div className="grid grid-cols-5 gap-1 lg:grid-cols-1">
          {tools.map((t) => (
            <Button
              key={t.type}
              variant={tool.type === t.type ? "default" : "outline"}
              size="sm"
              aria-pressed={tool.type === t.type}
              onClick={() => onChange(selectTool(tool, t.type))}
              className="justify-start"
            >
              <t.icon className="h-4 w-4 shrink-0" aria-hidden />
              <span className="hidden sm:inline">{t.label}</span>
              <span className="sr-only sm:hidden">{t.label}</span>
            </Button>
          ))}
        </div>
      </fieldset>
      {palette.length ? (
        <fieldset>
          <legend className="mb-2 text-sm font-semibold text-slate-900">Colour</legend>
          <div className="flex flex-wrap gap-2">
            {palette.map((colour) => (
              <button
                key={colour}
                type="button"
                aria-label={`Colour ${colour}`}
                aria-pressed={tool.color === colour}
                onClick={() => onChange({ ...tool, color: colour })}
                className={cn(
                  "h-8 w-8 rounded-full border-2",
                  tool.color === colour ? "border-brand-700 ring-2 ring-brand-600 ring-offset-1" : "border-slate-300",
                )}
                style={{ backgroundColor: colour }}
              />
            ))}
          </div>
        </fieldset>
      ) : null}
      <div className="grid gap-1">
        <label htmlFor="tool-size" className="text-sm font-semibold text-slate-900">
          Size: {tool.size}
        </label>
        <input
          id="tool-size"
          type="range"
          min={bounds.min}
          max={bounds.max}
          value={tool.size}
          onChange={(e) => onChange({ ...tool, size: Number(e.target.value) })}
          className="accent-brand-600"
        />
      </div>
      {tool.type === "highlighter" ? (
        <div className="grid gap-1">
          <label htmlFor="tool-opacity" className="text-sm font-semibold text-slate-900">
            Opacity: {Math.round(tool.opacity * 100)}%
          </label>
          <input
            id="tool-opacity"
            type="range"
            min={10}
            max={80}
            step={5}
            value={Math.round(tool.opacity * 100)}
            onChange={(e) => onChange({ ...tool, opacity: Number(e.target.value) / 100 })}
            className="accent-brand-600"
          />
        </div>
      ) : null}
      <Button variant="outline" onClick={onClear}>
        <Trash2 className="h-4 w-4" aria-hidden />
        Clear Drawing
      </Button>
    </aside>
  );
}

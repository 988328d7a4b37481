import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Card } from "../../components/ui/card";

export function StatCard({
  icon: Icon,
  label,
  value,
  note,
}: {
  icon: LucideIcon;
  label: string;
  value: ReactNode;
  note?: ReactNode;
}) {
  return (
    <Card className="p-5">
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-medium text-slate-700">{label}</h3>
        <Icon className="h-5 w-5 text-brand-600" aria-hidden />
      </div>
      <div className="mt-2 text-2xl font-semibold text-slate-900">{value}</div>
      {note ? <div className="mt-1 text-sm text-slate-700">{note}</div> : null}
    </Card>
  );
}

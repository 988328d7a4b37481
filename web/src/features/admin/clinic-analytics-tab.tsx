import { z } from "zod";
import { clinicStat } from "../../../../domain/contracts/admin";
import { Badge, Card, EmptyState, Spinner } from "../../components/ui/card";
import { useApiQuery } from "../../lib/api";
import { formatDate } from "./format";

export function ClinicAnalyticsTab() {
  const { data, isLoading } = useApiQuery(["/api/admin/clinic-stats"], z.array(clinicStat));
  if (isLoading) return <Spinner label="Loading clinic analytics..." />;
  if (!data?.length) return <EmptyState title="No clinic data available" />;
  return (
    <Card className="overflow-x-auto">
      <table className="w-full min-w-[640px] text-left text-sm">
        <caption className="sr-only">Clinic activity over the last 30 days</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-slate-800">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">
              Clinic
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Location
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Reports (30 days)
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Active users
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Last used
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Status
            </th>
          </tr>
        </thead>
        <tbody>
          {data.map((clinic) => (
            <tr key={clinic.id} className="border-b border-slate-100 last:border-0">
              <td className="px-4 py-3 font-medium text-slate-900">{clinic.name}</td>
              <td className="px-4 py-3 text-slate-700">{clinic.location}</td>
              <td className="px-4 py-3">{clinic.reportsLast30Days}</td>
              <td className="px-4 py-3">{clinic.activeUsers}</td>
              <td className="px-4 py-3 text-slate-700">{formatDate(clinic.lastUsed)}</td>
              <td className="px-4 py-3">
                <Badge tone={clinic.status === "Active" ? "green" : "yellow"}>{clinic.status}</Badge>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

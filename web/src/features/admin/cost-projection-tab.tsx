import { AlertTriangle, DollarSign, TrendingUp } from "lucide-react";
import { costProjection } from "../../../../domain/contracts/admin";
import { Card, CardContent, CardHeader, CardTitle, Spinner } from "../../components/ui/card";
import { errorMessage, useApiQuery } from "../../lib/api";
import { formatDollars } from "./format";
import { StatCard } from "./stat-card";

export function CostProjectionTab() {
  const { data, isLoading, error } = useApiQuery(["/api/admin/cost-projection"], costProjection);
  if (isLoading) return <Spinner label="Loading cost projection..." />;
  if (error || !data)
    return <p className="text-red-700">{errorMessage(error, "The cost projection could not be loaded.")}</p>;
  const rows = [
    { label: "Database", value: data.databaseCost, unit: `$${data.unitPrices.dbPerGbMonth} per GB-month` },
    { label: "File storage", value: data.storageCost, unit: `$${data.unitPrices.storagePerGbMonth} per GB-month` },
    { label: "AI API usage", value: data.aiCost, unit: `$${data.unitPrices.aiPerReport} per generated report` },
  ];
  return (
    <div className="grid gap-6">
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard
          icon={DollarSign}
          label="Current month"
          value={formatDollars(data.currentMonth)}
          note="Database plus storage plus AI"
        />
        <StatCard
          icon={TrendingUp}
          label="Projected next month"
          value={formatDollars(data.nextMonth)}
          note="From the growth trend"
        />
        <StatCard
          icon={AlertTriangle}
          label="Cost alerts"
          value={data.alerts}
          note={`Threshold ${formatDollars(data.unitPrices.alertMonthlyUsd)} per month`}
        />
      </div>
      {data.alertMessages.length ? (
        <ul className="grid gap-2" aria-label="Cost alerts">
          {data.alertMessages.map((message) => (
            <li
              key={message}
              className="rounded-md border border-yellow-300 bg-yellow-50 px-4 py-2 text-sm text-yellow-950"
            >
              {message}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Cost Breakdown</CardTitle>
          </CardHeader>
          <CardContent>
            <table className="w-full text-sm">
              <caption className="sr-only">Estimated monthly cost by item</caption>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.label} className="border-b border-slate-100">
                    <th scope="row" className="py-2 text-left font-medium text-slate-800">
                      {row.label}
                      <div className="text-xs font-normal text-slate-700">{row.unit}</div>
                    </th>
                    <td className="py-2 text-right">{formatDollars(row.value)}/month</td>
                  </tr>
                ))}
                <tr>
                  <th scope="row" className="py-2 text-left font-semibold">
                    Total estimated
                  </th>
                  <td className="py-2 text-right font-semibold">{formatDollars(data.totalEstimated)}/month</td>
                </tr>
              </tbody>
            </table>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Optimization Recommendations</CardTitle>
          </CardHeader>
          <CardContent>
            {data.recommendations.length ? (
              <ul className="list-disc space-y-2 pl-5 text-sm text-slate-800">
                {data.recommendations.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-slate-700">No recommendations available</p>
            )}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

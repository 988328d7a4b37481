import { Activity, Database, FileText, Users } from "lucide-react";
import { systemStats } from "../../../../domain/contracts/admin";
import { Badge, Card, CardContent, CardHeader, CardTitle, Spinner } from "../../components/ui/card";
import { errorMessage, useApiQuery } from "../../lib/api";
import { formatBytes } from "./format";
import { StatCard } from "./stat-card";

export function SystemMonitoringTab() {
  const { data, isLoading, error } = useApiQuery(["/api/admin/system-stats"], systemStats);
  if (isLoading) return <Spinner label="Loading system statistics..." />;
  if (error || !data)
    return <p className="text-red-700">{errorMessage(error, "System statistics could not be loaded.")}</p>;
  const growth =
    data.growthBasisDays > 0
      ? `${data.monthlyGrowth >= 0 ? "+" : ""}${data.monthlyGrowth}% per month (over ${data.growthBasisDays} days)`
      : "Monthly growth: collecting daily snapshots";
  const storage = [
    { label: "Report data", size: data.reportDataSize, percent: data.reportDataPercent },
    { label: "Worksheet files", size: data.worksheetFilesSize, percent: data.worksheetFilesPercent },
    { label: "User data", size: data.userDataSize, percent: data.userDataPercent },
  ];
  return (
    <div className="grid gap-6">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard
          icon={Database}
          label="Total Database Size"
          value={`${data.databaseSize.toFixed(3)} GB`}
          note={growth}
        />
        <StatCard icon={Users} label="Active Users" value={data.activeUsers} note="Last 30 days" />
        <StatCard
          icon={FileText}
          label="Total Reports"
          value={data.totalReports}
          note={`${data.reportsThisMonth} this month`}
        />
        <StatCard
          icon={Activity}
          label="System Status"
          value={<Badge tone="green">Healthy</Badge>}
          note="Encryption: Active"
        />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Storage Breakdown</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4">
            {storage.map((item) => (
              <div key={item.label}>
                <div className="flex justify-between text-sm">
                  <span className="font-medium text-slate-800">{item.label}</span>
                  <span className="text-slate-700">
                    {formatBytes(item.size)} ({item.percent}%)
                  </span>
                </div>
                <div className="mt-1 h-2 rounded-full bg-slate-200" aria-hidden>
                  <div className="h-2 rounded-full bg-brand-600" style={{ width: `${item.percent}%` }} />
                </div>
              </div>
            ))}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Performance Metrics</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-2 gap-4 text-sm">
              <div>
                <dt className="text-slate-700">Average response time</dt>
                <dd className="text-lg font-semibold">{data.avgResponseTime} ms</dd>
              </div>
              <div>
                <dt className="text-slate-700">API success rate</dt>
                <dd className="text-lg font-semibold">{data.apiSuccessRate}%</dd>
              </div>
              <div>
                <dt className="text-slate-700">Encryption overhead</dt>
                <dd className="text-lg font-semibold">
                  {data.encryptionOverhead === null ? "No files yet" : `${data.encryptionOverhead} ms per file`}
                </dd>
              </div>
              <div>
                <dt className="text-slate-700">Backups</dt>
                <dd className="text-lg font-semibold">Manual</dd>
                <dd className="text-xs text-slate-700">Not scheduled by the server: run npm run backup daily (cron)</dd>
              </div>
            </dl>
            <p className="mt-4 text-xs text-slate-700">
              Response figures cover the {data.requestsMeasured} requests this server has answered since it started.
            </p>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

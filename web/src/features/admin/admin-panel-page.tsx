import { ShieldAlert } from "lucide-react";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs";
import { useAuth } from "../auth/use-auth";
import { ClinicAnalyticsTab } from "./clinic-analytics-tab";
import { CostProjectionTab } from "./cost-projection-tab";
import { SystemMonitoringTab } from "./system-monitoring-tab";
import { TrainingTab } from "./training-tab";

/** The server refuses every admin call until the account has two-factor sign-in: say so, and where to turn it on. */
function TwoFactorFirst() {
  return (
    <div
      role="alert"
      className="flex items-start gap-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900"
    >
      <ShieldAlert className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
      <div className="grid gap-1">
        <p className="font-semibold">Two-factor sign-in is required for platform administrators.</p>
        <p>
          Turn it on from the Account menu (the person icon at the top right), under "Two-factor sign-in", then this
          page shows the panel. Until then it shows no data.
        </p>
      </div>
    </div>
  );
}

export function AdminPanelPage() {
  const { user } = useAuth();
  if (user && !user.totpEnabled)
    return (
      <section className="grid gap-6">
        <header>
          <h1 className="text-2xl font-semibold text-slate-900">Webmaster Admin Panel</h1>
        </header>
        <TwoFactorFirst />
      </section>
    );
  return (
    <section className="grid gap-6">
      <header>
        <h1 className="text-2xl font-semibold text-slate-900">Webmaster Admin Panel</h1>
        <p className="text-slate-700">System monitoring, cost analysis, and AI training management</p>
      </header>
      <Tabs defaultValue="monitoring" className="grid gap-6">
        <TabsList aria-label="Admin sections">
          <TabsTrigger value="monitoring">System Monitoring</TabsTrigger>
          <TabsTrigger value="clinics">Clinic Analytics</TabsTrigger>
          <TabsTrigger value="costs">Cost Projection</TabsTrigger>
          <TabsTrigger value="training">Global AI Training</TabsTrigger>
        </TabsList>
        <TabsContent value="monitoring">
          <SystemMonitoringTab />
        </TabsContent>
        <TabsContent value="clinics">
          <ClinicAnalyticsTab />
        </TabsContent>
        <TabsContent value="costs">
          <CostProjectionTab />
        </TabsContent>
        <TabsContent value="training">
          <TrainingTab />
        </TabsContent>
      </Tabs>
    </section>
  );
}

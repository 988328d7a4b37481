import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs";
import { ClinicAnalyticsTab } from "./clinic-analytics-tab";
import { CostProjectionTab } from "./cost-projection-tab";
import { SystemMonitoringTab } from "./system-monitoring-tab";
import { TrainingTab } from "./training-tab";

export function AdminPanelPage() {
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

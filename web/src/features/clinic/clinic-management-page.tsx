import { Info } from "lucide-react";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs";
import { useAuth } from "../auth/use-auth";
import { StaffManagementPage } from "../staff/staff-management-page";
import { ClinicSettingsTab } from "./clinic-settings-tab";
import { PhysiciansTab } from "./physicians-tab";
import { SonographersTab } from "./sonographers-tab";

/** /physicians: the clinic's physicians, sonographers, staff and settings. Writes are for admins. */
export function ClinicManagementPage() {
  const { user } = useAuth();
  // The server enforces the same rule (clinic:manage); hiding the controls only spares a refused request.
  const canManage = user?.role === "admin";

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Clinic Management</h1>
        <p className="mt-1 text-slate-700">Physicians, sonographers, staff and clinic details.</p>
      </div>
      {!canManage ? (
        <p className="flex items-start gap-2 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-800">
          <Info className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          You can view this information. Only clinic administrators can make changes.
        </p>
      ) : null}
      <Tabs defaultValue="physicians" className="flex flex-col gap-5">
        <TabsList aria-label="Clinic management sections" className="grid w-full grid-cols-2 sm:inline-flex sm:w-fit">
          <TabsTrigger value="physicians">Physicians</TabsTrigger>
          <TabsTrigger value="sonographers">Sonographers</TabsTrigger>
          <TabsTrigger value="staff">Staff</TabsTrigger>
          <TabsTrigger value="settings">Settings</TabsTrigger>
        </TabsList>
        <TabsContent value="physicians">
          <PhysiciansTab canManage={canManage} />
        </TabsContent>
        <TabsContent value="sonographers">
          <SonographersTab canManage={canManage} />
        </TabsContent>
        <TabsContent value="staff">
          <StaffManagementPage embedded />
        </TabsContent>
        <TabsContent value="settings">
          <ClinicSettingsTab canManage={canManage} />
        </TabsContent>
      </Tabs>
    </div>
  );
}

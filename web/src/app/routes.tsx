import { Route, Router, Switch } from "wouter";
import { useBrowserLocation } from "wouter/use-browser-location";
import { Spinner } from "../components/ui/card";
import { AdminPanelPage } from "../features/admin/admin-panel-page";
import { LoginPage } from "../features/auth/login-page";
import { useAuth } from "../features/auth/use-auth";
import { ClinicManagementPage } from "../features/clinic/clinic-management-page";
import { DrawingPage } from "../features/drawing/drawing-page";
import { InvitationPage } from "../features/invitations/invitation-page";
import { LandingPage } from "../features/landing/landing-page";
import { NotFoundPage } from "../features/landing/not-found-page";
import { RegisterClinicPage } from "../features/registration/register-clinic-page";
import { ReportsPage } from "../features/reports/reports-page";
import { StaffManagementPage } from "../features/staff/staff-management-page";
import { TemplatesPage } from "../features/templates/templates-page";
import { UploadPage } from "../features/upload/upload-page";
import { Shell } from "./shell";

/** Paths match case-insensitively and with an optional trailing slash, as the spec's router does. */
export function normalizePath(path: string): string {
  const lower = path.toLowerCase();
  return lower.length > 1 ? lower.replace(/\/+$/, "") : lower;
}

function useNormalizedLocation(): [string, (to: string, options?: { replace?: boolean }) => void] {
  const [location, navigate] = useBrowserLocation();
  return [normalizePath(location), navigate];
}

export function AppRoutes() {
  const { user, isLoading } = useAuth();
  return (
    <Router hook={useNormalizedLocation}>
      {isLoading ? (
        <Spinner label="Loading..." className="min-h-screen" />
      ) : user ? (
        <Shell user={user}>
          <Switch>
            <Route path="/" component={UploadPage} />
            <Route path="/draw" component={DrawingPage} />
            <Route path="/templates" component={TemplatesPage} />
            <Route path="/reports" component={ReportsPage} />
            <Route path="/physicians" component={ClinicManagementPage} />
            <Route path="/staff">
              <StaffManagementPage />
            </Route>
            <Route path="/admin">{user.isPlatformAdmin ? <AdminPanelPage /> : <NotFoundPage />}</Route>
            <Route path="/invite/:token" component={InvitationPage} />
            <Route component={NotFoundPage} />
          </Switch>
        </Shell>
      ) : (
        <Switch>
          <Route path="/" component={LandingPage} />
          <Route path="/login" component={LoginPage} />
          <Route path="/register-clinic" component={RegisterClinicPage} />
          <Route path="/invite/:token" component={InvitationPage} />
          <Route component={NotFoundPage} />
        </Switch>
      )}
    </Router>
  );
}

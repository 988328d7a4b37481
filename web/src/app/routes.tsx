import { type ComponentType, lazy, type ReactNode, Suspense } from "react";
import { Redirect, Route, Router, Switch, useLocation } from "wouter";
import { useBrowserLocation } from "wouter/use-browser-location";
import type { CurrentUser } from "../../../domain/contracts/auth";
import { can } from "../../../domain/permissions";
import { Spinner } from "../components/ui/card";
import { LoginPage } from "../features/auth/login-page";
import { useAuth } from "../features/auth/use-auth";
import { LandingPage } from "../features/landing/landing-page";
import { NotFoundPage } from "../features/landing/not-found-page";
import { Shell } from "./shell";

/**
 * Each screen is its own chunk, loaded when first shown: the first load carries only the shell, sign-in and
 * the landing page (the build enforces its size, see vite.config.ts).
 */
function lazyPage<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const AdminPanelPage = lazyPage(() => import("../features/admin/admin-panel-page"), "AdminPanelPage");
const ClinicManagementPage = lazyPage(
  () => import("../features/clinic/clinic-management-page"),
  "ClinicManagementPage",
);
const DrawingPage = lazyPage(() => import("../features/drawing/drawing-page"), "DrawingPage");
const InvitationPage = lazyPage(() => import("../features/invitations/invitation-page"), "InvitationPage");
const ConfirmRegistrationPage = lazyPage(
  () => import("../features/registration/confirm-registration-page"),
  "ConfirmRegistrationPage",
);
const RegisterClinicPage = lazyPage(
  () => import("../features/registration/register-clinic-page"),
  "RegisterClinicPage",
);
const ForgotPasswordPage = lazyPage(() => import("../features/auth/password-reset-pages"), "ForgotPasswordPage");
const ResetPasswordPage = lazyPage(() => import("../features/auth/password-reset-pages"), "ResetPasswordPage");
const ReportsPage = lazyPage(() => import("../features/reports/reports-page"), "ReportsPage");
const SignOffPage = lazyPage(() => import("../features/sign-off/sign-off-page"), "SignOffPage");
const TurnaroundPage = lazyPage(() => import("../features/sign-off/turnaround-page"), "TurnaroundPage");
const StaffManagementPage = lazyPage(() => import("../features/staff/staff-management-page"), "StaffManagementPage");
const TemplatesPage = lazyPage(() => import("../features/templates/templates-page"), "TemplatesPage");
const UploadPage = lazyPage(() => import("../features/upload/upload-page"), "UploadPage");

/** Paths match case-insensitively and with an optional trailing slash, as the spec's router does. */
export function normalizePath(path: string): string {
  const lower = path.toLowerCase();
  return lower.length > 1 ? lower.replace(/\/+$/, "") : lower;
}

function useNormalizedLocation(): [string, (to: string, options?: { replace?: boolean }) => void] {
  const [location, navigate] = useBrowserLocation();
  return [normalizePath(location), navigate];
}

/** The signed-in screens by path: one list, so a signed-out visit to any of them can go to sign-in and back. */
const signedInScreens: { path: string; screen: (user: CurrentUser) => ReactNode }[] = [
  // A physician's home is the sign-off worklist (they do not upload worksheets).
  { path: "/", screen: (user) => (user.role === "physician" ? <SignOffPage /> : <UploadPage />) },
  { path: "/sign-off", screen: (user) => (can(user.role, "report:sign-off") ? <SignOffPage /> : <NotFoundPage />) },
  {
    path: "/turnaround",
    screen: (user) => (can(user.role, "report:turnaround") ? <TurnaroundPage /> : <NotFoundPage />),
  },
  { path: "/draw", screen: () => <DrawingPage /> },
  { path: "/templates", screen: () => <TemplatesPage /> },
  { path: "/reports", screen: () => <ReportsPage /> },
  { path: "/physicians", screen: () => <ClinicManagementPage /> },
  { path: "/staff", screen: () => <StaffManagementPage /> },
  { path: "/admin", screen: (user) => (user.isPlatformAdmin ? <AdminPanelPage /> : <NotFoundPage />) },
];

/** A signed-in screen's path (the spec's 404 stays for every other path). */
export function isSignedInPath(path: string): boolean {
  return signedInScreens.some((screen) => screen.path === path);
}

/** Signed out on a signed-in screen (a bookmark, an expired tab): sign in, then come back to it. */
function SignInFirst() {
  const [location] = useLocation();
  if (!isSignedInPath(location)) return <NotFoundPage />;
  const next = `${window.location.pathname}${window.location.search}`;
  return <Redirect to={`/login?next=${encodeURIComponent(next)}`} replace />;
}

export function AppRoutes() {
  const { user, isLoading } = useAuth();
  return (
    <Router hook={useNormalizedLocation}>
      {isLoading ? (
        <Spinner label="Loading..." className="min-h-screen" />
      ) : user ? (
        <Shell user={user}>
          <Suspense fallback={<Spinner label="Loading..." />}>
            <Switch>
              {signedInScreens.map(({ path, screen }) => (
                <Route key={path} path={path}>
                  {screen(user)}
                </Route>
              ))}
              <Route path="/invite/:token" component={InvitationPage} />
              <Route path="/register-clinic/confirm" component={ConfirmRegistrationPage} />
              <Route path="/reset-password" component={ResetPasswordPage} />
              <Route component={NotFoundPage} />
            </Switch>
          </Suspense>
        </Shell>
      ) : (
        <Suspense fallback={<Spinner label="Loading..." className="min-h-screen" />}>
          <Switch>
            <Route path="/" component={LandingPage} />
            <Route path="/login" component={LoginPage} />
            <Route path="/forgot-password" component={ForgotPasswordPage} />
            <Route path="/reset-password" component={ResetPasswordPage} />
            <Route path="/register-clinic/confirm" component={ConfirmRegistrationPage} />
            <Route path="/register-clinic" component={RegisterClinicPage} />
            <Route path="/invite/:token" component={InvitationPage} />
            <Route component={SignInFirst} />
          </Switch>
        </Suspense>
      )}
    </Router>
  );
}

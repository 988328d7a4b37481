import { FileText, Inbox, LayoutTemplate, LogOut, PenTool, Shield, Stethoscope, Timer, Upload } from "lucide-react";
import { lazy, type ReactNode, Suspense, useState } from "react";
import { Link, useLocation } from "wouter";
import type { CurrentUser } from "../../../domain/contracts/auth";
import { can } from "../../../domain/permissions";
import { ProfileMenu } from "../features/auth/profile-menu";
import { displayName } from "../features/auth/use-auth";
import { readSsoReauthReturn } from "../features/reports/sso-reauth-return";
import { cn } from "../lib/cn";
import { forgetAllEdits } from "../lib/local-drafts";
import { BrandMark } from "./brand-mark";

/** Sign-out is a POST (a cross-site link cannot sign anyone out); then the start page, signed out. */
async function signOut(): Promise<void> {
  // Unsaved edits kept in this browser hold patient data: none stays behind a sign-out.
  forgetAllEdits();
  try {
    await fetch("/api/logout", { method: "POST", credentials: "include", redirect: "manual" });
  } finally {
    window.location.assign("/");
  }
}

// Loaded only when the single sign-on provider sends the browser back from a re-authentication.
const SsoReauthReturnHost = lazy(async () => ({
  default: (await import("../features/reports/sso-reauth-return-host")).SsoReauthReturnHost,
}));

type Tab = { path: string; label: string; icon: typeof Upload };

/**
 * The tabs a role uses. A physician's home is "Awaiting my signature" (they neither upload nor draw); an admin
 * also sees every queue and the turnaround dashboard.
 */
function tabsFor(role: string): Tab[] {
  if (role === "physician") {
    return [
      { path: "/", label: "To sign", icon: Inbox },
      { path: "/reports", label: "Reports", icon: FileText },
      { path: "/turnaround", label: "Turnaround", icon: Timer },
      { path: "/templates", label: "Templates", icon: LayoutTemplate },
      { path: "/physicians", label: "Clinic", icon: Stethoscope },
    ];
  }
  return [
    { path: "/", label: "Upload", icon: Upload },
    { path: "/draw", label: "Draw", icon: PenTool },
    { path: "/templates", label: "Templates", icon: LayoutTemplate },
    { path: "/reports", label: "Reports", icon: FileText },
    ...(can(role, "report:sign-off") ? [{ path: "/sign-off", label: "To sign", icon: Inbox }] : []),
    ...(can(role, "report:turnaround") ? [{ path: "/turnaround", label: "Turnaround", icon: Timer }] : []),
    { path: "/physicians", label: "Clinic", icon: Stethoscope },
  ];
}

export function Shell({ user, children }: { user: CurrentUser; children: ReactNode }) {
  const [location] = useLocation();
  const tabs = tabsFor(user.role);
  // Kept from the first render: the host removes the return's parameters from the address and stays mounted.
  const [returningFromSso] = useState(() => readSsoReauthReturn(window.location.search) !== null);
  const visibleTabs = user.isPlatformAdmin ? [...tabs, { path: "/admin", label: "Admin Panel", icon: Shield }] : tabs;
  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
          <Link href="/" className="flex min-w-0 items-center gap-2 font-semibold text-slate-900">
            <BrandMark />
            <span>Sonoscribe</span>
            <span
              className="hidden max-w-64 truncate text-sm font-normal text-slate-600 sm:inline"
              title={user.clinicName ?? undefined}
            >
              {user.clinicName ?? ""}
            </span>
          </Link>
          <nav aria-label="Main" className="order-3 -mx-1 flex w-full gap-1 overflow-x-auto lg:order-none lg:w-auto">
            {visibleTabs.map((tab) => {
              const active = tab.path === "/" ? location === "/" : location.startsWith(tab.path);
              return (
                <Link
                  key={tab.path}
                  href={tab.path}
                  aria-current={active ? "page" : undefined}
                  className={cn(
                    "flex shrink-0 items-center gap-1.5 rounded-md px-3 py-2 text-sm font-medium",
                    active ? "bg-brand-50 text-brand-800" : "text-slate-700 hover:bg-slate-100",
                  )}
                >
                  <tab.icon className="h-4 w-4" aria-hidden />
                  {tab.label}
                </Link>
              );
            })}
          </nav>
          <div className="ml-auto flex min-w-0 items-center gap-3">
            <div className="min-w-0 text-right leading-tight">
              <div className="truncate text-sm font-medium text-slate-900">{displayName(user)}</div>
              <div className="truncate text-xs text-slate-600">{user.email}</div>
            </div>
            <ProfileMenu user={user} />
            <button
              type="button"
              onClick={() => void signOut()}
              className="inline-flex h-9 items-center gap-1.5 whitespace-nowrap rounded-md border border-slate-300 px-3 text-sm font-medium text-slate-800 hover:bg-slate-100"
            >
              <LogOut className="h-4 w-4" aria-hidden />
              Log out
            </button>
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-7xl px-4 py-6">
        {children}
      </main>
      {returningFromSso ? (
        <Suspense fallback={null}>
          <SsoReauthReturnHost />
        </Suspense>
      ) : null}
    </div>
  );
}

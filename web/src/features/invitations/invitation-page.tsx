import { useMutation } from "@tanstack/react-query";
import { Building2, CheckCircle2, LogIn, XCircle } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { acceptInvitationResponse, invitationDetails } from "../../../../domain/contracts/invitations";
import { BrandMark } from "../../app/brand-mark";
import { Button } from "../../components/ui/button";
import { Card, CardContent, Spinner } from "../../components/ui/card";
import { toast } from "../../components/ui/use-toast";
import { ApiError, api, useApiQuery } from "../../lib/api";
import { showDateTime } from "../../lib/dates";
import { useAuth } from "../auth/use-auth";
import { CreateAccountForm } from "./create-account-form";

export const REDIRECT_AFTER_JOIN_MS = 2000;

const roleLabel = (role: string) => (role === "admin" ? "Admin" : "Sonographer");

function Frame({ signedIn, children }: { signedIn: boolean; children: ReactNode }) {
  // Inside the signed-in shell the page is a card; signed out it stands alone, like the sign-in page.
  if (signedIn) return <div className="mx-auto max-w-xl">{children}</div>;
  return (
    <main className="min-h-screen bg-slate-50 px-4 py-8 sm:py-12">
      <div className="mx-auto grid max-w-xl gap-6">
        <a href="/" className="inline-flex items-center gap-2 text-sm font-medium text-brand-700 hover:underline">
          <BrandMark className="h-6 w-6" /> Sonoscribe
        </a>
        {children}
      </div>
    </main>
  );
}

function Heading({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <div className="flex items-center gap-3">
      {icon}
      <h1 className="text-2xl font-semibold text-slate-900">{children}</h1>
    </div>
  );
}

/**
 * The token as written in the address bar: the router matches paths in lower case, but the token is
 * base64url, where case matters.
 */
export function tokenFromPath(pathname: string): string {
  return /^\/invite\/([A-Za-z0-9_-]+)\/?$/i.exec(pathname)?.[1] ?? "";
}

/** /invite/{token}: loading, login required, invalid, ready, accepting, joined (then home after 2 s). */
export function InvitationPage() {
  const token = tokenFromPath(window.location.pathname);
  const { user } = useAuth();
  const [joined, setJoined] = useState<string | null>(null);
  const details = useApiQuery(["/api/invitations", token, "details"], invitationDetails);

  useEffect(() => {
    if (joined === null) return;
    const timer = setTimeout(() => {
      window.location.href = "/";
    }, REDIRECT_AFTER_JOIN_MS);
    return () => clearTimeout(timer);
  }, [joined]);

  const onJoined = (clinicName: string) => {
    toast({ title: "Welcome!", description: `You've successfully joined ${clinicName}`, variant: "success" });
    setJoined(clinicName);
  };

  const accept = useMutation({
    mutationFn: () => api.send("POST", `/api/invitations/${token}/accept`, undefined, acceptInvitationResponse),
    onSuccess: (result) => onJoined(result.clinicName),
    onError: (error) => {
      if (error instanceof ApiError) {
        toast({
          title: "Failed to Accept Invitation",
          description: error.serverMessage ?? "Please try again",
          variant: "destructive",
        });
      } else {
        toast({
          title: "Error",
          description: "Failed to accept invitation. Please try again.",
          variant: "destructive",
        });
      }
    },
  });

  const signedIn = Boolean(user);
  const clinicName = details.data?.clinic.name || "Medical Clinic";

  if (joined !== null) {
    return (
      <Frame signedIn={signedIn}>
        <Card>
          <CardContent className="grid justify-items-center gap-3 p-8 text-center">
            <CheckCircle2 className="h-12 w-12 text-green-700" aria-hidden />
            <h1 className="text-2xl font-semibold text-slate-900">Welcome to the Team!</h1>
            <p className="text-slate-700" role="status">
              You've successfully joined {joined || "the clinic"}. Redirecting to your dashboard...
            </p>
          </CardContent>
        </Card>
      </Frame>
    );
  }

  if (details.isLoading) {
    return (
      <Frame signedIn={signedIn}>
        <Spinner label="Loading invitation..." />
      </Frame>
    );
  }

  if (details.isError || !details.data) {
    const reason =
      details.error instanceof ApiError
        ? (details.error.serverMessage ?? "Invalid or expired invitation")
        : "Failed to load invitation details";
    return (
      <Frame signedIn={signedIn}>
        <Card>
          <CardContent className="grid gap-4 p-6">
            <Heading icon={<XCircle className="h-8 w-8 text-red-700" aria-hidden />}>Invalid Invitation</Heading>
            <p className="text-slate-700">{reason}</p>
            <p className="text-sm text-slate-700">Ask your clinic's admin to send you a new invitation.</p>
            <div>
              <Button asChild>
                <a href="/">{signedIn ? "Go to Dashboard" : "Back to Home"}</a>
              </Button>
            </div>
          </CardContent>
        </Card>
      </Frame>
    );
  }

  const invitation = details.data;
  const summary = (
    <dl className="grid gap-3 rounded-md border border-slate-200 bg-slate-50 p-4 text-sm sm:grid-cols-2">
      <div className="sm:col-span-2">
        <dt className="text-slate-700">Clinic</dt>
        <dd className="font-medium text-slate-900">{clinicName}</dd>
        {invitation.clinic.address ? <dd className="text-slate-700">{invitation.clinic.address}</dd> : null}
      </div>
      <div>
        <dt className="text-slate-700">Role</dt>
        <dd className="font-medium text-slate-900">{roleLabel(invitation.role)}</dd>
      </div>
      <div>
        <dt className="text-slate-700">Invited e-mail</dt>
        <dd className="break-all font-medium text-slate-900">{invitation.email}</dd>
      </div>
      <div>
        <dt className="text-slate-700">Expires</dt>
        <dd className="font-medium text-slate-900">{showDateTime(invitation.expiresAt)}</dd>
      </div>
    </dl>
  );

  if (!signedIn) {
    const next = encodeURIComponent(`/invite/${token}`);
    return (
      <Frame signedIn={false}>
        <Card>
          <CardContent className="grid gap-4 p-6">
            <Heading icon={<LogIn className="h-8 w-8 text-brand-700" aria-hidden />}>Login Required</Heading>
            <p className="text-slate-700">You need to be logged in to accept this clinic invitation.</p>
            {summary}
            <div>
              <Button asChild>
                <a href={`/api/login?next=${next}`}>Login to Continue</a>
              </Button>
            </div>
          </CardContent>
        </Card>
        <Card>
          <CardContent className="grid gap-4 p-6">
            <h2 className="text-lg font-semibold text-slate-900">New to Sonoscribe? Create your account</h2>
            <CreateAccountForm token={token} email={invitation.email} onJoined={onJoined} />
          </CardContent>
        </Card>
      </Frame>
    );
  }

  return (
    <Frame signedIn>
      <Card>
        <CardContent className="grid gap-4 p-6">
          <Heading icon={<Building2 className="h-8 w-8 text-brand-700" aria-hidden />}>Clinic Invitation</Heading>
          <p className="text-slate-700">
            You have been invited to join <strong className="text-slate-900">{clinicName}</strong>.
          </p>
          {summary}
          <div className="flex flex-wrap justify-end gap-2">
            <Button asChild variant="outline">
              <a href="/">Cancel</a>
            </Button>
            <Button onClick={() => accept.mutate()} disabled={accept.isPending}>
              {accept.isPending ? "Accepting..." : "Accept Invitation"}
            </Button>
          </div>
        </CardContent>
      </Card>
    </Frame>
  );
}

import { useMutation } from "@tanstack/react-query";
import { Mail, Users, UserX } from "lucide-react";
import { useState } from "react";
import { z } from "zod";
import { type StaffPasswordResetResponse, staffPasswordResetResponse } from "../../../../domain/contracts/auth";
import {
  createInvitationResponse,
  type PendingInvitation,
  pendingInvitation,
} from "../../../../domain/contracts/invitations";
import type { StaffMember } from "../../../../domain/contracts/staff";
import { staffMember } from "../../../../domain/contracts/staff";
import { type Role, roleLabels } from "../../../../domain/permissions";
import { Button } from "../../components/ui/button";
import { Badge, Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/dialog";
import { toast } from "../../components/ui/use-toast";
import { api, apiRequest, errorMessage, useApiQuery } from "../../lib/api";
import { showDate } from "../../lib/dates";
import { queryClient } from "../../lib/query-client";
import { displayName, useAuth } from "../auth/use-auth";
import { announceInvitation, InviteStaffDialog } from "./invite-staff-dialog";
import { PasswordResetLinkDialog } from "./password-reset-link-dialog";

const formatDate = (iso: string | null) => showDate(iso, "—");

const roleLabel = (role: string) => roleLabels[role as Role] ?? role;

function Skeletons() {
  return (
    <ul className="grid gap-3" aria-busy="true" aria-label="Loading">
      {[0, 1, 2].map((i) => (
        <li key={i} className="h-14 animate-pulse rounded-md bg-slate-100" />
      ))}
    </ul>
  );
}

/**
 * Staff Management: current staff, pending invitations, inviting and deactivating. Self-contained so that
 * the Clinic Management screen can embed it (`embedded` drops the page title).
 */
export function StaffManagementPage({ embedded = false }: { embedded?: boolean }) {
  const { user } = useAuth();
  const staff = useApiQuery(["/api/staff"], z.array(staffMember), { enabled: Boolean(user) });
  const invitations = useApiQuery(["/api/invitations"], z.array(pendingInvitation), { enabled: Boolean(user) });
  const [toDeactivate, setToDeactivate] = useState<StaffMember | null>(null);
  const isAdmin = user?.role === "admin";

  const deactivate = useMutation({
    mutationFn: (id: string) => apiRequest("PATCH", `/api/staff/${encodeURIComponent(id)}/deactivate`),
    onSuccess: async () => {
      toast({ title: "Staff Member Deactivated", variant: "success" });
      await queryClient.invalidateQueries({ queryKey: ["/api/staff"] });
      await queryClient.invalidateQueries({ queryKey: ["/api/staff/deactivated"] });
    },
    onError: (error) =>
      toast({
        title: "Failed to Deactivate Staff",
        description: errorMessage(error, "Failed to deactivate staff member. Please try again."),
        variant: "destructive",
      }),
  });

  // A member who cannot use "Forgot your password?" (no e-mail here): the admin passes a one-time link on.
  const [resetLink, setResetLink] = useState<StaffPasswordResetResponse | null>(null);
  const resetPassword = useMutation({
    mutationFn: (id: string) =>
      api.send("POST", `/api/staff/${encodeURIComponent(id)}/password-reset`, undefined, staffPasswordResetResponse),
    onSuccess: (issued) => {
      if (issued.resetUrl) setResetLink(issued);
      else
        toast({
          title: "Reset Link Sent",
          description: `A link to choose a new password was e-mailed to ${issued.email}.`,
          variant: "success",
        });
    },
    onError: (error) =>
      toast({
        title: "Failed to Issue Reset Link",
        description: errorMessage(error, "The reset link could not be issued. Please try again."),
        variant: "destructive",
      }),
  });

  const former = useApiQuery(["/api/staff/deactivated"], z.array(staffMember), { enabled: isAdmin });
  const reactivate = useMutation({
    mutationFn: (id: string) => apiRequest("PATCH", `/api/staff/${encodeURIComponent(id)}/reactivate`),
    onSuccess: async () => {
      toast({ title: "Staff Member Reactivated", description: "They can sign in again.", variant: "success" });
      await queryClient.invalidateQueries({ queryKey: ["/api/staff"] });
      await queryClient.invalidateQueries({ queryKey: ["/api/staff/deactivated"] });
    },
    onError: (error) =>
      toast({
        title: "Failed to Reactivate Staff",
        description: errorMessage(error, "Failed to reactivate the staff member. Please try again."),
        variant: "destructive",
      }),
  });

  // Only the link's hash is kept, so a lost link is replaced by a new one (the old one stops working).
  const newLink = useMutation({
    mutationFn: (invitation: PendingInvitation) =>
      api.send(
        "POST",
        "/api/invitations",
        {
          email: invitation.email,
          role: invitation.role,
          ...(invitation.physicianId ? { physicianId: invitation.physicianId } : {}),
        },
        createInvitationResponse,
      ),
    onSuccess: async (created) => {
      await announceInvitation(created);
      await queryClient.invalidateQueries({ queryKey: ["/api/invitations"] });
    },
    onError: (error) =>
      toast({
        title: "Failed to Send Invitation",
        description: errorMessage(error, "Failed to send invitation. Please try again."),
        variant: "destructive",
      }),
  });

  const cancel = useMutation({
    mutationFn: (id: number) => apiRequest("DELETE", `/api/invitations/${id}`),
    onSuccess: async () => {
      toast({ title: "Invitation Cancelled", variant: "success" });
      await queryClient.invalidateQueries({ queryKey: ["/api/invitations"] });
    },
    onError: (error) =>
      toast({
        title: "Failed to Cancel Invitation",
        description: errorMessage(error, "Failed to cancel invitation. Please try again."),
        variant: "destructive",
      }),
  });

  if (!user) return <p className="text-slate-700">Please log in to manage staff.</p>;

  return (
    <section className="grid gap-6" aria-labelledby={embedded ? undefined : "staff-title"}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        {embedded ? (
          <p className="text-sm text-slate-700">Invite colleagues and manage who can use your clinic's account.</p>
        ) : (
          <div>
            <h1 id="staff-title" className="text-2xl font-semibold text-slate-900">
              Staff Management
            </h1>
            <p className="text-sm text-slate-700">Invite colleagues and manage who can use your clinic's account.</p>
          </div>
        )}
        {isAdmin ? <InviteStaffDialog /> : null}
      </div>

      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Users className="h-5 w-5 text-slate-600" aria-hidden />
            Current Staff ({staff.data?.length ?? 0})
          </CardTitle>
        </CardHeader>
        <CardContent>
          {staff.isLoading ? (
            <Skeletons />
          ) : staff.isError ? (
            <p className="text-sm text-red-700">{errorMessage(staff.error, "Failed to load staff")}</p>
          ) : (
            <ul className="divide-y divide-slate-200">
              {staff.data?.map((member) => (
                <li key={member.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
                  <div className="min-w-0 basis-full sm:basis-0 sm:flex-1">
                    <p className="font-medium text-slate-900">
                      {displayName(member)}
                      {member.id === user.id ? <span className="font-normal text-slate-700"> (you)</span> : null}
                    </p>
                    <p className="truncate text-sm text-slate-700">{member.email}</p>
                  </div>
                  <Badge tone={member.role === "admin" ? "blue" : "neutral"}>{roleLabel(member.role)}</Badge>
                  <span className="text-sm text-slate-700">Joined {formatDate(member.joinedAt)}</span>
                  {isAdmin ? (
                    <div className="flex flex-wrap gap-2">
                      {member.id === user.id ? null : (
                        <Button
                          variant="outline"
                          size="sm"
                          disabled={resetPassword.isPending}
                          aria-label={`Reset password of ${displayName(member)}`}
                          title="Issues a one-time link to choose a new password (e-mailed when e-mail is set up)"
                          onClick={() => resetPassword.mutate(member.id)}
                        >
                          Reset password
                        </Button>
                      )}
                      <Button
                        variant="outline"
                        size="sm"
                        disabled={member.id === user.id || deactivate.isPending}
                        aria-label={`Deactivate ${displayName(member)}`}
                        onClick={() => setToDeactivate(member)}
                      >
                        Deactivate
                      </Button>
                    </div>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Mail className="h-5 w-5 text-slate-600" aria-hidden />
            Pending Invitations ({invitations.data?.length ?? 0})
          </CardTitle>
        </CardHeader>
        <CardContent>
          {invitations.isLoading ? (
            <Skeletons />
          ) : invitations.isError ? (
            <p className="text-sm text-red-700">{errorMessage(invitations.error, "Failed to load invitations")}</p>
          ) : invitations.data?.length ? (
            <ul className="divide-y divide-slate-200">
              {invitations.data.map((invitation) => (
                <li key={invitation.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
                  <div className="min-w-0 basis-full sm:basis-0 sm:flex-1">
                    <p className="truncate font-medium text-slate-900">{invitation.email}</p>
                    <p className="text-sm text-slate-700">
                      Sent {formatDate(invitation.createdAt)} · expires {formatDate(invitation.expiresAt)}
                    </p>
                  </div>
                  <Badge tone={invitation.role === "admin" ? "blue" : "neutral"}>{roleLabel(invitation.role)}</Badge>
                  {isAdmin ? (
                    <div className="flex gap-2">
                      <Button
                        variant="outline"
                        size="sm"
                        disabled={newLink.isPending}
                        aria-label={`New link for ${invitation.email}`}
                        title="Creates a new link (the old one stops working) and e-mails it when e-mail is set up"
                        onClick={() => newLink.mutate(invitation)}
                      >
                        New link
                      </Button>
                      <Button
                        variant="outline"
                        size="sm"
                        disabled={cancel.isPending}
                        aria-label={`Cancel invitation for ${invitation.email}`}
                        onClick={() => cancel.mutate(invitation.id)}
                      >
                        Cancel
                      </Button>
                    </div>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-700">
              No pending invitations. Invitations leave this list once they are accepted or expired.
            </p>
          )}
        </CardContent>
      </Card>

      {isAdmin && former.data?.length ? (
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <UserX className="h-5 w-5 text-slate-600" aria-hidden />
              Deactivated Staff ({former.data.length})
            </CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="divide-y divide-slate-200">
              {former.data.map((member) => (
                <li key={member.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
                  <div className="min-w-0 basis-full sm:basis-0 sm:flex-1">
                    <p className="break-words font-medium text-slate-900">{displayName(member)}</p>
                    <p className="truncate text-sm text-slate-700">{member.email}</p>
                  </div>
                  <Badge tone="neutral">{roleLabel(member.role)}</Badge>
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={reactivate.isPending}
                    aria-label={`Reactivate ${displayName(member)}`}
                    onClick={() => reactivate.mutate(member.id)}
                  >
                    Reactivate
                  </Button>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      ) : null}

      <PasswordResetLinkDialog issued={resetLink} onClose={() => setResetLink(null)} />

      <ConfirmDialog
        open={toDeactivate !== null}
        onOpenChange={(open) => {
          if (!open) setToDeactivate(null);
        }}
        title="Deactivate staff member?"
        description={
          toDeactivate
            ? `${displayName(toDeactivate)} will be signed out at once and can no longer sign in to your clinic.`
            : ""
        }
        confirmLabel="Deactivate"
        onConfirm={() => {
          if (toDeactivate) deactivate.mutate(toDeactivate.id);
          setToDeactivate(null);
        }}
      />
    </section>
  );
}

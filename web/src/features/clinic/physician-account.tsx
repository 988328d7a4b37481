import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { Link2, Mail, UserCheck } from "lucide-react";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { createInvitationRequest, createInvitationResponse } from "../../../../domain/contracts/invitations";
import { type Physician, physician as physicianSchema } from "../../../../domain/contracts/physicians";
import type { StaffMember } from "../../../../domain/contracts/staff";
import { staffMember } from "../../../../domain/contracts/staff";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { FieldError, Input, Label, Select } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { api, errorMessage, useApiQuery } from "../../lib/api";
import { queryClient } from "../../lib/query-client";
import { displayName, useAuth } from "../auth/use-auth";

const PHYSICIANS_KEY = ["/api/physicians"];
/** Accounts that may sign as a physician (the server checks the same). */
const LINKABLE = ["physician", "admin"];

const inviteEmail = createInvitationRequest.pick({ email: true });

const personName = (m: StaffMember) => [m.firstName, m.lastName].filter(Boolean).join(" ") || m.email;

/**
 * Who signs as this physician, on the physician's card: the linked account, or none. Admins link an
 * existing account (their own when they are this physician), unlink, or invite the physician by e-mail.
 */
export function PhysicianAccount({
  physician,
  physicians,
  canManage,
}: {
  physician: Physician;
  physicians: Physician[];
  canManage: boolean;
}) {
  const { user } = useAuth();
  const staff = useApiQuery(["/api/staff"], z.array(staffMember), { enabled: canManage });
  const [dialogOpen, setDialogOpen] = useState(false);
  const linked = staff.data?.find((m) => m.id === physician.userId);
  const isMe = Boolean(user && physician.userId === user.id);
  const iAmLinkedElsewhere = Boolean(user && physicians.some((p) => p.userId === user.id && p.id !== physician.id));

  const link = useMutation({
    mutationFn: (userId: string | null) =>
      api.send("PATCH", `/api/physicians/${physician.id}`, { userId }, physicianSchema),
    onSuccess: (_saved, userId) => {
      void queryClient.invalidateQueries({ queryKey: PHYSICIANS_KEY });
      toast({
        title: userId ? "Account Linked" : "Account Unlinked",
        description: userId
          ? `This account now signs as ${physician.name}.`
          : `No account signs as ${physician.name} any more.`,
        variant: "success",
      });
      setDialogOpen(false);
    },
    onError: (error) =>
      toast({ title: "Linking Failed", description: errorMessage(error, "Failed to link"), variant: "destructive" }),
  });

  const who = physician.userId
    ? isMe
      ? "Your account"
      : linked
        ? `${personName(linked)} (${linked.email})`
        : "A user account"
    : null;

  return (
    <div className="grid gap-2 text-sm">
      <p className="flex items-center gap-2 text-slate-900">
        <UserCheck className="h-4 w-4 shrink-0" aria-hidden />
        {who ? (
          <span>
            Signs as this physician: <strong>{who}</strong>
          </span>
        ) : (
          <span>No account linked: nobody can sign as {physician.name} yet.</span>
        )}
      </p>
      {canManage ? (
        <div className="flex flex-wrap gap-2">
          {physician.userId ? (
            <Button variant="outline" size="sm" disabled={link.isPending} onClick={() => link.mutate(null)}>
              Unlink account
            </Button>
          ) : (
            <>
              {user && !iAmLinkedElsewhere ? (
                <Button variant="outline" size="sm" disabled={link.isPending} onClick={() => link.mutate(user.id)}>
                  <Link2 className="h-4 w-4" aria-hidden />
                  This is me
                </Button>
              ) : null}
              <Button variant="outline" size="sm" onClick={() => setDialogOpen(true)}>
                <Mail className="h-4 w-4" aria-hidden />
                Link or invite
              </Button>
            </>
          )}
        </div>
      ) : null}
      <Dialog open={dialogOpen} onOpenChange={setDialogOpen}>
        {dialogOpen ? (
          <DialogContent
            title={`Account for ${physician.name}`}
            description="The linked account is the only one that signs this physician's reports."
          >
            <LinkOrInvite
              physician={physician}
              candidates={(staff.data ?? []).filter(
                (m) => LINKABLE.includes(m.role) && !physicians.some((p) => p.userId === m.id),
              )}
              linking={link.isPending}
              onLink={(userId) => link.mutate(userId)}
              onInvited={() => setDialogOpen(false)}
            />
          </DialogContent>
        ) : null}
      </Dialog>
    </div>
  );
}

function LinkOrInvite({
  physician,
  candidates,
  linking,
  onLink,
  onInvited,
}: {
  physician: Physician;
  candidates: StaffMember[];
  linking: boolean;
  onLink: (userId: string) => void;
  onInvited: () => void;
}) {
  const id = useId();
  const [chosen, setChosen] = useState(candidates[0]?.id ?? "");
  const [invitationUrl, setInvitationUrl] = useState<string | null>(null);
  // The e-mail rule and text of the invitation contract; the role and physician are fixed here.
  const form = useForm<z.input<typeof inviteEmail>, unknown, z.output<typeof inviteEmail>>({
    resolver: zodResolver(inviteEmail),
    defaultValues: { email: "" },
  });
  const emailError = form.formState.errors.email?.message;

  const invite = useMutation({
    mutationFn: ({ email }: z.output<typeof inviteEmail>) =>
      api.send(
        "POST",
        "/api/invitations",
        { email, role: "physician", physicianId: physician.id },
        createInvitationResponse,
      ),
    onSuccess: (created) => {
      void queryClient.invalidateQueries({ queryKey: ["/api/invitations"] });
      toast({
        title: "Invitation Created",
        description: created.emailed
          ? `An invitation was e-mailed to ${created.email}.`
          : "Copy the link below and send it to the physician.",
        variant: "success",
      });
      if (created.emailed) onInvited();
      else setInvitationUrl(created.invitationUrl);
    },
    onError: (error) => form.setError("email", { message: errorMessage(error, "Failed to create the invitation") }),
  });

  return (
    <div className="grid gap-6">
      <section className="grid gap-2" aria-labelledby={`${id}-existing`}>
        <h3 id={`${id}-existing`} className="font-semibold text-slate-900">
          An existing account of your clinic
        </h3>
        {candidates.length === 0 ? (
          <p className="text-sm text-slate-700">No physician or admin account is free to link.</p>
        ) : (
          <div className="flex flex-wrap items-end gap-2">
            <div className="grid min-w-56 flex-1 gap-1.5">
              <Label htmlFor={`${id}-user`}>Account</Label>
              <Select id={`${id}-user`} value={chosen} onChange={(e) => setChosen(e.target.value)}>
                {candidates.map((m) => (
                  <option key={m.id} value={m.id}>
                    {displayName(m)} ({m.role})
                  </option>
                ))}
              </Select>
            </div>
            <Button disabled={!chosen || linking} onClick={() => onLink(chosen)}>
              Link account
            </Button>
          </div>
        )}
      </section>
      <form
        className="grid gap-2"
        onSubmit={form.handleSubmit((values) => invite.mutate(values))}
        noValidate
        aria-labelledby={`${id}-invite`}
      >
        <h3 id={`${id}-invite`} className="font-semibold text-slate-900">
          Or invite {physician.name} by e-mail
        </h3>
        <p className="text-sm text-slate-700">
          They get the physician role (read, edit and sign this clinic's reports) and their account is linked when they
          accept.
        </p>
        <Label htmlFor={`${id}-email`}>E-mail</Label>
        <Input
          id={`${id}-email`}
          type="email"
          autoComplete="off"
          {...form.register("email")}
          aria-invalid={emailError ? true : undefined}
          aria-describedby={emailError ? `${id}-email-error` : undefined}
        />
        <FieldError id={`${id}-email-error`}>{emailError}</FieldError>
        {invitationUrl ? (
          <div className="grid gap-1">
            <Label htmlFor={`${id}-link`}>Invitation link</Label>
            <Input id={`${id}-link`} readOnly value={invitationUrl} onFocus={(e) => e.target.select()} />
          </div>
        ) : null}
        <div className="flex justify-end">
          <Button type="submit" disabled={invite.isPending}>
            {invite.isPending ? "Sending..." : "Send Invitation"}
          </Button>
        </div>
      </form>
    </div>
  );
}

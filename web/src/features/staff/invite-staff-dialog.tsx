import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { UserPlus } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import {
  type CreateInvitationResponse,
  createInvitationRequest,
  createInvitationResponse,
} from "../../../../domain/contracts/invitations";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent, DialogTrigger } from "../../components/ui/dialog";
import { FieldError, Input, Label, Select } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { api, errorMessage } from "../../lib/api";
import { queryClient } from "../../lib/query-client";

export const INVITATION_TOAST_MS = 10_000;

async function copyLink(url: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(url);
    return true;
  } catch {
    return false; // no clipboard permission (or not a secure context): the toast still shows the link
  }
}

/**
 * Tells the admin a new invitation link exists: copied to the clipboard and shown for 10 s, and whether it
 * was also e-mailed (without SMTP on the server it was not, and the admin must pass the link on).
 */
export async function announceInvitation(created: CreateInvitationResponse): Promise<void> {
  const copied = await copyLink(created.invitationUrl);
  toast({
    title: created.emailed ? "Invitation Sent" : "Invitation Created",
    description: (
      <>
        {created.emailed
          ? "The staff invitation has been sent successfully."
          : `No e-mail was sent (this server has no e-mail set up): send the link to ${created.email} yourself.`}{" "}
        {copied ? "The link was copied to your clipboard:" : "Copy this link and send it:"}{" "}
        <span className="break-all font-mono text-xs">{created.invitationUrl}</span>
      </>
    ),
    variant: "success",
    duration: INVITATION_TOAST_MS,
  });
}

type InviteValues = z.output<typeof createInvitationRequest>;
const blankInvite = { email: "", role: "sonographer" } as const;

/** The Invite Staff dialog: e-mail and role; the new link is shown for 10 s and copied to the clipboard. */
export function InviteStaffDialog() {
  const [open, setOpen] = useState(false);
  // The server's own request contract: the same e-mail and role checks and texts.
  const form = useForm<z.input<typeof createInvitationRequest>, unknown, InviteValues>({
    resolver: zodResolver(createInvitationRequest),
    defaultValues: blankInvite,
  });
  const { errors } = form.formState;

  const invite = useMutation({
    mutationFn: (body: InviteValues) => api.send("POST", "/api/invitations", body, createInvitationResponse),
    onSuccess: async (created) => {
      await announceInvitation(created);
      form.reset(blankInvite);
      setOpen(false);
      await queryClient.invalidateQueries({ queryKey: ["/api/invitations"] });
    },
    onError: (error) => {
      toast({
        title: "Failed to Send Invitation",
        description: errorMessage(error, "Failed to send invitation. Please try again."),
        variant: "destructive",
      });
    },
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) form.clearErrors();
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <UserPlus className="h-4 w-4" aria-hidden />
          Invite Staff
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Invite Staff Member"
        description="They receive a link that works once and expires in 7 days."
      >
        <form onSubmit={form.handleSubmit((values) => invite.mutate(values))} noValidate className="grid gap-4">
          <div className="grid gap-1.5">
            <Label htmlFor="invite-email">Email Address</Label>
            <Input
              id="invite-email"
              type="email"
              autoComplete="off"
              placeholder="colleague@clinic.com"
              aria-invalid={errors.email ? true : undefined}
              aria-describedby={errors.email ? "invite-email-error" : undefined}
              {...form.register("email")}
            />
            <FieldError id="invite-email-error">{errors.email?.message}</FieldError>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="invite-role">Role</Label>
            <Select
              id="invite-role"
              aria-invalid={errors.role ? true : undefined}
              aria-describedby={errors.role ? "invite-role-error" : undefined}
              {...form.register("role")}
            >
              <option value="sonographer">Sonographer</option>
              <option value="physician">Physician (reads, edits and signs reports)</option>
              <option value="admin">Admin</option>
            </Select>
            <FieldError id="invite-role-error">{errors.role?.message}</FieldError>
          </div>
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={invite.isPending}>
              {invite.isPending ? "Sending..." : "Send Invitation"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

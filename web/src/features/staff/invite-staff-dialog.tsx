import { useMutation } from "@tanstack/react-query";
import { UserPlus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { type CreateInvitationResponse, createInvitationRequest } from "../../../../domain/contracts/invitations";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent, DialogTrigger } from "../../components/ui/dialog";
import { FieldError, Input, Label, Select } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { apiJson, errorMessage } from "../../lib/api";
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

/** The Invite Staff dialog: e-mail and role; the new link is shown for 10 s and copied to the clipboard. */
export function InviteStaffDialog() {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState("sonographer");
  const [errors, setErrors] = useState<{ email?: string; role?: string }>({});

  const invite = useMutation({
    mutationFn: (body: { email: string; role: string }) =>
      apiJson<CreateInvitationResponse>("POST", "/api/invitations", body),
    onSuccess: async (created) => {
      await announceInvitation(created);
      setEmail("");
      setRole("sonographer");
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

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createInvitationRequest.safeParse({ email, role });
    if (!parsed.success) {
      const next: { email?: string; role?: string } = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as "email" | "role";
        next[key] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    invite.mutate(parsed.data);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setErrors({});
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
        <form onSubmit={submit} noValidate className="grid gap-4">
          <div className="grid gap-1.5">
            <Label htmlFor="invite-email">Email Address</Label>
            <Input
              id="invite-email"
              type="email"
              autoComplete="off"
              placeholder="colleague@clinic.com"
              value={email}
              aria-invalid={errors.email ? true : undefined}
              aria-describedby={errors.email ? "invite-email-error" : undefined}
              onChange={(e) => setEmail(e.target.value)}
            />
            <FieldError id="invite-email-error">{errors.email}</FieldError>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="invite-role">Role</Label>
            <Select
              id="invite-role"
              value={role}
              aria-invalid={errors.role ? true : undefined}
              aria-describedby={errors.role ? "invite-role-error" : undefined}
              onChange={(e) => setRole(e.target.value)}
            >
              <option value="sonographer">Sonographer</option>
              <option value="physician">Physician (reads, edits and signs reports)</option>
              <option value="admin">Admin</option>
            </Select>
            <FieldError id="invite-role-error">{errors.role}</FieldError>
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

import { useState } from "react";
import type { StaffPasswordResetResponse } from "../../../../domain/contracts/auth";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { Input, Label } from "../../components/ui/input";
import { showTime } from "../../lib/dates";

/**
 * A reset link issued from the Staff page on a server without e-mail: shown until the admin closes it (not a
 * toast that vanishes), with a copy button. Only its hash is stored, so it cannot be shown again.
 */
export function PasswordResetLinkDialog({
  issued,
  onClose,
}: {
  issued: StaffPasswordResetResponse | null;
  onClose: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const url = issued?.resetUrl ?? "";
  return (
    <Dialog
      open={issued !== null}
      onOpenChange={(open) => {
        if (!open) {
          setCopied(false);
          onClose();
        }
      }}
    >
      <DialogContent
        title="Password reset link"
        description={
          issued
            ? `No e-mail was sent (this server has no e-mail set up): send this link to ${issued.email} yourself. It works once, until ${showTime(issued.expiresAt)}.`
            : ""
        }
      >
        <div className="grid gap-3">
          <Label htmlFor="reset-link">Link</Label>
          <Input
            id="reset-link"
            readOnly
            value={url}
            className="font-mono text-xs"
            onFocus={(e) => e.target.select()}
          />
          <div className="flex flex-wrap justify-end gap-2">
            <Button
              variant="outline"
              onClick={async () => {
                try {
                  await navigator.clipboard.writeText(url);
                  setCopied(true);
                } catch {
                  document.getElementById("reset-link")?.focus(); // no clipboard: the link is selected to copy
                }
              }}
            >
              {copied ? "Copied" : "Copy link"}
            </Button>
            <Button onClick={onClose}>Done</Button>
          </div>
          <p role="status" className="sr-only">
            {copied ? "The link was copied to your clipboard." : ""}
          </p>
        </div>
      </DialogContent>
    </Dialog>
  );
}

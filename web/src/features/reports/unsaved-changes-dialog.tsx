import * as AlertDialogPrimitive from "@radix-ui/react-alert-dialog";
import { Button } from "../../components/ui/button";
import { overlay, panel } from "../../components/ui/dialog";
import { useReturnFocus } from "../../components/ui/use-return-focus";
import { cn } from "../../lib/cn";

/**
 * The question before unsaved edits are lost. Keep editing is the safe default (it takes the focus and
 * Escape means it); Save changes keeps the edits and then carries on.
 */
export function UnsavedChangesDialog({
  open,
  saving,
  onKeepEditing,
  onDiscard,
  onSave,
}: {
  open: boolean;
  saving: boolean;
  onKeepEditing: () => void;
  onDiscard: () => void;
  onSave: () => void;
}) {
  const returnFocus = useReturnFocus();
  return (
    <AlertDialogPrimitive.Root open={open} onOpenChange={(next) => (next ? null : onKeepEditing())}>
      <AlertDialogPrimitive.Portal>
        <AlertDialogPrimitive.Overlay className={overlay} />
        <AlertDialogPrimitive.Content {...returnFocus} className={cn(panel, "max-w-lg")}>
          <AlertDialogPrimitive.Title className="text-lg font-semibold text-slate-900">
            Unsaved changes
          </AlertDialogPrimitive.Title>
          <AlertDialogPrimitive.Description className="mt-2 text-sm text-slate-700">
            You have changed this report without saving. Save the changes before you go on, or discard them?
          </AlertDialogPrimitive.Description>
          <div className="mt-6 flex flex-wrap justify-end gap-2">
            <AlertDialogPrimitive.Cancel asChild>
              <Button variant="outline">Keep editing</Button>
            </AlertDialogPrimitive.Cancel>
            <Button variant="outline" className="text-red-800" onClick={onDiscard} disabled={saving}>
              Discard changes
            </Button>
            <Button onClick={onSave} disabled={saving}>
              {saving ? "Saving..." : "Save changes"}
            </Button>
          </div>
        </AlertDialogPrimitive.Content>
      </AlertDialogPrimitive.Portal>
    </AlertDialogPrimitive.Root>
  );
}

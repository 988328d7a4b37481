import { Pencil, Trash2 } from "lucide-react";
import { Button } from "./button";

/** The card actions of every list screen; the label names the item for screen readers. */
export function EditButton({ name, onClick }: { name: string; onClick: () => void }) {
  return (
    <Button variant="outline" size="sm" onClick={onClick} aria-label={`Edit ${name}`}>
      <Pencil className="h-4 w-4" aria-hidden />
      Edit
    </Button>
  );
}

export function DeleteButton({ name, onClick }: { name: string; onClick: () => void }) {
  return (
    <Button variant="outline" size="sm" onClick={onClick} aria-label={`Delete ${name}`}>
      <Trash2 className="h-4 w-4 text-red-700" aria-hidden />
      Delete
    </Button>
  );
}

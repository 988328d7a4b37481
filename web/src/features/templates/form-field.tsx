import type { ReactNode } from "react";
import { FieldError, Label } from "../../components/ui/input";

/** A labelled group of form controls. */
export function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-4">
      <legend className="px-1 text-sm font-semibold text-slate-900">{title}</legend>
      {children}
    </fieldset>
  );
}

/** The id of a field's error text, for the control's aria-describedby. */
export const errorId = (htmlFor: string) => `${htmlFor}-error`;

/** The attributes that tie a control to its error text (none while it has no error). */
export const invalidProps = (htmlFor: string, error: string | undefined) =>
  error ? { "aria-invalid": true, "aria-describedby": errorId(htmlFor) } : {};

export function Field({
  label,
  htmlFor,
  required,
  error,
  children,
}: {
  label: string;
  htmlFor: string;
  required?: boolean;
  /** The control's error text, shown under it (pass invalidProps to the control too). */
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className="space-y-1.5">
      <Label htmlFor={htmlFor}>
        {label}
        {required ? <span aria-hidden> *</span> : null}
      </Label>
      {children}
      <FieldError id={errorId(htmlFor)}>{error}</FieldError>
    </div>
  );
}

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { z } from "zod";
import { registerViaInvitationRequest } from "../../../../domain/contracts/invitations";
import { Button } from "../../components/ui/button";
import { FieldError, Input, Label } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { apiJson, errorMessage } from "../../lib/api";

const formSchema = registerViaInvitationRequest
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { message: "Passwords do not match", path: ["confirmPassword"] });

type Field = "firstName" | "lastName" | "password" | "confirmPassword";

const fields: Array<{ name: Field; label: string; type?: string; autoComplete: string }> = [
  { name: "firstName", label: "First Name", autoComplete: "given-name" },
  { name: "lastName", label: "Last Name", autoComplete: "family-name" },
  { name: "password", label: "Password", type: "password", autoComplete: "new-password" },
  { name: "confirmPassword", label: "Confirm Password", type: "password", autoComplete: "new-password" },
];

/** For a person without an account: creates one for the invited e-mail, signs in and joins the clinic. */
export function CreateAccountForm({
  token,
  email,
  onJoined,
}: {
  token: string;
  email: string;
  onJoined: (clinicName: string) => void;
}) {
  const [values, setValues] = useState<Record<Field, string>>({
    firstName: "",
    lastName: "",
    password: "",
    confirmPassword: "",
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const register = useMutation({
    mutationFn: (body: z.infer<typeof registerViaInvitationRequest>) =>
      apiJson<{ clinicName: string }>("POST", `/api/invitations/${token}/register`, body),
    onSuccess: (result) => onJoined(result.clinicName),
    onError: (error) =>
      toast({
        title: "Failed to Accept Invitation",
        description: errorMessage(error, "Please try again"),
        variant: "destructive",
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = formSchema.safeParse(values);
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as Field] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    const { confirmPassword: _confirm, ...body } = parsed.data;
    register.mutate(body);
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2">
      <div className="grid gap-1.5 sm:col-span-2">
        <Label htmlFor="join-email">Email Address</Label>
        <Input id="join-email" type="email" value={email} readOnly aria-describedby="join-email-help" />
        <p id="join-email-help" className="text-xs text-slate-700">
          The invitation is for this address; you sign in with it.
        </p>
      </div>
      {fields.map((f) => {
        const id = `join-${f.name}`;
        const error = errors[f.name];
        return (
          <div key={f.name} className="grid gap-1.5">
            <Label htmlFor={id}>{f.label}</Label>
            <Input
              id={id}
              type={f.type ?? "text"}
              autoComplete={f.autoComplete}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              value={values[f.name]}
              onChange={(e) => {
                setValues((v) => ({ ...v, [f.name]: e.target.value }));
                if (error) setErrors((prev) => ({ ...prev, [f.name]: undefined }));
              }}
            />
            <FieldError id={`${id}-error`}>{error}</FieldError>
          </div>
        );
      })}
      <p className="text-xs text-slate-700 sm:col-span-2">Passwords need at least 12 characters.</p>
      <Button type="submit" className="sm:col-span-2" disabled={register.isPending}>
        {register.isPending ? "Creating account..." : "Create Account and Join"}
      </Button>
    </form>
  );
}

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { registeredViaInvitation, registerViaInvitationRequest } from "../../../../domain/contracts/invitations";
import { Button } from "../../components/ui/button";
import { FieldError, Input, Label } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { api, errorMessage } from "../../lib/api";

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
  // The server's request contract plus the repeated password.
  const form = useForm<Record<Field, string>, unknown, z.output<typeof formSchema>>({
    resolver: zodResolver(formSchema),
    defaultValues: { firstName: "", lastName: "", password: "", confirmPassword: "" },
  });
  const { errors } = form.formState;
  const register = useMutation({
    mutationFn: (body: z.input<typeof registerViaInvitationRequest>) =>
      api.send("POST", `/api/invitations/${token}/register`, body, registeredViaInvitation),
    onSuccess: (result) => onJoined(result.clinicName),
    onError: (error) =>
      toast({
        title: "Failed to Accept Invitation",
        description: errorMessage(error, "Please try again"),
        variant: "destructive",
      }),
  });

  return (
    <form
      onSubmit={form.handleSubmit(({ confirmPassword: _confirm, ...body }) => register.mutate(body))}
      noValidate
      className="grid gap-4 sm:grid-cols-2"
    >
      <div className="grid gap-1.5 sm:col-span-2">
        <Label htmlFor="join-email">Email Address</Label>
        <Input id="join-email" type="email" value={email} readOnly aria-describedby="join-email-help" />
        <p id="join-email-help" className="text-xs text-slate-700">
          The invitation is for this address; you sign in with it.
        </p>
      </div>
      {fields.map((f) => {
        const id = `join-${f.name}`;
        const error = errors[f.name]?.message;
        return (
          <div key={f.name} className="grid gap-1.5">
            <Label htmlFor={id}>{f.label}</Label>
            <Input
              id={id}
              type={f.type ?? "text"}
              autoComplete={f.autoComplete}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              {...form.register(f.name)}
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

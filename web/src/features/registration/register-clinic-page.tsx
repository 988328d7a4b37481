import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { CheckCircle2, MailCheck } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import {
  type RegistrationAccepted,
  type RegistrationComplete,
  registerClinicRequest,
  registrationAccepted,
  registrationComplete,
} from "../../../../domain/contracts/auth";
import { BrandMark } from "../../app/brand-mark";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { FieldError, Input, Label } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { ApiError, api, errorMessage } from "../../lib/api";
import { showDateTime } from "../../lib/dates";

const formSchema = registerClinicRequest
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { message: "Passwords do not match", path: ["confirmPassword"] });

/** 201 (registered now) or 202 (a link was mailed), told apart by status. */
const registrationAnswer = z.discriminatedUnion("status", [registrationComplete, registrationAccepted]);

type Values = Record<
  | "name"
  | "email"
  | "phone"
  | "address"
  | "city"
  | "state"
  | "zipCode"
  | "adminFirstName"
  | "adminLastName"
  | "password"
  | "confirmPassword",
  string
>;
type Field = keyof Values;

const empty: Values = {
  name: "",
  email: "",
  phone: "",
  address: "",
  city: "",
  state: "",
  zipCode: "",
  adminFirstName: "",
  adminLastName: "",
  password: "",
  confirmPassword: "",
};

const fields: Array<{
  name: Field;
  label: string;
  required?: boolean;
  type?: string;
  autoComplete?: string;
  wide?: boolean;
  maxLength?: number;
}> = [
  { name: "name", label: "Clinic Name", required: true, autoComplete: "organization", wide: true, maxLength: 255 },
  { name: "email", label: "Email Address", required: true, type: "email", autoComplete: "email", maxLength: 255 },
  { name: "phone", label: "Phone Number", type: "tel", autoComplete: "tel", maxLength: 50 },
  { name: "address", label: "Street Address", autoComplete: "street-address", wide: true, maxLength: 1000 },
  { name: "city", label: "City", autoComplete: "address-level2", maxLength: 100 },
  { name: "state", label: "State", autoComplete: "address-level1", maxLength: 50 },
  { name: "zipCode", label: "ZIP Code", autoComplete: "postal-code", maxLength: 20 },
];

const adminFields: typeof fields = [
  { name: "adminFirstName", label: "First Name", required: true, autoComplete: "given-name", maxLength: 100 },
  { name: "adminLastName", label: "Last Name", required: true, autoComplete: "family-name", maxLength: 100 },
  { name: "password", label: "Password", required: true, type: "password", autoComplete: "new-password" },
  {
    name: "confirmPassword",
    label: "Confirm Password",
    required: true,
    type: "password",
    autoComplete: "new-password",
  },
];

export function RegisterClinicPage() {
  // The server's request contract plus the repeated password; the first field at fault gets the focus.
  const form = useForm<z.input<typeof formSchema>, unknown, z.output<typeof formSchema>>({
    resolver: zodResolver(formSchema),
    defaultValues: empty,
  });
  const { errors } = form.formState;
  const [done, setDone] = useState<RegistrationAccepted | RegistrationComplete | null>(null);

  // The answer is the same whether or not the address has an account (decision 018): the mail says which.
  const register = useMutation({
    mutationFn: (body: z.input<typeof registerClinicRequest>) =>
      api.send("POST", "/api/clinics/register", body, registrationAnswer),
    onSuccess: (answer) => {
      const title = answer.status === "registered" ? "Registration Successful" : "Check your e-mail";
      toast({ title, description: answer.message, variant: "success" });
      setDone(answer);
    },
    onError: (error) => {
      const message = errorMessage(error, "Failed to register clinic. Please try again.");
      if (error instanceof ApiError && error.status === 409) form.setError("email", { message });
      toast({ title: "Registration Failed", description: message, variant: "destructive" });
    },
  });

  const renderField = (f: (typeof fields)[number]) => {
    const id = `reg-${f.name}`;
    const error = errors[f.name]?.message;
    return (
      <div key={f.name} className={f.wide ? "grid gap-1.5 sm:col-span-2" : "grid gap-1.5"}>
        <Label htmlFor={id}>
          {f.label}
          {f.required ? (
            <span className="text-red-700" aria-hidden>
              {" "}
              *
            </span>
          ) : null}
        </Label>
        <Input
          id={id}
          type={f.type ?? "text"}
          autoComplete={f.autoComplete}
          maxLength={f.maxLength}
          required={f.required}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : f.name === "password" ? "reg-password-help" : undefined}
          {...form.register(f.name)}
        />
        {f.name === "password" && !error ? (
          <p id="reg-password-help" className="text-xs text-slate-700">
            At least 12 characters.
          </p>
        ) : null}
        <FieldError id={`${id}-error`}>{error}</FieldError>
      </div>
    );
  };

  return (
    <main className="min-h-screen bg-slate-50 px-4 py-8 sm:py-12">
      <div className="mx-auto max-w-2xl">
        <a href="/" className="mb-6 inline-flex items-center gap-2 text-sm font-medium text-brand-700 hover:underline">
          <BrandMark className="h-6 w-6" /> Back to Home
        </a>
        {done?.status === "registered" ? (
          <Card>
            <CardContent className="flex flex-col items-center gap-4 p-8 text-center">
              <CheckCircle2 className="h-12 w-12 text-green-700" aria-hidden />
              <h1 className="text-2xl font-semibold text-slate-900">Registration Complete!</h1>
              <p className="max-w-md text-slate-700">{done.message}</p>
              <p className="max-w-md text-sm text-slate-700">
                If <strong>{done.email}</strong> already had an account, no new clinic was created and a message was
                sent to that address: sign in with its existing password.
              </p>
              <div className="flex flex-wrap justify-center gap-3">
                <Button asChild>
                  <a href="/api/login">Log In to Dashboard</a>
                </Button>
                <Button asChild variant="outline">
                  <a href="/">Back to Home</a>
                </Button>
              </div>
            </CardContent>
          </Card>
        ) : done ? (
          <Card>
            <CardContent className="flex flex-col items-center gap-4 p-8 text-center">
              <MailCheck className="h-12 w-12 text-brand-700" aria-hidden />
              <h1 className="text-2xl font-semibold text-slate-900">Check your e-mail</h1>
              <p className="max-w-md text-slate-700">
                We sent a message to <strong>{done.email}</strong>. Open the link in it to finish registering: it asks
                for the password you just chose, works once, and expires on {showDateTime(done.expiresAt)}. Nothing is
                created until then.
              </p>
              <p className="max-w-md text-slate-700">
                If this address already has an account, the message says so and how to sign in instead.
              </p>
              {done.delivery === "outbox" ? (
                <p className="max-w-md rounded-md border border-amber-300 bg-amber-50 p-3 text-left text-sm text-slate-800">
                  This server does not send e-mail yet. Its operator finds the message in the <code>outbox</code> folder
                  of the server's data directory (the server console names the file) and passes the link on.
                </p>
              ) : null}
              <div className="flex flex-wrap justify-center gap-3">
                <Button asChild variant="outline">
                  <a href="/">Back to Home</a>
                </Button>
              </div>
            </CardContent>
          </Card>
        ) : (
          <Card>
            <CardHeader>
              <CardTitle>
                <span className="text-2xl">Register Your Clinic</span>
              </CardTitle>
              <p className="text-sm text-slate-700">
                Create your clinic's account. You become its first admin and can invite your staff afterwards.
              </p>
            </CardHeader>
            <CardContent>
              <form
                onSubmit={form.handleSubmit(({ confirmPassword: _confirm, ...body }) => register.mutate(body))}
                noValidate
                className="grid gap-6"
              >
                <fieldset className="grid gap-4 sm:grid-cols-2">
                  <legend className="mb-2 text-base font-semibold text-slate-900">Clinic information</legend>
                  {fields.map(renderField)}
                </fieldset>
                <fieldset className="grid gap-4 sm:grid-cols-2">
                  <legend className="mb-2 text-base font-semibold text-slate-900">Your admin account</legend>
                  {adminFields.map(renderField)}
                </fieldset>
                <p className="text-xs text-slate-700">
                  Fields marked <span className="text-red-700">*</span> are required. You sign in with the clinic's
                  email address.
                </p>
                <Button type="submit" disabled={register.isPending}>
                  {register.isPending ? "Registering..." : "Register Clinic"}
                </Button>
              </form>
              <p className="mt-6 text-center text-sm text-slate-700">
                Already have an account?{" "}
                <a href="/api/login" className="font-medium text-brand-700 underline">
                  Log in here
                </a>
              </p>
            </CardContent>
          </Card>
        )}
      </div>
    </main>
  );
}

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { CheckCircle2, MailCheck } from "lucide-react";
import type { ReactNode } from "react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import {
  forgotPasswordAccepted,
  forgotPasswordRequest,
  passwordResetDone,
  password as passwordRule,
} from "../../../../domain/contracts/auth";
import { BrandMark } from "../../app/brand-mark";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader } from "../../components/ui/card";
import { FieldError, Input, Label } from "../../components/ui/input";
import { api, errorMessage } from "../../lib/api";

function AuthCard({ title, intro, children }: { title: string; intro?: string; children: ReactNode }) {
  return (
    <main className="min-h-screen bg-slate-50 px-4 py-8 sm:py-12">
      <div className="mx-auto max-w-md">
        <a
          href="/login"
          className="mb-6 inline-flex items-center gap-2 text-sm font-medium text-brand-700 hover:underline"
        >
          <BrandMark className="h-6 w-6" /> Back to sign in
        </a>
        <Card>
          <CardHeader>
            <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
            {intro ? <p className="text-sm text-slate-700">{intro}</p> : null}
          </CardHeader>
          <CardContent>{children}</CardContent>
        </Card>
      </div>
    </main>
  );
}

/** /forgot-password: asks for a reset link; the answer is the same whether or not the address has an account. */
export function ForgotPasswordPage() {
  const form = useForm<z.input<typeof forgotPasswordRequest>, unknown, z.output<typeof forgotPasswordRequest>>({
    resolver: zodResolver(forgotPasswordRequest),
    defaultValues: { email: "" },
  });
  const send = useMutation({
    mutationFn: (body: z.output<typeof forgotPasswordRequest>) =>
      api.send("POST", "/api/auth/password-reset", body, forgotPasswordAccepted),
  });
  const { errors } = form.formState;

  if (send.isSuccess) {
    return (
      <AuthCard title="Check your e-mail">
        <div className="flex flex-col items-center gap-4 text-center" role="status">
          <MailCheck className="h-12 w-12 text-green-700" aria-hidden />
          <p className="text-slate-800">{send.data.message}.</p>
          <p className="text-sm text-slate-700">
            The link works once, for one hour.{" "}
            {send.data.delivery === "outbox"
              ? "This server sends no e-mail: if nothing arrives, ask an admin of your clinic for a reset link (Staff page)."
              : "If nothing arrives, check your spam folder or ask an admin of your clinic for a reset link."}
          </p>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Forgot your password?"
      intro="Enter the e-mail address you sign in with. We will send a link to choose a new password."
    >
      <form className="grid gap-4" noValidate onSubmit={form.handleSubmit((values) => send.mutate(values))}>
        <div className="grid gap-1.5">
          <Label htmlFor="forgot-email">Email Address</Label>
          <Input
            id="forgot-email"
            type="email"
            autoComplete="username"
            aria-invalid={Boolean(errors.email)}
            aria-describedby={errors.email ? "forgot-email-error" : undefined}
            {...form.register("email")}
          />
          <FieldError id="forgot-email-error">{errors.email?.message}</FieldError>
        </div>
        <FieldError>
          {send.isError ? errorMessage(send.error, "The link could not be sent. Please try again.") : undefined}
        </FieldError>
        <Button type="submit" disabled={send.isPending}>
          {send.isPending ? "Sending..." : "Send reset link"}
        </Button>
      </form>
    </AuthCard>
  );
}

/** The new password twice: the server's rule for the password, and the two must match. */
const newPasswordForm = z
  .object({ password: passwordRule, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { message: "The two passwords are not the same", path: ["confirm"] });
type NewPasswordValues = z.infer<typeof newPasswordForm>;

/** The token from the link's fragment (#token=...): it never travels to a server log. */
const tokenFromHash = () => new URLSearchParams(window.location.hash.slice(1)).get("token") ?? "";

/** /reset-password#token=...: the page the reset link opens. */
export function ResetPasswordPage() {
  const [token] = useState(tokenFromHash);
  const form = useForm<NewPasswordValues>({
    resolver: zodResolver(newPasswordForm),
    defaultValues: { password: "", confirm: "" },
  });
  const reset = useMutation({
    mutationFn: (values: NewPasswordValues) =>
      api.send("POST", "/api/auth/password-reset/complete", { token, password: values.password }, passwordResetDone),
  });
  const { errors } = form.formState;

  if (reset.isSuccess) {
    return (
      <AuthCard title="Password changed">
        <div className="flex flex-col items-center gap-4 text-center" role="status">
          <CheckCircle2 className="h-12 w-12 text-green-700" aria-hidden />
          <p className="text-slate-800">
            The password of {reset.data.email} is changed, and every session of the account has been signed out.
          </p>
          {/* A full navigation: the app starts again signed out. */}
          <Button asChild>
            <a href="/login">Sign in</a>
          </Button>
        </div>
      </AuthCard>
    );
  }

  if (!token) {
    return (
      <AuthCard title="Choose a new password">
        <p role="alert" className="text-slate-800">
          This link is incomplete. Open the whole link, or{" "}
          <a href="/forgot-password" className="font-medium text-brand-700 underline">
            ask for a new one
          </a>
          .
        </p>
      </AuthCard>
    );
  }

  const field = (name: "password" | "confirm", label: string, hint?: string) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`reset-${name}`}>{label}</Label>
      <Input
        id={`reset-${name}`}
        type="password"
        autoComplete="new-password"
        aria-invalid={Boolean(errors[name])}
        aria-describedby={errors[name] ? `reset-${name}-error` : hint ? `reset-${name}-hint` : undefined}
        {...form.register(name)}
      />
      {hint ? (
        <p id={`reset-${name}-hint`} className="text-xs text-slate-700">
          {hint}
        </p>
      ) : null}
      <FieldError id={`reset-${name}-error`}>{errors[name]?.message}</FieldError>
    </div>
  );

  return (
    <AuthCard
      title="Choose a new password"
      intro="Choosing a new password signs you out on every device, so sign in again afterwards."
    >
      <form className="grid gap-4" noValidate onSubmit={form.handleSubmit((values) => reset.mutate(values))}>
        {field("password", "New password", "At least 12 characters.")}
        {field("confirm", "New password again")}
        {reset.isError ? (
          <p role="alert" className="text-sm text-red-700">
            {errorMessage(reset.error, "The password could not be changed. Please try again.")}{" "}
            <a href="/forgot-password" className="font-medium text-brand-700 underline">
              Ask for a new link
            </a>
          </p>
        ) : null}
        <Button type="submit" disabled={reset.isPending}>
          {reset.isPending ? "Saving..." : "Set new password"}
        </Button>
      </form>
    </AuthCard>
  );
}

import { z } from "zod";

/** POST /api/auth/reauth: exactly one of the account's password or a current authenticator code. */
export const reauthRequest = z
  .object({
    password: z.string().min(1, "Enter your password").max(200).optional(),
    totp: z.string().trim().min(1, "Enter the code from your authenticator app").max(20).optional(),
  })
  .refine((body) => (body.password === undefined) !== (body.totp === undefined), {
    message: "Confirm with either your password or your authenticator code",
  });
export type ReauthRequest = z.input<typeof reauthRequest>;

/** How this account can re-authenticate, and until when the last re-authentication covers signatures. */
export const reauthStatus = z.object({
  /** ISO time; null when there is no re-authentication within the last 5 minutes. */
  reauthenticatedUntil: z.iso.datetime().nullable(),
  methods: z.object({ password: z.boolean(), totp: z.boolean(), oidc: z.boolean() }),
});
export type ReauthStatus = z.infer<typeof reauthStatus>;

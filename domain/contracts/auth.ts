import { z } from "zod";

export const email = z.string().trim().toLowerCase().pipe(z.email("Please enter a valid email address").max(255));
export const password = z.string().min(12, "Password must be at least 12 characters").max(200);

export const loginRequest = z.object({
  email: z.string().trim().toLowerCase().max(255),
  password: z.string().max(200),
  totpCode: z.string().trim().max(20).optional(),
});

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .nullable()
    .transform((v) => v || null);

export const registerClinicRequest = z.object({
  name: z.string().trim().min(1, "Clinic name is required").max(255),
  email,
  phone: optionalText(50),
  address: optionalText(1000),
  city: optionalText(100),
  state: optionalText(50),
  zipCode: optionalText(20),
  adminFirstName: z.string().trim().min(1, "First name is required").max(100),
  adminLastName: z.string().trim().min(1, "Last name is required").max(100),
  password,
});
export type RegisterClinicRequest = z.infer<typeof registerClinicRequest>;

/** The words of the answer to every registration, whether or not the address already has an account. */
export const REGISTRATION_SENT_MESSAGE = "Check your e-mail to finish registering";
/** The spec's success text (part 2, toasts). */
export const REGISTRATION_COMPLETE_MESSAGE =
  "Your clinic has been registered successfully. You can now log in to access your dashboard.";

/**
 * POST /api/clinics/register answers 201 with this when the server has no e-mail to prove the address with
 * (decision 018): the same for every address. A new address has its clinic and admin now; a known one has
 * nothing new, and its owner is told by mail. Either way the next step is signing in.
 */
export const registrationComplete = z.object({
  email: z.string(),
  status: z.literal("registered"),
  delivery: z.enum(["email", "outbox"]),
  message: z.string(),
});
export type RegistrationComplete = z.infer<typeof registrationComplete>;

/**
 * POST /api/clinics/register answers 202 with this when e-mail proves the address (SMTP_URL set, or
 * REGISTRATION_EMAIL_PROOF=on), the same whether or not the address is registered
 * (decision 018): the clinic is created when the link mailed to the address is opened. `delivery` says where
 * the message went: "outbox" when the server sends no e-mail and its operator passes the link on.
 */
export const registrationAccepted = z.object({
  email: z.string(),
  status: z.literal("verification_sent"),
  delivery: z.enum(["email", "outbox"]),
  message: z.string(),
  /** When the mailed link stops working (ISO). */
  expiresAt: z.iso.datetime(),
});
export type RegistrationAccepted = z.infer<typeof registrationAccepted>;

/** POST /api/clinics/register/confirm: the mailed link's token and the password chosen when registering. */
export const confirmRegistrationRequest = z.object({
  token: z
    .string()
    .trim()
    .min(20, "This registration link is incomplete: open the whole link from the e-mail")
    .max(200),
  password: z.string().min(1, "Enter the password you chose when registering").max(200),
});

/** 201: the clinic and its admin exist now, and the admin is signed in. */
export const registrationConfirmed = z.object({ clinicId: z.number(), userId: z.string(), email: z.string() });

export const currentUser = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: z.string(),
  clinicId: z.number().nullable(),
  clinicName: z.string().nullable(),
  /** The clinic's locale, its report spelling setting: how the client writes dates (issue 29 item 6). */
  clinicLocale: z.enum(["en-US", "en-GB"]).optional(),
  isPlatformAdmin: z.boolean(),
  totpEnabled: z.boolean(),
});
export type CurrentUser = z.infer<typeof currentUser>;

/** A 6-digit authenticator code, or a recovery code (letters, digits, dashes). */
export const secondFactorCode = z.string().trim().min(6, "Enter the code from your authenticator app").max(20);

export const totpCodeRequest = z.object({ code: secondFactorCode });

export const totpSetupResponse = z.object({
  /** Base32 secret, for people who type it in instead of scanning. */
  secret: z.string(),
  otpauthUrl: z.string(),
  /** The QR code of otpauthUrl as a PNG data URL. */
  qrDataUrl: z.string(),
});
export type TotpSetupResponse = z.infer<typeof totpSetupResponse>;

/** POST /api/auth/totp/disable. */
export const totpDisableResponse = z.object({ enabled: z.literal(false) });

export const totpEnableResponse = z.object({ recoveryCodes: z.array(z.string()) });
export type TotpEnableResponse = z.infer<typeof totpEnableResponse>;

export const totpStatusResponse = z.object({ enabled: z.boolean(), recoveryCodesLeft: z.number().int() });
export type TotpStatusResponse = z.infer<typeof totpStatusResponse>;

/** POST /api/auth/password-reset: the address to send a reset link to. */
export const forgotPasswordRequest = z.object({ email });

/** The words of the answer to every reset request, whether or not the address has an account. */
export const PASSWORD_RESET_SENT_MESSAGE =
  "If this address has an active Sonoscribe account, a link to choose a new password is on its way";

/**
 * 202, the same whatever the address (no account enumeration). `delivery` is the server's, not the account's:
 * "outbox" when the server sends no e-mail, and then a clinic admin can issue the link from the Staff page.
 */
export const forgotPasswordAccepted = z.object({
  status: z.literal("reset_requested"),
  delivery: z.enum(["email", "outbox"]),
  message: z.string(),
});
export type ForgotPasswordAccepted = z.infer<typeof forgotPasswordAccepted>;

/** POST /api/auth/password-reset/complete: the link's token and the new password (the same rules as anywhere). */
export const resetPasswordRequest = z.object({
  token: z.string().trim().min(20, "This reset link is incomplete: open the whole link").max(200),
  password,
});

/** 200 of POST /api/auth/password-reset/complete: whose password changed. */
export const passwordResetDone = z.object({ email: z.string() });

/** GET /api/auth/local-draft-key: this user's key (base64url) for the edits the browser keeps encrypted. */
export const localDraftKey = z.object({ key: z.string() });

/** POST /api/staff/:id/password-reset: e-mailed when the server sends e-mail, else the link to pass on. */
export const staffPasswordResetResponse = z.object({
  email: z.string(),
  expiresAt: z.iso.datetime(),
  emailed: z.boolean(),
  /** Null when it was e-mailed: then only the member's mailbox holds it. */
  resetUrl: z.string().nullable(),
});
export type StaffPasswordResetResponse = z.infer<typeof staffPasswordResetResponse>;

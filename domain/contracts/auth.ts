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

export const currentUser = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: z.string(),
  clinicId: z.number().nullable(),
  clinicName: z.string().nullable(),
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

export const totpEnableResponse = z.object({ recoveryCodes: z.array(z.string()) });
export type TotpEnableResponse = z.infer<typeof totpEnableResponse>;

export const totpStatusResponse = z.object({ enabled: z.boolean(), recoveryCodesLeft: z.number().int() });
export type TotpStatusResponse = z.infer<typeof totpStatusResponse>;
